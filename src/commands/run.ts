import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { InputError } from "../errors.js";
import { inertLine } from "../text/inert.js";
import { readMeta } from "../run-files/read-run.js";
import { pinnedOverrides } from "../run-files/resume-check.js";
import { InvalidArgumentError, type Command } from "commander";
import { addConfigOptions, toOverrides, type ConfigFlags } from "./config-options.js";
import { loadConfig } from "../config/load-config.js";
import { renderMarkdown } from "../report/render-markdown.js";
import { BASELINE_NAME, saveBaseline } from "../run-files/save-baseline.js";
import { runEvaluation } from "../app/run.js";
import { emitReport, formatOption, verdict, type OutputFlags } from "./io.js";
import { type SetExit } from "./exit.js";
import { terminalWidth } from "../render/terminal.js";
import type { Io } from "../context.js";
import { appendStepSummary } from "../app/step-summary.js";
import { createProgressPrinter } from "../render/progress.js";
import { EXPERIMENT_FILE } from "../app/ablate.js";
import { planVariants } from "../ablate/plan.js";
import { parseShard, type Shard } from "../run-files/shard.js";
import { positiveInt } from "../config/parse-number.js";
import { runBatch } from "../app/batch.js";
import { BATCH_FILE } from "../run-files/batch-file.js";
import { reportDetached, resumePins, runPlannedExperiment } from "./ablate.js";
import { COUNTERFACTUAL_DIR, runCounterfactuals } from "../app/counterfactual.js";
import { COUNTERFACTUAL_KINDS } from "../types/counterfactual.js";
import { renderCounterfactual } from "../counterfactual/render-counterfactual.js";
import type { Config, RunProgress } from "../types.js";


interface RunFlags extends ConfigFlags, OutputFlags {
  runId?: string;
  saveBaseline?: string;
  stepSummary?: boolean;
  resume?: string;
  progress?: boolean;
  failIfWorse?: string[];
  counterfactual?: boolean;
  force?: boolean;
  shard?: Shard;
  batch?: boolean;
  detach?: boolean;
  batchPollMs?: number;
}

export function registerRun(program: Command, io: Io, setExit: SetExit): void {
  addConfigOptions(program.command("run"))
    .description("Run every case × trials against the endpoint; write records, report.json and print a summary.")
    .option("--run-id <id>", "name of the run directory (default: <UTC time>-<endpoint>); an existing one is an error")
    .option("--force", "with --run-id: replace an existing run directory of that name")
    .option("--batch", "ask through the provider's batch API (openai, anthropic): about half the price, answers within the provider's window (config: batch)")
    .option("--no-batch", "ask live even when route-eval.yaml says batch: true")
    .option("--detach", "with --batch: submit and exit; collect later with --resume RUN")
    .option("--batch-poll-ms <n>", "with --batch: first wait between polls (grows to 60 s; default 5000)", positiveInt)
    .option("--shard <I/N>", "run only shard I of N of the (case, trial) units (stable by case and trial); route-eval merge combines them", parseShard)
    .addOption(formatOption())
    .option("-o, --output <file>", "write the rendering to a file instead of stdout (\"-\": stdout)")
    .option("--no-gates", "do not evaluate gates (exit 0 unless the input is bad)")
    .option("--save-baseline <name>", "also copy the finished run to <out>/baselines/<name>/ (replacing it), for route-eval diff", parseBaselineName)
    .option("--no-step-summary", "do not append the Markdown summary to $GITHUB_STEP_SUMMARY")
    .option("--resume <run-dir>", "continue an interrupted run: keep its records, run the trials it lacks")
    .option("--no-progress", "no progress line on stderr")
    .option("--counterfactual", "then re-ask each failed trial with one change to what was shown (route-eval counterfactual)")
    .option("--fail-if-worse <variant...>", "with variants: exit 1 when this variant's paired verdict against the base is \"hurt\"")
    .addHelpText("after", RUN_HELP)
    .action(async (flags: RunFlags) => {
      // --resume of an experiment continues it with the settings experiment.json pins.
      if (flags.resume !== undefined && existsSync(join(resolve(io.cwd, flags.resume), EXPERIMENT_FILE))) {
        const pinnedExperiment = loadConfig(flags.config ?? null, { ...resumePins(flags.resume, io.cwd, "variants"), ...toOverrides(flags) }, io.cwd);
        return setExit(await runVariants(io, flags, pinnedExperiment));
      }
      // --resume continues the experiment run.json pins: its settings, unless a flag says otherwise (then refused).
      const previous = flags.resume === undefined ? null : readMeta(resumeMetaFile(flags.resume, io.cwd));
      const pinned = previous === null ? {} : pinnedOverrides(previous);
      const config = loadConfig(flags.config ?? null, { ...pinned, ...toOverrides(flags) }, io.cwd);
      if (config.variants.length > 0) return setExit(await runVariants(io, flags, config));
      const onProgress = flags.progress === false ? undefined : createProgressPrinter(io, { tty: io.stderrTTY === true, width: terminalWidth(io) });
      const onWarning = (message: string) => io.stderr(`${inertLine(message)}\n`);
      const resume = flags.resume === undefined ? undefined : resolve(io.cwd, flags.resume);
      const options = {
        // --resume of a shard continues that shard.
        runId: flags.runId, replaceRun: flags.force === true, shard: flags.shard ?? previous?.shard, resume, onProgress, onWarning, onNotice: onWarning, env: io.env, now: io.now, signal: io.interrupts?.(), gates: flags.gates !== false,
      };
      const batch = (flags.batch ?? config.batch) || (resume !== undefined && existsSync(join(resume, BATCH_FILE)));
      if (flags.detach === true && !batch) throw new InputError("--detach: only a batch run detaches; add --batch");
      const result = batch ? await runBatch(config, { ...options, detach: flags.detach === true, pollMs: flags.batchPollMs, onBatchProgress: (line) => io.stderr(`${line}\n`) }) : { detached: false as const, ...(await runEvaluation(config, options)) };
      if (result.detached) return setExit(reportDetached(io, result, "run --resume"));
      const { report, runDir, records } = result;
      const gates = report.gates;
      emitReport(io, report, flags, gates, { runDir, records: () => records });
      io.stderr(`records and report: ${runDir}\n`);
      appendStepSummary(io, renderMarkdown(report, { gates }), flags.stepSummary !== false);
      if (flags.saveBaseline !== undefined) {
        io.stderr(`baseline: ${saveBaseline(runDir, join(config.out_dir, "baselines"), flags.saveBaseline)}\n`);
      }
      if (flags.counterfactual === true) await counterfactualAfterRun(io, runDir, config, flags.format === "terminal" && flags.output === undefined, options.onProgress);
      setExit(verdict(io, report, gates));
    });
}

/** `run --counterfactual`: the headroom of the run just finished (printed after the report on a terminal). */
async function counterfactualAfterRun(io: Io, runDir: string, config: Config, print: boolean, onProgress: ((p: RunProgress) => void) | undefined): Promise<void> {
  const result = await runCounterfactuals(runDir, config, {
    kinds: COUNTERFACTUAL_KINDS, max: null, repeats: null, registryWith: null, dryRun: false, env: io.env, onProgress, signal: io.interrupts?.(),
    onWarning: (message) => io.stderr(`${inertLine(message)}\n`),
  });
  if (result.dryRun) return;
  if (print) io.stdout(`\n${renderCounterfactual(result.report, "terminal", { color: io.color, width: terminalWidth(io) })}`);
  io.stderr(`counterfactual records and counterfactual.json: ${join(runDir, COUNTERFACTUAL_DIR)}\n`);
}

/** A config with `variants:` (or the resumed experiment's): the base and every variant, compared; sharded and batched like a run. */
async function runVariants(io: Io, flags: RunFlags, config: Config): Promise<number> {
  if (flags.saveBaseline !== undefined) throw new InputError("--save-baseline: saves one run, and this config has variants:; copy the variant you want instead (reports/<id>/variants/<name>) into reports/baselines/<name>");
  if (flags.counterfactual === true) throw new InputError("--counterfactual: re-asks one run's failures, and this config has variants:; run route-eval counterfactual on the variant you want (reports/<id>/variants/<name>)");
  return runPlannedExperiment(io, planVariants(config), { ...flags, format: flags.format });
}

/** The run.json of the run to resume; a target that is not a route-eval run is refused. */
function resumeMetaFile(target: string, cwd: string): string {
  const file = join(resolve(cwd, target), "run.json");
  if (!existsSync(file)) {
    throw new InputError(`--resume ${target}: not a route-eval run directory (it has no run.json); give the reports/<run-id> directory of the run to continue`);
  }
  return file;
}

function parseBaselineName(value: string): string {
  if (!BASELINE_NAME.test(value)) throw new InvalidArgumentError("expected a name of letters, digits, '.', '_' or '-' (e.g. main).");
  return value;
}

const RUN_HELP = `
Every flag overrides the key of route-eval.yaml named in its help. When $GITHUB_STEP_SUMMARY
is set (GitHub Actions), the Markdown summary is appended to it as well.

Exit codes: 0 ok · 1 a gate or an exposure assertion failed · 2 bad input or usage ·
            3 endpoint failure · 4 internal error (a bug)

Examples:
  route-eval run                                  # bundled example, baseline endpoint
  route-eval run --trials 5 --retriever bm25 -k 8
  route-eval run --save-baseline main             # then: route-eval diff reports/baselines/main reports/<run-id>
  route-eval run --format junit --output junit.xml
  route-eval run --format html                    # writes <run dir>/report.html
  route-eval run -e openai:gpt-4.1-mini --trials 5         # needs OPENAI_API_KEY
  route-eval run -e anthropic:claude-sonnet-4-5            # needs ANTHROPIC_API_KEY
  route-eval run -e openai:qwen3:8b --base-url http://localhost:11434/v1   # Ollama
  route-eval run -e openai:gpt-4.1-mini --mode replay      # CI: answers from the store only
  route-eval run --resume reports/20261130-101500-openai   # continue an interrupted run
`;
