/**
 * Composition root of a sweep's HTML: every point is a full run, so each gets its own
 * report.html (funnel, heatmap, drill-down) from its records, as `route-eval report POINT
 * --format html` would write it; the sweep page links to them.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../errors.js";
import { explainRun } from "../show/explain-run.js";
import { readRun } from "../run-files/read-run.js";
import { buildReport } from "../report/build-report.js";
import { renderHtml } from "../report/render-html.js";
import { writeTextFile } from "../run-files/write-files.js";
import type { SweepReport } from "../types/sweep.js";

export interface PointPages {
  /** Point run names whose report.html now exists. */
  written: string[];
  /** Points left without a page, and why (no records, unreadable records). */
  skipped: { run: string; reason: string }[];
}

/** Writes <sweep>/<point>/report.html for every point whose records are there. */
export function writePointPages(sweepDir: string, sweep: SweepReport): PointPages {
  const pages: PointPages = { written: [], skipped: [] };
  for (const point of sweep.points) {
    const runDir = join(sweepDir, point.run);
    if (!existsSync(join(runDir, "records.jsonl"))) {
      pages.skipped.push({ run: point.run, reason: `${join(runDir, "records.jsonl")}: not found` });
      continue;
    }
    try {
      const { meta, records } = readRun(runDir);
      const report = buildReport(meta, records);
      const gates = report.gates;
      writeTextFile(
        join(runDir, "report.html"),
        renderHtml(report, { gates, explanations: explainRun(report, records) }),
      );
      pages.written.push(point.run);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      pages.skipped.push({ run: point.run, reason: error.message });
    }
  }
  return pages;
}
