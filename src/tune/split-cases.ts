/**
 * The tune / held-out split: seeded, stratified by family. The unit is the case, or for a
 * conversation's turns the conversation (its turns go to one side together). Within each family
 * (a case without one: its first acceptable tool) the units are shuffled by the seed and the first
 * round(n × holdout) are held out — at least one when the family has two or more units, so every
 * family with a pair is tested on a case its revisions were not written from.
 */
import type { Case } from "../types.js";
import { deriveSeed, seededRandom, shuffle } from "../text/seeded-random.js";
import { compareText } from "../text/compare-text.js";

export interface CaseSplit {
  tune: Set<string>;
  held_out: Set<string>;
}

/** The split, as sets of case ids (a conversation's turns each by their own id). */
export function splitCases(cases: readonly Case[], seed: number, holdout: number): CaseSplit {
  const units = new Map<string, { family: string; ids: string[] }>();
  for (const c of cases) {
    const unit = c.turn?.conversation ?? c.id;
    const found = units.get(unit);
    if (found !== undefined) found.ids.push(c.id);
    else units.set(unit, { family: c.family ?? c.acceptable[0] ?? "(none)", ids: [c.id] });
  }
  const families = new Map<string, string[]>();
  for (const [unit, { family }] of units)
    families.set(family, [...(families.get(family) ?? []), unit]);
  const split: CaseSplit = { tune: new Set(), held_out: new Set() };
  for (const family of [...families.keys()].sort(compareText)) {
    const members = [...(families.get(family) ?? [])].sort(compareText);
    const order = shuffle(members, seededRandom(deriveSeed(seed, "tune-split", family)));
    const held =
      members.length < 2
        ? 0
        : Math.max(1, Math.min(members.length - 1, Math.round(members.length * holdout)));
    order.forEach((unit, index) => {
      const side = index < held ? split.held_out : split.tune;
      for (const id of units.get(unit)?.ids ?? []) side.add(id);
    });
  }
  return split;
}
