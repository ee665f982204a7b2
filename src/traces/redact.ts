/**
 * Redaction of traced turns before anything is written: built-in patterns for e-mail addresses,
 * API keys and bearer tokens, and phone numbers, plus the user's own regular expressions (matched
 * by RE2, in time linear in the text). Every string of the turn is redacted — messages, system
 * text, arguments (the raw text and the parsed object), the reply's text and body, descriptions
 * and attributes — except what names things: tool names, call ids, roles, types and the model.
 * What was redacted is counted per pattern; the matched text itself is never kept.
 */
import { InputError } from "../errors.js";
import type { JsonValue, TracedTurn } from "../types.js";
import { compileLinear, re2 } from "../text/linear-regexp.js";

interface Pattern {
  name: string;
  replace: (text: string, count: (n: number) => void) => string;
}

/**
 * Built-in patterns, in the order they run (keys before e-mail: a key may hold an @). Each runs
 * in time linear in the text: the key and phone patterns start at a literal or a short bounded
 * form; e-mail addresses are found from their @ (findEmails), since the pattern
 * /[local]+@domain/ tried at every position of a long token is quadratic in JavaScript's engine.
 */
const BUILT_IN: [name: string, pattern: RegExp | "email"][] = [
  [
    "key",
    /\b(?:sk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})/g,
  ],
  ["key", /\bBearer\s+[A-Za-z0-9._~+/-]{16,}=*/g],
  ["email", "email"],
  [
    "phone",
    /(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}\d(?!\w)|(?<![\w+])\(?\b\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b/g,
  ],
];

/**
 * What every built-in pattern's match contains one of: a digit (a phone number), an @ (an
 * address), or a key's literal start. Text without any (most words) is left as it is after one
 * scan instead of four.
 */
const MAYBE_BUILT_IN = /[\d@]|sk-|AKIA|gh[pousr]_|github_pat_|xox[abprs]-|AIza|eyJ|Bearer/;

/** What redaction replaced, per pattern (`email`, `key`, `phone`, `custom:1`…). */
export type Redactions = Record<string, number>;

export interface Redactor {
  turn(turn: TracedTurn): { turn: TracedTurn; redacted: Redactions };
}

/** A redactor of the built-in patterns (unless `builtIn` is false) and the user's patterns (`--redact`). */
export function createRedactor(custom: string[], builtIn = true): Redactor {
  const builtIns: Pattern[] = [];
  const patterns: Pattern[] = [];
  if (builtIn) {
    for (const [name, pattern] of BUILT_IN) {
      const replacement = `[REDACTED:${name}]`;
      builtIns.push({
        name,
        replace:
          pattern === "email"
            ? (text, count) => replaceEmails(text, replacement, count)
            : (text, count) =>
                text.replace(pattern, () => {
                  count(1);
                  return replacement;
                }),
      });
    }
  }
  custom.forEach((source, i) => {
    const name = `custom:${i + 1}`;
    try {
      compileLinear(source);
    } catch (error) {
      throw new InputError(
        `--redact ${JSON.stringify(source)}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const compiled = re2().compile(source);
    patterns.push({
      name,
      replace: (text, count) => {
        const matcher = compiled.matcher(text);
        let n = 0;
        while (matcher.find()) n += 1;
        if (n === 0) return text;
        count(n);
        return compiled.matcher(text).replaceAll(`[REDACTED:${name}]`);
      },
    });
  });
  // Tool lists no pattern changed: read once per distinct text (trace-messages.ts), the same list
  // comes again in span after span, and is not walked again.
  const cleanTools = new WeakSet<object>();
  return {
    turn: (turn) => {
      const redacted: Redactions = {};
      const apply = (value: string, list: Pattern[]): string =>
        list.reduce(
          (current, pattern) =>
            pattern.replace(
              current,
              (n) => (redacted[pattern.name] = (redacted[pattern.name] ?? 0) + n),
            ),
          value,
        );
      const text = (value: string): string =>
        apply(MAYBE_BUILT_IN.test(value) ? apply(value, builtIns) : value, patterns);
      const clean = redactValue(
        turn as unknown as JsonValue,
        text,
        null,
        cleanTools,
      ) as unknown as TracedTurn;
      return { turn: clean, redacted };
    },
  };
}

/** The characters of an address's local part: [A-Za-z0-9._%+-]. */
function isLocal(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 46 ||
    code === 95 ||
    code === 37 ||
    code === 43 ||
    code === 45
  );
}

/** The domain after an @: labels of [A-Za-z0-9-], a dot, a top-level label of two letters or more. */
const DOMAIN = /[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/y;

/**
 * The matches of /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, replaced,
 * found from each @: the local part scanned back (never into the previous match), the domain
 * matched forward. Every character is scanned a bounded number of times.
 */
function replaceEmails(text: string, replacement: string, count: (n: number) => void): string {
  let out = "";
  let copied = 0;
  let found = 0;
  let at = text.indexOf("@");
  while (at !== -1) {
    let start = at;
    while (start > copied && isLocal(text.charCodeAt(start - 1))) start -= 1;
    if (start < at) {
      DOMAIN.lastIndex = at + 1;
      if (DOMAIN.exec(text) !== null) {
        out += text.slice(copied, start) + replacement;
        copied = DOMAIN.lastIndex;
        found += 1;
        at = text.indexOf("@", copied);
        continue;
      }
    }
    at = text.indexOf("@", at + 1);
  }
  if (found === 0) return text;
  count(found);
  return out + text.slice(copied);
}

/** Keys whose values name things (never personal data, and changing them would break the turn). */
const NAMES = new Set([
  "name",
  "id",
  "tool_call_id",
  "call_id",
  "tool_use_id",
  "role",
  "type",
  "model",
  "format",
  "file",
  "provenance",
  "trace_id",
  "span_id",
  "time",
  "api",
  "provider",
  "stage",
  "tools",
  "finish_reason",
  "stop_reason",
  "status",
  "object",
  "required",
]);

/**
 * The value with every string redacted; what no pattern changed is the value itself, not a copy
 * (a turn's tool schemas and reply body are mostly left as they are: a shadow redacts a million).
 */
function redactValue(
  value: JsonValue,
  text: (s: string) => string,
  key: string | null,
  cleanTools: WeakSet<object>,
): JsonValue {
  if (typeof value === "string") return key !== null && NAMES.has(key) ? value : text(value);
  if (Array.isArray(value)) {
    if (key === "tools" && cleanTools.has(value)) return value;
    const inner = key === "tools" || key === "required" ? key : null;
    let out: JsonValue[] | null = null;
    value.forEach((item, i) => {
      const clean = redactValue(item, text, inner, cleanTools);
      if (clean !== item) (out ??= [...value])[i] = clean;
    });
    if (key === "tools" && out === null) cleanTools.add(value);
    return out ?? value;
  }
  if (value !== null && typeof value === "object") {
    let out: Record<string, JsonValue> | null = null;
    for (const [k, v] of Object.entries(value)) {
      const clean = redactValue(v, text, k, cleanTools);
      // A copy's own keys (a "__proto__" key too) are its own: assigned, not the prototype's.
      if (clean !== v) (out ??= { ...value })[k] = clean;
    }
    return out ?? value;
  }
  return value;
}
