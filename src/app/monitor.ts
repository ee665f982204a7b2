/** `route-eval monitor TRACES`: the routing signals of production turns, read as a stream (never the whole file in memory). */
import type { Io } from "../context.js";
import { InputError } from "../errors.js";
import { terminalWidth } from "../render/terminal-width.js";
import { createMonitor } from "../traces/monitor.js";
import { readTraces } from "../traces/read-traces.js";
import { renderMonitor } from "../traces/render-monitor.js";
import { matches, parseFilter } from "../traces/select-turns.js";
import type { Outcome } from "../types.js";
import type { MonitorFormat } from "../types/formats.js";
import { writeOutput, warnTo } from "./write-output.js";

export interface MonitorFlags {
  by: string[];
  where: string[];
  splitAt?: string;
  format: MonitorFormat;
  output?: string;
}

export function monitorCommand(io: Io, traces: string[], flags: MonitorFlags): Outcome {
  const splitAt = flags.splitAt === undefined ? null : flags.splitAt;
  if (splitAt !== null && Number.isNaN(Date.parse(splitAt)))
    throw new InputError(
      `--split-at ${JSON.stringify(splitAt)}: expected a time, e.g. 2026-11-20 or 2026-11-20T12:00:00Z`,
    );
  const filter = parseFilter([], flags.where);
  const monitor = createMonitor({ by: flags.by, splitAt });
  const counts = readTraces(
    traces,
    io.cwd,
    (turn) => {
      if (matches(turn, filter)) monitor.add(turn);
    },
    warnTo(io),
  );
  const report = monitor.report(counts);
  writeOutput(
    io,
    renderMonitor(report, flags.format, {
      color: io.color && flags.output === undefined,
      width: terminalWidth(io),
    }),
    flags.output,
  );
  return "ok";
}
