/**
 * Which counterfactuals a run's failed trials get, and the exact visible set of each. Pure: the
 * trial records, the definitions that can be shown, and the options in; units out, with a note
 * for every failed trial that could not be given one.
 */
import { rivalOf } from "../classify/call-set.js";
import { sameList } from "../text/same-list.js";
import { deriveSeed, seededRandom } from "../text/seeded-random.js";
import { isControl, STAGES, type TrialRecord } from "../types.js";
import type { CounterfactualKind, FixKind, Placement } from "../types/counterfactual.js";

export interface CounterfactualUnit {
  record: TrialRecord;
  kind: CounterfactualKind;
  /** The visible set in display order. */
  visible: string[];
  /** Tools added to the registry and exposed set (inject of a tool the registry lacks, or the phase hid). */
  added: string[];
  changed: string[];
  placement: Placement;
}

export interface PlanOptions {
  kinds: readonly FixKind[];
  /** Names a definition exists for (the run's registry and controls, plus --registry-with). */
  known: ReadonlySet<string>;
  /** At most this many units, chosen case by case across stages (null: all). */
  max: number | null;
  seed: number;
  /**
   * The ordinary tools the retriever keeps once the failed trial's acceptable tools are exposed
   * too (inject for coverage and exposure failures), in rank order; null: the run has no retriever.
   */
  retrieveWith?: (record: TrialRecord, injected: string[]) => string[] | null;
}

export interface Plan {
  units: CounterfactualUnit[];
  /** Failed trials (and kinds) left out, and why. */
  notes: string[];
  /** Failed trials per stage. */
  failures: Record<string, number>;
}

const KINDS_BY_STAGE: Record<string, FixKind[]> = {
  coverage: ["inject", "inject-visible"],
  exposure: ["inject", "inject-visible"],
  discovery: ["inject"],
  selection: ["remove-rival", "first", "pair"],
};

/** A tool-search run's decisions are re-asked with their search: discovery failures get load; the others none yet. */
const SEARCH_KINDS_BY_STAGE: Record<string, FixKind[]> = {
  coverage: [],
  exposure: [],
  discovery: ["load"],
  selection: [],
};

/**
 * Each failed trial's fix units, then (for every failed trial given at least one) its placebo:
 * the same question with the visible set unchanged, so that every fix is read against chance.
 */
export function planCounterfactuals(records: TrialRecord[], options: PlanOptions): Plan {
  const failed = records.filter((r) => r.error === null && r.failed_stage !== null);
  const failures: Record<string, number> = Object.fromEntries(STAGES.map((s) => [s, 0]));
  const units: CounterfactualUnit[] = [];
  const skipped = new Map<string, number>();
  for (const record of failed) {
    const stage = record.failed_stage ?? "selection";
    failures[stage] += 1;
    const mine: CounterfactualUnit[] = [];
    // A reason counts once per failed trial (inject and inject-visible skip a coverage failure for one reason).
    const reasons = new Set<string>();
    const skip = (why: string) => reasons.add(why);
    const byStage = record.search === undefined ? KINDS_BY_STAGE : SEARCH_KINDS_BY_STAGE;
    if (record.search !== undefined && byStage[stage].length === 0)
      skip(
        `${stage}: a tool-search run's ${stage} failures get no counterfactual (only its discovery failures: load) (skipped)`,
      );
    for (const kind of byStage[stage].filter((k) => options.kinds.includes(k))) {
      const unit = buildUnit(record, kind, options);
      if (typeof unit === "string") skip(unit);
      else if (
        kind === "inject-visible" &&
        mine.some((u) => u.kind === "inject" && sameList(u.visible, unit.visible))
      )
        skip("inject-visible: the run has no retriever, so it shows what inject shows (skipped)");
      else if (sameList(unit.visible, record.visible_order) && kind !== "inject")
        skip(`${kind}: the visible set would not change (skipped)`);
      else mine.push(unit);
    }
    for (const why of reasons) skipped.set(why, (skipped.get(why) ?? 0) + 1);
    units.push(...mine);
  }
  const chosen = options.max === null ? units : prioritise(units, options.max);
  const notes = [...skipped].map(([why, n]) => `${n} × ${why}`);
  if (chosen.length < units.length)
    notes.push(
      `--max-counterfactuals ${options.max}: ${chosen.length} of ${units.length} counterfactuals asked, spread case by case across stages`,
    );
  return { units: withPlacebos(chosen), notes, failures };
}

/** The units with each failed trial's placebo before its fixes, in the run's order. */
function withPlacebos(units: CounterfactualUnit[]): CounterfactualUnit[] {
  const out: CounterfactualUnit[] = [];
  const given = new Set<TrialRecord>();
  for (const unit of units) {
    if (!given.has(unit.record)) {
      given.add(unit.record);
      out.push({
        record: unit.record,
        kind: "placebo",
        visible: unit.record.visible_order,
        added: [],
        changed: [],
        placement: "kept order",
      });
    }
    out.push(unit);
  }
  return out;
}

function buildUnit(
  record: TrialRecord,
  kind: FixKind,
  options: PlanOptions,
): CounterfactualUnit | string {
  const visible = record.visible_order;
  const acceptableVisible = record.acceptable.filter((name) => visible.includes(name));
  const rival = rivalOf(record);
  switch (kind) {
    case "inject":
    case "inject-visible": {
      const missing = record.acceptable.filter((name) => !visible.includes(name));
      const showable = missing.filter((name) => options.known.has(name));
      if (showable.length === 0) {
        return record.failed_stage === "coverage"
          ? "coverage failure without a definition of its acceptable tool: give one with --registry-with FILE (skipped)"
          : `${kind}: no definition of the acceptable tool (skipped)`;
      }
      const added = showable.filter((name) => !record.exposed_names.includes(name));
      // Exposure and coverage inject: the tools are exposed, and the run's retriever chooses again.
      const retrieved =
        kind === "inject" && added.length > 0
          ? (options.retrieveWith?.(record, added) ?? null)
          : null;
      if (retrieved !== null)
        return {
          record,
          kind,
          visible: reorderAfterRetrieval(record, retrieved),
          added,
          changed: showable,
          placement: "retriever ran",
        };
      const placed = placeTools(record, showable, options.seed);
      return {
        record,
        kind,
        visible: placed.visible,
        added,
        changed: showable,
        placement: placed.placement,
      };
    }
    case "remove-rival":
    case "pair": {
      if (rival === null || isControl(rival) || !visible.includes(rival))
        return `${kind}: the failed trial did not pick another visible ordinary tool${record.call_set === undefined ? "" : " (a call set: no extra call)"} (skipped)`;
      if (acceptableVisible.length === 0)
        return `${kind}: no acceptable tool was visible (skipped)`;
      if (kind === "remove-rival")
        return {
          record,
          kind,
          visible: visible.filter((name) => name !== rival),
          added: [],
          changed: [rival],
          placement: "kept order",
        };
      const keep = new Set([...acceptableVisible, rival]);
      const pair = visible.filter((name) => keep.has(name) || isControl(name));
      return {
        record,
        kind,
        visible: pair,
        added: [],
        changed: visible.filter((name) => !pair.includes(name)),
        placement: "kept order",
      };
    }
    case "load": {
      const showable = record.acceptable.filter(
        (name) =>
          !isControl(name) && record.exposed_names.includes(name) && options.known.has(name),
      );
      if (showable.length === 0) return "load: no exposed acceptable tool to load (skipped)";
      return {
        record,
        kind,
        visible: [...visible, ...showable.filter((name) => !visible.includes(name))],
        added: [],
        changed: showable,
        placement: "loaded up front",
      };
    }
    case "first": {
      if (acceptableVisible.length === 0) return "first: no acceptable tool was visible (skipped)";
      const target = acceptableVisible[0];
      if (visible[0] === target)
        return "first: the acceptable tool was already shown first (skipped)";
      return {
        record,
        kind,
        visible: [target, ...visible.filter((name) => name !== target)],
        added: [],
        changed: [target],
        placement: "moved first",
      };
    }
  }
}

/**
 * The failed trial's order kept for the tools still retrieved; a tool the retriever now keeps is
 * placed at its rank among them, and one it drops leaves. The controls stay where they were.
 */
function reorderAfterRetrieval(record: TrialRecord, retrieved: string[]): string[] {
  const kept = new Set(retrieved);
  const ordinary = record.visible_order.filter((name) => !isControl(name) && kept.has(name));
  for (const [rank, name] of retrieved.entries())
    if (!ordinary.includes(name)) ordinary.splice(Math.min(rank, ordinary.length), 0, name);
  const controls = record.visible_order.filter(isControl);
  const controlsFirst = record.visible_order.length > 0 && isControl(record.visible_order[0]);
  return controlsFirst ? [...controls, ...ordinary] : [...ordinary, ...controls];
}

/**
 * Inserts the tools among the ordinary visible ones: at the retriever's rank when the record has
 * one for them (after the k kept, for a discovery failure), else at a position drawn from a seed
 * of (run seed, case, trial) — the same every time.
 */
function placeTools(
  record: TrialRecord,
  names: string[],
  seed: number,
): { visible: string[]; placement: Placement } {
  const controls = record.visible_order.filter(isControl);
  const ordinary = record.visible_order.filter((name) => !isControl(name));
  const ranks = new Map((record.retrieval?.acceptable ?? []).map((r) => [r.name, r.rank]));
  const ranked = names.every((name) => ranks.has(name));
  const random = seededRandom(
    deriveSeed("counterfactual-inject", seed, record.case_id, record.trial),
  );
  for (const name of names) {
    const at = ranked
      ? Math.min(ordinary.length, (ranks.get(name) ?? 1) - 1)
      : Math.floor(random() * (ordinary.length + 1));
    ordinary.splice(at, 0, name);
  }
  const controlsFirst = record.visible_order.length > 0 && isControl(record.visible_order[0]);
  return {
    visible: controlsFirst ? [...controls, ...ordinary] : [...ordinary, ...controls],
    placement: ranked ? "retriever rank" : "seeded random",
  };
}

/** Round-robin over stages, and within a stage one unit per case before a case's second. */
function prioritise(units: CounterfactualUnit[], max: number): CounterfactualUnit[] {
  const byStage = STAGES.map((stage) => {
    const mine = units.filter((u) => u.record.failed_stage === stage);
    const seen = new Map<string, number>();
    const ranked = mine.map((u) => {
      const n = seen.get(u.record.case_id) ?? 0;
      seen.set(u.record.case_id, n + 1);
      return { u, n };
    });
    return ranked.sort((a, b) => a.n - b.n).map((r) => r.u);
  });
  const out: CounterfactualUnit[] = [];
  for (let i = 0; out.length < max && byStage.some((list) => i < list.length); i++) {
    for (const list of byStage) if (i < list.length && out.length < max) out.push(list[i]);
  }
  return out;
}
