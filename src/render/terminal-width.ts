/**
 * The columns terminal renderings fit. Its own small module: the CLI's top-level help needs it
 * before any command (and the table renderer, with its dependencies) is loaded.
 */
import type { Io } from "../context.js";

/** The width terminal renderings fit when nothing else says: not a TTY, no COLUMNS. */
export const DEFAULT_WIDTH = 80;

/**
 * The columns terminal renderings fit: stdout's width when it is a terminal, else COLUMNS, else
 * the width of stderr's terminal (stdout piped to a pager or a file is read on that screen), else 80.
 */
export function terminalWidth(io: Pick<Io, "columns" | "env" | "stderrColumns">): number {
  return (
    knownWidth(io) ??
    (io.stderrColumns === undefined ? DEFAULT_WIDTH : Math.max(40, io.stderrColumns))
  );
}

/**
 * The terminal's width when it is known (stdout is a terminal, or COLUMNS is set), else null:
 * for output that tools parse line by line (lint's `file:line:` findings), which wraps only on a terminal.
 */
export function knownWidth(io: Pick<Io, "columns" | "env">): number | null {
  const fromEnv = Number(io.env.COLUMNS);
  const columns = io.columns ?? (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : null);
  return columns === null ? null : Math.max(40, columns);
}
