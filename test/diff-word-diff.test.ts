import { describe, expect, it } from "vitest";
import type { WordSegment } from "../src/types/diff.js";
import { diffWords, plainWordDiff } from "../src/diff/word-diff.js";

const spell = (segments: WordSegment[], keep: WordSegment["op"]): string =>
  segments
    .filter((s) => s.op === "same" || s.op === keep)
    .map((s) => s.text)
    .join("");

/** git --word-diff style, for readable expectations. */
const show = plainWordDiff;

describe("diffWords", () => {
  it("marks a replaced word and keeps the rest", () => {
    expect(show(diffWords("Search orders.", "Find orders."))).toBe("[-Search-]{+Find+} orders.");
  });

  it("keeps an insertion in one stretch even when a word of it recurs later", () => {
    const before = "Search orders.\nUse when: The user describes an order without its id.";
    const after =
      "Find orders.\nUse when: The user describes an order without its id, e.g. by product or date.\nAvoid when: The user gives an exact order id.";
    expect(show(diffWords(before, after))).toBe(
      "[-Search-]{+Find+} orders.\nUse when: The user describes an order without its id{+, e.g. by product or date+}.\n{+Avoid when: The user gives an exact order id.+}",
    );
  });

  it("puts removals before additions and merges runs", () => {
    expect(diffWords("a b c d", "a x y d")).toEqual([
      { op: "same", text: "a" },
      { op: "removed", text: " b c" },
      { op: "added", text: " x y" },
      { op: "same", text: " d" },
    ]);
  });

  it("handles empty texts (an added or removed tool)", () => {
    expect(diffWords("", "New tool.")).toEqual([{ op: "added", text: "New tool." }]);
    expect(diffWords("Old tool.", "")).toEqual([{ op: "removed", text: "Old tool." }]);
    expect(diffWords("", "")).toEqual([]);
  });

  it("spells both texts back exactly: same + removed is the old text, same + added the new", () => {
    const pairs: [string, string][] = [
      [
        "Return one order.\nUse when: exact id.",
        "Return one known order.\nAvoid when: a name only.",
      ],
      ["x y z", "z y x"],
      ["naïve café — ok", "naïve bistro — ok!"],
      ["one\ntwo\nthree", "one\nthree\nfour"],
    ];
    for (const [before, after] of pairs) {
      const segments = diffWords(before, after);
      expect(spell(segments, "removed")).toBe(before);
      expect(spell(segments, "added")).toBe(after);
    }
  });

  it("falls back to one removal and one addition for very long texts", () => {
    const long = Array.from({ length: 3100 }, (_, i) => `w${i}`).join(" ");
    const segments = diffWords(long, `${long} more`);
    expect(segments.map((s) => s.op)).toEqual(["removed", "added"]);
  });
});
