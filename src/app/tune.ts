/**
 * `route-eval tune`: the config's cases split into tune and held-out, description revisions
 * proposed and kept only when proven on the held-out split (tune/run-tune.ts), rendered; the
 * tuned snapshot written beside the original (or over it with --apply).
 */
import { join } from "node:path";
import { ArgumentError } from "../errors.js";
import { loadConfig } from "../config/load-config.js";
import type { Io } from "../context.js";
import { createProgressPrinter } from "../render/progress.js";
import { terminalWidth } from "../render/terminal-width.js";
import { inertLine } from "../text/inert.js";
import type { TuneFormat } from "../types/formats.js";
import type { Outcome } from "../types.js";
import { runTune } from "../trial/tune.js";
import { describePlan, planTune } from "../tune/plan-tune.js";
import { TUNE_FILE } from "../run-files/tune-file.js";
import type { TuneSettings } from "../types/tune.js";
import { renderTune } from "../tune/render-tune.js";
import { toOverrides, type ConfigFlags } from "./cli-options.js";
import { writeOutput } from "./write-output.js";
import { diffRuns } from "./diff.js";
import { renderDiff } from "../diff/render.js";
import { renderDiffMarkdown } from "../diff/render-markdown.js";
import { writeTextFile } from "../run-files/write-files.js";

export interface TuneFlags extends ConfigFlags {
  proposer: "rules" | "endpoint";
  proposerCommand?: string;
  rounds: number;
  budget?: number;
  candidates: number;
  holdout: number;
  alpha: number;
  guardAlpha: number;
  apply?: boolean;
  id?: string;
  resume?: string;
  format: TuneFormat;
  output?: string;
  progress?: boolean;
  dryRun?: boolean;
}

/** --holdout: the share of each family's cases held out, above 0 and below 1. */
export function parseHoldout(value: string): number {
  const share = Number(value);
  if (!Number.isFinite(share) || share <= 0 || share >= 1)
    throw new ArgumentError(
      "expected the share of each family held out, between 0 and 1 (e.g. 0.5).",
    );
  return share;
}

export async function tuneCommand(io: Io, flags: TuneFlags): Promise<Outcome> {
  const config = loadConfig(flags.config ?? null, toOverrides(flags), io.cwd, "other");
  const settings: TuneSettings = {
    proposer:
      flags.proposerCommand !== undefined
        ? { kind: "command", command: flags.proposerCommand }
        : { kind: flags.proposer },
    holdout: flags.holdout,
    alpha: flags.alpha,
    guard_alpha: flags.guardAlpha,
    rounds: flags.rounds,
    budget: flags.budget ?? null,
    candidates: flags.candidates,
    apply: flags.apply === true,
  };
  if (flags.dryRun === true) {
    const { plan } = planTune(config, settings, warn(io));
    io.stdout(`dry run: ${describePlan(plan, settings)}\n`);
    return "ok";
  }
  const { dir, result } = await runTune(config, settings, {
    id: flags.id,
    resume: flags.resume,
    now: () => new Date(),
    env: io.env,
    onProgress:
      flags.progress === false
        ? undefined
        : createProgressPrinter(io, { tty: io.stderrTTY === true, width: terminalWidth(io) }),
    onNotice: (message) => io.stderr(`${inertLine(message)}\n`),
    onWarning: warn(io),
    signal: io.interrupts?.(),
  });
  writeOutput(
    io,
    renderTune(result, dir, flags.format, {
      color: io.color && flags.output === undefined,
      width: terminalWidth(io),
    }),
    flags.output,
  );
  io.stderr(`tune.json: ${join(dir, TUNE_FILE)}\n`);
  if (result.final_run !== null) {
    writeTuneDiff(io, join(dir, result.base_run), join(dir, result.final_run), dir);
    io.stderr(
      `diff of the original and the tuned registry: ${join(dir, "diff.md")}, ${join(dir, "diff.html")}\n`,
    );
  }
  return "ok";
}

function warn(io: Io): (message: string) => void {
  return (message) => io.stderr(`route-eval: warning: ${inertLine(message)}\n`);
}

/** The diff report of the original registry's run and the tuned one's, as `route-eval diff` writes it (Markdown and HTML). */
function writeTuneDiff(io: Io, base: string, tuned: string, dir: string): void {
  const diff = diffRuns(base, tuned, io.cwd, {
    force: false,
    alpha: 0.05,
    maxDrops: [],
    failOnRegressedCase: false,
    significantOnly: false,
  });
  writeTextFile(join(dir, "diff.md"), renderDiffMarkdown(diff, { all: false }));
  writeTextFile(
    join(dir, "diff.html"),
    renderDiff(diff, "html", { color: false, width: 100, all: false }),
  );
}
