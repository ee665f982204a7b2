/** RUN/counterfactual/counterfactual.json read back (the run page's headroom section, diff's headroom moves). */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CounterfactualReport } from "../types/counterfactual.js";
import { InputError } from "../errors.js";

/** The run's counterfactual.json; null when route-eval counterfactual has not run on it. */
export function readHeadroom(runDir: string): CounterfactualReport | null {
  const file = join(runDir, "counterfactual", "counterfactual.json");
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as CounterfactualReport;
  } catch (error) {
    throw new InputError(`${file}: not readable as counterfactual.json (${(error as Error).message}); run route-eval counterfactual again`);
  }
}
