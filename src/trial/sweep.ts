/**
 * The sweep's composition root: hold the cases fixed, and run them once per size (visible
 * ordinary tools) or per k (the retriever's budget). Each point is a full run — records.jsonl,
 * run.json, report.json under <out>/<sweep-id>/<point>/ — so `route-eval report` works on it.
 */
import type { RunProgress } from "../types.js";
import { makeDirectory } from "../run-files/write-files.js";
import { runDirectoryOf } from "../run-files/run-directory.js";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadCases } from "../cases/load-cases.js";
import { checkModes } from "../config/modes.js";
import { InputError } from "../errors.js";
import { loadRegistry } from "../registry/load-registry.js";
import { writeTextFile } from "../run-files/write-files.js";
import { runEvaluation } from "./evaluate.js";
import type { SweepHook } from "./run-trial.js";
import type {
  Case,
  Config,
  Registry,
  Report,
  ToolDefinition,
  ToolSearchMode,
  TrialRecord,
} from "../types.js";
import { CONTROL_TOOLS, renderDefinition } from "../registry/render-definition.js";
import { definitionTokens } from "../endpoint/estimate-tokens.js";
import { meanOf } from "../metrics/wilson.js";
import { definitionsOf } from "./trial-request.js";
import { TOOL_VERSION } from "../version.js";
import { createCasePadder } from "../sweep/pad-registry.js";
import { renderSweep } from "../sweep/render-sweep.js";
import { createSizeHook } from "../sweep/size-hook.js";
import { summarisePoint, thresholdsOf } from "../sweep/summarise-point.js";
import {
  SWEEP_SCHEMA_VERSION,
  type SweepKind,
  type SweepPoint,
  type SweepReport,
  type DistractorPolicy,
} from "../types/sweep.js";
import type { Shard } from "../run-files/shard.js";

export interface SweepOptions {
  kind: SweepKind;
  /** Sizes or ks; sorted and de-duplicated here. */
  values: number[];
  distractors: DistractorPolicy;
  /** A registry snapshot whose tools pad every case's registry (size sweeps). */
  distractorRegistry: string | null;
  sweepId?: string;
  now: () => Date;
  /** Where API keys are read from. */
  env: NodeJS.ProcessEnv;
  /** Told when each point is done (the CLI prints it on stderr). */
  onPoint?: (point: SweepPoint, runDir: string) => void;
  /** Each point's trials as they finish (the run's progress lines). */
  onProgress?: (progress: RunProgress) => void;
  /** Run only this shard's (case, trial) units at every point (`--shard I/N`). */
  shard?: Shard;
  /** Size sweeps: run each size once per tool_search mode (`--tool-search-axis off,client`). */
  toolSearch?: ToolSearchMode[];
}

export async function runSweep(
  config: Config,
  options: SweepOptions,
): Promise<{ sweepDir: string; sweep: SweepReport }> {
  const now = options.now;
  checkSweep(config, options);
  const values = [...new Set(options.values)].sort((a, b) => a - b);
  const padding =
    options.distractorRegistry === null
      ? null
      : loadRegistry(options.distractorRegistry, config.cwd);
  const started = now();
  const sweepId = options.sweepId ?? `${stamp(started)}-sweep-${options.kind}`;
  const sweepDir = prepareSweepDir(resolve(config.root, config.out_dir), sweepId);
  const { hookAt, cases } = createHooks(config, options, padding, loadCases(config));
  const width = String(values[values.length - 1]).length;
  const points: SweepPoint[] = [];
  let identity = { endpoint: config.endpoint, model: config.model ?? "" };
  const modes = options.toolSearch;
  const definitions = modes === undefined ? null : definitionsOfCases(cases, config);
  for (const value of values) {
    for (const mode of modes ?? [null]) {
      const runId = `${options.kind}-${String(value).padStart(Math.max(2, width), "0")}${mode === null ? "" : `-search-${mode}`}`;
      const pointConfig: Config = {
        ...config,
        out_dir: sweepDir,
        discovery: SWEEP_AXES[options.kind].discovery(config, value),
        ...(mode === null ? {} : { tool_search: { ...config.tool_search, mode } }),
      };
      const {
        runDir,
        report,
        records: readBack,
      } = await runEvaluation(pointConfig, {
        place: { kind: "new", id: runId },
        now,
        env: options.env,
        sweep: hookAt(value),
        shard: options.shard,
        onProgress: options.onProgress,
      });
      const records = readBack();
      const summary = summarisePoint(value, runId, report, records, config.trials);
      const point =
        mode === null || definitions === null
          ? summary
          : { ...summary, ...summariseSearch(mode, report, records, definitions) };
      identity = { endpoint: report.run.endpoint, model: report.run.model };
      points.push(point);
      options.onPoint?.(point, runDir);
    }
  }
  const sweep = describeSweep({
    sweepId,
    config,
    options,
    values,
    padding,
    points,
    identity,
    started,
    finished: now(),
  });
  writeTextFile(join(sweepDir, "sweep.json"), renderSweep(sweep, "json"));
  writeTextFile(join(sweepDir, "sweep.csv"), renderSweep(sweep, "csv"));
  return { sweepDir, sweep };
}

/**
 * What each kind of sweep varies and how its points are run: one row a kind. A size sweep fixes
 * each case's visible set itself (padded with distractors, no retriever); a k sweep keeps the
 * retriever and sets its k.
 */
interface SweepAxis {
  /** The flag that gives its values. */
  flag: "--sizes" | "--k";
  /** Whether --tool-search-axis (search on and off at each point) applies. */
  searchAxis: boolean;
  /** Why these settings cannot be swept this way, or null. */
  refuse(config: Config, options: SweepOptions): string | null;
  /** A point's discovery settings. */
  discovery(config: Config, value: number): Config["discovery"];
  /** Whether its points pad and fix the visible sets (distractors). */
  pads: boolean;
}

const SWEEP_AXES: Record<SweepKind, SweepAxis> = {
  size: {
    flag: "--sizes",
    searchAxis: true,
    refuse: () => null,
    discovery: () => ({ retriever: "none" }),
    pads: true,
  },
  k: {
    flag: "--k",
    searchAxis: false,
    refuse: (config, options) => {
      if (config.discovery.retriever === "none")
        return "--k: a k sweep varies the retriever's budget, and discovery.retriever is none; pass --retriever bm25 (or embeddings)";
      if (options.distractorRegistry !== null)
        return "--distractor-registry: pads the visible set of a size sweep; it does not apply to a k sweep";
      return null;
    },
    discovery: (config, value) => ({ ...config.discovery, k: value }),
    pads: false,
  },
};

function checkSweep(config: Config, options: SweepOptions): void {
  const axis = SWEEP_AXES[options.kind];
  if (options.toolSearch !== undefined) {
    if (!axis.searchAxis)
      throw new InputError(
        `--tool-search-axis: compares search on and off at each catalogue size; it goes with --sizes, not ${axis.flag}`,
      );
    if (options.toolSearch.length === 0)
      throw new InputError("--tool-search-axis: expected at least one mode, e.g. off,client");
    if (options.shard !== undefined)
      throw new InputError(
        "--tool-search-axis: a search axis sweep is not sharded (merge cannot recount the definition tokens of its search-off points); run it whole, without --shard",
      );
    for (const mode of options.toolSearch)
      checkModes({
        config: { ...config, tool_search: { ...config.tool_search, mode } },
        command: "sweep",
      });
  }
  if (options.values.length === 0)
    throw new InputError(`${axis.flag}: expected at least one value`);
  const refusal = axis.refuse(config, options);
  if (refusal !== null) throw new InputError(refusal);
}

/** Each case's model-facing definitions (controls included; one map per registry), for the definition tokens of a point without search. */
function definitionsOfCases(
  cases: Case[],
  config: Config,
): Map<string, ReadonlyMap<string, ToolDefinition>> {
  const byRegistry = new Map<Registry, Map<string, ToolDefinition>>();
  const out = new Map<string, ReadonlyMap<string, ToolDefinition>>();
  for (const { id, registry } of cases) {
    let defs = byRegistry.get(registry);
    if (defs === undefined)
      byRegistry.set(
        registry,
        (defs = new Map(
          [...Object.values(CONTROL_TOOLS), ...registry.tools].map((tool) => [
            tool.name,
            renderDefinition(tool, config.descriptions),
          ]),
        )),
      );
    out.set(id, defs);
  }
  return out;
}

/** The search series of a point: its mode, definition tokens per decision (search: over its calls) and, with search, search recall. */
function summariseSearch(
  mode: ToolSearchMode,
  report: Report,
  records: TrialRecord[],
  definitions: Map<string, ReadonlyMap<string, ToolDefinition>>,
): Partial<SweepPoint> {
  const tokensOf = (record: TrialRecord): number => {
    if (record.search !== undefined) return record.search.definition_tokens;
    const defs = definitions.get(record.case_id);
    return defs === undefined ? 0 : definitionTokens(definitionsOf(record.visible_order, defs));
  };
  const search = report.metrics.tool_search;
  return {
    tool_search: mode,
    definition_tokens: meanOf(
      records.filter((r) => r.error === null),
      tokensOf,
    ),
    ...(search === undefined ? {} : { search_recall: search.search_recall }),
  };
}

/** The run hook of each point; cases are loaded (and padded) once, and per-case orders shared by all points. */
function createHooks(
  config: Config,
  options: SweepOptions,
  padding: Registry | null,
  loaded: Case[],
): { hookAt: (value: number) => SweepHook; cases: Case[] } {
  const padder = padding === null ? null : createCasePadder(padding);
  const cases = padder === null ? loaded : padder.padCases(loaded);
  return { hookAt: hooksOf(config, options, padder, cases), cases };
}

function hooksOf(
  config: Config,
  options: SweepOptions,
  padder: ReturnType<typeof createCasePadder> | null,
  cases: Case[],
): (value: number) => SweepHook {
  if (!SWEEP_AXES[options.kind].pads) return () => ({ cases });
  const visibleAt = createSizeHook({
    seed: config.seed,
    policy: options.distractors,
    paddingNames: (registry) => padder?.paddingNames(registry) ?? new Set(),
  });
  return (size) => ({ cases, visibleFor: visibleAt(size) });
}

interface SweepFacts {
  sweepId: string;
  config: Config;
  options: SweepOptions;
  values: number[];
  padding: Registry | null;
  points: SweepPoint[];
  identity: { endpoint: string; model: string };
  started: Date;
  finished: Date;
}

function describeSweep(f: SweepFacts): SweepReport {
  const size = SWEEP_AXES[f.options.kind].pads;
  return {
    ...(f.options.shard === undefined ? {} : { shard: f.options.shard }),
    schema_version: SWEEP_SCHEMA_VERSION,
    sweep_id: f.sweepId,
    kind: f.options.kind,
    tool_version: TOOL_VERSION,
    started_at: f.started.toISOString(),
    finished_at: f.finished.toISOString(),
    endpoint: f.identity.endpoint,
    model: f.identity.model,
    settings: {
      values: f.values,
      trials: f.config.trials,
      seed: f.config.seed,
      cases: f.config.cases,
      distractors: size ? f.options.distractors : null,
      distractor_registry:
        f.padding === null
          ? null
          : { snapshot: f.padding.snapshot, revision: f.padding.revision, file: f.padding.file },
      retriever: size ? null : f.config.discovery.retriever,
      ...(f.options.toolSearch === undefined ? {} : { tool_search: f.options.toolSearch }),
    },
    points: f.points,
    thresholds: thresholdsOf(f.options.kind, firstSeries(f.points)),
  };
}

/** The points of the first tool_search mode (all of them without --tool-search-axis). */
function firstSeries(points: SweepPoint[]): SweepPoint[] {
  const first = points[0]?.tool_search;
  return points.filter((p) => p.tool_search === first);
}

/** `20261130-124955`: sortable, one per second. */
function stamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
}

function prepareSweepDir(outDir: string, sweepId: string): string {
  let dir = runDirectoryOf(outDir, sweepId, "--sweep-id");
  for (let n = 2; existsSync(dir); n++) dir = join(outDir, `${sweepId}-${n}`);
  makeDirectory(dir);
  return dir;
}
