/** The memo of bounded memory behind the trace readers' and shadow's sharing (src/text/bounded-map.ts). */
import { describe, expect, it } from "vitest";
import { createBoundedMap, createPartsInterner } from "../src/text/bounded-map.js";

describe("createBoundedMap", () => {
  it("remembers the last size to 2 × size keys, a key found again counting as recent", () => {
    const map = createBoundedMap<number, string>(3);
    // 0–2 fill the first generation, which becomes the older one.
    for (let i = 0; i < 3; i++) map.set(i, `v${i}`);
    // 0 found again joins the newer with 3 and 4, which fills it: it becomes the older, and the
    // keys no one asked for again (1, 2) are gone.
    expect(map.get(0)).toBe("v0");
    map.set(3, "v3");
    map.set(4, "v4");
    expect(map.get(1)).toBeUndefined();
    expect(map.get(2)).toBeUndefined();
    expect([0, 3, 4].map((key) => map.get(key))).toEqual(["v0", "v3", "v4"]);
  });

  it("turns a generation over once what its entries weigh reaches the weight, however few they are", () => {
    const map = createBoundedMap<string, string>(100, 10);
    map.set("a", "A", 6);
    map.set("b", "B", 5);
    map.set("c", "C", 6);
    expect(map.get("a")).toBe("A");
    // a (found again) and c weigh 12: that generation is the older now, b is gone.
    map.set("d", "D", 1);
    expect(map.get("b")).toBeUndefined();
    expect(["a", "c", "d"].map((key) => map.get(key))).toEqual(["A", "C", "D"]);
  });
});

describe("createPartsInterner", () => {
  it("holds one object for all whose parts are the same objects, texts and numbers, and forgets the rest in time", () => {
    const shapes = createPartsInterner<{ file: string; list: string[]; n: number | null }>(8);
    const list = ["a"];
    const first = { file: "x.jsonl", list, n: 1 };
    expect(shapes(first)).toBe(first);
    expect(shapes({ file: "x.jsonl", list, n: 1 })).toBe(first);
    // An equal list that is another object is another part; so are another text and number.
    for (const other of [
      { file: "x.jsonl", list: ["a"], n: 1 },
      { file: "y.jsonl", list, n: 1 },
      { file: "x.jsonl", list, n: null },
    ])
      expect(shapes(other)).toBe(other);
    // Past its size the first is forgotten: an alike object is held from then on in its place.
    for (let n = 10; n < 40; n++) shapes({ file: "x.jsonl", list, n });
    const again = { file: "x.jsonl", list, n: 1 };
    expect(shapes(again)).toBe(again);
    expect(shapes({ file: "x.jsonl", list, n: 1 })).toBe(again);
  });
});
