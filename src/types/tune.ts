/** Tuning (route-eval tune): part of the records of route-eval (see ../types.ts; docs/tune.md). */
import type { Rate } from "./metrics.js";

export const TUNE_SCHEMA_VERSION = 1;

/** Who writes the revisions: lint's fixes (no model), the endpoint (a documented prompt), or a command. */
export type ProposerKind = "rules" | "endpoint" | "command";

/** The split's share, the acceptance rule's levels and the bounds of the rounds (tune's flags). */
export interface TuneBounds {
  holdout: number;
  alpha: number;
  guard_alpha: number;
  rounds: number;
  budget: number | null;
  candidates: number;
}

/** What a tune is asked to do: its bounds, who proposes, and where the tuned snapshot goes. */
export interface TuneSettings extends TuneBounds {
  proposer: { kind: ProposerKind; command?: string };
  /** Write the tuned snapshot over the original (default: beside it, `<name>.tuned.yaml`). */
  apply: boolean;
}

/** One description revision of one tool: the fields it replaces (the rest stay as they were). */
export interface Revision {
  tool: string;
  purpose?: string;
  use_when?: string[];
  avoid_when?: string[];
  /** What the proposer said it changed and why (one line). */
  why: string;
  /** Which rule or proposer wrote it: `rules:use-when`, `rules:avoid-when`, `endpoint`, `command`. */
  by: string;
}

/** What a proposer is told about one tool behind failures (from the tune split only). */
export interface ProposalBrief {
  tool: string;
  /** Its description as the model sees it now. */
  description: string;
  purpose: string;
  use_when: string[];
  avoid_when: string[];
  /** The tools chosen instead in its failing tune cases, most often first, with lint's rival note. */
  rivals: { name: string; description: string; times: number }[];
  /** Goals of its failing tune cases (never a held-out goal). */
  failing_goals: { case_id: string; goal: string; chosen: string }[];
  /** Goals of tune cases it wins now, which a revision must keep. */
  passing_goals: string[];
  /** lint's findings on this tool (rule: message). */
  lint: string[];
}

/** A case's tally in one run: trials scored and correct (end to end). */
export interface CaseScore {
  correct: number;
  scored: number;
}

/** A rate before and after a revision on one split, with the cases that moved. */
export interface SplitDelta {
  before: Rate;
  after: Rate;
  /** after − before (each case's change in its share of correct trials, weighted by its trials), and its paired 95% t interval over the cases. */
  delta: number | null;
  interval: [number, number] | null;
  /** Cases whose share of correct trials rose / fell. */
  up: string[];
  down: string[];
}

/** One case that fell beyond its trial noise (one-sided Fisher p < the guard's alpha). */
export interface CaseDrop {
  case_id: string;
  before: CaseScore;
  after: CaseScore;
  p_value: number;
}

/** Another tool whose cases (either split) lost accuracy beyond noise: the revision's blast radius. */
export interface BlastHit {
  tool: string;
  before: Rate;
  after: Rate;
  p_value: number;
  /** Its cases that fell beyond their noise. */
  cases: string[];
}

export interface CandidateEvidence {
  tune: SplitDelta;
  held_out: SplitDelta;
  /** The paired test over held-out cases (exact one-sided sign test: did more rise than fall?), Holm-adjusted across the round. */
  test: { up: number; down: number; p_value: number; p_holm: number };
  /** Held-out cases that fell beyond their trial noise. */
  regressions: CaseDrop[];
  /** Other tools whose accuracy fell beyond noise. */
  blast: BlastHit[];
}

export interface TuneCandidate {
  /** `r<round>-<n>-<tool>`: its run's directory name under candidates/. */
  id: string;
  revision: Revision;
  description_before: string;
  description_after: string;
  /** The change, in git's plain word-diff notation: `[-removed-]{+added+}`. */
  word_diff: string;
  hash_before: string;
  hash_after: string;
  /** The candidate's run directory (relative to the tune directory). */
  run: string;
  /** Endpoint calls this candidate's run made (the rest came from the store or an earlier session). */
  calls: number;
  evidence: CandidateEvidence;
  verdict: "accepted" | "passed" | "rejected";
  /** Why it was rejected (or, when passed, that another passing candidate was stronger). */
  reasons: string[];
}

export interface TuneRound {
  round: number;
  /** The run every candidate of the round is compared with (relative to the tune directory). */
  base_run: string;
  /** The calls planned before the round (an upper bound: a store hit costs none). */
  planned_calls: number;
  planned_tokens: number;
  candidates: TuneCandidate[];
  accepted: string | null;
  /** Proposer replies that could not be read, and revisions skipped (said, never guessed at). */
  notes: string[];
}

export type TuneStop = "rounds" | "budget" | "nothing-passed" | "nothing-to-propose";

export interface TuneResult {
  schema_version: number;
  tool_version: string;
  tune_id: string;
  started_at: string;
  finished_at: string | null;
  endpoint: string;
  model: string;
  proposer: { kind: ProposerKind; command?: string };
  settings: TuneBounds & { seed: number; trials: number };
  split: { tune: string[]; held_out: string[]; by: "family" };
  registry: {
    snapshot: string;
    file: string;
    revision: string;
    tuned_revision: string | null;
    /** Where the tuned snapshot was written (null when nothing was accepted). */
    written: string | null;
  };
  /** The original registry's run and the tuned one's (relative to the tune directory; null: nothing accepted). */
  base_run: string;
  final_run: string | null;
  rounds: TuneRound[];
  /** What the proposer said that could not be used, outside a round (the round that stopped the tune). */
  notes: string[];
  stop: { reason: TuneStop; detail: string };
  calls: number;
  /** End-to-end accuracy of the original and the tuned registry, per split (the last accepted run). */
  outcome: { tune: SplitDelta; held_out: SplitDelta };
}
