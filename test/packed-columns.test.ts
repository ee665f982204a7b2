/** Columns held outside the heap (src/text/packed-columns.ts): what is pushed reads back as it was. */
import { describe, expect, it } from "vitest";
import { IdColumn, NumberColumn, TextColumn } from "../src/text/packed-columns.js";
import { sortedPlaces } from "../src/text/sorted-places.js";
import { TextIndex } from "../src/text/text-index.js";
import { compareKeys } from "../src/text/canonical-json.js";
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

describe("an id column", () => {
  it("reads back hex ids as pushed, and every id once one is not hex of their length", () => {
    const rand = seededRandom(5);
    const hex = (digits: number) =>
      Array.from({ length: digits }, () => Math.floor(rand() * 16).toString(16)).join("");
    for (const odd of [
      null,
      "",
      "ABCDEF0123456789",
      "0123456789abcde",
      "0123456789abcdef01",
      "span-1",
    ]) {
      const column = new IdColumn();
      const ids: (string | null)[] = [];
      for (let i = 0; i < 150_000; i++) ids.push(hex(16));
      ids.push(odd);
      for (let i = 0; i < 1000; i++) ids.push(hex(16));
      for (const [i, id] of ids.entries()) {
        column.push(id);
        // Read back as it grows, and after it turns into text.
        if (i % 9973 === 0 && column.at(i) !== id) expect(column.at(i)).toBe(id);
      }
      expect(column.length).toBe(ids.length);
      for (let i = 0; i < ids.length; i++)
        if (column.at(i) !== ids[i]) expect(column.at(i)).toBe(ids[i]);
      column.clear();
      expect(column.length).toBe(0);
      column.push("abcd");
      column.push("x");
      expect([column.at(0), column.at(1)]).toEqual(["abcd", "x"]);
    }
  });
});

describe("texts let go as they are read for the last time", () => {
  it("free a buffer once all its texts are let go, the others still read", () => {
    const texts = Array.from({ length: 300_000 }, (_, i) => `goal of turn ${i}`);
    const column = new TextColumn();
    const ids = new IdColumn();
    for (const [i, text] of texts.entries()) {
      column.push(i % 1000 === 0 ? null : text);
      ids.push(i.toString(16).padStart(16, "0"));
    }
    // The first 100,000 let go in reverse order: their buffers are freed, the rest read as pushed.
    for (let i = 99_999; i >= 0; i--) {
      column.release(i);
      ids.release(i);
    }
    expect(() => column.at(5)).toThrow(/let go/);
    expect(() => ids.at(5)).toThrow(/let go/);
    for (let i = 100_000; i < texts.length; i += 7) {
      expect(column.at(i)).toBe(i % 1000 === 0 ? null : texts[i]);
      expect(ids.at(i)).toBe(i.toString(16).padStart(16, "0"));
    }
    column.push("after");
    expect(column.at(texts.length)).toBe("after");
  });

  it("take a push after the buffer being filled was let go", () => {
    // Empty texts write no bytes: a buffer let go with no bytes written in it must not be written again.
    const column = new TextColumn();
    column.push("");
    column.release(0);
    column.push("");
    column.push("next");
    expect([column.at(1), column.at(2)]).toEqual(["", "next"]);
    const ids = new IdColumn();
    for (const id of ["0a", "0b", "0c"]) ids.push(id);
    for (let i = 0; i < 3; i++) ids.release(i);
    ids.push("0d");
    expect(ids.at(3)).toBe("0d");
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

describe("places sorted by their texts", () => {
  it("come in the order one sort of every text gives, ties in place order, across merged runs", () => {
    const rand = seededRandom(11);
    // 150,000 texts (three runs of 65,536), many repeated, some array-index keys (compareKeys).
    const texts = Array.from({ length: 150_000 }, () => {
      const n = Math.floor(rand() * 40_000);
      return rand() < 0.1 ? String(n) : `turn-${n.toString(36)}`;
    });
    const keep = (place: number) => place % 5 !== 0;
    const expected = texts
      .map((_, place) => place)
      .filter(keep)
      .sort((a, b) => compareKeys(texts[a], texts[b]) || a - b);
    const sorted = sortedPlaces(texts.length, (place) => texts[place], compareKeys, keep);
    expect(sorted.length).toBe(expected.length);
    expect(sorted.every((place, k) => place === expected[k])).toBe(true);
    expect(sortedPlaces(0, () => "", compareKeys)).toEqual(new Uint32Array(0));
  });
});
