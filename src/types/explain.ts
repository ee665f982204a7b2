/**
 * The explanation of one case: the whole ladder, from what existed to what each trial chose and
 * the fix the failing rung points to. Built from run.json and records.jsonl alone (nothing is
 * re-run); `show --case` prints it and the HTML report embeds it for the per-case drill-down.
 */
import type {
  CallSetRecord,
  Effect,
  HiddenReason,
  JsonValue,
  PhasePolicy,
  RankedName,
  SearchRecord,
  SelectionError,
  Stage,
  EndpointCall,
} from "../types.js";

/** How the case's scored trials fared at one rung. */
export type StepStatus = "passed" | "failed" | "mixed" | "not_reached";

export interface LadderStep {
  stage: Stage;
  status: StepStatus;
  /** One sentence of evidence, e.g. "phase support exposed 38 of 47 tools; hid 9". */
  text: string;
}

/** Hidden tools that share the first rule that hid them and the attribute it looked at. */
export interface HiddenGroup {
  /** null when run.json does not say why (no definition or no policy). */
  rule: HiddenReason | null;
  /** What the rule looked at: "family payments", "effect destructive", "open world". */
  value: string;
  /** The first LISTED_HIDDEN of them in registry order, and every acceptable one. */
  tools: string[];
  /** Hidden by this rule but not listed (a phase can hide thousands of a catalogue's tools). */
  more: number;
}

/** An ordinary registry tool the phase hid, with every rule that hid it (empty = unknown). */
export interface HiddenTool {
  name: string;
  family: string | null;
  effect: Effect | null;
  open_world: boolean | null;
  rules: HiddenReason[];
  acceptable: boolean;
}

/** An exposed ordinary tool as the retriever ranked it for this goal. */
/** A tool at its place in the retriever's ranking (see RankedName), as `show` presents it. */
export interface RankedTool extends RankedName {
  kept: boolean;
  acceptable: boolean;
}

/** What one trial chose and how it was classified. */
export interface TrialView {
  trial: number;
  /** Non-null when the endpoint failed for good (the trial is excluded from every rate). */
  error: string | null;
  selected: string | null;
  /** A hierarchical case's level that failed first (docs/targets.md); inside: `selected` is the tool picked inside the right agent. */
  level?: "target" | "inside" | null;
  /** The selected tool was not in the visible set. */
  phantom: boolean;
  acceptable: boolean;
  forbidden: boolean;
  arguments: JsonValue;
  argument_errors: string[] | null;
  argument_match: boolean | null;
  failed_stage: Stage | null;
  selection_error: SelectionError | null;
  response_text: string | null;
  /** Calls after the first, when the reply made several (they are not the selection). */
  extra_calls: EndpointCall[];
  /** Tool search was on: the searches of the decision and how it ended (absent otherwise). */
  search?: SearchRecord;
  /** The case expected calls: every call made, and how they matched (absent otherwise; extra_calls is then empty). */
  call_set?: { calls: EndpointCall[]; set: CallSetRecord };
}

/** A tool's name and model-facing description (null when run.json does not know it). */
export interface ToolText {
  name: string;
  description: string | null;
}

/** The tool most often chosen instead of the expected one. */
export interface RivalView {
  expected: ToolText;
  rival: ToolText;
  count: number;
  of: number;
  /** "case": taken from this case's trials; "run": from the run-wide rivals of the same expected label. */
  scope: "case" | "run";
}

/** The fix the failing rung points to. */
export interface FixView {
  stage: Stage;
  /** build a tool / fix an exposure rule / improve retrieval / sharpen one pair of descriptions. */
  action: string;
  detail: string[];
}

export interface CaseExplanation {
  case_id: string;
  goal: string | null;
  phase: string | null;
  family: string | null;
  tags: string[];
  acceptable: string[];
  /** A hierarchical case's acceptable paths, [target, tool] (docs/targets.md). */
  paths?: [string, string][];
  forbidden: string[];
  trials: number;
  scored: number;
  correct: number;
  errored: number;
  violated: number;
  /** e.g. "selection ×2 (selected get_order), correct ×1". */
  outcome: string;
  /** The earliest rung any scored trial failed, or null when every scored trial was correct. */
  stage: Stage | null;
  registry: { tools: number; controls: number; acceptable_present: string[] };
  exposure: {
    phase: string | null;
    policy: PhasePolicy | null;
    exposed: number;
    hidden: number;
    /** Hidden tools grouped by rule (sorted by rule, then value). */
    groups: HiddenGroup[];
    /** The acceptable tools the phase hid, with every rule that hid each. */
    hidden_acceptable: HiddenTool[];
  };
  /** `ranking` is null when the retriever gave no scores (no retriever: visible = exposed). */
  discovery: { k: number | null; exposed: number; ranking: RankedTool[] | null };
  visible_order: string[];
  ladder: LadderStep[];
  trial_views: TrialView[];
  /** The case's expected calls (calls:), absent for a case with acceptable. */
  expected_calls?: Pick<CallSetRecord, "expected" | "order" | "allow_extra">;
  forbidden_hits: { trial: number; tool: string }[];
  rival: RivalView | null;
  fix: FixView | null;
}

/** The facts of an explanation, before the ladder, the rival and the fix are derived from them. */
export type CaseFacts = Omit<CaseExplanation, "ladder" | "rival" | "fix">;
