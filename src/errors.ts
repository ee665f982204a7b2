/**
 * Errors a user can fix. Each carries the exit code the CLI sets (docs/commands.md "Exit codes") and a one-line
 * message that names the file, the place and the fix. Anything else that reaches the CLI is a bug.
 */
export class InputError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}

/**
 * A command-line value that does not parse (a flag's or an argument's): the CLI reports it as a
 * usage error after the option's name, exit 2. Parsers outside the CLI throw this, never the
 * CLI library's own error class, so the library stays at the edge (cli.ts translates).
 */
export class ArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArgumentError";
  }
}

/** An endpoint failure that stops the run (401, 400, replay miss…): exit 3. */
export class EndpointFailure extends Error {
  readonly exitCode = 3;
  constructor(message: string) {
    super(message);
    this.name = "EndpointFailure";
  }
}

/** The run was stopped by SIGINT (exit 130) or SIGTERM (exit 143) after keeping what it had. */
export class Interrupted extends Error {
  readonly exitCode: number;
  constructor(signal: string, message: string) {
    super(message);
    this.name = "Interrupted";
    this.exitCode = signal === "SIGTERM" ? 143 : 130;
  }
}

/** `file:line: message`, or `file: message` when the line is unknown. */
export function at(file: string, line: number | null, message: string): string {
  return line === null ? `${file}: ${message}` : `${file}:${line}: ${message}`;
}
