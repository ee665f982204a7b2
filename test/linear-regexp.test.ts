/**
 * A pattern's verdict (text/linear-regexp.ts linearPatternProblem) is RE2's, whether RE2 was
 * asked or, for a simple pattern, JavaScript alone: on random patterns built from the pieces the
 * shortcut accepts and from those it must refuse, every answer equals JavaScript-then-RE2's.
 */
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { compileLinear, linearPatternProblem } from "../src/text/linear-regexp.js";
import { deriveSeed, seededRandom } from "../src/text/seeded-random.js";

/** The verdict measured directly: JavaScript's syntax first, then RE2's. */
function reference(pattern: string): string | null {
  try {
    compileLinear(pattern);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const PIECES = [
  "a",
  "Z",
  "7",
  "_",
  " ",
  "-",
  ".",
  "^",
  "$",
  "|",
  "*",
  "+",
  "?",
  "(",
  ")",
  "(?:",
  "(?=",
  "(?<=",
  "(?<n>",
  "\\d",
  "\\w",
  "\\S",
  "\\.",
  "\\-",
  "\\/",
  "\\(",
  "\\{",
  "\\1",
  "\\b",
  "\\u0041",
  "\\p{L}",
  "\\c",
  "[a-z]",
  "[0-9_]",
  "[^a-z0-9_]",
  "[\\d-]",
  "[a-]",
  "[z-a]",
  "[\\d-z]",
  "[]",
  "[^]",
  "[.]",
  "[\\s\\w]",
  "{2}",
  "{1,}",
  "{0,3}",
  "{3,2}",
  "{100}",
  "{101}",
  "{999}",
  "{1001}",
  "{,3}",
  "{",
  "}",
  "{2}{3}",
];

function randomPatterns(count: number): string[] {
  const random = seededRandom(deriveSeed("linear-regexp"));
  return Array.from({ length: count }, () => {
    const length = 1 + Math.floor(random() * 8);
    return Array.from({ length }, () => PIECES[Math.floor(random() * PIECES.length)]).join("");
  });
}

describe("pattern verdicts", () => {
  it("equal JavaScript-then-RE2's on random patterns, with and without RE2 asked", () => {
    const patterns = [
      ...randomPatterns(20_000),
      "^[a-z0-9_]+$",
      "^\\d{4}-\\d{2}-\\d{2}$",
      "(a{100}){100}",
      "((a{10}){10}){11}",
      "a{2}{3}",
    ];
    let refused = 0;
    for (const pattern of patterns) {
      const expected = reference(pattern);
      if (expected !== null) refused += 1;
      expect(linearPatternProblem(pattern), pattern).toBe(expected);
    }
    // Both verdicts are well represented, and RE2 refuses some patterns JavaScript takes.
    expect(refused).toBeGreaterThan(2_000);
    expect(patterns.length - refused).toBeGreaterThan(2_000);
    expect(
      patterns.filter((pattern) => reference(pattern)?.includes("linear time")).length,
    ).toBeGreaterThan(500);
  });

  it("match as RE2 does", () => {
    expect(compileLinear("^ord_[0-9]+$").test("ord_1042")).toBe(true);
    expect(RE2JS.compile("^ord_[0-9]+$").matcher("ord_x").find()).toBe(false);
  });
});
