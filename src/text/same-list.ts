/** Whether two lists hold the same items in the same order. */
export function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The items `keep` keeps: the list itself when it keeps them all (a million cases are not copied to be read). */
export function keptOf<T>(items: readonly T[], keep: (item: T) => boolean): readonly T[] {
  return items.every(keep) ? items : items.filter(keep);
}
