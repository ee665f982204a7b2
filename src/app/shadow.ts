/**
 * `route-eval shadow TRACES --config candidate.yaml`: production turns asked again against a
 * candidate surface (its registry's descriptions, its phase's exposure, its endpoint and model),
 * through the run pipeline and its response store, with no labels: production's own decision is
 * the reference. The shadow run is an ordinary run directory (`show DIR --case TURN` explains a
 * turn); shadow.json beside its report holds the moves.
 */
import { join } from "node:path";
import { loadConfig } from "../config/load-config.js";
import { showPath } from "../config/yaml-document.js";
import type { Io } from "../context.js";
import { InputError } from "../errors.js";
import { fixedTrials } from "../metrics/adaptive.js";
import { createProgressPrinter } from "../render/progress.js";
import { terminalWidth } from "../render/terminal-width.js";
import { loadRegistry } from "../registry/load-registry.js";
import { writeJsonFile } from "../run-files/write-files.js";
import { inertLine } from "../text/inert.js";
import { readTraces } from "../traces/read-traces.js";
import { createRedactor } from "../traces/redact.js";
import { renderShadow } from "../traces/render-shadow.js";
import { matches, parseFilter } from "../traces/select-turns.js";
import { createShadowTally } from "../traces/shadow-report.js";
import { createTurnCases } from "../traces/turn-cases.js";
import { runEvaluation } from "../trial/evaluate.js";
import type { Outcome } from "../types.js";
import type { ShadowFormat } from "../types/formats.js";
import { boundHeapGrowth } from "./bounded-heap.js";
import { toOverrides, type ConfigFlags } from "./cli-options.js";
import { writeOutput, warnTo } from "./write-output.js";

export interface ShadowFlags extends ConfigFlags {
  span: string[];
  where: string[];
  phase?: string;
  runId?: string;
  format: ShadowFormat;
  output?: string;
  progress?: boolean;
}

export const SHADOW_FILE = "shadow.json";

export async function shadowCommand(
  io: Io,
  traces: string[],
  flags: ShadowFlags,
): Promise<Outcome> {
  boundHeapGrowth();
  // One decision per turn unless --trials says otherwise: a blast radius counts turns.
  const overrides = toOverrides(flags);
  const config = loadConfig(flags.config ?? null, { trials: 1, ...overrides }, io.cwd, "shadow");
  const phase = flags.phase ?? null;
  if (phase !== null && config.phases[phase] === undefined) {
    throw new InputError(
      `--phase ${phase}: ${config.file === null ? "no config" : showPath(config.file, io.cwd)} defines no such phase (known: ${Object.keys(config.phases).sort().join(", ") || "none"})`,
    );
  }
  const filter = parseFilter(flags.span, flags.where);
  const candidate = config.registry === null ? null : loadRegistry(config.registry, io.cwd);
  // Each turn made a case as it is read (the rest of the turn let go), redacted as freeze
  // redacts (e-mail addresses, phone numbers): the shadow run's records keep what it asked.
  const turnCases = createTurnCases(candidate, phase);
  const redactor = createRedactor([]);
  let matching = 0;
  const counts = readTraces(
    traces,
    io.cwd,
    (turn) => {
      if (!matches(turn, filter)) return;
      matching += 1;
      turnCases.add(redactor.turn(turn).turn);
    },
    warnTo(io),
  );
  const { cases, production, skipped, noSystem } = turnCases.finish();
  if (cases.length === 0) {
    const why = Object.entries(skipped)
      .map(([reason, n]) => `${n} ${reason}`)
      .join(", ");
    throw new InputError(
      `no production turn to ask again: the traces hold ${counts.turns} model call${counts.turns === 1 ? "" : "s"}${matching < counts.turns ? `, ${matching} matching` : ""}${why === "" ? "" : ` (${why})`}`,
    );
  }
  const onProgress =
    flags.progress === false
      ? undefined
      : createProgressPrinter(io, { tty: io.stderrTTY === true, width: terminalWidth(io) });
  // The report is counted as each record is kept: a shadow holds no record.
  // A turn is let go at its last trial; adaptive trials ask each turn until it is decided.
  const tally = createShadowTally(production, fixedTrials(config) ?? Infinity);
  const asked = cases.length;
  const { runDir } = await runEvaluation(config, {
    now: io.now,
    env: io.env,
    place: { kind: "new", id: flags.runId },
    // The run lets each turn's case go once it is asked.
    sweep: { cases, release: true },
    onProgress,
    signal: io.interrupts?.(),
    onRecord: tally.add,
    onWarning: (message) => io.stderr(`${inertLine(message)}\n`),
  });
  const report = tally.report({
    candidate: {
      config: config.file === null ? null : showPath(config.file, io.cwd),
      endpoint: config.endpoint.split(":")[0],
      model: tally.model() ?? config.model ?? "",
      registry: candidate?.snapshot ?? null,
      phase,
      trials: config.trials,
    },
    run_dir: showPath(runDir, io.cwd),
    turns: {
      read: counts.turns,
      asked,
      skipped: skipped as Record<string, number>,
      no_system: noSystem,
    },
  });
  writeJsonFile(join(runDir, SHADOW_FILE), report);
  writeOutput(
    io,
    renderShadow(report, flags.format, {
      color: io.color && flags.output === undefined,
      width: terminalWidth(io),
    }),
    flags.output,
  );
  return report.errored > 0 ? "errored" : "ok";
}
