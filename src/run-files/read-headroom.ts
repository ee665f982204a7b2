/** RUN/counterfactual/counterfactual.json read back (the run page's headroom section, diff's headroom moves). */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  COUNTERFACTUAL_SCHEMA_VERSION,
  type CounterfactualReport,
} from "../types/counterfactual.js";
import { InputError } from "../errors.js";

/** The run's counterfactual.json; null when route-eval counterfactual has not run on it. */
export function readHeadroom(runDir: string): CounterfactualReport | null {
  const file = join(runDir, "counterfactual", "counterfactual.json");
  if (!existsSync(file)) return null;
  let report: CounterfactualReport;
  try {
    report = JSON.parse(readFileSync(file, "utf8")) as CounterfactualReport;
  } catch (error) {
    throw new InputError(
      `${file}: not readable as counterfactual.json (${(error as Error).message}); run route-eval counterfactual again`,
    );
  }
  if (report.schema_version !== COUNTERFACTUAL_SCHEMA_VERSION) {
    throw new InputError(
      `${file}: schema_version ${String(report.schema_version)}, expected ${COUNTERFACTUAL_SCHEMA_VERSION} (written before counterfactuals had a placebo); run route-eval counterfactual again`,
    );
  }
  return report;
}
