/** `route-eval sweep`: one full run per point (visible-set size, or retriever budget), summed up and rendered. */
import { boundHeapGrowth } from "./bounded-heap.js";
import { BudgetWithoutRetriever, loadConfig, type ConfigOverrides } from "../config/load-config.js";
import type { Config, Outcome, ToolSearchMode } from "../types.js";
import { InputError } from "../errors.js";
import { DEFAULT_SIZES, type DistractorPolicy } from "../types/sweep.js";
import type { SweepFormat } from "../types/formats.js";
import { runSweep } from "../trial/sweep.js";
import { formatRate, plural } from "../render/format.js";
import { emitSweep } from "./emit-sweep.js";
import type { Io } from "../context.js";
import { toOverrides } from "./cli-options.js";
import { createProgressPrinter } from "../render/progress.js";
import { terminalWidth } from "../render/terminal-width.js";
import type { Shard } from "../run-files/shard.js";

export interface SweepFlags {
  config?: string;
  sizes?: number[];
  /** In a sweep, --k is the list of budgets to sweep. */
  k?: number[];
  distractors: DistractorPolicy;
  distractorRegistry?: string;
  sweepId?: string;
  format: SweepFormat;
  output?: string;
  shard?: Shard;
  progress?: boolean;
  /** --tool-search-axis: each size once per tool_search mode. */
  toolSearchAxis?: ToolSearchMode[];
}

export async function sweepCommand(io: Io, flags: SweepFlags): Promise<Outcome> {
  boundHeapGrowth();
  const { k, sizes, toolSearchAxis, ...rest } = flags;
  if (k !== undefined && sizes !== undefined)
    throw new InputError(
      "--sizes and --k: choose one sweep (visible-set sizes, or retriever budgets)",
    );
  // Each point sets its own k; the first one satisfies the config's "a retriever needs k" check.
  const config = loadSweepConfig(flags.config ?? null, toOverrides(rest), k, io.cwd);
  if (config.batch)
    io.stderr(
      "route-eval: note: batch: true applies to run and ablate; a sweep asks its points live (through the store)\n",
    );
  const kind = k === undefined ? "size" : "k";
  const { sweepDir, sweep } = await runSweep(config, {
    env: io.env,
    now: io.now,
    kind,
    values: k ?? sizes ?? DEFAULT_SIZES,
    distractors: flags.distractors,
    distractorRegistry: flags.distractorRegistry ?? null,
    sweepId: flags.sweepId,
    shard: flags.shard,
    toolSearch: toolSearchAxis,
    onProgress:
      flags.progress === false
        ? undefined
        : createProgressPrinter(io, { tty: io.stderrTTY === true, width: terminalWidth(io) }),
    onPoint: (point, runDir) =>
      io.stderr(
        `${kind} ${point.value}${point.tool_search === undefined ? "" : ` (tool search ${point.tool_search})`}: selection accuracy ${formatRate(point.selection_accuracy)} of ${plural(point.scored, "scored trial")} — ${runDir}\n`,
      ),
  });
  emitSweep(io, sweepDir, sweep, { format: flags.format, output: flags.output });
  io.stderr(`sweep.json, sweep.csv and one run per point: ${sweepDir}\n`);
  return "ok";
}

/** Each point sets its own k; the first one satisfies the config's "a retriever needs k" check. */
function loadSweepConfig(
  file: string | null,
  overrides: ConfigOverrides,
  k: number[] | undefined,
  cwd: string,
): Config {
  try {
    return loadConfig(
      file,
      { ...overrides, ...(k === undefined ? {} : { k: k[0] }) },
      cwd,
      "sweep",
    );
  } catch (error) {
    if (!(k !== undefined && error instanceof BudgetWithoutRetriever)) throw error;
    throw new InputError(
      "--k: a k sweep varies the retriever's budget, and discovery.retriever is none; pass --retriever bm25 (or embeddings)",
    );
  }
}
