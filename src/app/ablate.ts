/** `route-eval ablate` composition root: the ladder's rungs from the config, run and compared as an experiment. */
import { planLadder } from "../ablate/plan.js";
import { loadConfig } from "../config/load-config.js";
import type { Io } from "../context.js";
import type { Outcome } from "../types.js";
import { batchOverride, toOverrides } from "./cli-options.js";
import { resumePins, runPlannedExperiment, type ExperimentFlags } from "./experiment.js";

export type { ExperimentFlags } from "./experiment.js";

/** `route-eval ablate`: the ladder's rungs from the config, run and compared. */
export async function ablateCommand(io: Io, flags: ExperimentFlags): Promise<Outcome> {
  const config = loadConfig(
    flags.config ?? null,
    {
      ...resumePins(flags.resume, io.cwd, "ladder"),
      ...toOverrides(flags),
      ...batchOverride(flags),
    },
    io.cwd,
    "ablate",
  );
  if (config.variants.length > 0)
    io.stderr(
      "route-eval: note: ablate builds its own rungs; the config's variants: are not run (route-eval run runs them)\n",
    );
  return runPlannedExperiment(io, planLadder(config, flags.router ?? null), flags);
}
