/** cases: names the registry lacks, lonely families, a suite that never expects a control. */
import { TODO } from "../types/cases.js";
import { findContradiction, findUnknownNames } from "../cases/unknown-names.js";
import { ABSTAIN, ASK, CONTROL_NAMES } from "../types.js";
import type { LintCase, LintCaseFile } from "./lint-input.js";
import { finding, type Finding } from "./rules.js";

export function checkCaseFile(file: LintCaseFile): Finding[] {
  const known = new Set<string>([
    ...CONTROL_NAMES,
    ...file.registry.tools.map((tool) => tool.name),
  ]);
  const contradictions = file.cases.flatMap((testCase) => {
    const message = findContradiction(testCase);
    if (message === null) return [];
    const line = file.lineOf([...testCase.at, "acceptable"]);
    const fix = `keep acceptable: [${ABSTAIN}] alone when nothing applies, or drop ${ABSTAIN} when a tool does`;
    return [
      finding({
        rule: "case-contradictory",
        file: file.file,
        line,
        case: testCase.id,
        message,
        fix,
      }),
    ];
  });
  const todos = file.cases.flatMap((testCase) => {
    if (!testCase.goal.trimStart().startsWith(TODO)) return [];
    const line = file.lineOf([...testCase.at, testCase.goalKey]);
    return [
      finding({
        rule: "case-todo-goal",
        file: file.file,
        line,
        case: testCase.id,
        message: `case "${testCase.id}": its goal is still a TODO (written by route-eval init): ${testCase.goal}`,
        fix: "replace it with a real request, as a user would type it",
      }),
    ];
  });
  const unwritten = file.cases.flatMap((testCase) => {
    if (testCase.todo === null) return [];
    const line = file.lineOf([...testCase.at, "todo"]);
    return [
      finding({
        rule: "case-todo",
        file: file.file,
        line,
        case: testCase.id,
        message: `case "${testCase.id}": still to be written: ${testCase.todo}`,
        fix: "write acceptable: [the right tools] (and forbidden: if some are wrong on purpose), then remove todo:",
      }),
    ];
  });
  return [...todos, ...unwritten, ...contradictions].concat(
    file.cases.flatMap((testCase) =>
      findUnknownNames(testCase, known, file.registry.snapshot).map((unknown) => {
        const base = {
          file: file.file,
          line: file.lineOf([...testCase.at, unknown.list, unknown.position]),
          case: testCase.id,
        };
        const { name, near, list } = unknown;
        const snapshot = file.registry.snapshot;
        if (near === null && list === "acceptable") {
          return finding({
            ...base,
            rule: "case-coverage-gap",
            message: `case "${testCase.id}": acceptable names "${name}", which registry ${snapshot} does not have; its trials will fail at coverage`,
            fix: "intended if the tool is missing on purpose (a coverage gap to measure); otherwise build the tool or name an existing one",
          });
        }
        return finding({
          ...base,
          rule: "case-unknown-tool",
          message: unknown.message,
          fix:
            near === null
              ? `name a tool of ${snapshot}, or remove "${name}"`
              : `replace "${name}" with "${near}"`,
          ...(near === null ? {} : { related: [near] }),
        });
      }),
    ),
  );
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
        line: file.lineOf([...testCase.at.slice(0, 2), "family"]),
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
  const expectsControl = cases.some(
    (c) => c.acceptable.includes(ABSTAIN) || c.acceptable.includes(ASK),
  );
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
