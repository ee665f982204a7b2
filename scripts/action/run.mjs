// The action's run step (action.yml): run the suite, diff it against the baseline when one is
// given, and write one Markdown summary that leads with the verdict in a few lines and folds the
// diff and the full report (<details>). The summary goes to $GITHUB_STEP_SUMMARY and to the file
// the comment step posts; the run directory, the summary file and the exit code go to
// $GITHUB_OUTPUT. Every way the run or the diff can end — a gate failed, bad input, a run that
// never finished, a diff that cannot compare — ends with its reason in the summary, never only in
// the log. Exit codes pass through: 1 a gate failed, 2 bad input or runs that do not compare,
// 3 the endpoint failed.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codeBlock, fold, inert, SECTION } from "./markdown.mjs";
import { runRouteEval as routeEvalRun } from "./route-eval.mjs";

const env = process.env;
const runId = env.INPUT_RUN_ID || "ci";
const config = env.INPUT_CONFIG || "route-eval.yaml";
const baseline = env.INPUT_BASELINE || "";
const out = join(env.RUNNER_TEMP || "/tmp", "route-eval-action");
mkdirSync(out, { recursive: true });

/** The last lines of a command's stderr that say why it stopped (progress lines dropped). */
function reason(stderr) {
  const lines = stderr
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l !== "" && !l.startsWith("appended the Markdown summary"));
  const errors = lines.filter((l) => /^route-eval: |error/i.test(l));
  return (errors.length > 0 ? errors : lines).slice(-8).join("\n") || "(no message)";
}

const EXIT = {
  0: "passed",
  1: "a gate failed",
  2: "bad input",
  3: "the endpoint failed",
  4: "internal error (a bug in route-eval)",
  130: "interrupted",
};
const headline = (code, what, vacuous = false) =>
  `### route-eval ${code !== 0 ? "❌" : vacuous ? "⚠️" : "✅"} ${what}${code === 0 ? "" : ` (exit ${code})`}`;

function finish(code, runDir, sections) {
  const summary = `${sections.join(`\n\n${SECTION}\n\n`)}\n`;
  const file = join(out, "summary.md");
  writeFileSync(file, summary);
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, summary);
  if (code !== 0)
    console.log(`::error::route-eval: ${EXIT[code] ?? `exit ${code}`}; the summary says why`);
  appendFileSync(
    env.GITHUB_OUTPUT || "/dev/null",
    `exit-code=${code}\nrun-dir=${runDir}\nsummary-file=${file}\n`,
  );
}

const run = routeEvalRun(
  [
    "run",
    "-c",
    config,
    "--run-id",
    runId,
    "--no-progress",
    "--no-step-summary",
    "--force",
    "--format",
    "html",
  ],
  env.INPUT_ARGS || "",
);
const runDir = /^records and report: (.*)$/m.exec(run.stderr)?.[1] ?? "";
if (runDir === "") {
  const code = run.code === 0 ? 4 : run.code;
  finish(code, "", [
    `${headline(code, "the run did not finish")}\n\n${codeBlock(reason(run.stderr))}`,
  ]);
  process.exit(0);
}

const report =
  JSON.parse(
    routeEvalRun(["report", runDir, "--format", "json"], "", { rerender: true }).stdout || "null",
  ) ?? {};
const reportMarkdown = routeEvalRun(["report", runDir, "--format", "markdown"], "", {
  rerender: true,
}).stdout;
const lines = [runLine(report), gatesLine(report.gates ?? [])];
const folded = [];
let code = run.code;
// A baseline named but not there: regression checking is off. Said first, never folded away.
let missingBaseline = null;
/** The diff's gates that could not have failed with the trials they had. */
let vacuousGates = [];
if (baseline !== "" && !existsSync(baseline)) {
  missingBaseline = `⚠️ **baseline ${inert(baseline)} not found: nothing was checked for regressions.** Save one on the default branch with \`route-eval run --save-baseline main\` (and keep reports/baselines/ in the repository or as an artifact)${env.INPUT_FAIL_ON_MISSING_BASELINE === "true" ? "; fail-on-missing-baseline is set" : ""}.`;
  console.log(`::warning::route-eval: baseline ${baseline} not found; no regression check`);
  if (env.INPUT_FAIL_ON_MISSING_BASELINE === "true") code = Math.max(code, 1);
} else if (baseline !== "") {
  const gateArgs = [
    ...(env.INPUT_MAX_DROP || "")
      .split(/[\s,]+/)
      .filter(Boolean)
      .flatMap((d) => ["--max-drop", d]),
    ...(env.INPUT_FAIL_ON_REGRESSED_CASE === "true" ? ["--fail-on-regressed-case"] : []),
    ...(env.INPUT_FORCE === "true" ? ["--force"] : []),
  ];
  const diffJson = join(runDir, "diff.json");
  const diff = routeEvalRun([
    "diff",
    baseline,
    runDir,
    ...gateArgs,
    "--format",
    "json",
    "--no-step-summary",
    "--output",
    diffJson,
  ]);
  if (diff.code === 2 || !existsSync(diffJson)) {
    lines.push(
      `**diff against ${inert(baseline)}: cannot compare** (exit 2)\n\n${codeBlock(reason(diff.stderr))}`,
    );
    code = Math.max(code, 2);
  } else {
    const result = JSON.parse(readFileSync(diffJson, "utf8"));
    lines.push(diffLine(result, baseline));
    vacuousGates = (result.gates ?? []).filter((g) => g.not_evaluable !== undefined);
    const markdown = routeEvalRun([
      "diff",
      baseline,
      runDir,
      ...gateArgs,
      "--format",
      "markdown",
      "--no-step-summary",
    ]).stdout;
    writeFileSync(join(runDir, "diff.md"), markdown);
    folded.push(fold(`the diff against ${baseline}`, markdown));
    code = Math.max(code, diff.code);
  }
}
folded.push(fold("the full report", reportMarkdown));
const what =
  code === 0
    ? "passed"
    : code === 2 && run.code !== 2
      ? "the diff cannot compare"
      : missingBaseline !== null && code === 1 && run.code === 0
        ? "the baseline is missing"
        : (EXIT[code] ?? "failed");
const first = missingBaseline === null ? [] : [missingBaseline];
// A gate that could not have failed is no pass: the verdict says so first.
const vacuous = vacuousGates.length > 0;
const said =
  code === 0 && vacuous
    ? `passed, but ${vacuousGates.length === 1 ? "a gate" : `${vacuousGates.length} gates`} could not have failed`
    : what;
finish(code, runDir, [
  `${headline(code, said, vacuous)}\n\n${[...first, ...lines].join("<br>\n")}`,
  ...folded,
]);

function runLine(r) {
  const meta = r.run ?? {};
  const m = r.metrics ?? {};
  const rate = (name, label) =>
    m[name]?.denominator > 0
      ? `${label} ${(100 * m[name].value).toFixed(1)}% (${m[name].numerator}/${m[name].denominator})`
      : null;
  const cases = (r.cases ?? []).length;
  const parts = [
    `**run** ${inert(meta.run_id ?? runId)}`,
    `${inert(String(meta.endpoint))}/${inert(String(meta.model))}`,
    `${cases} case${cases === 1 ? "" : "s"}`,
    rate("end_to_end_accuracy", "end-to-end"),
    rate("selection_accuracy", "selection"),
    m.errored > 0 ? `${m.errored} errored` : null,
  ];
  return parts.filter((p) => p !== null).join(" · ");
}

function gatesLine(gates) {
  if (gates.length === 0) return "**gates:** none set";
  const failed = gates.filter((g) => !g.passed);
  if (failed.length === 0) return `**gates:** ${gates.length} of ${gates.length} passed`;
  return `**gates:** ${failed.length} of ${gates.length} failed: ${failed.map((g) => inert(g.reason)).join("; ")}`;
}

function diffLine(d, base) {
  const f = d.outcome?.flips ?? {};
  const failed = (d.gates ?? []).filter((g) => !g.passed);
  const vacuous = (d.gates ?? []).filter((g) => g.not_evaluable !== undefined);
  // Only what was measured on both sides and moved: an unmeasured metric is no "+0.0 pts".
  const moved = (d.metrics ?? [])
    .filter((m) => ["improved", "regressed", "changed"].includes(m.change) && m.delta !== null)
    .map(
      (m) =>
        `${inert(m.label)} ${m.delta >= 0 ? "+" : "−"}${Math.abs(100 * m.delta).toFixed(1)} pts`,
    );
  return [
    `**diff** against ${inert(base)}: ${inert(String(d.verdict))}`,
    `${f.fixed ?? 0} fixed, ${f.regressed ?? 0} regressed of ${d.outcome?.cases?.pairs ?? 0} cases${d.noise === undefined ? "" : ` (${d.noise.regressed.length} beyond their trial noise)`}`,
    moved.length > 0
      ? `changed: ${moved.slice(0, 4).join(", ")}${moved.length > 4 ? ` and ${moved.length - 4} more` : ""}`
      : "no metric changed",
    failed.length > 0
      ? `gates failed: ${failed.map((g) => inert(g.reason ?? g.rule)).join("; ")}`
      : null,
    vacuous.length > 0
      ? `not evaluable: ${vacuous.map((g) => `${inert(g.rule)} (${inert(g.not_evaluable)})`).join("; ")}`
      : null,
  ]
    .filter((p) => p !== null)
    .join(" · ");
}
