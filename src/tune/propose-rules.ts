/**
 * The `rules` proposer: lint's own fixes, written from the tune split's failures, no model.
 *   use-when    the tool gains a use_when of the words its failing goals share that its
 *               description lacks (ids and numbers left out), the rarest in the registry first;
 *   avoid-when  the rival that won most of its failing trials gains an avoid_when naming the tool
 *               with the case it loses (lint's rival-pair fix: "<when T fits>; use T.").
 * Deterministic: the same brief gives the same revisions.
 */
import type { ProposalBrief, Revision } from "../types/tune.js";
import type { Registry } from "../types.js";
import { isControl } from "../types.js";
import { tokenize } from "../text/tokenize.js";
import { renderDescription } from "../registry/render-definition.js";
import { compareText } from "../text/compare-text.js";

/** How many words a use-when revision lists. */
const USE_WHEN_WORDS = 5;

export function proposeByRules(brief: ProposalBrief, registry: Registry): Revision[] {
  const revisions: Revision[] = [];
  const words = distinctiveWords(brief, registry);
  if (words.length > 0)
    revisions.push({
      tool: brief.tool,
      use_when: [...brief.use_when, `The user asks in words like: ${words.join(", ")}.`],
      why:
        brief.failing_goals.length === 1
          ? "its one failing tune goal has these words, which its description lacks"
          : `its ${brief.failing_goals.length} failing tune goals share these words, which its description lacks`,
      by: "rules:use-when",
    });
  const rival = brief.rivals.find(
    (r) => !isControl(r.name) && registry.tools.some((t) => t.name === r.name),
  );
  const tool = registry.tools.find((t) => t.name === rival?.name);
  if (rival !== undefined && tool !== undefined) {
    const lost = brief.failing_goals
      .filter((g) => g.chosen === rival.name)
      .sort((a, b) => a.goal.length - b.goal.length || compareText(a.goal, b.goal))[0];
    if (lost !== undefined)
      revisions.push({
        tool: rival.name,
        avoid_when: [...tool.avoid_when, `The request is like "${lost.goal}"; use ${brief.tool}.`],
        why: `${rival.name} won ${rival.times} failing tune trial${rival.times === 1 ? "" : "s"} of ${brief.tool}; it now names the case it loses`,
        by: "rules:avoid-when",
      });
  }
  return revisions;
}

/**
 * Words (as first written) shared by the failing goals — by at least two when there are two or
 * more — that the tool's description lacks, most shared first, then rarest among the registry's
 * descriptions; ids and numbers (any word with a digit or an underscore) are left out.
 */
function distinctiveWords(brief: ProposalBrief, registry: Registry): string[] {
  const own = new Set(tokenize(brief.description));
  const counts = new Map<string, { word: string; goals: number }>();
  for (const { goal } of brief.failing_goals) {
    const seen = new Set<string>();
    for (const raw of goal.match(/[A-Za-z0-9_'-]+/g) ?? []) {
      if (/[\d_]/.test(raw)) continue;
      for (const stem of tokenize(raw)) {
        if (own.has(stem) || seen.has(stem)) continue;
        seen.add(stem);
        const entry = counts.get(stem) ?? { word: raw.toLowerCase(), goals: 0 };
        entry.goals += 1;
        counts.set(stem, entry);
      }
    }
  }
  const texts = registry.tools
    .filter((t) => t.name !== brief.tool)
    .map((t) => new Set(tokenize(renderDescription(t))));
  const spread = (stem: string) => texts.filter((words) => words.has(stem)).length;
  const least = Math.min(2, brief.failing_goals.length);
  return [...counts]
    .filter(([, entry]) => entry.goals >= least)
    .map(([stem, entry]) => ({ ...entry, stem, spread: spread(stem) }))
    .sort((a, b) => b.goals - a.goals || a.spread - b.spread || compareText(a.stem, b.stem))
    .slice(0, USE_WHEN_WORDS)
    .map((entry) => entry.word);
}
