import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import pLimit from "p-limit";
import { loadCases } from "./cases/load-cases.js";
import { buildRecord } from "./classify/build-record.js";
import { createRetriever } from "./discovery/create-retriever.js";
import { discover } from "./discovery/discover.js";
import type { Retriever } from "./discovery/retriever.js";
import { createEndpoint } from "./endpoint/create-endpoint.js";
import { withTokenEstimate } from "./endpoint/estimate-tokens.js";
import { hashRequest } from "./endpoint/request-hash.js";
import { expose } from "./exposure/expose.js";
import { CONTROL_TOOLS, hashDefinition, renderDefinition } from "./registry/render-definition.js";
import { buildReport } from "./report/build-report.js";
import { openRecordWriter } from "./report/records-io.js";
import { writeJsonFile, writeReportFile } from "./report/write-report.js";
import type { Case, Config, Discovery, Endpoint, Exposure, Registry, Report, RunMeta, ToolDefinition, TrialRecord } from "./types.js";
import { TOOL_VERSION } from "./version.js";

export interface RunOptions {
  runId?: string;
  /** Clock injected so that tests and golden files can fix it. */
  now?: () => Date;
  /** A sweep point (src/sweep): supplies the (padded) cases and fixes each case's visible set. Absent = the configured pipeline. */
  sweep?: SweepHook;
}

/** How a sweep point changes one run; everything else about the run stays as configured. */
export interface SweepHook {
  /** The cases to run instead of loading them (a sweep loads them once, and may pad their registries). */
  cases?: Case[];
  /** The visible set of a case, or null for the configured retriever. */
  visibleFor?: (testCase: Case, exposure: Exposure) => Discovery | null;
}

export interface RunResult {
  runDir: string;
  report: Report;
}

/** The composition root: load → expose → discover → call → classify → record → metrics → report. */
export async function runEvaluation(config: Config, options: RunOptions = {}): Promise<RunResult> {
  const now = options.now ?? (() => new Date());
  const cases = options.sweep?.cases ?? loadCases(config);
  const endpoint = withTokenEstimate(createEndpoint(config));
  const runId = options.runId ?? newRunId(now(), endpoint.id);
  const runDir = prepareRunDir(resolve(config.root, config.out_dir), runId);
  const meta = describeRun(runId, config, cases, endpoint, now());
  writeJsonFile(join(runDir, "run.json"), meta);

  const writer = openRecordWriter(join(runDir, "records.jsonl"));
  const records: TrialRecord[] = [];
  const limit = pLimit(config.concurrency);
  const prepared = new Map<Registry, PreparedRegistry>();
  try {
    const jobs = cases.flatMap((testCase) =>
      Array.from({ length: config.trials }, (_, trial) =>
        limit(async () => {
          const record = await runTrial(config, endpoint, testCase, trial, prepareRegistry(prepared, testCase.registry, config), options.sweep);
          writer.append(record);
          records.push(record);
        }),
      ),
    );
    await Promise.all(jobs);
  } finally {
    writer.close();
  }
  meta.finished_at = now().toISOString();
  writeJsonFile(join(runDir, "run.json"), meta);
  const report = buildReport(meta, records);
  writeReportFile(join(runDir, "report.json"), report);
  return { runDir, report };
}

interface PreparedRegistry {
  names: string[];
  definitions: Map<string, ToolDefinition>;
  retriever: Retriever | null;
}

function prepareRegistry(cache: Map<Registry, PreparedRegistry>, registry: Registry, config: Config): PreparedRegistry {
  let prepared = cache.get(registry);
  if (prepared === undefined) {
    const tools = [...Object.values(CONTROL_TOOLS), ...registry.tools];
    prepared = {
      names: tools.map((t) => t.name),
      definitions: new Map(tools.map((t) => [t.name, renderDefinition(t)])),
      retriever: createRetriever(config.discovery, registry.tools, { storeDir: config.store_dir, mode: config.mode, env: process.env }),
    };
    cache.set(registry, prepared);
  }
  return prepared;
}

async function runTrial(config: Config, endpoint: Endpoint, testCase: Case, trial: number, registry: PreparedRegistry, sweep?: SweepHook): Promise<TrialRecord> {
  const policy = testCase.phase === null ? null : (config.phases[testCase.phase] ?? null);
  const exposure = expose(testCase.registry.tools, policy, config.controls);
  const discovery = sweep?.visibleFor?.(testCase, exposure) ?? (await discover(exposure.exposed, testCase.goal, config.discovery, registry.retriever));
  const tools = discovery.visible.map((name) => registry.definitions.get(name)).filter((d): d is ToolDefinition => d !== undefined);
  const request = {
    case_id: testCase.id,
    trial,
    system: config.system_prompt,
    context: testCase.context,
    messages: testCase.messages,
    goal: testCase.goal,
    tools,
    temperature: config.temperature,
  };
  const outcome = await endpoint.call(request);
  return buildRecord({
    testCase,
    trial,
    registryNames: registry.names,
    definitions: registry.definitions,
    exposure,
    discovery,
    outcome,
    endpoint: endpoint.id,
    model: endpoint.model,
    requestHash: hashRequest(request, endpoint.id, endpoint.model),
  });
}

function describeRun(runId: string, config: Config, cases: Case[], endpoint: Endpoint, started: Date): RunMeta {
  const registries = [...new Set(cases.map((c) => c.registry))];
  const definitions: RunMeta["definitions"] = {};
  for (const tool of registries.flatMap((r) => r.tools)) {
    const definition = renderDefinition(tool);
    definitions[tool.name] = { family: tool.family, effect: tool.effect, open_world: tool.open_world, hash: hashDefinition(definition), description: definition.description };
  }
  return {
    run_id: runId,
    tool_version: TOOL_VERSION,
    started_at: started.toISOString(),
    finished_at: null,
    endpoint: endpoint.id,
    model: endpoint.model,
    registries: registries.map((r) => ({ snapshot: r.snapshot, revision: r.revision, file: relative(config.root, r.file) })),
    definitions,
    config: {
      cases: config.cases,
      phases: config.phases,
      controls: config.controls,
      discovery: config.discovery,
      trials: config.trials,
      concurrency: config.concurrency,
      temperature: config.temperature,
      seed: config.seed,
      system_prompt: config.system_prompt,
      gates: config.gates,
    },
  };
}

/** `20261130-124955-baseline`: sortable, readable, one per second per endpoint. */
function newRunId(at: Date, endpoint: string): string {
  const stamp = at.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${endpoint}`;
}

function prepareRunDir(outDir: string, runId: string): string {
  let dir = join(outDir, runId);
  for (let n = 2; existsSync(dir); n++) dir = join(outDir, `${runId}-${n}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}
