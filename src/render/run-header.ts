import type { Report } from "../types.js";

const MISSING_K = "?";

/** One line: run id, endpoint/model, registry snapshot@revision, cases × trials, retriever/k. */
export function describeRun(report: Report): string {
  const { run } = report;
  const registries = run.registries.map((r) => `${r.snapshot}@${r.revision}`).join(", ") || "no registry";
  const { retriever, k } = run.config.discovery;
  const discovery = retriever === "none" ? "no retriever" : `retriever ${retriever}, k=${k ?? MISSING_K}`;
  const size = `${report.cases.length} cases × ${run.config.trials} trials`;
  return `route-eval run ${run.run_id} · ${run.endpoint}/${run.model} · ${registries} · ${size} · ${discovery}`;
}
