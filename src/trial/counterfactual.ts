/**
 * `route-eval counterfactual RUN` composition root: re-ask each failed trial of a finished run —
 * same endpoint, case, prior turns and settings — with one change to the visible set, through the
 * response store (a rerun is free, `--mode replay` works), then compute the headroom from those
 * records alone: counterfactual/records.jsonl and counterfactual.json inside the run directory.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { breakDownSelection, computeStageHeadroom, rankRivalPairs, summariseOutcomes } from "../counterfactual/headroom.js";
import { COUNTERFACTUAL_SCHEMA_VERSION, type CounterfactualReport, type FixKind } from "../types/counterfactual.js";
import { planCounterfactuals, type CounterfactualUnit, type Plan } from "../counterfactual/plan-counterfactuals.js";
import { EndpointFailure, Interrupted } from "../errors.js";
import { openRunAgain } from "./ask-again.js";
import { loadRegistry } from "../registry/load-registry.js";
import { CONTROL_TOOLS, renderDefinition } from "../registry/render-definition.js";
import { stableStringify } from "../render/stable-json.js";
import { openRecordWriter, readRecords } from "../run-files/records-io.js";
import { writeTextFile } from "../run-files/write-files.js";
import { discover } from "../discovery/discover.js";
import { deriveSeed } from "../text/seeded-random.js";
import { isControl, type Case, type Config, type Discovery, type Registry, type RunProgress, type Tool, type ToolDefinition, type TrialRecord } from "../types.js";
import { createRetriever, createSearcher } from "./create-retriever.js";
import { askTrial } from "./run-trial.js";
import { definitionsOf } from "./trial-request.js";
import { askWithSearch, searchToolDefinition, splitSurface } from "./tool-search.js";
import type { ToolSearcher } from "../discovery/tool-searcher.js";
import { runTrialJobs, type TrialJob } from "./run-loop.js";

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
  | { dryRun: false; plan: Plan; report: CounterfactualReport; runDir: string; records: TrialRecord[]; counterfactuals: TrialRecord[] };

export const COUNTERFACTUAL_DIR = "counterfactual";

export async function runCounterfactuals(target: string, config: Config, options: CounterfactualOptions): Promise<CounterfactualResult> {
  // Counterfactuals ask the run's own questions: its cases and tools as they were.
  const { runDir, meta, records, cases, endpoint } = openRunAgain(target, config, options, "a counterfactual would ask another question", "run it on a fresh run of these inputs");
  try {
    const extra = options.registryWith === null ? [] : loadRegistry(options.registryWith, config.cwd).tools;
    const byCase = new Map(cases.map((c) => [c.id, c]));
    const definitions = definitionMap(cases, extra, config);
    const known = new Set(definitions.keys());
    const retrievals = options.kinds.includes("inject") ? await retrieveInjected(config, records, byCase, extra, known, options.env) : new Map<TrialRecord, Discovery>();
    const retrieveWith = (record: TrialRecord) => retrievals.get(record)?.retrieved ?? null;
    const plan = planCounterfactuals(records, { kinds: options.kinds, known, max: options.max, seed: config.seed, retrieveWith });
    const trialsOf = countTrials(records);
    const repeatsOf = (unit: CounterfactualUnit) => options.repeats ?? trialsOf.get(unit.record.case_id) ?? 1;
    const calls = plan.units.reduce((sum, unit) => sum + repeatsOf(unit), 0);
    if (options.dryRun) return { dryRun: true, plan, calls, runDir };

    const dir = join(runDir, COUNTERFACTUAL_DIR);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const writer = openRecordWriter(join(dir, "records.jsonl"));
    const counterfactuals: TrialRecord[] = [];
    const keep = (record: TrialRecord) => {
      writer.append(record);
      counterfactuals.push(record);
    };
    const searchers = new Map<Registry, ToolSearcher>();
    const searcherOf = (registry: Registry) => {
      let searcher = searchers.get(registry);
      if (searcher === undefined) searchers.set(registry, (searcher = createSearcher(config, registry, options.env)));
      return searcher;
    };
    const jobs: TrialJob[] = plan.units.flatMap((unit) => {
      const testCase = byCase.get(unit.record.case_id);
      if (testCase === undefined) return [];
      const discovery = unit.placement === "retriever ran" ? retrievals.get(unit.record) : undefined;
      return Array.from({ length: repeatsOf(unit) }, (_, repeat) => ({ run: () => askUnit(config, endpoint, testCase, unit, repeat, definitions, searcherOf, discovery), keep }));
    });
    let stopped;
    try {
      stopped = await runTrialJobs(jobs, { concurrency: config.concurrency, resumed: 0, total: jobs.length, onProgress: options.onProgress, signal: options.signal });
    } finally {
      writer.close();
    }
    if (stopped !== null) {
      const kept = `${counterfactuals.length} counterfactual trials kept in ${join(dir, "records.jsonl")}; run it again to finish (the store answers what was asked)`;
      if (stopped.kind === "interrupted") throw new Interrupted(stopped.signal, `interrupted by ${stopped.signal}: ${kept}`);
      throw new EndpointFailure(`${stopped.message} (${kept})`);
    }
    const saved = readRecords(join(dir, "records.jsonl"));
    const report = buildCounterfactualReport(meta.run_id, endpoint.id, endpoint.model, records, saved, { kinds: options.kinds, repeats: options.repeats, notes: plan.notes, calls });
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
    stages: computeStageHeadroom(records, outcomes),
    selection: breakDownSelection(outcomes),
    rival_pairs: rankRivalPairs(records, outcomes),
    outcomes,
    notes: [...facts.notes, ...(errored > 0 ? [`${errored} counterfactual trials errored and are left out of every rate`] : [])],
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
  for (const registry of new Set(cases.map((c) => c.registry))) for (const tool of registry.tools) map.set(tool.name, renderDefinition(tool, config.descriptions));
  return map;
}

/**
 * Coverage and exposure failures' inject: the failed trial's acceptable tools (those a definition
 * exists for) exposed beside what the trial's exposure admitted, and the run's retriever asked
 * again over that set — so the headroom of exposure is not also discovery's. Null entries: the
 * run has no retriever (the tools are then shown as inject-visible shows them).
 */
async function retrieveInjected(config: Config, records: TrialRecord[], byCase: Map<string, Case>, extra: Tool[], known: Set<string>, env: NodeJS.ProcessEnv): Promise<Map<TrialRecord, Discovery>> {
  const out = new Map<TrialRecord, Discovery>();
  if (config.discovery.retriever === "none") return out;
  const retrievers = new Map<Case["registry"], ReturnType<typeof createRetriever>>();
  for (const record of records) {
    if (record.error !== null || (record.failed_stage !== "coverage" && record.failed_stage !== "exposure")) continue;
    const testCase = byCase.get(record.case_id);
    const injected = record.acceptable.filter((name) => known.has(name) && !record.exposed_names.includes(name));
    if (testCase === undefined || injected.length === 0) continue;
    let retriever = retrievers.get(testCase.registry);
    if (retriever === undefined) {
      const names = new Set(testCase.registry.tools.map((t) => t.name));
      const corpus = [...testCase.registry.tools, ...extra.filter((t) => !names.has(t.name))];
      retrievers.set(testCase.registry, (retriever = createRetriever(config.discovery, corpus, { storeDir: config.store_dir, mode: config.mode, env })));
    }
    out.set(record, await discover([...record.exposed_names, ...injected], testCase.goal, testCase.acceptable, config.discovery, retriever));
  }
  return out;
}

/**
 * One repeat of one unit. Its seed is drawn from (run seed, case, failed trial, repeat): the
 * placebo and every fix of a failed trial share it (paired draws), two failed trials never do
 * (no answer is counted twice), and it is never the failed trial's own (which would replay it).
 */
async function askUnit(
  config: Config,
  endpoint: Parameters<typeof askTrial>[0]["endpoint"],
  testCase: Case,
  unit: CounterfactualUnit,
  repeat: number,
  definitions: Map<string, ToolDefinition>,
  searchers: (registry: Registry) => ToolSearcher,
  retrieved?: Discovery,
) {
  const r = unit.record;
  const registryNames = [...r.registry_names, ...unit.added.filter((name) => !r.registry_names.includes(name))];
  const exposed = [...r.exposed_names, ...unit.added.filter((name) => !r.exposed_names.includes(name))];
  const exposure = { exposed, hidden: {} };
  const discovery: Discovery =
    retrieved === undefined
      ? { visible: unit.visible, retrieved: unit.visible.filter((name) => !isControl(name)), k: r.retrieval_k, retrieval: null }
      : { ...retrieved, visible: unit.visible };
  const seed = deriveSeed("counterfactual", config.seed, r.case_id, r.trial, repeat) % 2 ** 31;
  if (r.search !== undefined) return askSearchUnit(config, endpoint, testCase, unit, repeat, seed, definitions, searchers);
  const result = await askTrial(
    { config: { ...config, shuffle_tools: false }, endpoint, registryNames, definitions },
    { testCase, trial: repeat, seed, exposure, discovery, tools: definitionsOf(unit.visible, definitions) },
  );
  result.record.counterfactual = { kind: unit.kind, of: { case_id: r.case_id, trial: r.trial }, repeat, placement: unit.placement, changed: unit.changed };
  return result;
}

/**
 * A tool-search run's failed decision asked again with its search, as the run asked it: the
 * placebo over the same deferred and always-loaded tools; load with the acceptable tools loaded up
 * front (the model needs no search to see them). Same seed scheme as every other unit.
 */
async function askSearchUnit(
  config: Config,
  endpoint: Parameters<typeof askTrial>[0]["endpoint"],
  testCase: Case,
  unit: CounterfactualUnit,
  repeat: number,
  seed: number,
  definitions: Map<string, ToolDefinition>,
  searcherOf: (registry: Registry) => ToolSearcher,
) {
  const r = unit.record;
  const always = [...(r.search?.always_loaded ?? []), ...(unit.kind === "load" ? unit.changed : [])];
  const controls = r.exposed_names.filter((name) => isControl(name));
  const deferred = r.exposed_names.filter((name) => !isControl(name) && !always.includes(name));
  const visible = [...always, ...deferred, ...controls];
  const settings = { ...config, shuffle_tools: false };
  const result = await askWithSearch(
    { config: settings, endpoint, registryNames: r.registry_names, definitions },
    {
      testCase,
      trial: repeat,
      seed,
      exposure: { exposed: r.exposed_names, hidden: {} },
      discovery: { visible, retrieved: [...always, ...deferred], k: null, retrieval: null },
      surface: splitSurface(visible, always, new Map(testCase.registry.tools.map((tool) => [tool.name, tool]))),
      searcher: searcherOf(testCase.registry),
      searchTool: searchToolDefinition(config.tool_search.kind, config.tool_search.k),
    },
  );
  result.record.counterfactual = { kind: unit.kind, of: { case_id: r.case_id, trial: r.trial }, repeat, placement: unit.placement, changed: unit.changed };
  return result;
}
