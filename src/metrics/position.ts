/**
 * Selection accuracy by where the right tool stood in the list the model saw. Population: the
 * selection_accuracy population (an acceptable tool was visible). A trial's position is that of
 * its first acceptable tool in visible_order; its third is the one holding the centre of its
 * slot, (index + ½)/length in [0, ⅓) first, [⅓, ⅔) middle, else last — so in a list of two the
 * second tool is last, and in a list of three each tool has its own third. Meaningful as a position effect when the run shuffled the tools
 * (--shuffle-tools); in registry order, position and tool are confounded. Case tallies count each
 * trial under its third (case-tally.ts); compute-metrics.ts turns them into clustered rates.
 */
import { POSITION_THIRDS, type PositionThird, type TrialRecord } from "../types.js";

/** The third of a list of `length` items that holds the centre of slot `index`. */
export function positionThird(index: number, length: number): PositionThird {
  return POSITION_THIRDS[Math.min(2, Math.floor((3 * (index + 0.5)) / length))];
}

/** The third holding the first acceptable tool shown, or null when none was shown. */
export function thirdOfTrial(trial: TrialRecord): PositionThird | null {
  // acceptable holds one to three names: scanning it beats building a Set per trial.
  const index = trial.visible_order.findIndex((name) => trial.acceptable.includes(name));
  return index === -1 ? null : positionThird(index, trial.visible_order.length);
}
