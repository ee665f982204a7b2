/** Membership in the name lists a record keeps: short lists scanned, long ones (shared by a run's records) as one Set each. */

/** True when some acceptable tool is among `names`. */
export function intersects(acceptable: readonly string[], names: readonly string[]): boolean {
  // acceptable is tiny (1–3 names): a linear scan of a short list beats any Set; a long list (a
  // registry, an exposed set) is shared by every record of a run, so its Set is built once.
  if (names.length <= LINEAR_SCAN) {
    for (const name of acceptable) if (names.includes(name)) return true;
    return false;
  }
  const members = memberSet(names);
  for (const name of acceptable) if (members.has(name)) return true;
  return false;
}

const LINEAR_SCAN = 32;

/** The names of a list as a Set, one per list object (records share their registry and exposed lists). */
export function memberSet(names: readonly string[]): ReadonlySet<string> {
  let members = memberSets.get(names);
  if (members === undefined) memberSets.set(names, (members = new Set(names)));
  return members;
}

const memberSets = new WeakMap<readonly string[], ReadonlySet<string>>();
