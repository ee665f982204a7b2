/**
 * The shapes of the input files as written, before defaults: what a document holds once it has
 * passed its JSON Schema in /schemas. Each interface mirrors one schema; keep them in step.
 */
import type {
  ArgExpectation,
  Config,
  ControlName,
  DispatchedKind,
  Effect,
  EmbeddingsConfig,
  GateSpec,
  JsonObject,
  JsonValue,
  Message,
  RetrieverName,
  TargetKind,
} from "../types.js";

/** route-eval.yaml — built from the key table (config/keys.ts), as written: paths relative, cases one glob or many. */
export type ConfigFile = Partial<
  Omit<
    Config,
    "file" | "root" | "cases" | "discovery" | "controls" | "gates" | "variants" | "variant_gates"
  >
> & {
  cases?: string | string[];
  discovery?: { retriever?: RetrieverName; k?: number; embeddings?: Partial<EmbeddingsConfig> };
  controls?: ControlName[] | "on" | "off";
  /** Gates by metric name, and `variants`: variant name → metric → threshold. */
  gates?: Record<string, GateSpec | Record<string, Record<string, string>>>;
  variants?: VariantEntry[];
};

/** One entry of `variants:` — a name and the settings it overrides, written as in the file. */
export type VariantEntry = { name: string } & Omit<ConfigFile, "variants" | "gates" | "cases">;

/** One tool of a registry snapshot — schemas/registry.schema.json#/$defs/tool */
export interface ToolEntry {
  name: string;
  kind?: TargetKind;
  /** Required of a tool (the schema says so); a skill, agent or server defaults it (its kind, or a server's name). */
  family?: string;
  purpose: string;
  use_when?: string[];
  avoid_when?: string[];
  input_schema?: JsonObject;
  output_schema?: JsonObject;
  /** Required of a tool (the schema says so); a skill, agent or server defaults it to none. */
  effect?: Effect;
  idempotent?: boolean;
  open_world?: boolean;
  /** An agent's own tools, or the tools a server groups. */
  tools?: string[];
  /** An agent's system prompt once it is handed the task. */
  instructions?: string;
  /** What the source declared (MCP annotations…); never trusted, never read by the pipeline. */
  declared?: JsonObject;
}

/** registries/*.yaml — schemas/registry.schema.json */
export interface RegistryFile {
  snapshot?: string;
  revision: string;
  source?: string;
  /** Tools known by name alone (a trace gave no definition): their purpose is their name, and they have no schema. */
  partial?: string[];
  dispatch?: "functions" | "tool";
  dispatchers?: Partial<Record<DispatchedKind, { tool: string; argument: string }>>;
  tools: ToolEntry[];
}

/** One routing case — schemas/cases.schema.json#/$defs/case */
export interface CaseEntry {
  id: string;
  goal: string;
  phase?: string | null;
  /** Absent only while `todo` says it is still to be written. */
  acceptable?: string[];
  forbidden?: string[];
  family?: string | null;
  tags?: string[];
  args?: Record<string, Record<string, ArgExpectation>>;
  context?: JsonObject;
  messages?: Message[];
  must_see?: string[];
  must_not_see?: string[];
  /** The case's own system prompt, instead of the run's system_prompt (route-eval freeze keeps the production one). */
  system?: string;
  /** What is still to be written (route-eval freeze leaves acceptable to the user): lint reports it, run refuses the case. */
  todo?: string;
  /** Where the case came from (route-eval freeze: the trace, span, call and redactions); not read by the run. */
  origin?: JsonObject;
  /** The calls expected, instead of acceptable (docs/call-sets.md). */
  calls?: ExpectedCallEntry[];
  order?: "any" | "sequence";
  allow_extra?: string[];
  max_steps?: number;
  results?: StubResultEntry[];
  parallel_tool_calls?: boolean;
  /** How this case offers the registry's skills and agents, over the registry's dispatch:. */
  dispatch?: "functions" | "tool";
  /** The decision's earlier steps after the goal: the model's calls and their results (a frozen agent-loop step). */
  prior_steps?: Message[];
}

/** One expected call as written: a tool, or a list of acceptable alternatives, with optional args. */
export interface ExpectedCallEntry {
  tool: string | string[];
  args?: Record<string, ArgExpectation>;
  /** What the call returns between steps, and in a conversation's later turns. */
  result?: JsonValue;
}

/** A stub as written: a call of `tool` whose arguments match `args` returns `result`. */
export interface StubResultEntry {
  tool: string;
  args?: Record<string, ArgExpectation>;
  result: JsonValue;
}

/** One turn of a conversation case: the user's message, the decision expected, and what changes in the tool surface from it on. */
export interface TurnEntry {
  user: string;
  /** Required of every turn without calls (checked with the turn's line, so absent here until then). */
  acceptable?: string[];
  /** The calls expected instead of acceptable (docs/call-sets.md). */
  calls?: ExpectedCallEntry[];
  order?: "any" | "sequence";
  allow_extra?: string[];
  max_steps?: number;
  forbidden?: string[];
  args?: Record<string, Record<string, ArgExpectation>>;
  /** The phase from this turn on (null: none). */
  phase?: string | null;
  add?: string[];
  remove?: string[];
  /** The gold result of the expected call, fed to later turns (default {"ok": true}). */
  result?: JsonValue;
  /** On-policy: what a call of each of these tools at this turn returns to later turns (a call off the gold path). */
  results?: Record<string, JsonValue>;
  /** Teacher-forced: what later turns see after this turn's user message, instead of the history derived from its decision. */
  gold?: Message[];
}

/** A conversation case: `turns:` instead of one goal. */
export interface ConversationEntry {
  id: string;
  turns: TurnEntry[];
  phase?: string | null;
  family?: string | null;
  tags?: string[];
  context?: JsonObject;
  messages?: Message[];
}

/** cases/*.yaml — schemas/cases.schema.json */
export interface CasesFile {
  registry?: string;
  cases: (CaseEntry | ConversationEntry)[];
}
