/**
 * A word-level diff of two texts: longest common subsequence over tokens (words, single
 * punctuation marks, line breaks), each token keeping the whitespace before it. Segments are
 * exact substrings: the "same" and "removed" segments spell the old text, "same" and "added"
 * the new one. Within a changed stretch removals come first, then additions.
 */
import type { WordSegment } from "../types/diff.js";

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

/** lengths[i][j] = LCS length of a[i..] and b[j..]. */
function lcsTable(a: Token[], b: Token[]): Uint32Array[] {
  const table = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i][j] = a[i].text === b[j].text ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  return table;
}

type Step = { op: WordSegment["op"]; token: Token };

/** Whether tokens[i] is the last of its line. */
function endsLine(tokens: Token[], i: number): boolean {
  return i + 1 === tokens.length || tokens[i + 1].text === "\n";
}

/**
 * Walks one longest common subsequence. Among equally long ones it prefers to extend the current
 * run of removals or additions, so a change reads as one stretch ("id{+, e.g. by date+}.")
 * rather than being split around a word that happens to recur — except that a word ending a
 * line in both texts is matched there, so changes stay within their lines.
 */
function walk(a: Token[], b: Token[]): Step[] {
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) {
    return [...a.map((token): Step => ({ op: "removed", token })), ...b.map((token): Step => ({ op: "added", token }))];
  }
  const table = lcsTable(a, b);
  const steps: Step[] = [];
  let i = 0;
  let j = 0;
  let last: WordSegment["op"] = "same";
  while (i < a.length || j < b.length) {
    const best = table[i][j];
    const canRemove = i < a.length && table[i + 1][j] === best;
    const canAdd = j < b.length && table[i][j + 1] === best;
    const canMatch = i < a.length && j < b.length && a[i].text === b[j].text;
    const extend = (last === "added" && canAdd) || (last === "removed" && canRemove);
    if (canMatch && (!extend || (endsLine(a, i) && endsLine(b, j)))) {
      // The same word with different spacing before it is shown as replaced, so that both
      // texts can be spelled back exactly.
      if (a[i].lead === b[j].lead) steps.push({ op: "same", token: b[j] });
      else steps.push({ op: "removed", token: a[i] }, { op: "added", token: b[j] });
      i += 1;
      j += 1;
    } else if (canRemove && !(last === "added" && canAdd)) {
      steps.push({ op: "removed", token: a[i++] });
    } else {
      steps.push({ op: "added", token: b[j++] });
    }
    last = steps[steps.length - 1].op;
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
