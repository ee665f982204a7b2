/**
 * A word-level diff of two texts over tokens (words, single punctuation marks, line breaks), each
 * token keeping the whitespace before it; the edit script is jsdiff's. Segments are exact
 * substrings: the "same" and "removed" segments spell the old text, "same" and "added" the new
 * one. Within a changed stretch removals come first, then additions.
 */
import type * as Jsdiff from "diff";
import { lazyRequire } from "../text/lazy.js";
import type { WordSegment } from "../types/diff.js";

/** jsdiff, loaded by the first diff made (commands that may show one, a run's, need not wait for it). */
const jsdiff = lazyRequire<typeof Jsdiff>("diff");

/** Beyond this many tokens per side the texts are shown as one removal and one addition. */
const MAX_TOKENS = 3000;
const TOKEN = /([ \t]*)(\n|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_])/gu;

interface Token {
  lead: string;
  text: string;
}

function tokenize(text: string): Token[] {
  return [...text.matchAll(TOKEN)].map((m) => ({ lead: m[1], text: m[2] }));
}

function spell(tokens: Token[]): string {
  return tokens.map((t) => t.lead + t.text).join("");
}

type Step = { op: WordSegment["op"]; token: Token };

/**
 * The edit steps from a to b: jsdiff's shortest edit script over the tokens (compared by their
 * text). A word kept with different spacing before it is shown as replaced, so that both texts
 * can be spelled back exactly.
 */
function walk(a: Token[], b: Token[]): Step[] {
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) {
    return [
      ...a.map((token): Step => ({ op: "removed", token })),
      ...b.map((token): Step => ({ op: "added", token })),
    ];
  }
  const steps: Step[] = [];
  let i = 0;
  let j = 0;
  for (const change of jsdiff().diffArrays(a, b, { comparator: (x, y) => x.text === y.text })) {
    const count = change.count ?? change.value.length;
    if (change.removed)
      for (let k = 0; k < count; k++) steps.push({ op: "removed", token: a[i++] });
    else if (change.added)
      for (let k = 0; k < count; k++) steps.push({ op: "added", token: b[j++] });
    else {
      for (let k = 0; k < count; k++, i++, j++) {
        if (a[i].lead === b[j].lead) steps.push({ op: "same", token: b[j] });
        else steps.push({ op: "removed", token: a[i] }, { op: "added", token: b[j] });
      }
    }
  }
  return slideToLineEnds(steps);
}

/**
 * Readability cleanup of an edit script (the shortest one may split a change around a word that
 * recurs inside it: "id{+, e+}.{+g. by date.+}"): a kept token between two runs of the same edit
 * slides into the later run, to the first place there where the same token ends a line (else its
 * last), so the change reads as one stretch and stays within its line ("id{+, e.g. by date+}.").
 * Both texts spell the same either way.
 */
function slideToLineEnds(steps: Step[]): Step[] {
  for (let k = 1; k + 1 < steps.length; k++) {
    const op = steps[k - 1].op;
    if (steps[k].op !== "same" || op === "same" || steps[k + 1].op !== op) continue;
    const kept = steps[k].token;
    let target = -1;
    for (let p = k + 1; p < steps.length && steps[p].op === op; p++) {
      const token = steps[p].token;
      if (token.text !== kept.text || token.lead !== kept.lead) continue;
      target = p;
      const next = steps[p + 1]?.token.text;
      if (next === undefined || next === "\n") break;
    }
    if (target === -1) continue;
    steps[k] = { op, token: kept };
    steps[target] = { op: "same", token: steps[target].token };
    k = target; // the token that is kept now ends a line: it stays
  }
  return steps;
}

function merge(steps: Step[]): WordSegment[] {
  const segments: WordSegment[] = [];
  let removed: Token[] = [];
  let added: Token[] = [];
  const flush = (): void => {
    if (removed.length > 0) segments.push({ op: "removed", text: spell(removed) });
    if (added.length > 0) segments.push({ op: "added", text: spell(added) });
    removed = [];
    added = [];
  };
  for (const step of steps) {
    if (step.op === "removed") removed.push(step.token);
    else if (step.op === "added") added.push(step.token);
    else {
      flush();
      const last = segments.at(-1);
      if (last?.op === "same") last.text += step.token.lead + step.token.text;
      else segments.push({ op: "same", text: step.token.lead + step.token.text });
    }
  }
  flush();
  return segments;
}

export function diffWords(before: string, after: string): WordSegment[] {
  return merge(walk(tokenize(before), tokenize(after)));
}

/** A segment's leading whitespace, which renderers keep outside their change markers. */
export function splitLead(text: string): [string, string] {
  const lead = /^\s*/.exec(text)?.[0] ?? "";
  return [lead, text.slice(lead.length)];
}

/** git's plain word-diff notation, `[-removed-]{+added+}`, each marker after its segment's leading whitespace. */
export function plainWordDiff(segments: readonly WordSegment[]): string {
  return segments
    .map((s) => {
      if (s.op === "same") return s.text;
      const [lead, rest] = splitLead(s.text);
      return s.op === "removed" ? `${lead}[-${rest}-]` : `${lead}{+${rest}+}`;
    })
    .join("");
}
