/**
 * `route-eval counterfactual RUN` composition root: re-ask each failed trial of a finished run —
 * same endpoint, case, prior turns and settings — with one change to the visible set, through the
 * response store (a rerun is free, `--mode replay` works), then compute the headroom from those
 * records alone: counterfactual/records.jsonl and counterfactual.json inside the run directory.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  breakDownSelection,
  computeStageHeadroom,
  rankRivalPairs,
  summariseOutcomes,
} from "../counterfactual/headroom.js";
import {
  COUNTERFACTUAL_SCHEMA_VERSION,
  type CounterfactualReport,
  type FixKind,
} from "../types/counterfactual.js";
import {
  planCounterfactuals,
  type CounterfactualUnit,
  type Plan,
} from "../counterfactual/plan-counterfactuals.js";
import { openRunAgain } from "./ask-again.js";
import { loadRegistry } from "../registry/load-registry.js";
import { CONTROL_TOOLS, renderDefinition } from "../registry/render-definition.js";
import { stableStringify } from "../render/stable-json.js";
import { readRecords } from "../run-files/records-io.js";
import { writeTextFile } from "../run-files/write-files.js";
import { discover } from "../discovery/discover.js";
import { deriveSeed } from "../text/seeded-random.js";
import {
  isControl,
  type Case,
  type Config,
  type Discovery,
  type Registry,
  type RunProgress,
  type Tool,
  type ToolDefinition,
  type TrialRecord,
} from "../types.js";
import { createRetriever, createSearcher } from "./create-retriever.js";
import { createAsker, type Decision, type DecisionAsker } from "./ask-decision.js";
import { lazy } from "../text/lazy.js";
import type { TrialJob } from "./run-loop.js";
import { runIntoFile } from "./side-run.js";

export interface CounterfactualOptions {
  kinds: readonly FixKind[];
  max: number | null;
  /** Repeats per counterfactual; null = as many as the run's trials of that case. */
  repeats: number | null;
  /** A registry snapshot whose tools may be injected for coverage failures. */
  registryWith: string | null;
  dryRun: boolean;
  env: NodeJS.ProcessEnv;
  onProgress?: (progress: RunProgress) => void;
  onWarning?: (message: string) => void;
  signal?: AbortSignal;
}

export type CounterfactualResult =
  | { dryRun: true; plan: Plan; calls: number; runDir: string }
  | {
      dryRun: false;
      plan: Plan;
      report: CounterfactualReport;
      runDir: string;
      records: TrialRecord[];
      counterfactuals: TrialRecord[];
    };

export const COUNTERFACTUAL_DIR = "counterfactual";

export async function runCounterfactuals(
  target: string,
  config: Config,
  options: CounterfactualOptions,
): Promise<CounterfactualResult> {
  // Counterfactuals ask the run's own questions: its cases and tools as they were.
  const { runDir, meta, records, cases, endpoint } = openRunAgain(
    target,
    config,
    options,
    "a counterfactual would ask another question",
    "run it on a fresh run of these inputs",
  );
  try {
    const extra =
      options.registryWith === null ? [] : loadRegistry(options.registryWith, config.cwd).tools;
    const byCase = new Map(cases.map((c) => [c.id, c]));
    const definitions = definitionMap(cases, extra, config);
    const known = new Set(definitions.keys());
    const retrievals = options.kinds.includes("inject")
      ? await retrieveInjected(config, records, byCase, extra, known, options.env)
      : new Map<TrialRecord, Discovery>();
    const retrieveWith = (record: TrialRecord) => retrievals.get(record)?.retrieved ?? null;
    const plan = planCounterfactuals(records, {
      kinds: options.kinds,
      known,
      max: options.max,
      seed: config.seed,
      retrieveWith,
    });
    const trialsOf = countTrials(records);
    const repeatsOf = (unit: CounterfactualUnit) =>
      options.repeats ?? trialsOf.get(unit.record.case_id) ?? 1;
    const calls = plan.units.reduce((sum, unit) => sum + repeatsOf(unit), 0);
    if (options.dryRun) return { dryRun: true, plan, calls, runDir };

    const dir = join(runDir, COUNTERFACTUAL_DIR);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // One asker per registry (its tools and searcher), over every definition a counterfactual may show; no shuffling.
    const askers = new Map<Registry, DecisionAsker>();
    const askerOf = (registry: Registry) => {
      let asker = askers.get(registry);
      if (asker === undefined) {
        const parts = {
          config: { ...config, shuffle_tools: false },
          endpoint,
          registryNames: [],
          definitions,
          registry,
          searcher: lazy(() => createSearcher(config, registry, options.env)),
        };
        askers.set(registry, (asker = createAsker(parts)));
      }
      return asker;
    };
    const jobsOf = (keep: (record: TrialRecord) => void): TrialJob[] =>
      plan.units.flatMap((unit) => {
        const testCase = byCase.get(unit.record.case_id);
        if (testCase === undefined) return [];
        const discovery =
          unit.placement === "retriever ran" ? retrievals.get(unit.record) : undefined;
        return Array.from({ length: repeatsOf(unit) }, (_, repeat) => ({
          run: () => askUnit(config, askerOf(testCase.registry), testCase, unit, repeat, discovery),
          keep,
        }));
      });
    const side = {
      file: join(dir, "records.jsonl"),
      resumed: 0,
      concurrency: config.concurrency,
      what: "counterfactual trials",
      again: "run it again",
      onProgress: options.onProgress,
      signal: options.signal,
      pace: endpoint.pace,
    };
    await runIntoFile(side, jobsOf);
    const saved = readRecords(join(dir, "records.jsonl"));
    const report = buildCounterfactualReport(
      meta.run_id,
      endpoint.id,
      endpoint.model,
      records,
      saved,
      { kinds: options.kinds, repeats: options.repeats, notes: plan.notes, calls },
    );
    writeTextFile(join(dir, "counterfactual.json"), `${stableStringify(report, 2)}\n`);
    return { dryRun: false, plan, report, runDir, records, counterfactuals: saved };
  } finally {
    await endpoint.close?.();
  }
}

/** The headroom, from the run's records (denominators) and the counterfactual records alone. */
export function buildCounterfactualReport(
  runId: string,
  endpoint: string,
  model: string,
  records: TrialRecord[],
  counterfactuals: TrialRecord[],
  facts: { kinds: readonly FixKind[]; repeats: number | null; notes: string[]; calls: number },
): CounterfactualReport {
  const outcomes = summariseOutcomes(records, counterfactuals);
  const stages = computeStageHeadroom(records, outcomes);
  const scored = records.filter((r) => r.error === null);
  const errored = counterfactuals.filter((r) => r.error !== null).length;
  return {
    schema_version: COUNTERFACTUAL_SCHEMA_VERSION,
    run_id: runId,
    endpoint,
    model,
    kinds: [...facts.kinds],
    repeats: facts.repeats ?? "as the run",
    scored: scored.length,
    correct: scored.filter((r) => r.failed_stage === null).length,
    calls: facts.calls,
    stages,
    selection: breakDownSelection(outcomes, stages),
    rival_pairs: rankRivalPairs(records, outcomes),
    outcomes,
    notes: [
      ...facts.notes,
      ...(errored > 0
        ? [`${errored} counterfactual trials errored and are left out of every rate`]
        : []),
    ],
  };
}

function countTrials(records: TrialRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.case_id, (counts.get(r.case_id) ?? 0) + 1);
  return counts;
}

/** Every definition a counterfactual may show: the cases' registries, the controls, and --registry-with's tools. */
function definitionMap(cases: Case[], extra: Tool[], config: Config): Map<string, ToolDefinition> {
  const map = new Map<string, ToolDefinition>();
  for (const tool of Object.values(CONTROL_TOOLS)) map.set(tool.name, renderDefinition(tool));
  for (const tool of extra) map.set(tool.name, renderDefinition(tool, config.descriptions));
  for (const registry of new Set(cases.map((c) => c.registry)))
    for (const tool of registry.tools)
      map.set(tool.name, renderDefinition(tool, config.descriptions));
  return map;
}

/**
 * Coverage and exposure failures' inject: the failed trial's acceptable tools (those a definition
 * exists for) exposed beside what the trial's exposure admitted, and the run's retriever asked
 * again over that set — so the headroom of exposure is not also discovery's. Null entries: the
 * run has no retriever (the tools are then shown as inject-visible shows them).
 */
async function retrieveInjected(
  config: Config,
  records: TrialRecord[],
  byCase: Map<string, Case>,
  extra: Tool[],
  known: Set<string>,
  env: NodeJS.ProcessEnv,
): Promise<Map<TrialRecord, Discovery>> {
  const out = new Map<TrialRecord, Discovery>();
  if (config.discovery.retriever === "none") return out;
  const retrievers = new Map<Case["registry"], ReturnType<typeof createRetriever>>();
  for (const record of records) {
    if (
      record.error !== null ||
      (record.failed_stage !== "coverage" && record.failed_stage !== "exposure")
    )
      continue;
    const testCase = byCase.get(record.case_id);
    const injected = record.acceptable.filter(
      (name) => known.has(name) && !record.exposed_names.includes(name),
    );
    if (testCase === undefined || injected.length === 0) continue;
    let retriever = retrievers.get(testCase.registry);
    if (retriever === undefined) {
      const names = new Set(testCase.registry.tools.map((t) => t.name));
      const corpus = [...testCase.registry.tools, ...extra.filter((t) => !names.has(t.name))];
      retrievers.set(
        testCase.registry,
        (retriever = createRetriever(config.discovery, corpus, {
          storeDir: config.store_dir,
          mode: config.mode,
          env,
        })),
      );
    }
    out.set(
      record,
      await discover(
        [...record.exposed_names, ...injected],
        testCase.goal,
        testCase.acceptable,
        config.discovery,
        retriever,
      ),
    );
  }
  return out;
}

/**
 * One repeat of one unit. Its seed is drawn from (run seed, case, failed trial, repeat): the
 * placebo and every fix of a failed trial share it (paired draws), two failed trials never do
 * (no answer is counted twice), and it is never the failed trial's own (which would replay it).
 * A tool-search run's failed decision is asked again with its search, as the run asked it: the
 * placebo over the same deferred and always-loaded tools; load with the acceptable tools loaded
 * up front (the model needs no search to see them).
 */
async function askUnit(
  config: Config,
  asker: DecisionAsker,
  testCase: Case,
  unit: CounterfactualUnit,
  repeat: number,
  retrieved?: Discovery,
) {
  const r = unit.record;
  const seed = deriveSeed("counterfactual", config.seed, r.case_id, r.trial, repeat) % 2 ** 31;
  const result = await asker.ask(
    r.search === undefined
      ? { ...plainUnit(unit, retrieved), testCase, trial: repeat, seed }
      : { ...searchUnit(unit), testCase, trial: repeat, seed },
  );
  result.record().counterfactual = {
    kind: unit.kind,
    of: { case_id: r.case_id, trial: r.trial },
    repeat,
    placement: unit.placement,
    changed: unit.changed,
  };
  return result;
}

/** The failed trial's sets with the unit's change: its tools added to the registry and the exposure, its visible set shown. */
function plainUnit(
  unit: CounterfactualUnit,
  retrieved?: Discovery,
): Omit<Decision, "testCase" | "trial"> {
  const r = unit.record;
  const registryNames = [
    ...r.registry_names,
    ...unit.added.filter((name) => !r.registry_names.includes(name)),
  ];
  const exposed = [
    ...r.exposed_names,
    ...unit.added.filter((name) => !r.exposed_names.includes(name)),
  ];
  const discovery: Discovery =
    retrieved === undefined
      ? {
          visible: unit.visible,
          retrieved: unit.visible.filter((name) => !isControl(name)),
          k: r.retrieval_k,
          retrieval: null,
        }
      : { ...retrieved, visible: unit.visible };
  return { registryNames, exposure: { exposed, hidden: {} }, discovery };
}

/** A search unit: the run's always-loaded tools (and, for load, the acceptable ones), the rest of the exposure deferred. */
function searchUnit(unit: CounterfactualUnit): Omit<Decision, "testCase" | "trial"> {
  const r = unit.record;
  const always = [
    ...(r.search?.always_loaded ?? []),
    ...(unit.kind === "load" ? unit.changed : []),
  ];
  const controls = r.exposed_names.filter((name) => isControl(name));
  const deferred = r.exposed_names.filter((name) => !isControl(name) && !always.includes(name));
  const visible = [...always, ...deferred, ...controls];
  return {
    registryNames: r.registry_names,
    exposure: { exposed: r.exposed_names, hidden: {} },
    discovery: { visible, retrieved: [...always, ...deferred], k: null, retrieval: null },
    alwaysLoaded: always,
  };
}
