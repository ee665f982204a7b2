/** Columns held outside the heap (src/text/packed-columns.ts): what is pushed reads back as it was. */
import { describe, expect, it } from "vitest";
import { NumberColumn, TextColumn, TextIndex } from "../src/text/packed-columns.js";
import { seededRandom } from "../src/text/seeded-random.js";

describe("a text column", () => {
  it("reads back every text as pushed: null, empty, multi-byte, and texts longer than a buffer", () => {
    const rand = seededRandom(3);
    const column = new TextColumn();
    const texts: (string | null)[] = [null, "", "é", "😀 turn", "x".repeat(5 << 20), "after"];
    for (let i = 0; i < 200_000; i++)
      texts.push(
        rand() < 0.05 ? null : `turn-${i.toString(16)}-${"ü".repeat(Math.floor(rand() * 40))}`,
      );
    texts.push("y".repeat(9 << 20), "last");
    for (const text of texts) column.push(text);
    expect(column.length).toBe(texts.length);
    for (let i = 0; i < texts.length; i++)
      if (column.at(i) !== texts[i]) expect(column.at(i)).toBe(texts[i]);
    column.clear();
    expect(column.length).toBe(0);
    column.push("again");
    expect(column.at(0)).toBe("again");
  });
});

describe("a number column", () => {
  it("grows as pushed, and hands over its values trimmed", () => {
    const column = new NumberColumn(new Float64Array(1024));
    for (let i = 0; i < 5000; i++) column.push(i / 3);
    column.set(7, NaN);
    const values = column.take();
    expect(values.length).toBe(5000);
    expect(values[4999]).toBe(4999 / 3);
    expect(values[7]).toBeNaN();
    expect(column.length).toBe(0);
  });
});

describe("a text index", () => {
  it("finds each text at its place, tells texts of one hash apart, and forgets what is removed", () => {
    const texts: string[] = [];
    const index = new TextIndex((place) => texts[place]);
    // The index holds places only: it reads a text back from `texts` to compare.
    for (let i = 0; i < 50_000; i++) {
      texts.push(`case-${i}`);
      index.add(texts[i], i);
    }
    for (let i = 0; i < 50_000; i += 7) expect(index.find(`case-${i}`)).toBe(i);
    expect(index.find("case-50000")).toBeUndefined();
    for (let i = 0; i < 50_000; i += 2) expect(index.remove(`case-${i}`)).toBe(i);
    expect(index.remove("case-0")).toBeUndefined();
    for (let i = 0; i < 50_000; i++)
      expect(index.find(`case-${i}`)).toBe(i % 2 === 0 ? undefined : i);
    // Added again after removal (a slot let go is used again), and more than it ever held.
    for (let i = 0; i < 100_000; i += 2) {
      texts[i] = `case-${i}`;
      index.add(texts[i], i);
    }
    for (let i = 0; i < 50_000; i++) expect(index.find(`case-${i}`)).toBe(i);
  });

  it("holds two texts whose hashes are equal as two", () => {
    // "costarring" and "liquid" collide under 32-bit FNV-1a.
    const texts = ["costarring", "liquid"];
    const index = new TextIndex((place) => texts[place]);
    index.add("costarring", 0);
    expect(index.find("liquid")).toBeUndefined();
    index.add("liquid", 1);
    expect([index.find("costarring"), index.find("liquid")]).toEqual([0, 1]);
    expect(index.remove("costarring")).toBe(0);
    expect(index.find("liquid")).toBe(1);
  });
});
