/**
 * monitor's rival selection: the rival pairs (lint's, over the offered definitions) of each
 * distinct offered set, computed once per set, and how the calls between each pair split.
 */
import { findRivals } from "../lint/find-rivals.js";
import { compareText } from "../text/compare-text.js";
import type { MonitorRivals, TracedTool } from "../types.js";
import { tracedTool } from "./turn-parts.js";

/** Distinct offered sets whose rivals are computed (each costs a TF-IDF over its tools). */
const MAX_SETS = 2000;

export interface RivalTracker {
  /** The rivals of each offered tool within this set (name → its rivals), after counting the turn's call toward each pair. */
  observe(offered: Map<string, TracedTool>, called: string | null): Map<string, string[]>;
  pairs(): MonitorRivals[];
  notComputed(): number;
}

/** Rival pairs of each distinct offered set, computed once per set from the first definition seen of each tool. */
export function createRivalTracker(): RivalTracker {
  const definitions = new Map<string, TracedTool>();
  const bySet = new Map<string, { pairs: MonitorRivals[]; of: Map<string, string[]> }>();
  const totals = new Map<string, MonitorRivals>();
  let notComputed = 0;
  const empty = new Map<string, string[]>();
  return {
    observe: (offered, called) => {
      for (const [name, tool] of offered)
        if (
          !definitions.has(name) &&
          (tool.description !== undefined || tool.input_schema !== undefined)
        )
          definitions.set(name, tool);
      const key = [...offered.keys()].sort().join("\n");
      let set = bySet.get(key);
      if (set === undefined) {
        if (bySet.size >= MAX_SETS) {
          notComputed += 1;
          return empty;
        }
        bySet.set(
          key,
          (set = rivalsOfSet(
            [...offered.keys()]
              .sort()
              .map((name) => definitions.get(name) ?? (offered.get(name) as TracedTool)),
          )),
        );
      }
      for (const pair of set.pairs) {
        const key = `${pair.a}\n${pair.b}`;
        let total = totals.get(key);
        if (total === undefined)
          totals.set(key, (total = { ...pair, turns: 0, calls_a: 0, calls_b: 0 }));
        total.turns += 1;
        if (called === pair.a) total.calls_a += 1;
        if (called === pair.b) total.calls_b += 1;
      }
      return set.of;
    },
    pairs: () =>
      [...totals.values()].sort(
        (x, y) =>
          y.turns - x.turns || y.score - x.score || compareText(x.a, y.a) || compareText(x.b, y.b),
      ),
    notComputed: () => notComputed,
  };
}

function rivalsOfSet(tools: TracedTool[]): { pairs: MonitorRivals[]; of: Map<string, string[]> } {
  const pairs =
    tools.length < 2
      ? []
      : findRivals(tools.map(tracedTool)).map((p) => ({
          a: p.a.name,
          b: p.b.name,
          score: Math.round(p.score * 100) / 100,
          turns: 0,
          calls_a: 0,
          calls_b: 0,
        }));
  const of = new Map<string, string[]>();
  for (const pair of pairs) {
    of.set(pair.a, [...(of.get(pair.a) ?? []), pair.b]);
    of.set(pair.b, [...(of.get(pair.b) ?? []), pair.a]);
  }
  return { pairs, of };
}
