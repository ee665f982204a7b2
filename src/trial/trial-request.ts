/** What every request of a trial shares, whatever tools it shows (a plain ask, or each call of a search). */
import { deriveSeed } from "../text/seeded-random.js";
import type { Case, Config, TrialRequest } from "../types.js";

/** A trial's request without its tools: the run's prompt and settings, the case's turn, the trial's seed (derived unless given). */
export function requestOf(config: Config, testCase: Case, trial: number, seed?: number): Omit<TrialRequest, "tools"> {
  return {
    case_id: testCase.id,
    trial,
    system: config.system_prompt,
    context: testCase.context,
    messages: testCase.messages,
    goal: testCase.goal,
    temperature: config.temperature,
    seed: seed ?? deriveSeed(config.seed, testCase.id, trial) % 2 ** 31,
  };
}
