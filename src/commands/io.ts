import { writeFileSync } from "node:fs";
import { Option } from "commander";
import { FORMATS, renderReport, type Format } from "../report/render.js";
import type { GateResult, Report } from "../types.js";

/** Where a command writes; tests pass their own to capture output. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stdout takes ANSI colour (a TTY, and NO_COLOR unset). */
  color: boolean;
  /** Whether stderr is a terminal (a live progress line) — absent means no. */
  stderrTTY?: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Exit codes (DESIGN §7). 4 is ours: an internal error, i.e. a bug. Only cli.ts returns them. */
export const EXIT = { ok: 0, gate: 1, input: 2, endpoint: 3, bug: 4 } as const;

/** A command action reports its verdict through this; cli.ts turns it into the process exit code. */
export type SetExit = (code: number) => void;

export interface OutputFlags {
  format: Format;
  output?: string;
  gates?: boolean;
}

export function formatOption(): Option {
  return new Option("-f, --format <format>", "rendering on stdout").choices(FORMATS).default("terminal");
}

/** Prints the report in the chosen format, or writes it to --output. */
export function emitReport(io: Io, report: Report, flags: OutputFlags, gates: GateResult[]): void {
  const text = renderReport(report, flags.format, { color: io.color && flags.output === undefined, gates });
  if (flags.output === undefined) io.stdout(text);
  else {
    writeFileSync(flags.output, text);
    io.stderr(`wrote ${flags.output}\n`);
  }
}

/** 1 when a gate or an exposure assertion failed, else 0. */
export function verdict(report: Report, gates: GateResult[]): number {
  const failed = gates.some((g) => !g.passed) || report.exposure_assertions.length > 0;
  return failed ? EXIT.gate : EXIT.ok;
}
