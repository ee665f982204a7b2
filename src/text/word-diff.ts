/**
 * A word diff of two texts (longest common subsequence over words, whitespace kept with the word
 * before it): the runs kept, removed and added, in order. Descriptions are short (a few hundred
 * words), so the quadratic table is small.
 */
export interface WordRun {
  op: "same" | "del" | "ins";
  text: string;
}

/** Words with their trailing whitespace ("Use ", "when: "). */
function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

export function wordDiff(before: string, after: string): WordRun[] {
  const a = words(before);
  const b = words(after);
  const key = (w: string) => w.trimEnd();
  // lcs[i][j]: the longest common subsequence of a[i:] and b[j:].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i][j] =
        key(a[i]) === key(b[j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const runs: WordRun[] = [];
  const push = (op: WordRun["op"], text: string) => {
    const last = runs.at(-1);
    if (last?.op === op) last.text += text;
    else runs.push({ op, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && key(a[i]) === key(b[j])) {
      push("same", b[j]);
      i += 1;
      j += 1;
    } else if (j < b.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) {
      push("ins", b[j]);
      j += 1;
    } else {
      push("del", a[i]);
      i += 1;
    }
  }
  return runs;
}

/** git's plain word-diff notation: `[-removed-]{+added+}`, the rest as it was. */
export function plainWordDiff(runs: readonly WordRun[]): string {
  return runs
    .map((r) => {
      if (r.op === "same") return r.text;
      const body = r.text.trimEnd();
      const tail = r.text.slice(body.length);
      return r.op === "del" ? `[-${body}-]${tail}` : `{+${body}+}${tail}`;
    })
    .join("");
}
