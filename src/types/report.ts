/** Reports: part of the records of route-eval (see ../types.ts). */
import type { ControlName, Effect } from "./tools.js";
import type { DiscoveryConfig, GateSpec, PhasePolicy, StoreMode } from "./config.js";
import type { CaseRow, Metrics } from "./metrics.js";

export const REPORT_SCHEMA_VERSION = 1;

export interface DefinitionInfo {
  family: string;
  effect: Effect;
  open_world: boolean;
  hash: string;
  description: string;
}

/** Written to run.json when a run starts; metadata only, never metrics. */
export interface RunMeta {
  run_id: string;
  tool_version: string;
  started_at: string;
  finished_at: string | null;
  endpoint: string;
  model: string;
  registries: { snapshot: string; revision: string; file: string }[];
  definitions: Record<string, DefinitionInfo>;
  config: {
    cases: string[];
    phases: Record<string, PhasePolicy>;
    controls: ControlName[];
    discovery: DiscoveryConfig;
    trials: number;
    concurrency: number;
    temperature: number;
    seed: number;
    system_prompt: string;
    gates: Record<string, GateSpec>;
    mode?: StoreMode;
    base_url?: string | null;
    /** The variable name the key came from — never the key. */
    api_key_env?: string | null;
    max_tokens?: number;
    shuffle_tools?: boolean;
  };
}

export interface Report {
  schema_version: number;
  run: RunMeta;
  metrics: Metrics;
  breakdowns: {
    family: Record<string, Metrics>;
    tag: Record<string, Metrics>;
    phase: Record<string, Metrics>;
  };
  cases: CaseRow[];
  errored: { case_id: string; trial: number; error: string }[];
  /** Cases whose must_see / must_not_see assertions failed (phase policy checks, no model needed). */
  exposure_assertions: { case_id: string; failures: string[] }[];
}

export interface GateResult {
  metric: string;
  spec: string;
  actual: number | null;
  passed: boolean;
  reason: string;
}
