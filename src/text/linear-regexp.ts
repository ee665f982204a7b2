/**
 * Regular expressions from outside (a tool's JSON Schema `pattern`, a case's expected-argument
 * pattern) are matched by RE2 (re2js), in time linear in the input: `^(a+)+$` against 10,000
 * characters takes milliseconds instead of blocking the process. RE2 has no lookaround and no
 * backreferences; such a pattern is refused with a message that says so.
 */
import type { RE2JS } from "re2js";
import { lazyRequire } from "./lazy.js";

/** re2js (260 KB) loads on the first pattern that needs it: a registry of simple id patterns never does. */
const re2js = lazyRequire<typeof import("re2js")>("re2js");
export const re2 = (): typeof RE2JS => re2js().RE2JS;

export interface LinearRegExp {
  test(text: string): boolean;
  toString(): string;
}

/** Compiles `pattern` (JavaScript syntax, search semantics like RegExp.test), or throws an Error that says why not. */
export function compileLinear(pattern: string): LinearRegExp {
  // Not a regular expression at all: JavaScript's own message says best what is wrong.
  new RegExp(pattern);
  let compiled: RE2JS;
  try {
    compiled = re2().compile(pattern);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `pattern /${pattern}/ cannot be matched in linear time (${why}); lookaround and backreferences are not supported`,
    );
  }
  // Ajv keys compiled patterns by their text (toString), so each must print as itself.
  return { test: (text) => compiled.matcher(text).find(), toString: () => `/${pattern}/` };
}

/** Why `pattern` cannot be compiled, or null. Remembered by its text: registries repeat their id patterns across hundreds of tools. */
export function linearPatternProblem(pattern: string): string | null {
  const known = problems.get(pattern);
  if (known !== undefined) return known;
  let problem: string | null = null;
  try {
    if (judgedByJavaScript(pattern)) new RegExp(pattern);
    else compileLinear(pattern);
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  if (problems.size >= REMEMBERED) problems.clear();
  problems.set(pattern, problem);
  return problem;
}

/**
 * Whether JavaScript alone can judge `pattern`, because RE2 takes it whenever JavaScript does: it
 * is made only of the pieces of PIECE — letters, digits, `_`, space, `-`, `.`, anchors,
 * alternation, `*+?` (lazy too), groups without `?`, escapes of a class or of punctuation, classes
 * of those (ranges of letters and digits, `-` last) — and counts `{n}`, `{n,}`, `{n,m}` (at most
 * 999) only where no group can nest them (RE2 refuses nested counts over 1,000). Lookaround,
 * backreferences, flags and anything else go to RE2. test/linear-regexp.test.ts holds the verdicts
 * to RE2's on random patterns.
 */
function judgedByJavaScript(pattern: string): boolean {
  PIECE.lastIndex = 0;
  let counted = false;
  while (PIECE.lastIndex < pattern.length) {
    const piece = PIECE.exec(pattern);
    if (piece === null) return false;
    if (piece[1] !== undefined) counted = true;
  }
  return !counted || !pattern.includes("(");
}

const PIECE =
  /[A-Za-z0-9_ .^$|*+?-]|\\[dDwWsS.\\/+*?()[\]{}^$|-]|\[\^?(?:[A-Za-z0-9]-[A-Za-z0-9]|[A-Za-z0-9_ .]|\\[dDwWsS.-])+-?\]|\((?!\?)|\)|\{(\d{1,3})(?:,\d{0,3})?\}/y;

const REMEMBERED = 10_000;
const problems = new Map<string, string | null>();

/**
 * Ajv's `code.regExp` option: every `pattern` and `patternProperties` key matched by RE2. A pattern
 * RE2 cannot take fails the schema's compile, as before; RE2 compiles it at its first match, so a
 * schema is compiled without re2js (RE2's compiles were over 40% of a warm schema compile) and a
 * pattern no argument meets costs nothing.
 */
export const linearRegExpEngine = Object.assign(
  (pattern: string, _flags: string): LinearRegExp => {
    const problem = linearPatternProblem(pattern);
    if (problem !== null) throw new Error(problem);
    let compiled: LinearRegExp | null = null;
    return {
      test: (text) => (compiled ??= compileLinear(pattern)).test(text),
      toString: () => `/${pattern}/`,
    };
  },
  { code: "compileLinear" },
);
