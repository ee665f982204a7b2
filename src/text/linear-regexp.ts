/**
 * Regular expressions from outside (a tool's JSON Schema `pattern`, a case's expected-argument
 * pattern) are matched by RE2 (re2js), in time linear in the input: `^(a+)+$` against 10,000
 * characters takes milliseconds instead of blocking the process. RE2 has no lookaround and no
 * backreferences; such a pattern is refused with a message that says so.
 */
import { RE2JS } from "re2js";

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
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`pattern /${pattern}/ cannot be matched in linear time (${why}); lookaround and backreferences are not supported`);
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
    compileLinear(pattern);
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  if (problems.size >= REMEMBERED) problems.clear();
  problems.set(pattern, problem);
  return problem;
}

const REMEMBERED = 10_000;
const problems = new Map<string, string | null>();

/** Ajv's `code.regExp` option: every `pattern` and `patternProperties` key compiled by RE2. */
export const linearRegExpEngine = Object.assign((pattern: string, _flags: string) => compileLinear(pattern), { code: "compileLinear" });
