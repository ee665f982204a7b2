/**
 * The routing signals of production turns (the operational signals of docs/metrics.md, without labels),
 * tallied as turns stream past — memory grows with the distinct tools, offered sets and
 * attribute values seen (each bounded), never with the turns:
 * - candidate-set size (and per filtering stage when the trace logs them);
 * - calls per turn, and parallel calls (several in one reply) over turns with a call;
 * - call, clarification (an ask_user call, or text ending in "?"), abstention (no_applicable_tool)
 *   and no-call rates, per turn;
 * - phantom calls (a tool not offered) and schema rejections (arguments that are not JSON, or
 *   fail the offered schema), per call — over turns whose trace carries the offered tools;
 * - rival selection: calls of a tool whose rival (lint's rival pairs over the offered
 *   definitions) was offered beside it, and how the calls between each pair split.
 * Rates are per turn (or call) with Wilson intervals; window changes use Newcombe's interval.
 */
import { checkArguments } from "../classify/check-arguments.js";
import { meanOfSums, rate } from "../metrics/wilson.js";
import { compareText } from "../text/compare-text.js";
import {
  ABSTAIN,
  ASK,
  type JsonObject,
  type MonitorReport,
  type MonitorSignals,
  type TracedTool,
  type TracedTurn,
} from "../types.js";
import { createRivalTracker, type RivalTracker } from "./monitor-rivals.js";
import { valueOf } from "./select-turns.js";

/** Distinct values tallied per --by key; the rest share one row. */
const MAX_GROUPS = 1000;
export const OTHER_VALUES = "(other values)";
export const NO_VALUE = "(none)";
/** Distinct tools counted per tally; calls of the rest share one row. */
const MAX_TOOLS = 1000;
export const OTHER_TOOLS = "(other tools)";

interface Sums {
  n: number;
  sum: number;
  squares: number;
}

class Tally {
  turns = 0;
  size: Sums = { n: 0, sum: 0, squares: 0 };
  max: number | null = null;
  stages = new Map<string, Sums>();
  withCall = 0;
  parallel = 0;
  perTurn: Sums = { n: 0, sum: 0, squares: 0 };
  questions = 0;
  abstentions = 0;
  noCall = 0;
  calls = 0;
  phantom = 0;
  offeredCalls = 0;
  checked = 0;
  rejected = 0;
  contested = 0;

  untooled = 0;
  /** Tool → [calls, turns whose reply called it]. */
  byTool = new Map<string, [number, number]>();

  add(turn: Observed): void {
    this.turns += 1;
    if (turn.tooled) {
      addSum(this.size, turn.offered.size);
      this.max = Math.max(this.max ?? 0, turn.offered.size);
    } else this.untooled += 1;
    for (const stage of turn.stages) {
      let sums = this.stages.get(stage.stage);
      if (sums === undefined) this.stages.set(stage.stage, (sums = { n: 0, sum: 0, squares: 0 }));
      addSum(sums, stage.tools.length);
    }
    if (turn.calls.length > 0) this.withCall += 1;
    const called = new Set<string>();
    for (const call of turn.calls) {
      const name =
        this.byTool.has(call.name) || this.byTool.size < MAX_TOOLS ? call.name : OTHER_TOOLS;
      const counts = this.byTool.get(name) ?? [0, 0];
      counts[0] += 1;
      if (!called.has(name)) counts[1] += 1;
      called.add(name);
      this.byTool.set(name, counts);
    }
    if (turn.calls.length > 1) this.parallel += 1;
    addSum(this.perTurn, turn.calls.length);
    const first = turn.calls[0]?.name;
    if (first === ASK || (first === undefined && turn.question)) this.questions += 1;
    else if (first === ABSTAIN) this.abstentions += 1;
    else if (first === undefined) this.noCall += 1;
    // Without the offered list, whether a call was offered (and against what schema) is unknown.
    if (!turn.tooled) return;
    for (const call of turn.calls) {
      this.calls += 1;
      if (!call.offered) {
        this.phantom += 1;
        continue;
      }
      this.offeredCalls += 1;
      if (call.checked) this.checked += 1;
      if (call.rejected) this.rejected += 1;
      if (call.contested) this.contested += 1;
    }
  }

  signals(): MonitorSignals {
    return {
      turns: this.turns,
      no_tool_list: this.untooled,
      set_size: { ...meanOfSums(this.size.n, this.size.sum, this.size.squares), max: this.max },
      stages: [...this.stages.entries()].map(([stage, s]) => ({
        stage,
        size: meanOfSums(s.n, s.sum, s.squares),
      })),
      call_rate: rate(this.withCall, this.turns),
      parallel_call_rate: rate(this.parallel, this.withCall),
      calls_per_turn: meanOfSums(this.perTurn.n, this.perTurn.sum, this.perTurn.squares),
      clarification_rate: rate(this.questions, this.turns),
      abstention_rate: rate(this.abstentions, this.turns),
      no_call_rate: rate(this.noCall, this.turns),
      phantom_rate: rate(this.phantom, this.calls),
      schema_rejection_rate: rate(this.rejected, this.checked),
      rival_selection_rate: rate(this.contested, this.offeredCalls),
      calls_by_tool: [...this.byTool]
        .sort((a, b) => b[1][0] - a[1][0] || compareText(a[0], b[0]))
        .map(([tool, [calls, turns]]) => ({ tool, calls, share: rate(turns, this.withCall) })),
    };
  }
}

function addSum(sums: Sums, value: number): void {
  sums.n += 1;
  sums.sum += value;
  sums.squares += value * value;
}

/** What the tallies need of one turn. */
interface Observed {
  /** Whether the trace carried the offered tools (an empty list is taken as not traced). */
  tooled: boolean;
  offered: Set<string>;
  stages: TracedTurn["stages"];
  calls: {
    name: string;
    offered: boolean;
    checked: boolean;
    rejected: boolean;
    contested: boolean;
  }[];
  question: boolean;
}

export interface MonitorOptions {
  by: string[];
  /** ISO time: turns before it and from it on are compared. */
  splitAt: string | null;
}

export interface Monitor {
  add(turn: TracedTurn): void;
  report(
    traces: Pick<
      MonitorReport["traces"],
      "files" | "calls" | "skipped" | "without_content" | "malformed"
    >,
  ): MonitorReport;
}

export function createMonitor(options: MonitorOptions): Monitor {
  const all = new Tally();
  const by = options.by.map((key) => ({ key, groups: new Map<string, Tally>() }));
  const split =
    options.splitAt === null
      ? null
      : { at: Date.parse(options.splitAt), before: new Tally(), after: new Tally(), untimed: 0 };
  const rivals = createRivalTracker();
  let unreplied = 0;
  let turns = 0;
  return {
    add: (turn) => {
      turns += 1;
      if (!turn.replied) {
        unreplied += 1;
        return;
      }
      const observed = observe(turn, rivals);
      all.add(observed);
      for (const { key, groups } of by) {
        const value = valueOf(turn, key) ?? NO_VALUE;
        let tally = groups.get(value);
        if (tally === undefined) {
          const name = groups.size < MAX_GROUPS ? value : OTHER_VALUES;
          tally = groups.get(name) ?? new Tally();
          groups.set(name, tally);
        }
        tally.add(observed);
      }
      if (split !== null) {
        if (turn.time === null) split.untimed += 1;
        else (Date.parse(turn.time) < split.at ? split.before : split.after).add(observed);
      }
    },
    report: (traces) => ({
      kind: "monitor",
      traces: {
        files: traces.files,
        calls: traces.calls,
        skipped: traces.skipped,
        without_content: traces.without_content,
        malformed: traces.malformed,
        turns,
        unreplied,
      },
      all: all.signals(),
      by: by.map(({ key, groups }) => ({
        key,
        groups: [...groups.entries()]
          .sort(([a, x], [b, y]) => y.turns - x.turns || compareText(a, b))
          .map(([value, tally]) => ({ value, signals: tally.signals() })),
      })),
      windows:
        split === null || options.splitAt === null
          ? null
          : {
              split_at: new Date(split.at).toISOString(),
              before: split.before.signals(),
              after: split.after.signals(),
              untimed: split.untimed,
            },
      rivals: rivals.pairs(),
      rivals_not_computed: rivals.notComputed(),
    }),
  };
}

function observe(turn: TracedTurn, rivals: RivalTracker): Observed {
  const offered = new Map<string, TracedTool>();
  for (const tool of turn.tools) if (!offered.has(tool.name)) offered.set(tool.name, tool);
  const rivalsOf = rivals.observe(offered, turn.calls[0]?.name ?? null);
  return {
    tooled: offered.size > 0,
    offered: new Set(offered.keys()),
    stages: turn.stages,
    question: turn.calls.length === 0 && turn.text !== null && turn.text.trimEnd().endsWith("?"),
    calls: turn.calls.map((call) => {
      const tool = offered.get(call.name);
      const schema = tool?.input_schema;
      // Arguments that are not a JSON object are rejected whatever the schema; others are checked against the offered one.
      const checked = tool !== undefined && (schema !== undefined || call.parsed === null);
      const rejected =
        checked &&
        (call.parsed === null || checkArguments(schema as JsonObject, call.parsed).length > 0);
      return {
        name: call.name,
        offered: tool !== undefined,
        checked,
        rejected,
        contested: tool !== undefined && (rivalsOf.get(call.name)?.length ?? 0) > 0,
      };
    }),
  };
}
