/**
 * `--resume RUN` continues exactly the experiment RUN pinned in its run.json. The settings come
 * from run.json; a flag that sets one differently, a tool whose model-facing definition changed,
 * or a case that changed, was added or was removed is refused, each difference named.
 * Operational settings (concurrency, store mode, timeouts, retries, gates, output) may differ.
 */
import { resolve } from "node:path";
import type { ConfigOverrides } from "../config/load-config.js";
import { settingDefault } from "../config/keys.js";
import { OPTIONAL_RUN_KEYS, type RunMeta } from "../types.js";
import { canonicalJson } from "../text/canonical-json.js";
import { compareText } from "../text/compare-text.js";

/** Settings of run.json that define the experiment, in the order differences are listed. */
export const PINNED_SETTINGS = [
  "trials",
  "temperature",
  "seed",
  "system_prompt",
  "discovery",
  "phases",
  "exposure",
  "controls",
  "descriptions",
  "base_url",
  "max_tokens",
  "shuffle_tools",
  "success",
  "command",
  "endpoint_version",
  "tool_choice",
  "parallel_tool_calls",
  "strict",
  "disable_parallel_tool_use",
  "conversation_mode",
  "adaptive",
  "adaptive_alpha",
  "max_trials",
  "tool_search",
] as const;

/** Settings run.json leaves out at their default (OPTIONAL_RUN_KEYS): absent means the default. */
const ABSENT_MEANS: Partial<Record<string, unknown>> = Object.fromEntries(
  OPTIONAL_RUN_KEYS.map((key) => [key, settingDefault(key)]),
);

const MAX_NAMED = 5;

/**
 * run.json's settings as config overrides: what `--resume` runs with unless a flag says otherwise —
 * the experiment's settings, its case files (with `root`, the folder its config's globs resolve
 * against) and its operational settings (concurrency, the time limit of an attempt), so a resume
 * continues the run as started.
 */
export function pinnedOverrides(
  meta: Pick<RunMeta, "endpoint" | "model" | "config">,
  root?: string,
): ConfigOverrides {
  const { config } = meta;
  const { retriever, k, embeddings } = config.discovery;
  const overrides: ConfigOverrides = {
    endpoint: meta.endpoint === "baseline" ? "baseline" : `${meta.endpoint}:${meta.model}`,
    // The case files the run was started with (globs relative to its config's folder, given here as absolute paths).
    ...(root === undefined || config.cases === undefined
      ? {}
      : { cases: config.cases.map((glob) => resolve(root, glob)) }),
    ...(config.concurrency === undefined ? {} : { concurrency: config.concurrency }),
    ...(config.timeout_ms === undefined ? {} : { timeout_ms: config.timeout_ms }),
    trials: config.trials,
    temperature: config.temperature,
    seed: config.seed,
    system_prompt: config.system_prompt,
    retriever,
    ...(k === undefined ? {} : { k }),
    ...(embeddings === undefined ? {} : { embeddings }),
    phases: config.phases,
    controls: config.controls,
    ...(config.base_url === undefined ? {} : { base_url: config.base_url }),
    ...(config.max_tokens === undefined ? {} : { max_tokens: config.max_tokens }),
    ...(config.shuffle_tools === undefined ? {} : { shuffle_tools: config.shuffle_tools }),
    ...(config.success === undefined ? {} : { success: config.success }),
    // Settings run.json names only when they are not the default.
    ...Object.fromEntries(
      OPTIONAL_RUN_KEYS.flatMap((key) => (config[key] === undefined ? [] : [[key, config[key]]])),
    ),
  };
  return overrides;
}

/** Every difference between the run being resumed and the one these inputs would start. */
export function findResumeDifferences(previous: RunMeta, current: RunMeta): string[] {
  const out: string[] = [];
  if (previous.endpoint !== current.endpoint)
    out.push(`endpoint ${previous.endpoint} → ${current.endpoint}`);
  if (previous.model !== current.model) out.push(`model ${previous.model} → ${current.model}`);
  const shard = (m: RunMeta) =>
    m.shard === undefined ? "none" : `${m.shard.index}/${m.shard.count}`;
  if (shard(previous) !== shard(current)) out.push(`shard ${shard(previous)} → ${shard(current)}`);
  for (const key of PINNED_SETTINGS) {
    const before = previous.config[key] ?? ABSENT_MEANS[key];
    const after = current.config[key] ?? ABSENT_MEANS[key];
    if (before !== undefined && canonicalJson(before) !== canonicalJson(after))
      out.push(`${key} ${show(before)} → ${show(after)}`);
  }
  out.push(
    ...compareKeyed(
      "tool",
      previous.definitions,
      current.definitions,
      (a, b) => a.hash === b.hash,
      "description changed",
    ),
  );
  if (previous.inputs !== undefined && current.inputs !== undefined) {
    out.push(
      ...compareKeyed(
        "case",
        previous.inputs.cases,
        current.inputs.cases,
        (a, b) => a === b,
        "changed",
      ),
    );
  }
  return out;
}

function compareKeyed<T>(
  what: string,
  before: Record<string, T>,
  after: Record<string, T>,
  same: (a: T, b: T) => boolean,
  changed: string,
): string[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort(compareText);
  const lines = names.flatMap((name) => {
    const a = before[name];
    const b = after[name];
    if (a === undefined) return [`${what} ${name}: added`];
    if (b === undefined) return [`${what} ${name}: removed`];
    return same(a, b) ? [] : [`${what} ${name}: ${changed}`];
  });
  return lines.length <= MAX_NAMED
    ? lines
    : [...lines.slice(0, MAX_NAMED), `… and ${lines.length - MAX_NAMED} more ${what} differences`];
}

function show(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : canonicalJson(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
