/**
 * route-eval as a library: the same steps as the CLI, for a script or a test of your own.
 *
 *   import { loadConfig, runEvaluation, readRun, buildReport, renderReport } from "route-eval";
 *   const config = loadConfig("route-eval.yaml", { trials: 5 }, projectDir);
 *   const { report, runDir } = await runEvaluation(config, { env: { OPENAI_API_KEY: key }, now: () => new Date() });
 *   const again = buildReport(readRun(runDir).meta, readRun(runDir).records);
 *   console.log(renderReport(again, "markdown", { color: false, gates: again.gates }));
 *
 * Bad input throws InputError (the CLI's exit 2), a failing endpoint EndpointFailure (exit 3).
 * Everything else in dist/ is internal and may change between versions.
 */
export { loadConfig, type ConfigOverrides } from "./config/load-config.js";
export { loadCases } from "./cases/load-cases.js";
export { loadRegistry } from "./registry/load-registry.js";
export { runEvaluation, type RunOptions, type RunResult } from "./trial/evaluate.js";
export { readRun } from "./run-files/read-run.js";
export { computeMetrics } from "./metrics/compute-metrics.js";
export { buildReport } from "./report/build-report.js";
export { renderReport, type RenderOptions } from "./report/render.js";
export { EndpointFailure, InputError } from "./errors.js";
export type { Format } from "./types/formats.js";
export type {
  Case,
  Config,
  GateResult,
  Metrics,
  Registry,
  Report,
  RunMeta,
  Tool,
  TrialRecord,
} from "./types.js";
