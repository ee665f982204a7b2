/**
 * `route-eval merge OUT DIR...` composition root: shard runs (`run --shard I/N`) combined into one
 * run directory whose report equals the unsharded run's. Runs with different settings or inputs
 * are refused, naming the difference; a unit missing or recorded twice is refused, naming it.
 * Shards of an experiment (variants:, ablate) or a sweep merge each variant or point that way,
 * then compare or sum them up again, as the unsharded experiment or sweep did.
 */
import { findUnplanned, plannedUnits } from "../run-files/plan.js";
import { nextTrials } from "../metrics/adaptive.js";
import { tallyRecords } from "../metrics/record-tally.js";
import type { Io } from "../context.js";
import { emitExperiment } from "./experiment.js";
import { emitReport, verdict, type OutputFlags } from "./emit-report.js";
import { reportSweep } from "./report-sweep.js";
import type { Outcome } from "../types.js";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { buildReport } from "../report/build-report.js";
import { InputError } from "../errors.js";
import { readRun } from "../run-files/read-run.js";
import { openRecordWriter } from "../run-files/records-io.js";
import { findResumeDifferences } from "../run-files/resume-check.js";
import { writeJsonFile, writeReportFile, writeTextFile } from "../run-files/write-files.js";
import { readExperimentFile } from "../run-files/read-experiment.js";
import { readSweepFile } from "../run-files/read-sweep.js";
import type { Shard } from "../run-files/shard.js";
import type { VariantRun } from "../ablate/compare-variants.js";
import type { Experiment } from "../types/ablate.js";
import { renderSweep } from "../sweep/render-sweep.js";
import { summarisePoint, thresholdsOf } from "../sweep/summarise-point.js";
import type { SweepReport } from "../types/sweep.js";
import { stableStringify } from "../render/stable-json.js";
import { canonicalJson } from "../text/canonical-json.js";
import { completeExperiment, EXPERIMENT_FILE, type ExperimentResult } from "../trial/experiment.js";
import { compareText } from "../text/compare-text.js";
import { trialKey, type Report, type RunMeta, type TrialRecord } from "../types.js";

const LISTED = 5;

/** Shard runs checked to be one run, whole, each unit once: their combined records, sorted. */
interface CheckedShards {
  runs: (ReturnType<typeof readRun> & { target: string })[];
  records: TrialRecord[];
}

export function mergeShards(
  out: string,
  targets: string[],
  options: { gates: boolean; replace: boolean },
): { runDir: string; report: Report; records: TrialRecord[] } {
  const checked = checkShards(targets);
  return writeMerged(prepareOut(out, options.replace), checked, options.gates);
}

/** The shard runs read and checked (nothing is written): one run's settings and inputs, every unit exactly once. */
function checkShards(targets: string[]): CheckedShards {
  if (targets.length === 0)
    throw new InputError("merge: give the shard run directories to combine");
  const runs = targets.map((target) => ({ target, ...readRun(target) }));
  const [first] = runs;
  for (const run of runs) {
    if (run.meta.shard === undefined)
      throw new InputError(
        `merge: ${run.target} is not a shard (its run.json has no shard; run it with --shard I/N)`,
      );
  }
  const count = first.meta.shard?.count ?? 1;
  for (const run of runs.slice(1)) {
    const differences = findResumeDifferences(
      { ...first.meta, shard: undefined },
      { ...run.meta, shard: undefined },
    );
    if (run.meta.shard?.count !== count)
      differences.unshift(`shard count ${count} → ${run.meta.shard?.count}`);
    if (differences.length > 0)
      throw new InputError(
        `merge: ${run.target} is not a shard of the same run as ${first.target}: ${differences.join("; ")}`,
      );
  }
  const indexes = new Map<number, string>();
  for (const run of runs) {
    const index = run.meta.shard?.index ?? 0;
    const other = indexes.get(index);
    if (other !== undefined)
      throw new InputError(
        `merge: ${other} and ${run.target} are both shard ${index}/${count} (the same shard given twice?)`,
      );
    indexes.set(index, run.target);
    const unplanned = findUnplanned(run.meta, run.records, run.meta.shard);
    if (unplanned !== null) throw new InputError(`merge: ${run.target}: ${unplanned}`);
  }
  const seen = new Map<string, string>();
  const records: TrialRecord[] = [];
  for (const run of runs) {
    for (const record of run.records) {
      const key = trialKey(record.case_id, record.trial);
      const other = seen.get(key);
      if (other !== undefined)
        throw new InputError(
          `merge: case "${record.case_id}" trial ${record.trial} is in both ${other} and ${run.target} (the same shard given twice?)`,
        );
      seen.set(key, run.target);
      records.push(record);
    }
  }
  // Adaptive trials plan no fixed units: a case is done once decided, or at the cap.
  const adaptive = first.meta.adaptive;
  const unfinished =
    adaptive === undefined
      ? []
      : [
          ...nextTrials(
            Object.keys(first.meta.inputs?.cases ?? {}),
            tallyRecords(records),
            adaptive,
            first.meta.config.success ?? "selection",
          ).keys(),
        ];
  if (unfinished.length > 0) {
    throw new InputError(
      `merge: ${unfinished.length} cases are neither decided nor at the cap of ${adaptive?.max_trials} trials in the shards given: ${unfinished.slice(0, LISTED).join(", ")}${unfinished.length > LISTED ? ", …" : ""}; add the missing shards, or finish them with --resume`,
    );
  }
  const missing =
    adaptive !== undefined ? [] : (plannedUnits(first.meta) ?? []).filter((key) => !seen.has(key));
  if (missing.length > 0) {
    const named = missing.slice(0, LISTED).map((key) => key.replace("\u0000", " trial "));
    const shards = [...new Set(runs.map((r) => r.meta.shard?.index))]
      .sort((a, b) => (a ?? 0) - (b ?? 0))
      .join(", ");
    throw new InputError(
      `merge: ${missing.length} (case, trial) units are in no shard given (shards ${shards} of ${count}): ${named.join(", ")}${missing.length > LISTED ? ", …" : ""}; add the missing shards, or finish them with --resume`,
    );
  }
  records.sort((a, b) => compareText(a.case_id, b.case_id) || a.trial - b.trial);
  return { runs, records };
}

/** The merged run directory: the records in (case, trial) order, run.json without the shard, report.json. */
function writeMerged(
  dir: string,
  { runs, records }: CheckedShards,
  gates: boolean,
): { runDir: string; report: Report; records: TrialRecord[] } {
  mkdirSync(dir, { recursive: true });
  const writer = openRecordWriter(join(dir, "records.jsonl"));
  try {
    for (const record of records) writer.append(record);
  } finally {
    writer.close();
  }
  const meta: RunMeta = {
    ...runs[0].meta,
    run_id: basename(dir),
    ...spanOf(runs.map((r) => r.meta)),
  };
  delete meta.shard;
  writeJsonFile(join(dir, "run.json"), meta);
  const report = buildReport(meta, records, { gates });
  writeReportFile(join(dir, "report.json"), report);
  return { runDir: dir, report, records };
}

/** The shards' span: the first start, and the last finish (null when one has not finished). */
function spanOf(parts: { started_at: string; finished_at: string | null }[]): {
  started_at: string;
  finished_at: string | null;
} {
  const started = parts.map((p) => p.started_at).sort()[0];
  const finished = parts.some((p) => p.finished_at === null)
    ? null
    : (parts
        .map((p) => p.finished_at ?? "")
        .sort()
        .at(-1) ?? null);
  return { started_at: started, finished_at: finished };
}

/** The shards of a whole (experiment or sweep) directory, each read, and checked to be of one plan and distinct. */
function checkShardSet<T extends { shard?: Shard }>(
  what: string,
  targets: string[],
  read: (target: string) => T,
  planOf: (value: T) => unknown,
): { target: string; value: T }[] {
  const shards = targets.map((target) => ({ target, value: read(target) }));
  const [first] = shards;
  const seen = new Map<number, string>();
  for (const { target, value } of shards) {
    if (value.shard === undefined)
      throw new InputError(
        `merge: ${target} is not a shard (its ${what} has no shard; run it with --shard I/N)`,
      );
    if (value.shard.count !== first.value.shard?.count)
      throw new InputError(
        `merge: ${target} is shard ${value.shard.index}/${value.shard.count}, ${first.target} is of ${first.value.shard?.count}: not shards of one run`,
      );
    const other = seen.get(value.shard.index);
    if (other !== undefined)
      throw new InputError(
        `merge: ${other} and ${target} are both shard ${value.shard.index}/${value.shard.count} (the same shard given twice?)`,
      );
    seen.set(value.shard.index, target);
    if (canonicalJson(planOf(value)) !== canonicalJson(planOf(first.value)))
      throw new InputError(
        `merge: ${target} is not a shard of the same ${what.replace(".json", "")} as ${first.target}: ${describePlanDifference(planOf(first.value), planOf(value))}`,
      );
  }
  return shards;
}

/** The first top-level key whose value differs, as "key: A → B" (values cut short). */
function describePlanDifference(a: unknown, b: unknown): string {
  const left = (a ?? {}) as Record<string, unknown>;
  const right = (b ?? {}) as Record<string, unknown>;
  const cut = (value: unknown) => {
    const text = canonicalJson(value);
    return text.length > 60 ? `${text.slice(0, 57)}…` : text;
  };
  const key = [...new Set([...Object.keys(left), ...Object.keys(right)])].find(
    (k) => canonicalJson(left[k]) !== canonicalJson(right[k]),
  );
  return key === undefined ? "they differ" : `${key} ${cut(left[key])} → ${cut(right[key])}`;
}

/** The shards of a variants experiment or ablation (`run --shard I/N` with variants:), merged variant by variant and compared again. */
export function mergeExperimentShards(
  out: string,
  targets: string[],
  options: { replace: boolean; now: () => Date },
): ExperimentResult {
  const shards = checkShardSet(
    EXPERIMENT_FILE,
    targets,
    (target) => readExperimentFile(join(target, EXPERIMENT_FILE)),
    (e) => ({
      kind: e.kind,
      base: e.base,
      trials: e.trials,
      variants: e.variants,
      skipped: e.skipped,
      gate_rules: e.gate_rules ?? null,
    }),
  );
  const first = shards[0].value;
  // Every variant checked before anything is written.
  const checked = first.variants.map((v) => checkShards(shards.map((s) => join(s.target, v.dir))));
  const outDir = prepareOut(out, options.replace);
  const finished = first.variants.map((v, index): VariantRun => {
    const { report, records } = writeMerged(join(outDir, v.dir), checked[index], true);
    return { name: v.name, label: join(outDir, v.dir), report, records };
  });
  const span = spanOf(shards.map((s) => s.value));
  const experiment: Experiment = {
    ...first,
    experiment_id: basename(outDir),
    started_at: span.started_at,
  };
  delete experiment.shard;
  completeExperiment(experiment, finished, options.now());
  experiment.finished_at = span.finished_at;
  writeTextFile(join(outDir, EXPERIMENT_FILE), `${stableStringify(experiment, 2)}\n`);
  return { dir: outDir, experiment };
}

/** The shards of a sweep (`sweep --shard I/N`), merged point by point and summed up again. */
export function mergeSweepShards(
  out: string,
  targets: string[],
  options: { replace: boolean },
): { sweepDir: string; sweep: SweepReport } {
  const shards = checkShardSet(
    "sweep.json",
    targets,
    (target) => readSweepFile(join(target, "sweep.json")),
    (s) => ({
      kind: s.kind,
      endpoint: s.endpoint,
      model: s.model,
      settings: s.settings,
      points: s.points.map((p) => p.run),
    }),
  );
  const first = shards[0].value;
  const checked = first.points.map((p) => checkShards(shards.map((s) => join(s.target, p.run))));
  const outDir = prepareOut(out, options.replace);
  const points = first.points.map((p, index) => {
    const { report, records } = writeMerged(join(outDir, p.run), checked[index], true);
    return summarisePoint(p.value, p.run, report, records, first.settings.trials);
  });
  // A sweep writes sweep.json once every point is done, so every shard has finished.
  const span = spanOf(shards.map((s) => s.value));
  const sweep: SweepReport = {
    ...first,
    sweep_id: basename(outDir),
    started_at: span.started_at,
    finished_at: span.finished_at ?? first.finished_at,
    points,
    thresholds: thresholdsOf(first.kind, points),
  };
  delete sweep.shard;
  writeTextFile(join(outDir, "sweep.json"), renderSweep(sweep, "json"));
  writeTextFile(join(outDir, "sweep.csv"), renderSweep(sweep, "csv"));
  return { sweepDir: outDir, sweep };
}

/** OUT, made empty: refused when it exists, unless --force. */
function prepareOut(out: string, replace: boolean): string {
  const outDir = resolve(out);
  if (existsSync(outDir)) {
    if (!replace)
      throw new InputError(
        `merge: ${out} already exists; choose another directory, or pass --force to replace it`,
      );
    rmSync(outDir, { recursive: true, force: true });
  }
  mkdirSync(outDir, { recursive: true });
  return outDir;
}

export interface MergeFlags extends OutputFlags {
  force?: boolean;
}

/** What the shard directories hold: runs, experiments (experiment.json) or sweeps (sweep.json). */
type ShardKind = "run" | "experiment" | "sweep";

/** `route-eval merge OUT SHARD...`: the shards of one run, experiment or sweep combined, then rendered. */
export function mergeCommand(io: Io, out: string, shards: string[], flags: MergeFlags): Outcome {
  const outDir = resolve(io.cwd, out);
  const targets = shards.map((s) => resolve(io.cwd, s));
  const source = targets.findIndex(
    (target) =>
      target === outDir || outDir.startsWith(`${target}/`) || target.startsWith(`${outDir}/`),
  );
  if (source !== -1)
    throw new InputError(
      `merge: ${out} is (or holds, or is inside) the shard ${shards[source]}; write the merged run to a directory of its own`,
    );
  const kind = kindOf(targets, shards);
  const options = { replace: flags.force === true, now: io.now };
  if (kind === "experiment") {
    const result = mergeExperimentShards(outDir, targets, options);
    io.stderr(`merged ${shards.length} experiment shards into ${result.dir}\n`);
    return emitExperiment(io, result, {
      format: flags.format,
      output: flags.output,
      stepSummary: false,
    });
  }
  if (kind === "sweep") {
    const { sweepDir } = mergeSweepShards(outDir, targets, options);
    io.stderr(`merged ${shards.length} sweep shards into ${sweepDir}\n`);
    reportSweep(io, sweepDir, flags);
    return "ok";
  }
  const { runDir, report, records } = mergeShards(outDir, targets, {
    gates: flags.gates !== false,
    replace: options.replace,
  });
  emitReport(io, report, flags, report.gates, { runDir, records: () => records });
  io.stderr(`merged ${shards.length} shard${shards.length === 1 ? "" : "s"} into ${runDir}\n`);
  return verdict(io, report, report.gates);
}

function kindOf(targets: string[], shown: string[]): ShardKind {
  const kinds = targets.map((target): ShardKind =>
    existsSync(join(target, EXPERIMENT_FILE))
      ? "experiment"
      : existsSync(join(target, "sweep.json"))
        ? "sweep"
        : "run",
  );
  const other = kinds.findIndex((k) => k !== kinds[0]);
  if (other !== -1)
    throw new InputError(
      `merge: ${shown[0]} is ${article(kinds[0])} shard and ${shown[other]} is ${article(kinds[other])} shard; give the shards of one run, experiment or sweep`,
    );
  return kinds[0];
}

function article(kind: ShardKind): string {
  return kind === "experiment" ? "an experiment" : `a ${kind}`;
}
