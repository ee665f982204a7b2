/** The memo of bounded memory behind the trace readers' and shadow's sharing (src/text/bounded-map.ts). */
import { describe, expect, it } from "vitest";
import { createBoundedMap } from "../src/text/bounded-map.js";

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
