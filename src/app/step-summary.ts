import { appendFileSync } from "node:fs";
import type { Io } from "../context.js";

/**
 * GitHub Actions: when GITHUB_STEP_SUMMARY names a file, append the Markdown summary to it, so
 * the job page shows it without any shell redirection. A failure to write is a warning, never a
 * change of verdict.
 */
export function appendStepSummary(io: Io, markdown: () => string, enabled: boolean): void {
  const file = io.env.GITHUB_STEP_SUMMARY;
  // Rendered only to be appended (a run's summary reads every case row).
  if (!enabled || file === undefined || file === "") return;
  try {
    appendFileSync(file, `${markdown()}\n`);
    io.stderr(`appended the Markdown summary to $GITHUB_STEP_SUMMARY (${file})\n`);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    io.stderr(`route-eval: warning: could not append to $GITHUB_STEP_SUMMARY (${file}): ${why}\n`);
  }
}
