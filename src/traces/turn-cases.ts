/**
 * Traced turns as in-memory routing cases, for asking them again (`route-eval shadow`): each
 * turn's goal and prior turns, its production system prompt, and the tools its model was offered
 * — each defined by the candidate's registry when it has a tool of that name (new descriptions),
 * else as the trace defined it. The label is production's own decision (there is no other):
 * acceptable is the tool production called (no_applicable_tool when it answered without a call),
 * so a shadow run's selection failure is a moved decision and `show` explains it like any other.
 * A candidate that offers skills or agents through a dispatcher tool (dispatch: tool) reads a
 * traced call of that dispatcher as the target it names, and is asked with its own targets.
 */
import {
  ABSTAIN,
  type Case,
  type Message,
  type Registry,
  type TracedTool,
  type TracedTurn,
} from "../types.js";
import { sha256Hex, shortContentHash } from "../text/content-hash.js";
import { targetCalled, targetsBehind } from "../registry/targets.js";
import { orderOfTurns } from "./select-turns.js";
import { createBoundedMap, createInterner, createPartsInterner } from "../text/bounded-map.js";
import {
  idBase,
  tracedChoice,
  tracedTool,
  uniqueTools,
  whyNot,
  type SkipReason,
} from "./turn-parts.js";
import type { CaseList } from "../cases/case-list.js";
import {
  NO_CALL,
  takingFrom,
  type ProductionDecision,
  type ProductionDecisions,
} from "./production-decisions.js";
import { IdColumn, NumberColumn, TextColumn } from "../text/packed-columns.js";
import { TextIndex } from "../text/text-index.js";

const NONE = Object.freeze([]) as never[];
const NOTHING = Object.freeze({}) as Record<string, never>;
const SHADOW_TAGS = ["shadow"];

export interface TurnCases {
  /** The cases in the order of their turns, each made as it is read (held packed, not as cases). */
  cases: CaseList;
  /** Production's decision on each turn, by its case's id: each given once. */
  production: ProductionDecisions;
  skipped: Partial<Record<SkipReason, number>>;
  /** Cases asked without a system prompt (their turns traced none). */
  noSystem: number;
}

/**
 * Traced turns made into cases as they are read, so that a shadow of a day of traffic holds each
 * turn's case, not the turn (its parsed attributes, the tool definitions it was offered): `add`
 * each turn, then `finish` puts the cases in the order of the turns (compareTurns) and names them.
 * A case is held as what it is made of — its goal, its source, and what turns share (its
 * registry, label, history, system prompt) — in columns outside the heap (text/packed-columns.ts),
 * and made each time the list is read: a million turns hold a million goals' bytes, not a
 * million case objects or strings. Production's decision on a turn is put where the tally takes
 * it as the run takes the turn's case: a million turns hold the decisions of the turns being asked.
 */
export function createTurnCases(
  candidate: Registry | null,
  phase: string | null,
): { add(turn: TracedTurn): void; finish(): TurnCases } {
  const defined = new Map((candidate?.tools ?? []).map((tool) => [tool.name, tool]));
  const registries = new Map<string, Registry>();
  // dispatch: tool (docs/targets.md): a traced dispatcher (Skill, Task) is the candidate's targets
  // of its kind, and a traced call of it is the choice of the target its argument names — so a
  // skill's description change moves the skill chosen, not "Skill" against "Skill".
  const dispatch = candidate?.dispatch?.style === "tool" ? candidate.dispatch : null;
  const skipped: Partial<Record<SkipReason, number>> = {};
  let noSystem = 0;
  // Each asked turn's place in the order (its time, trace and span, then its case's source) and
  // what its case is made of, at the same index of these columns: a million turns make no object
  // for each.
  /** Milliseconds (NaN: no time); in the order of the ISO times (a four-digit year's). */
  const millis = new NumberColumn(new Float64Array(1024));
  /** Each trace's id once for its turns read one after another, and each turn's place in it. */
  const traces = new IdColumn();
  const traceOf = new NumberColumn(new Uint32Array(1024));
  const spans = new IdColumn();
  const goals = new TextColumn();
  const lines = new NumberColumn(new Int32Array(1024));
  const histories: (Message[] | null)[] = [];
  /** What many turns have alike (their file, registry, label, system prompt, tool_choice, decision), one object for all alike. */
  const shapes: TurnShape[] = [];
  const shapeOf = new NumberColumn(new Uint32Array(1024));
  /** Each recent shape's place in `shapes` (a shape met again after it was forgotten takes another). */
  const shapeIndex = createBoundedMap<TurnShape, number>(INTERNED);
  const internShape = createPartsInterner<TurnShape>(INTERNED);
  /** The trace of the turn read last (undefined before the first). */
  let lastTrace: string | null | undefined;
  /** Decisions alike are one object. */
  const decisions = new Map<string, ProductionDecision>();
  /** One `[label]` for every turn that called it. */
  const labels = new Map<string, string[]>();
  // A system prompt and a conversation's earlier messages come again in every later turn's span:
  // each held once (a day of traffic with a 4 KB prompt would otherwise hold it a million times).
  const systems = createInterner<string>((text) => text, INTERNED, 4 << 20);
  const messages = createInterner<Message>(
    (message) => JSON.stringify(message),
    INTERNED,
    16 << 20,
  );
  /** A traced list read once and shared by the spans that sent the same text (trace-messages.ts): its registry, found once. */
  const byList = new WeakMap<readonly TracedTool[], Registry>();
  const registryOf = (turn: TracedTurn): Registry => {
    const tools = uniqueTools(turn).flatMap(
      (tool) => targetsBehind(candidate, tool.name) ?? [defined.get(tool.name) ?? tracedTool(tool)],
    );
    // Turns offered the same tools share one registry: found by the hash of their text as traced
    // (the content hash, for the revision, only for a list not met before).
    const key = sha256Hex(JSON.stringify(tools));
    let registry = registries.get(key);
    if (registry === undefined)
      registries.set(
        key,
        (registry = {
          snapshot: candidate?.snapshot ?? "traced",
          revision: candidate?.revision ?? `sha256:${shortContentHash(tools)}`,
          file: "",
          tools,
          ...(candidate?.dispatch === undefined ? {} : { dispatch: candidate.dispatch }),
        }),
      );
    byList.set(turn.tools, registry);
    return registry;
  };
  const add = (turn: TracedTurn) => {
    const reason = whyNot(turn);
    if (reason !== null) {
      skipped[reason] = (skipped[reason] ?? 0) + 1;
      return;
    }
    const last = turn.messages[turn.messages.length - 1];
    const registry = byList.get(turn.tools) ?? registryOf(turn);
    const first = turn.calls[0];
    const called =
      first === undefined
        ? null
        : ((dispatch === null ? null : targetCalled(dispatch, first.name, first.parsed)) ??
          first.name);
    // An answer without a call is labelled abstention: a label is never empty (show explains the turn like any other).
    const label = called ?? ABSTAIN;
    let acceptable = labels.get(label);
    if (acceptable === undefined) labels.set(label, (acceptable = [label]));
    millis.push(turn.time === null ? NaN : Date.parse(turn.time));
    if (turn.trace_id !== lastTrace) traces.push((lastTrace = turn.trace_id));
    traceOf.push(traces.length - 1);
    spans.push(turn.span_id);
    const decision = {
      label: called ?? NO_CALL,
      offered: registry.tools.length,
      calls: turn.calls.length,
    };
    const decisionKey = `${decision.offered} ${decision.calls} ${decision.label}`;
    let held = decisions.get(decisionKey);
    if (held === undefined) decisions.set(decisionKey, (held = Object.freeze(decision)));
    goals.push(last.role === "user" ? last.content : "");
    lines.push(turn.source.line);
    histories.push(turn.messages.length > 1 ? turn.messages.slice(0, -1).map(messages) : null);
    // As traced: a turn that had no system prompt is asked without one (never with the run's).
    const system = systems(turn.system ?? "");
    if (system === "") noSystem += 1;
    const shape = internShape({
      file: turn.source.file,
      registry,
      acceptable,
      system,
      choice: tracedChoice(turn),
      decision: held,
    });
    let index = shapeIndex.get(shape);
    if (index === undefined) {
      shapeIndex.set(shape, (index = shapes.length));
      shapes.push(shape);
    }
    shapeOf.push(index);
  };
  const finish = (): TurnCases => {
    const shapeAt = (i: number) => shapes[shapeOf.at(i)];
    let times: Float64Array | null = millis.take();
    const order = Uint32Array.from({ length: times.length }, (_, i) => i).sort(
      orderOfTurns<number>({
        time: (i) => (Number.isNaN((times as Float64Array)[i]) ? null : (times as Float64Array)[i]),
        trace_id: (i) => traces.at(traceOf.at(i)),
        span_id: (i) => spans.at(i),
        source: (i) => ({ file: shapeAt(i).file, line: lines.at(i) }),
      }),
    );
    // Let the times and trace ids go before the ids are made.
    times = null;
    traces.clear();
    traceOf.clear();
    // Each case's id: `turn-` and its span id, or (a repeated span id, a span id of other
    // characters, a turn without one) as named here — unique, a repeated one taking the first
    // free -2, -3…, found taken in a table of the ids' hashes (TextIndex), not a set of a million
    // strings.
    const named = new TextColumn();
    const idAt = (k: number) => named.at(k) ?? `turn-${spans.at(order[k]) as string}`;
    const taken = new TextIndex(idAt);
    for (let k = 0; k < order.length; k++) {
      const i = order[k];
      const span = spans.at(i);
      const base = idBase(span, { file: shapeAt(i).file, line: lines.at(i) });
      let id = base;
      for (let n = 2; taken.find(id) !== undefined; n += 1) id = `${base}-${n}`;
      named.push(span !== null && id === `turn-${span}` ? null : id);
      taken.add(id, k);
    }
    const length = order.length;
    /** Decisions put as their cases are drained, taken by the tally at a turn's first record. */
    const asked = new Map<string, ProductionDecision>();
    /** Every turn's decision, made only when the cases are read without being drained (an adaptive run asks them again). */
    let all: ProductionDecisions | null = null;
    let draining = false;
    const decisionAt = (k: number) => shapeAt(order[k]).decision;
    const production: ProductionDecisions = {
      take: (caseId) => {
        if (draining) {
          const decision = asked.get(caseId);
          asked.delete(caseId);
          return decision;
        }
        all ??= takingFrom(new Map(Array.from({ length }, (_, k) => [idAt(k), decisionAt(k)])));
        return all.take(caseId);
      },
    };
    /** The case at place k of the order, made as it was traced (the fields in a loaded case's order). */
    const caseAt = (k: number): Case => {
      const i = order[k];
      const shape = shapeAt(i);
      const made: Case = {
        id: idAt(k),
        goal: goals.at(i) as string,
        phase,
        acceptable: shape.acceptable,
        forbidden: NONE,
        family: null,
        tags: SHADOW_TAGS,
        args: NOTHING,
        context: NOTHING,
        messages: histories[i] ?? NONE,
        must_see: NONE,
        must_not_see: NONE,
        source: { file: shape.file, line: lines.at(i) },
        registry: shape.registry,
        system: shape.system,
      };
      if (shape.choice !== null) made.tool_choice = shape.choice;
      return made;
    };
    let left = length;
    const cases: CaseList = {
      get length() {
        return left;
      },
      *[Symbol.iterator]() {
        for (let k = 0; k < left; k++) yield caseAt(k);
      },
      *drain() {
        // A case taken lets go of its history; the columns go with the last.
        draining = true;
        for (let k = 0; k < left; k++) {
          const made = caseAt(k);
          asked.set(made.id, decisionAt(k));
          const i = order[k];
          histories[i] = null;
          // A buffer of goals or span ids is freed once its turns are all taken.
          goals.release(i);
          spans.release(i);
          named.release(k);
          yield made;
        }
        left = 0;
        for (const column of [goals, lines, shapeOf, spans, named]) column.clear();
        histories.length = shapes.length = 0;
      },
    };
    return { cases, production, skipped, noSystem };
  };
  return { add, finish };
}

/** Distinct values a memo of turns remembers in each of its two generations (text/bounded-map.ts). */
const INTERNED = 20_000;

/** What turns have alike: each one object (one literal's order of members), held by every turn that has it. */
interface TurnShape {
  file: string;
  registry: Registry;
  acceptable: string[];
  system: string;
  choice: string | null;
  decision: ProductionDecision;
}
