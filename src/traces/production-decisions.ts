/**
 * Production's decision on each traced turn — what a shadow compares the candidate's against —
 * and how a decision reads in its moves table.
 */
import { ABSTAIN, ASK } from "../types.js";

/** What production did on one turn, in the words of a moves table. */
export interface ProductionDecision {
  /** The first called tool, or NO_CALL. */
  label: string;
  /** Tools production offered. */
  offered: number;
  /** Tool calls production made in its reply. */
  calls: number;
}

/** The label of an answer without a tool call. */
export const NO_CALL = "(no call)";

/** Production's decisions, each taken once (the shadow's tally takes a turn's at its first record). */
export interface ProductionDecisions {
  take(caseId: string): ProductionDecision | undefined;
}

/** Decisions held in a map, each let go as it is taken. */
export function takingFrom(decisions: Map<string, ProductionDecision>): ProductionDecisions {
  return {
    take: (caseId) => {
      const decision = decisions.get(caseId);
      decisions.delete(caseId);
      return decision;
    },
  };
}

/** How a candidate decision reads in the moves table: a question, an abstention, no call, or the tool. */
export function describeChoice(selected: string | null): string {
  if (selected === null) return NO_CALL;
  if (selected === ASK) return `${ASK} (question)`;
  if (selected === ABSTAIN) return `${ABSTAIN} (abstain)`;
  return selected;
}
