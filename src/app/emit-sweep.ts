/**
 * Shared by `route-eval sweep` and `route-eval report SWEEP_DIR`: print or write a sweep in the
 * chosen format. html writes each point's report.html and the sweep page — <sweep>/report.html by
 * default — whose links to the point pages are relative to where the page lands.
 */
import type { SweepFormat } from "../types/formats.js";
import { writeOutput } from "./write-output.js";
import { dirname, join, resolve } from "node:path";
import { renderSweep } from "../sweep/render-sweep.js";
import type { SweepReport } from "../types/sweep.js";
import { writePointPages } from "./sweep-pages.js";
import type { Io } from "../context.js";
import { relativeHref } from "../render/relative-href.js";
import { terminalWidth } from "../render/terminal-width.js";

export interface SweepOutputFlags {
  format: SweepFormat;
  output?: string;
}

export function emitSweep(
  io: Io,
  sweepDir: string,
  sweep: SweepReport,
  flags: SweepOutputFlags,
): void {
  if (flags.format !== "html") {
    writeOutput(
      io,
      renderSweep(sweep, flags.format, { pointLinks: {}, sweepDir, width: terminalWidth(io) }),
      flags.output,
    );
    return;
  }
  const pages = writePointPages(resolve(io.cwd, sweepDir), sweep);
  for (const { reason } of pages.skipped) io.stderr(`route-eval: no point page: ${reason}\n`);
  if (pages.written.length > 0)
    io.stderr(
      `wrote ${pages.written.length} point pages: ${join(sweepDir, "<point>", "report.html")}\n`,
    );
  const output = flags.output ?? join(sweepDir, "report.html");
  const from = output === "-" ? resolve(io.cwd) : dirname(resolve(io.cwd, output));
  const pointLinks = Object.fromEntries(
    pages.written.map((run) => [
      run,
      relativeHref(from, resolve(io.cwd, sweepDir, run, "report.html")),
    ]),
  );
  writeOutput(io, renderSweep(sweep, "html", { pointLinks, sweepDir }), output);
}
