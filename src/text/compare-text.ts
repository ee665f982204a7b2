/** Code-unit order, independent of the locale, so artefacts sort the same on every machine. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
