/**
 * The one rule about tool names a case gives that its registry lacks. `run` counts such a name as
 * the coverage gap it is, and warns when it looks like a typo of a known name; `lint` reports
 * every one. Both say it in these words.
 */
import { findNearName } from "../text/near-name.js";
import { ABSTAIN } from "../types/tools.js";

export const NAME_LISTS = ["acceptable", "forbidden", "must_see", "must_not_see"] as const;
export type NameList = (typeof NAME_LISTS)[number];

/** What each list's unknown name breaks. */
const CONSEQUENCE: Record<NameList, string> = {
  acceptable: "no trial of this case can succeed",
  forbidden: "selecting it can never be flagged as a violation",
  must_see: "this exposure assertion always fails",
  must_not_see: "this exposure assertion is always true",
};

export interface UnknownName {
  case_id: string;
  list: NameList;
  /** Position of the name in its list. */
  position: number;
  name: string;
  /** A known name it is a likely typo of, or null. */
  near: string | null;
  /** The sentence both run and lint print. */
  message: string;
}

type NamedLists = { id: string } & Partial<Record<NameList, string[]>>;

/** Every name of the case's lists not in `known` (registry tools and trusted controls). */
export function findUnknownNames(
  testCase: NamedLists,
  known: ReadonlySet<string>,
  snapshot: string,
): UnknownName[] {
  if (namesOnlyKnown(testCase, known)) return [];
  return NAME_LISTS.flatMap((list) =>
    (testCase[list] ?? []).flatMap((name, position) => {
      if (known.has(name)) return [];
      const near = findNearName(name, known);
      const message =
        `case "${testCase.id}": ${list} names "${name}", which registry ${snapshot} does not have` +
        `${near === null ? "" : ` (did you mean "${near}"?)`}; ${CONSEQUENCE[list]}`;
      return [{ case_id: testCase.id, list, position, name, near, message }];
    }),
  );
}

/** Whether every name of the case's lists is known: most cases, checked without a list made. */
function namesOnlyKnown(testCase: NamedLists, known: ReadonlySet<string>): boolean {
  for (const list of NAME_LISTS) {
    const names = testCase[list];
    if (names !== undefined) for (const name of names) if (!known.has(name)) return false;
  }
  return true;
}

/**
 * `acceptable: [t1, no_applicable_tool]` says both "nothing applies" and "t1 applies": abstention
 * accuracy would punish a correct pick of t1. The one wording run (a warning) and lint (an error) use.
 */
export function findContradiction(testCase: { id: string; acceptable: string[] }): string | null {
  if (!testCase.acceptable.includes(ABSTAIN) || testCase.acceptable.length === 1) return null;
  const others = testCase.acceptable.filter((name) => name !== ABSTAIN);
  return `case "${testCase.id}": acceptable names ${ABSTAIN} beside ${others.join(", ")} — "nothing applies" and "${others[0]} applies" contradict, so abstention accuracy punishes a correct pick`;
}
