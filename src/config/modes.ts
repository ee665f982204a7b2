/**
 * The one table of modes that cannot combine: each row is one incompatible pair, when it holds,
 * and the one line that says why and what to do. `loadConfig` checks it once the config is
 * resolved (and each variant's), with the command that loads it, so a clash stops before anything
 * is asked, in the same words for every command. A new mode that cannot meet another is one row.
 */
import { at, InputError } from "../errors.js";
import { isRecord } from "../json-schema/describe-errors.js";
import { PROVIDER_NAMES, providerOf, PROVIDERS } from "../types/providers.js";
import type { Config } from "../types.js";
import type { YamlFile } from "./yaml-document.js";

/** The commands whose use of a config the table knows apart; `other` reads a config without running it as set (lint, report, diff, …). */
export type ModeCommand = "run" | "ablate" | "sweep" | "shadow" | "other";

/** What the table reads: the resolved config (`batch` included: --batch / --no-batch are its overrides) and the command. */
export interface ModeUse {
  config: Config;
  command: ModeCommand;
  /** A variant of an experiment is checked on its own too (a variant without a batch API is asked live). */
  variant?: boolean;
}

export interface ModeRule {
  /** The two modes, as the docs name them. */
  pair: readonly [string, string];
  /** Whether this use combines them. */
  clashes(use: ModeUse): boolean;
  /** One line: why they cannot combine, and what to do. */
  reason(use: ModeUse): string;
  /** The config key whose line the error names when the file sets it. */
  key?: readonly string[];
}

const searching = (c: Config) => c.tool_search.mode !== "off";
/** Asked through the batch APIs: config batch (--batch / --no-batch override it), in the commands that batch. */
const batching = ({ config, command }: ModeUse) =>
  config.batch && (command === "run" || command === "ablate");
const onPolicy = (c: Config) => c.conversation_mode === "on-policy";
const batchApiOf = (c: Config) => providerOf(c.endpoint)?.row.batch ?? null;

export const MODE_RULES: readonly ModeRule[] = [
  {
    pair: ["tool_search", "discovery.retriever"],
    clashes: ({ config }) => searching(config) && config.discovery.retriever !== "none",
    reason: ({ config }) =>
      `tool_search.mode: tool search replaces the retriever (discovery.retriever is ${config.discovery.retriever}): set discovery.retriever to none — to answer searches with embeddings, set tool_search.kind: embeddings`,
    key: ["tool_search", "mode"],
  },
  {
    pair: ["tool_search.mode: provider", "an endpoint without a tool search of its own"],
    clashes: ({ config }) =>
      config.tool_search.mode === "provider" &&
      providerOf(config.endpoint)?.row.tool_search !== true,
    reason: ({ config }) =>
      `tool_search.mode: provider: endpoint ${config.endpoint} has no tool search of its own (${PROVIDER_NAMES.filter((name) => PROVIDERS[name].tool_search).join(" and ")} have); use client, which works with every endpoint`,
    key: ["tool_search", "mode"],
  },
  {
    pair: ["tool_search.mode: provider", "tool_search.kind: embeddings"],
    clashes: ({ config }) =>
      config.tool_search.mode === "provider" && config.tool_search.kind === "embeddings",
    reason: () =>
      "tool_search.kind: embeddings: a provider's own search is bm25 or regex; embeddings answer only route-eval's search (mode: client)",
    key: ["tool_search", "kind"],
  },
  {
    pair: ["tool_search.kind: regex", "openai-responses' own search"],
    clashes: ({ config }) =>
      config.tool_search.mode === "provider" &&
      config.tool_search.kind === "regex" &&
      providerOf(config.endpoint)?.row.wire === "openai-responses",
    reason: () =>
      "tool_search.kind: regex: OpenAI's hosted tool search has one kind, its own (regex is Anthropic's variant); drop the kind for openai-responses, or use mode client, where route-eval runs the regex",
    key: ["tool_search", "kind"],
  },
  {
    pair: ["tool_search.namespaces", "anything but openai-responses' own search"],
    clashes: ({ config }) =>
      config.tool_search.namespaces &&
      !(
        config.tool_search.mode === "provider" &&
        providerOf(config.endpoint)?.row.wire === "openai-responses"
      ),
    reason: () =>
      "tool_search.namespaces: namespaces group the deferred tools for openai-responses' own search (mode: provider, endpoint openai-responses:MODEL); drop it for this endpoint or mode",
    key: ["tool_search", "namespaces"],
  },
  {
    pair: ["batch", "tool_search"],
    clashes: (use) => batching(use) && searching(use.config),
    reason: () =>
      "--batch: a decision with tool search takes several calls, each after the last; run it live (--no-batch)",
  },
  {
    pair: ["batch", "conversation_mode: on-policy"],
    clashes: (use) => batching(use) && onPolicy(use.config),
    reason: () =>
      "--batch: on-policy conversations ask each turn after the answer to the one before, and a batch asks every request at once; run them live, or teacher-forced (the default) with --batch",
  },
  {
    pair: ["batch", "an endpoint without a batch API"],
    // An experiment asks a variant without one live; it needs one variant with one.
    clashes: (use) =>
      use.variant !== true &&
      batching(use) &&
      batchApiOf(use.config) === null &&
      !use.config.variants.some((v) => batchApiOf(v.config) !== null),
    reason: ({ config }) =>
      config.variants.length === 0
        ? `--batch: the endpoint ${config.endpoint} has no batch API; batch runs take openai:MODEL (OpenAI Batch) or anthropic:MODEL (Message Batches); --no-batch asks live`
        : `--batch: no variant's endpoint has a batch API (${[...new Set([config, ...config.variants.map((v) => v.config)].map((c) => c.endpoint))].join(", ")}); batch runs take openai:MODEL or anthropic:MODEL`,
    key: ["batch"],
  },
  {
    pair: ["parallel_tool_calls", "disable_parallel_tool_use"],
    clashes: ({ config }) =>
      config.parallel_tool_calls !== null && config.disable_parallel_tool_use !== null,
    reason: () =>
      "disable_parallel_tool_use: parallel_tool_calls says the same for every provider (Anthropic's disable_parallel_tool_use is its opposite); set one of them",
    key: ["disable_parallel_tool_use"],
  },
  {
    pair: ["adaptive trials", "conversation_mode: on-policy"],
    clashes: ({ config }) => config.adaptive !== null && onPolicy(config),
    reason: () =>
      "adaptive trials decide each decision on its own; on-policy conversations tie a trial's turns together: use teacher-forced (the default) with adaptive trials",
    key: ["conversation_mode"],
  },
  {
    pair: ["adaptive trials", "variants (ablate, variants:)"],
    clashes: ({ config, command }) =>
      config.adaptive !== null && (command === "ablate" || config.variants.length > 0),
    reason: () =>
      "adaptive trials give each case its own number of trials, and variants are compared trial by trial: run ablate and variants with a fixed --trials N (adaptive trials apply to run and sweep)",
  },
  {
    pair: ["variants:", "sweep"],
    clashes: ({ config, command }) => command === "sweep" && config.variants.length > 0,
    reason: ({ config }) =>
      `variants: a sweep measures one configuration across sizes, and this config defines ${config.variants.length} variant${config.variants.length === 1 ? "" : "s"}, which it would not sweep; sweep each with its own config (or --endpoint/--model flags), or compare the variants with run`,
    key: ["variants"],
  },
  {
    pair: ["adaptive trials", "shadow"],
    clashes: ({ config, command }) => config.adaptive !== null && command === "shadow",
    reason: () =>
      "adaptive trials decide cases against a target, and a shadow replay has no labels to decide against; give a fixed number of trials (--trials N)",
  },
];

/** The first row this use clashes with, as an error at the line of its key when the file sets it. */
export function checkModes(
  use: ModeUse,
  yaml: YamlFile | null = null,
  rules: readonly ModeRule[] = MODE_RULES,
): void {
  const rule = rules.find((r) => r.clashes(use));
  if (rule === undefined) return;
  const reason = rule.reason(use);
  const key = rule.key;
  const written = key !== undefined && yaml !== null && isWritten(yaml.data, key);
  throw new InputError(written ? at(yaml.shown, yaml.lineOf([...key]), reason) : reason);
}

function isWritten(data: unknown, path: readonly string[]): boolean {
  let node = data;
  for (const part of path) {
    if (!isRecord(node) || !(part in node)) return false;
    node = node[part];
  }
  return true;
}
