import {
  Command,
  CommanderError,
  InvalidArgumentError,
  type Argument,
  type Option,
  type OutputConfiguration,
} from "commander";
import { setFlagsFromString } from "node:v8";
import { widthReady } from "./render/text-layout.js";
import { terminalWidth } from "./render/terminal-width.js";
import { CATALOGUE, type CatalogueEntry, type Register } from "./commands/catalogue.js";
import { EXIT } from "./commands/exit.js";
import type { Io } from "./context.js";
import type { SetExit } from "./commands/exit.js";
import { ArgumentError, EndpointFailure, InputError, Interrupted } from "./errors.js";
import { inertLine } from "./text/inert.js";
import { TOOL_VERSION } from "./version.js";

const defaultIo: Io = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  color: process.stdout.isTTY === true && process.env.NO_COLOR === undefined,
  stderrTTY: process.stderr.isTTY === true,
  columns: process.stdout.isTTY === true ? process.stdout.columns : undefined,
  stderrColumns: process.stderr.isTTY === true ? process.stderr.columns : undefined,
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
      process.stderr.write(
        `\nroute-eval: ${name}: stopping; trials in flight get a few seconds to finish (again to quit at once)\n`,
      );
      own.abort(name);
    };
    process.on("SIGINT", () => onSignal("SIGINT"));
    process.on("SIGTERM", () => onSignal("SIGTERM"));
    return own.signal;
  };
}

/** Runs the CLI and returns the exit code; never throws. The only place exit codes are decided. */
export async function main(
  argv: string[],
  io: Io = defaultIo,
  catalogue: readonly CatalogueEntry[] = CATALOGUE,
): Promise<number> {
  let exitCode: number = EXIT.ok;
  keepWasmAtBaseline();
  await widthReady;
  try {
    const program = await buildProgram(
      io,
      (code) => (exitCode = Math.max(exitCode, code)),
      commandsFor(argv, catalogue),
    );
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    return reportError(error, io, argv.includes("--debug"));
  }
}

/**
 * undici's HTTP parser (llhttp, endpoint/http-transport.ts) is WebAssembly. V8 compiles it at once
 * with its baseline compiler, then again with its optimising one on a background thread; the
 * second costs more CPU than it saves on replies of a few kilobytes (4,000 replies: 1.2 against
 * 1.5 s of CPU), and a process cannot end before it is done (a short run waited 0.2–0.3 s at exit).
 * route-eval runs no other WebAssembly, so its process keeps the baseline; a program that uses
 * route-eval as a library keeps its own flags.
 */
function keepWasmAtBaseline(): void {
  setFlagsFromString("--liftoff-only");
}

/**
 * What the program is built with for these arguments: the one command named (its first word that
 * is not an option — the top-level options take no value — or the NAME of `help NAME`), loaded;
 * nothing for --version; for the overall help, a name that is no command (commander suggests the
 * nearest) or none, every command as the catalogue describes it, none loaded.
 */
function commandsFor(
  argv: string[],
  catalogue: readonly CatalogueEntry[],
): { load: (() => Promise<Register>) | null; catalogue: readonly CatalogueEntry[] | null } {
  const args = argv.slice(2);
  const words = args.filter((arg) => !arg.startsWith("-"));
  const name = words[0] === "help" && words.length > 1 ? words[1] : words[0];
  if (
    name === undefined &&
    (args.includes("--version") || args.includes("-V")) &&
    !args.includes("--help") &&
    !args.includes("-h")
  )
    return { load: null, catalogue: null };
  const load =
    name === undefined ? undefined : catalogue.find((entry) => entry.name === name)?.load;
  return load === undefined ? { load: null, catalogue } : { load, catalogue: null };
}

async function buildProgram(
  io: Io,
  setExit: SetExit,
  commands: ReturnType<typeof commandsFor>,
): Promise<Command> {
  const program = new Command("route-eval")
    .description("Measure where tool routing fails: coverage, exposure, discovery or selection.")
    .version(TOOL_VERSION)
    .option("--debug", "print stack traces for errors")
    .enablePositionalOptions(false)
    .exitOverride()
    // Commander's usage errors carry the same prefix as every other error.
    .configureOutput(outputOf(io))
    .showHelpAfterError("(run with --help for usage)");
  if (commands.load !== null) (await commands.load())(program, io, setExit);
  if (commands.catalogue !== null) {
    for (const entry of commands.catalogue) {
      const command = program.command(entry.name).description(entry.description);
      for (const arg of entry.args) command.argument(arg);
    }
  }
  for (const command of program.commands) {
    command.exitOverride().option("--debug", "print stack traces for errors");
    command.configureOutput(outputOf(io));
    for (const parsed of [...command.options, ...command.registeredArguments])
      translateParser(parsed);
  }
  return program;
}

/**
 * route-eval's parsers throw ArgumentError (they live outside the CLI); commander reports its own
 * InvalidArgumentError after the option's name, as a usage error. One place translates.
 */
function translateParser(parsed: Option | Argument): void {
  const parse = parsed.parseArg;
  if (parse === undefined) return;
  parsed.parseArg = <T>(value: string, previous: T): T => {
    try {
      return parse(value, previous);
    } catch (error) {
      throw error instanceof ArgumentError ? new InvalidArgumentError(error.message) : error;
    }
  };
}

/** Commander's output: through io, usage errors with the same prefix as every other error, help laid out to the terminal's width. */
function outputOf(io: Io): OutputConfiguration {
  const width = () => terminalWidth(io);
  return {
    writeOut: io.stdout,
    writeErr: io.stderr,
    getOutHelpWidth: width,
    getErrHelpWidth: width,
    outputError: (text, write) => write(`route-eval: ${text.replace(/^error: /, "")}`),
  };
}

function reportError(error: unknown, io: Io, debug: boolean): number {
  if (error instanceof CommanderError) {
    return error.exitCode === 0 ? EXIT.ok : EXIT.input;
  }
  if (
    error instanceof InputError ||
    error instanceof EndpointFailure ||
    error instanceof Interrupted
  ) {
    // Messages quote servers, models, registries and MCP servers' stderr: one inert line.
    io.stderr(`route-eval: ${inertLine(error.message)}\n`);
    if (debug && error.stack !== undefined) io.stderr(error.stack + "\n");
    return error.exitCode;
  }
  const unwritable = describeFileError(error);
  if (unwritable !== null) {
    io.stderr(`route-eval: ${inertLine(unwritable)}\n`);
    if (debug && error instanceof Error && error.stack !== undefined) io.stderr(error.stack + "\n");
    return EXIT.input;
  }
  const message = inertLine(error instanceof Error ? error.message : String(error));
  io.stderr(`route-eval: internal error (this is a bug, please report it): ${message}\n`);
  if (debug && error instanceof Error && error.stack !== undefined) io.stderr(error.stack + "\n");
  else io.stderr("rerun with --debug for the stack trace\n");
  return EXIT.bug;
}

/** What the file system said, in words, for the errors a user fixes (a full disk, a read-only folder, a path that is not there). */
const FILE_ERRORS: Record<string, string> = {
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is used up",
  EROFS: "the file system is read-only",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOENT: "no such file or directory",
  ENOTDIR: "a part of the path is not a directory",
  EISDIR: "it is a directory",
};

/**
 * A file-system error as one line naming the path, the reason and the fix (exit 2, like any bad
 * input), or null for any other error. Records already written stay written; a torn last line is
 * dropped by --resume.
 */
function describeFileError(error: unknown): string | null {
  if (!(error instanceof Error) || !("code" in error) || typeof error.code !== "string")
    return null;
  const reason = FILE_ERRORS[error.code];
  if (reason === undefined) return null;
  const path = "path" in error && typeof error.path === "string" ? ` ${error.path}` : "";
  const action = "syscall" in error && typeof error.syscall === "string" ? error.syscall : "write";
  const fix = ["ENOENT", "ENOTDIR", "EISDIR"].includes(error.code)
    ? "check the path"
    : "free space or choose a writable --out-dir";
  return `cannot ${action}${path}: ${reason} (${error.code}); ${fix} (what was already recorded is kept: continue with --resume)`;
}
