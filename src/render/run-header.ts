import { plural } from "./format.js";
import { maxOf, minOf } from "../text/extremes.js";
import type { Report } from "../types.js";

const MISSING_K = "?";

/** One line: run id, endpoint/model, registry snapshot@revision, cases × trials, retriever/k. */
export function describeRun(report: Report): string {
  const { run } = report;
  const registries = describeRegistries(run.registries);
  const { retriever, k } = run.config.discovery;
  const discovery =
    retriever === "none" ? "no retriever" : `retriever ${retriever}, k=${k ?? MISSING_K}`;
  const size = `${describeCases(report)} × ${describeTrials(report)}`;
  return `route-eval run ${run.run_id} · ${run.endpoint}/${run.model} · ${registries} · ${size} · ${discovery}`;
}

/** "3 trials", or for an adaptive run what it asked: "2–60 trials (adaptive, 214 in all, cap 60)". */
export function describeTrials(report: Report): string {
  const a = report.adaptive;
  if (a === undefined) return plural(report.run.config.trials, "trial");
  const asked = a.cases.map((c) => c.trials);
  const least = minOf(asked, 0);
  const most = maxOf(asked, 0);
  const range = least === most ? String(most) : `${least}–${most}`;
  return `${range} trials (adaptive, ${a.calls} in all, cap ${a.max_trials})`;
}

const LISTED_REGISTRIES = 3;

/**
 * "commerce@1", "a@1, b@2", or "200 registries (a@1, b@2, c@3, …)"; "no registry" when none is
 * known; "commerce@1 (content 3f2a9c)" when a diff tells two contents of one label apart.
 */
export function describeRegistries(
  registries: { snapshot: string; revision: string; content?: string }[],
): string {
  const named = registries.map(
    (r) => `${r.snapshot}@${r.revision}${r.content === undefined ? "" : ` (content ${r.content})`}`,
  );
  if (named.length === 0) return "no registry";
  if (named.length <= LISTED_REGISTRIES) return named.join(", ");
  return `${named.length} registries (${named.slice(0, LISTED_REGISTRIES).join(", ")}, …)`;
}

/** "83 cases", or with conversations "83 cases + 8 conversations of 23 turns". */
function describeCases(report: Report): string {
  const c = report.metrics.conversations;
  if (c === undefined) return plural(report.cases.length, "case");
  return `${plural(report.cases.length - c.turns, "case")} + ${plural(c.conversations, "conversation")} of ${plural(c.turns, "turn")}`;
}
