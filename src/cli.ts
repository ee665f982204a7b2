import { Command, CommanderError } from "commander";
import { EXIT } from "./commands/io.js";
import type { Io } from "./context.js";
import { registerImport } from "./commands/import.js";
import { registerLint } from "./commands/lint.js";
import { registerDiff } from "./commands/diff.js";
import { registerReport } from "./commands/report.js";
import { registerRun } from "./commands/run.js";
import { registerAblate } from "./commands/ablate.js";
import { registerCounterfactual } from "./commands/counterfactual.js";
import { registerInit } from "./commands/init.js";
import { registerMerge } from "./commands/merge.js";
import { registerBatch } from "./commands/batch.js";
import { registerShow } from "./commands/show.js";
import { registerSweep } from "./commands/sweep.js";
import { EndpointFailure, InputError, Interrupted } from "./errors.js";
import { inertLine } from "./text/inert.js";
import { TOOL_VERSION } from "./version.js";

const defaultIo: Io = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  color: process.stdout.isTTY === true && process.env.NO_COLOR === undefined,
  stderrTTY: process.stderr.isTTY === true,
  columns: process.stdout.isTTY === true ? process.stdout.columns : undefined,
  env: process.env,
  cwd: process.cwd(),
  now: () => new Date(),
  interrupts: lazyInterrupts(),
};

/**
 * The first SIGINT/SIGTERM asks the run to stop cleanly (it keeps its records and prints the
 * resume command); a second one ends the process at once.
 */
function lazyInterrupts(): () => AbortSignal {
  let controller: AbortController | null = null;
  return () => {
    if (controller !== null) return controller.signal;
    const own = new AbortController();
    controller = own;
    const onSignal = (name: "SIGINT" | "SIGTERM") => {
      if (own.signal.aborted) process.exit(name === "SIGTERM" ? 143 : 130);
      process.stderr.write(`\nroute-eval: ${name}: stopping; trials in flight get a few seconds to finish (again to quit at once)\n`);
      own.abort(name);
    };
    process.on("SIGINT", () => onSignal("SIGINT"));
    process.on("SIGTERM", () => onSignal("SIGTERM"));
    return own.signal;
  };
}

/** Runs the CLI and returns the exit code; never throws. The only place exit codes are decided. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, (code) => (exitCode = Math.max(exitCode, code)));
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    return reportError(error, io, argv.includes("--debug"));
  }
}

function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command("route-eval")
    .description("Measure where tool routing fails: coverage, exposure, discovery or selection.")
    .version(TOOL_VERSION)
    .option("--debug", "print stack traces for errors")
    .enablePositionalOptions(false)
    .exitOverride()
    // Commander's usage errors carry the same prefix as every other error.
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: (text, write) => write(`route-eval: ${text.replace(/^error: /, "")}`) })
    .showHelpAfterError("(run with --help for usage)");
  registerRun(program, io, setExit);
  registerAblate(program, io, setExit);
  registerCounterfactual(program, io, setExit);
  registerInit(program, io, setExit);
  registerMerge(program, io, setExit);
  registerBatch(program, io, setExit);
  registerReport(program, io, setExit);
  registerShow(program, io, setExit);
  registerSweep(program, io, setExit);
  registerLint(program, io, setExit);
  registerImport(program, io, setExit);
  registerDiff(program, io, setExit);
  for (const command of program.commands) {
    command.exitOverride().option("--debug", "print stack traces for errors");
    command.configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: (text, write) => write(`route-eval: ${text.replace(/^error: /, "")}`) });
  }
  return program;
}

function reportError(error: unknown, io: Io, debug: boolean): number {
  if (error instanceof CommanderError) {
    return error.exitCode === 0 ? EXIT.ok : EXIT.input;
  }
  if (error instanceof InputError || error instanceof EndpointFailure || error instanceof Interrupted) {
    // Messages quote servers, models, registries and MCP servers' stderr: one inert line.
    io.stderr(`route-eval: ${inertLine(error.message)}\n`);
    if (debug && error.stack !== undefined) io.stderr(error.stack + "\n");
    return error.exitCode;
  }
  const message = inertLine(error instanceof Error ? error.message : String(error));
  io.stderr(`route-eval: internal error (this is a bug, please report it): ${message}\n`);
  if (debug && error instanceof Error && error.stack !== undefined) io.stderr(error.stack + "\n");
  else io.stderr("rerun with --debug for the stack trace\n");
  return EXIT.bug;
}
