/**
 * Every command in help order: its name, its arguments as the help lists them, its one-line
 * description, and how its module is loaded. The overall help is drawn from this table alone (no
 * command module is loaded for it, so it starts as fast as node does); a command's module (and all
 * it imports) is loaded only when it is run or its own help is asked. Each module takes its
 * description from here, and a test holds every module's arguments to the ones written here.
 */
import type { Command } from "commander";
import type { Io } from "../context.js";
import type { SetExit } from "./exit.js";

/** What a command's module exports: it adds the command (flags, help, action) to the program. */
export type Register = (program: Command, io: Io, setExit: SetExit) => void;

export interface CatalogueEntry {
  name: string;
  /** The arguments as commander writes them, e.g. ["<run>"], ["[files...]"]. */
  args: string[];
  description: string;
  /** Loads the command's module and gives its register function. */
  load: () => Promise<Register>;
}

export const CATALOGUE: readonly CatalogueEntry[] = [
  {
    name: "run",
    args: [],
    description:
      "Run every case × trials against the endpoint; write records, report.json and print a summary.",
    load: async () => (await import("./run.js")).registerRun,
  },
  {
    name: "ablate",
    args: [],
    description:
      "Run the ablation ladder: the cases fixed, one mechanism added per rung (boundaries, exposure, controls, retrieval, a router); compare each rung with the one before.",
    load: async () => (await import("./ablate.js")).registerAblate,
  },
  {
    name: "counterfactual",
    args: ["<run>"],
    description:
      "Re-ask each failed trial unchanged (a placebo) and with one change to what the model saw; report the headroom per stage beyond chance.",
    load: async () => (await import("./counterfactual.js")).registerCounterfactual,
  },
  {
    name: "tune",
    args: [],
    description:
      "Propose description revisions for the tools behind failures; keep one only when it raises held-out accuracy beyond noise and hurts no case or other tool.",
    load: async () => (await import("./tune.js")).registerTune,
  },
  {
    name: "init",
    args: [],
    description:
      "Start route-eval in this project: route-eval.yaml, a registry snapshot and starter cases with TODO goals.",
    load: async () => (await import("./init.js")).registerInit,
  },
  {
    name: "merge",
    args: ["<out>", "<shards...>"],
    description:
      "Combine shards (run --shard I/N, also of a variants experiment, or sweep --shard I/N) into one directory whose report equals the unsharded one's.",
    load: async () => (await import("./merge.js")).registerMerge,
  },
  {
    name: "batch",
    args: ["<action>", "<dir>"],
    description:
      "A batch run's provider batches (run --batch, ablate --batch): status asks the provider for each open one's state; cancel cancels the open ones. Collect them with run --resume DIR.",
    load: async () => (await import("./batch.js")).registerBatch,
  },
  {
    name: "report",
    args: ["<run>"],
    description:
      "Recompute report.json from records.jsonl alone (no endpoint calls) and render it.",
    load: async () => (await import("./report.js")).registerReport,
  },
  {
    name: "show",
    args: ["<run>"],
    description:
      "Explain a run from its records: the failing cases by stage, or with --case the whole ladder of one case.",
    load: async () => (await import("./show.js")).registerShow,
  },
  {
    name: "sweep",
    args: [],
    description:
      "Hold the cases fixed and vary the visible ordinary-tool count (--sizes) or the retriever's k (--k); one full run per point.",
    load: async () => (await import("./sweep.js")).registerSweep,
  },
  {
    name: "lint",
    args: ["[files...]"],
    description:
      "Check registries and cases before spending a token: rivals, missing contrast, loose schemas, crowded phases, unknown names.",
    load: async () => (await import("./lint.js")).registerLint,
  },
  {
    name: "import",
    args: ["<format>", "[file]"],
    description:
      "Write a registry snapshot from an MCP server or tools/list result, or an OpenAI or Anthropic tools array.",
    load: async () => (await import("./import.js")).registerImport,
  },
  {
    name: "diff",
    args: ["<base>", "<current>"],
    description:
      "Compare two runs: metric deltas with paired tests, case flips, moved confusions, changed tool definitions.",
    load: async () => (await import("./diff.js")).registerDiff,
  },
  {
    name: "freeze",
    args: ["<traces...>"],
    description:
      "Turn a production model call from a trace into a routing case, a registry snapshot of the tools it saw, and its reply in the store.",
    load: async () => (await import("./freeze.js")).registerFreeze,
  },
  {
    name: "shadow",
    args: ["<traces...>"],
    description:
      "Ask production turns again against a candidate surface and count the decisions that move: the blast radius of a change, before it ships.",
    load: async () => (await import("./shadow.js")).registerShadow,
  },
  {
    name: "monitor",
    args: ["<traces...>"],
    description:
      "Routing signals over production model calls — candidate-set size, clarification, abstention, schema rejections, phantom calls, rivals — by trace attribute and between two time windows.",
    load: async () => (await import("./monitor.js")).registerMonitor,
  },
];

/** The description of a command of the catalogue. */
export function describeCommand(name: string): string {
  const entry = CATALOGUE.find((e) => e.name === name);
  if (entry === undefined) throw new Error(`no command ${name} in the catalogue`);
  return entry.description;
}
