/** Production traces: one model call as traced, normalised whatever wrote it (see ../types.ts). */
import type { Message } from "./cases.js";
import type { JsonObject, JsonValue } from "./json.js";
import type { MeanEstimate, Rate } from "./metrics.js";
import type { StoredWire } from "./providers.js";

/** What wrote a traced call. */
export type TraceFormat =
  | "otlp-genai"
  | "otlp-openinference"
  | "span-genai"
  | "span-openinference"
  | "otlp-vercel-ai"
  | "span-vercel-ai"
  | "openai-chat"
  | "openai-responses"
  | "anthropic-messages";

/** The provider API a traced call went through, when the trace says (it picks the reply a freeze stores). */
export type TracedApi = StoredWire;

/** One tool as the trace offered it: its name always, its description and schema only when the trace carried them. */
export interface TracedTool {
  name: string;
  description?: string;
  input_schema?: JsonObject;
}

/** A call the model made, its arguments kept as the text it wrote (invalid JSON is itself worth freezing). */
export interface TracedCall {
  id: string | null;
  name: string;
  /** The arguments' text: as traced when it was a string, else the object written as JSON. */
  arguments: string;
  /** The arguments parsed, or null when they are not a JSON object. */
  parsed: JsonObject | null;
}

/** A candidate set logged at one filtering stage (connector → tenant → router → allowlist). */
export interface TracedStage {
  stage: string;
  tools: string[];
}

/** One model call, normalised: what the model was given and what it did. */
export interface TracedTurn {
  /** Where it was read: the file as shown, the 1-based line of its JSON value, and the format. */
  source: { file: string; line: number; format: TraceFormat };
  /** Lower-case hex, whatever encoding the trace used; null when it has none. */
  trace_id: string | null;
  span_id: string | null;
  /** When the call started (ISO 8601), when the trace says. */
  time: string | null;
  /** `openai`, `anthropic`, … as the trace names it. */
  provider: string | null;
  api: TracedApi | null;
  model: string | null;
  system: string | null;
  /** Every message before the reply, in order (the last user message is the goal). */
  messages: Message[];
  tools: TracedTool[];
  /** The tool choice as traced, or `auto` inferred when the trace has none (OTel defines none). */
  tool_choice: { value: JsonValue; provenance: "traced" | "inferred" };
  calls: TracedCall[];
  /** The reply's text, or null when it has none. */
  text: string | null;
  /** Whether the trace carried the reply at all (content capture may be off): without it there is no decision to read. */
  replied: boolean;
  stages: TracedStage[];
  /** Scalar attributes of the span and its resource (service.name, tenant…), for --where and --by. */
  attributes: Record<string, string>;
  /** A raw provider pair's reply body, as the provider sent it. */
  reply?: JsonValue;
}

/** One cell of a shadow replay's moves table: production chose `from`, the candidate `to`. */
export interface ShadowCell {
  from: string;
  to: string;
  /** Whether the candidate's choice differs from production's (a question or abstention for a call of ask_user / no_applicable_tool does not). */
  moved: boolean;
  /** Decisions (turn × trial) in the cell. */
  count: number;
  /** The turns behind it (case ids of the shadow run, for `route-eval show RUN --case ID`), first ones only. */
  turns: string[];
}

/** `route-eval shadow`: production turns asked again against a candidate surface, and what moved. */
export interface ShadowReport {
  kind: "shadow";
  candidate: {
    config: string | null;
    endpoint: string;
    model: string;
    registry: string | null;
    phase: string | null;
    trials: number;
  };
  /** The shadow run's directory (records and report: `route-eval show DIR --case ID`). */
  run_dir: string;
  /**
   * Turns read, asked again, and not asked (by reason). `no_system`: turns asked that traced no
   * system prompt — asked without one, never with route-eval's default.
   */
  turns: { read: number; asked: number; skipped: Record<string, number>; no_system: number };
  decisions: number;
  errored: number;
  /** Decisions whose choice differs from production's, over decisions; the turn is the unit of its interval. */
  moved: Rate;
  /** Every (production, candidate) pair with at least one decision; moved cells first, by count. */
  cells: ShadowCell[];
  /** From a tool call to a question, an abstention, or no call at all. */
  became: { question: number; abstention: number; no_call: number };
  /** Tools offered per turn: production's and the candidate's (after its exposure), and how many turns saw fewer or more. */
  set_size: { production: number | null; candidate: number | null; fewer: number; more: number };
  /** Tool calls per decision (production's, over the turns asked; the candidate's, over its decisions), and decisions with several calls in one reply. */
  calls: {
    production: MeanEstimate;
    candidate: MeanEstimate;
    parallel: { production: Rate; candidate: Rate };
  };
}

/** The routing signals of a set of production turns (docs/traces.md#monitor). */
export interface MonitorSignals {
  /** Turns whose reply was traced (the rest are in no rate). */
  turns: number;
  /** Turns whose trace carries no offered tools: in no set size, and their calls in no per-call rate. */
  no_tool_list: number;
  /** Ordinary tools offered per turn (turns with a tool list). */
  set_size: MeanEstimate & { max: number | null };
  /** Candidates per filtering stage, when the trace logs them (route_eval.candidates.<stage>). */
  stages: { stage: string; size: MeanEstimate }[];
  /** Turns that made a tool call. */
  call_rate: Rate;
  /** Turns that made several calls in one reply (parallel calls), over turns that made a call. */
  parallel_call_rate: Rate;
  /** Tool calls per turn, over turns (a parallel reply counts each call). */
  calls_per_turn: MeanEstimate;
  /** Turns that asked the user: an ask_user call, or a reply without a call that ends in a question mark. */
  clarification_rate: Rate;
  /** Turns that abstained: a no_applicable_tool call. */
  abstention_rate: Rate;
  /** Turns answered in text without a call or a question. */
  no_call_rate: Rate;
  /** Calls of a tool that was not offered, over calls. */
  phantom_rate: Rate;
  /** Calls whose arguments are not a JSON object, or fail the offered schema, over calls of an offered tool that has a schema or such arguments. */
  schema_rejection_rate: Rate;
  /** Calls of a tool whose rival (lint's rival pairs) was offered beside it, over calls of an offered tool. */
  rival_selection_rate: Rate;
  /**
   * Calls per tool, most called first: how many calls, and the share of the turns with a call
   * whose reply called it (a turn is counted once per tool; with parallel calls shares can sum
   * past 100%). The distribution whose drift is the first production signal.
   */
  calls_by_tool: { tool: string; calls: number; share: Rate }[];
}

/** Two rival tools offered together, and how the calls between them split. */
export interface MonitorRivals {
  a: string;
  b: string;
  /** Lint's rival score of the pair. */
  score: number;
  /** Turns that offered both. */
  turns: number;
  calls_a: number;
  calls_b: number;
}

/** `route-eval monitor`: the routing signals of production turns, overall, by attribute and between two time windows. */
export interface MonitorReport {
  kind: "monitor";
  traces: {
    files: number;
    calls: number;
    skipped: number;
    /** Model-call spans with none of their content (an SDK's own span beside an instrumentation's). */
    without_content: number;
    /** Spans of a shape route-eval could not read, each skipped and named on stderr. */
    malformed: number;
    turns: number;
    unreplied: number;
  };
  all: MonitorSignals;
  /** --by KEY: the signals of each value (turns without the attribute under "(none)"). */
  by: { key: string; groups: { value: string; signals: MonitorSignals }[] }[];
  /** --split-at TIME: the signals before and after it (turns without a time in neither). */
  windows: {
    split_at: string;
    before: MonitorSignals;
    after: MonitorSignals;
    untimed: number;
  } | null;
  rivals: MonitorRivals[];
  /** Turns whose offered set was too unlike the sets seen before to compute its rivals (a bound on memory). */
  rivals_not_computed: number;
}
