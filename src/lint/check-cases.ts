/** cases: names the registry lacks, lonely families, a suite that never expects a control. */
import { findNearName } from "../text/near-name.js";
import { ABSTAIN, ASK, CONTROL_NAMES } from "../types.js";
import type { LintCase, LintCaseFile } from "./lint-input.js";
import { finding, type Finding } from "./rules.js";

const NAME_LISTS = ["acceptable", "forbidden", "must_see", "must_not_see"] as const;
type NameList = (typeof NAME_LISTS)[number];

/** What each list's unknown name breaks. */
const CONSEQUENCE: Record<NameList, string> = {
  acceptable: "no trial of this case can succeed",
  forbidden: "selecting it can never be flagged as a violation",
  must_see: "this exposure assertion always fails",
  must_not_see: "this exposure assertion is always true",
};

export function checkCaseFile(file: LintCaseFile): Finding[] {
  const known = new Set<string>([...CONTROL_NAMES, ...file.registry.tools.map((tool) => tool.name)]);
  return file.cases.flatMap((testCase) => NAME_LISTS.flatMap((list) => checkNames(file, testCase, list, known)));
}

function checkNames(file: LintCaseFile, testCase: LintCase, list: NameList, known: Set<string>): Finding[] {
  const findings: Finding[] = [];
  testCase[list].forEach((name, position) => {
    if (known.has(name)) return;
    const near = findNearName(name, known);
    const base = { file: file.file, line: file.lineOf(["cases", testCase.index, list, position]), case: testCase.id };
    const snapshot = file.registry.snapshot;
    if (near === null && list === "acceptable") {
      findings.push(
        finding({
          ...base,
          rule: "case-coverage-gap",
          message: `case "${testCase.id}": acceptable names "${name}", which registry ${snapshot} does not have; its trials will fail at coverage`,
          fix: "intended if the tool is missing on purpose (a coverage gap to measure); otherwise build the tool or name an existing one",
        }),
      );
      return;
    }
    findings.push(
      finding({
        ...base,
        rule: "case-unknown-tool",
        message:
          `case "${testCase.id}": ${list} names "${name}", which registry ${snapshot} does not have` +
          `${near === null ? "" : ` (did you mean "${near}"?)`}; ${CONSEQUENCE[list]}`,
        fix: near === null ? `name a tool of ${snapshot}, or remove "${name}"` : `replace "${name}" with "${near}"`,
        ...(near === null ? {} : { related: [near] }),
      }),
    );
  });
  return findings;
}

/** Families are compared across every case file: a family is a set of near cases. */
export function checkFamilies(files: LintCaseFile[]): Finding[] {
  const byFamily = new Map<string, { file: LintCaseFile; testCase: LintCase }[]>();
  for (const file of files) {
    for (const testCase of file.cases) {
      if (testCase.family === null) continue;
      const members = byFamily.get(testCase.family) ?? [];
      members.push({ file, testCase });
      byFamily.set(testCase.family, members);
    }
  }
  return [...byFamily.entries()]
    .filter(([, members]) => members.length === 1)
    .map(([family, [{ file, testCase }]]) =>
      finding({
        rule: "case-family-single",
        file: file.file,
        line: file.lineOf(["cases", testCase.index, "family"]),
        case: testCase.id,
        message:
          `family "${family}" has a single case ("${testCase.id}"); a family contrasts near cases, ` +
          "so one case cannot show which difference the router missed",
        fix:
          "add a near neighbour that differs in one detail and expects another tool " +
          "(e.g. the same goal with an exact id), or drop the family",
      }),
    );
}

export function checkSuite(files: LintCaseFile[]): Finding[] {
  const cases = files.flatMap((file) => file.cases);
  if (cases.length === 0) return [];
  const expectsControl = cases.some((c) => c.acceptable.includes(ABSTAIN) || c.acceptable.includes(ASK));
  if (expectsControl) return [];
  return [
    finding({
      rule: "suite-no-control-case",
      file: files[0].file,
      line: null,
      message: `none of the ${cases.length} cases expects ${ABSTAIN} or ${ASK}, so a router that always calls some tool scores perfectly`,
      fix: `add cases where nothing applies (acceptable: [${ABSTAIN}]) and where information is missing (acceptable: [${ASK}])`,
    }),
  ];
}
