/**
 * `route-eval show RUN --case ID` in the terminal: one case's whole ladder, its trials, the
 * nearest rival side by side and the fix. Pure; without colour the output has no ANSI codes, and
 * every registry, case or model string is stripped of control characters before it is printed.
 */
import { RUNNERS_UP, type CallSetRecord, type HiddenReason, type JsonValue } from "../types.js";
import type { CaseExplanation, RankedTool, StepStatus, TrialView } from "../types/explain.js";
import { formatDecimal } from "../render/format.js";
import { makePaint, stripControls, type Paint } from "../render/terminal.js";
import {
  indentWrap,
  padToWidth,
  sideBySide,
  wrapParagraphs,
  wrapText,
} from "../render/text-layout.js";

/** Width of the explanation when the terminal says nothing (not a TTY, no COLUMNS). */
export const SHOW_WIDTH = 100;
const LABEL = 13;
/** Below this many columns the rival comparison is stacked instead of side by side. */
const SIDE_BY_SIDE_MIN = 110;

export const STATUS_MARKS: Record<StepStatus, string> = {
  passed: "✓",
  failed: "✗",
  mixed: "~",
  not_reached: "·",
};

export const HIDING_LABELS: Record<HiddenReason, string> = {
  family: "family not admitted",
  effect: "effect above the ceiling",
  open_world: "open-world tool in a closed-world phase",
  withheld: "withheld: a later turn of the conversation adds it",
  removed: "removed by an earlier turn of the conversation",
};

const clean = stripControls;

/** Shown for a tool run.json has no definition of (not in the registry, or no run.json). */
export const NO_DESCRIPTION = "(no description in run.json: not a tool of this run's registry)";

export function renderCaseExplanation(
  x: CaseExplanation,
  options: { color: boolean; width?: number },
): string {
  const paint = makePaint(options.color);
  const width = options.width ?? SHOW_WIDTH;
  const blocks = [
    renderHeader(x, paint, width),
    renderLadder(x, paint, width),
    renderExposure(x, paint, width),
    renderDiscovery(x, paint, width),
    renderVisible(x, paint, width),
    renderTrials(x, paint, width),
    renderForbidden(x, paint, width),
    renderRival(x, paint, width),
    renderFix(x, paint, width),
  ];
  return `${blocks.map((lines) => lines.join("\n")).join("\n\n")}\n`;
}

function field(label: string, text: string, width: number): string[] {
  return indentWrap(clean(text), width, LABEL, `  ${label}`);
}

/** A labelled line under a trial, indented one level deeper than the header fields. */
function trialField(label: string, text: string, width: number): string[] {
  return indentWrap(clean(text), width, LABEL + 4, `      ${label}`);
}

function renderHeader(x: CaseExplanation, paint: Paint, width: number): string[] {
  const where = [
    `phase ${x.phase ?? "(none)"}`,
    `family ${x.family ?? "(none)"}`,
    `tags ${x.tags.join(", ") || "(none)"}`,
  ];
  const tally = `${x.correct} of ${x.scored} scored trials correct${x.errored > 0 ? `, ${x.errored} errored` : ""}`;
  return [
    paint(`Case ${clean(x.case_id)}`, "bold"),
    ...field("goal", x.goal ?? "(not recorded)", width),
    ...field("where", where.join(" · "), width),
    ...(x.expected_calls === undefined
      ? field(
          "acceptable",
          x.paths === undefined
            ? x.acceptable.join(", ")
            : x.paths.map(([target, tool]) => `${target} > ${tool}`).join(", "),
          width,
        )
      : field("expected", describeExpected(x.expected_calls), width)),
    ...field("forbidden", x.forbidden.join(", ") || "(none)", width),
    ...field("outcome", `${x.outcome} — ${tally}`, width),
  ];
}

function renderLadder(x: CaseExplanation, paint: Paint, width: number): string[] {
  const tone = (status: StepStatus): "green" | "red" | "dim" =>
    status === "passed" ? "green" : status === "not_reached" ? "dim" : "red";
  const lines = x.ladder.flatMap((step) => {
    const mark = paint(STATUS_MARKS[step.status], tone(step.status));
    const [first, ...rest] = wrapText(clean(step.text), width - 15);
    return [
      `  ${mark} ${step.stage.padEnd(10)} ${first}`,
      ...rest.map((line) => `${" ".repeat(15)}${line}`),
    ];
  });
  return [paint("Ladder", "bold"), ...lines];
}

function describePolicy(x: CaseExplanation): string {
  const p = x.exposure.policy;
  if (x.exposure.phase === null) return "no phase: every tool exposed";
  if (p === null) return `phase ${x.exposure.phase} (its policy is not in run.json)`;
  const families = p.families === undefined ? "all" : p.families.join(", ");
  return `phase ${x.exposure.phase}: families ${families}; max_effect ${p.max_effect ?? "destructive"}; open_world ${String(p.open_world ?? true)}`;
}

function renderExposure(x: CaseExplanation, paint: Paint, width: number): string[] {
  const head = [paint("Exposure", "bold"), ...indentWrap(clean(describePolicy(x)), width, 2)];
  if (x.exposure.hidden === 0) return [...head, "  hid nothing"];
  const lines = x.exposure.groups.flatMap((group) => [
    `  hidden: ${group.rule === null ? "" : `${HIDING_LABELS[group.rule]} `}(${clean(group.value)})`,
    ...indentWrap(
      group.tools
        .map((name) => (x.acceptable.includes(name) ? `${clean(name)}*` : clean(name)))
        .join(", ") + (group.more > 0 ? ` … and ${group.more} more` : ""),
      width,
      4,
    ),
  ]);
  const note = x.exposure.hidden_acceptable.length > 0 ? ["  (* = acceptable for this case)"] : [];
  return [...head, ...lines, ...note];
}

function renderDiscovery(x: CaseExplanation, paint: Paint, width: number): string[] {
  const { ranking, k, exposed } = x.discovery;
  if (ranking === null)
    return [
      paint("Discovery", "bold"),
      `  no retriever scores: the visible set is the ${exposed} exposed tools (plus controls)`,
    ];
  const kept = ranking.filter((t) => t.kept).length;
  const shown = ranking.filter((t) => t.kept || t.acceptable || t.rank <= kept + RUNNERS_UP);
  const row = (t: RankedTool): string =>
    `  #${String(t.rank).padEnd(4)}${formatDecimal(t.score).padStart(8)}  ${padToWidth(clean(t.name), 32)} ${t.kept ? "kept" : "cut"}${t.acceptable ? "  ← acceptable" : ""}`;
  const omitted = exposed - shown.length;
  const note = omitted > 0 ? [`  … ${omitted} more below the cut`] : [];
  return [
    paint("Discovery", "bold"),
    `  the retriever kept ${kept} of ${exposed} exposed tools at k=${k ?? "?"}; rank by score:`,
    ...shown.map(row),
    ...note,
  ];
}

function renderVisible(x: CaseExplanation, paint: Paint, width: number): string[] {
  const title = paint(`Visible set, in the order shown (${x.visible_order.length})`, "bold");
  return [title, ...indentWrap(x.visible_order.map(clean).join(", "), width, 2)];
}

function formatArguments(value: JsonValue): string {
  return value === null ? "(none)" : JSON.stringify(value);
}

/** Trials whose views are identical apart from the trial number are printed once. */
function groupTrials(views: TrialView[]): TrialView[][] {
  const groups: TrialView[][] = [];
  const key = (v: TrialView): string => JSON.stringify({ ...v, trial: 0 });
  for (const view of views) {
    const last = groups[groups.length - 1];
    if (last !== undefined && key(last[0]) === key(view)) last.push(view);
    else groups.push([view]);
  }
  return groups;
}

function trialVerdict(v: TrialView): string {
  if (v.error !== null) return "errored (excluded from every rate)";
  const stage =
    v.failed_stage === null
      ? "✓ correct"
      : `✗ ${v.failed_stage}${v.selection_error === null ? "" : ` (${v.selection_error})`}`;
  return `${stage}${v.forbidden ? " · FORBIDDEN" : ""}${v.phantom ? " · not visible" : ""}`;
}

/** A decision's searches: each query and what it returned (acceptable tools marked ✓), then how it ended. */
function renderSearches(v: TrialView, acceptable: readonly string[], width: number): string[] {
  const s = v.search;
  if (s === undefined) return [];
  const loaded =
    s.always_loaded.length === 0
      ? "nothing loaded up front"
      : `loaded up front: ${s.always_loaded.map(clean).join(", ")}`;
  const lines = trialField(
    "search",
    `${s.mode === "provider" ? "the provider's" : "route-eval's"} ${s.kind} search over ${s.deferred} deferred tools; ${loaded}`,
    width,
  );
  if (s.searches.length === 0)
    lines.push(...trialField("", "no search: the model moved with what was loaded", width));
  for (const [i, step] of s.searches.entries()) {
    const query = step.query === null ? "(no query)" : JSON.stringify(clean(step.query));
    const returned =
      step.error !== undefined
        ? `error: ${step.error}`
        : step.returned.length === 0
          ? "nothing"
          : step.returned
              .map((name) => `${clean(name)}${acceptable.includes(name) ? " ✓" : ""}`)
              .join(", ");
    lines.push(
      ...trialField(
        `  ${i + 1}.`,
        `${query} → ${returned}${step.by === "provider" ? " (provider)" : ""}`,
        width,
      ),
    );
  }
  if (s.outcome === "search_limit")
    lines.push(
      ...trialField(
        "",
        `search_limit: asked for search ${s.searches.length + 1} past the bound of ${s.searches.length}; the decision ended without a call`,
        width,
      ),
    );
  return lines;
}

function renderTrialGroup(
  group: TrialView[],
  acceptable: readonly string[],
  paint: Paint,
  width: number,
): string[] {
  const v = group[0];
  const label =
    group.length === 1
      ? `#${v.trial}`
      : `#${v.trial}–#${group[group.length - 1].trial} (${group.length} identical)`;
  const verdict = paint(
    trialVerdict(v),
    v.failed_stage === null && v.error === null ? "green" : "red",
  );
  const selected = v.error === null ? [clean(v.selected ?? "(no call)")] : [];
  const lines = [["  " + label, ...selected, verdict].join("  ")];
  if (v.error !== null)
    return [
      ...lines,
      ...renderSearches(v, acceptable, width),
      ...trialField("error", v.error, width),
    ];
  lines.push(...renderSearches(v, acceptable, width));
  if (v.call_set !== undefined) {
    lines.push(...renderCallSet(v.call_set, width));
    if (v.response_text !== null && v.response_text.trim() !== "")
      lines.push(...trialField("said", truncate(v.response_text, 300), width));
    return lines;
  }
  lines.push(...trialField("arguments", formatArguments(v.arguments), width));
  if (v.argument_errors !== null && v.argument_errors.length > 0)
    lines.push(
      ...v.argument_errors.flatMap((e, i) => trialField(i === 0 ? "arg errors" : "", e, width)),
    );
  if (v.argument_match !== null)
    lines.push(
      ...trialField(
        "arg match",
        v.argument_match
          ? "yes: the case's expectations hold"
          : "no: the case's expectations do not hold",
        width,
      ),
    );
  for (const [i, call] of v.extra_calls.entries())
    lines.push(
      ...trialField(
        i === 0 ? "also" : "",
        `${clean(call.tool)} ${formatArguments(call.arguments)}`,
        width,
      ),
    );
  if (v.response_text !== null && v.response_text.trim() !== "")
    lines.push(...trialField("said", truncate(v.response_text, 300), width));
  return lines;
}

/** "1. get_order {order_id: …} · 2. get_customer | find_customer (any order)". */
function describeExpected(e: NonNullable<CaseExplanation["expected_calls"]>): string {
  const calls = e.expected.map(
    (call, i) =>
      `${i + 1}. ${call.tools.join(" | ")}${call.args === undefined ? "" : ` ${JSON.stringify(call.args)}`}`,
  );
  const allowed = e.allow_extra.length === 0 ? "" : `; also allowed: ${e.allow_extra.join(", ")}`;
  return `${calls.join(" · ")} (${e.order === "sequence" ? "in this order" : "any order"}${allowed})`;
}

/** A call-set trial: each call made and what it matched, the expected calls missed, the steps. */
function renderCallSet(c: NonNullable<TrialView["call_set"]>, width: number): string[] {
  const { calls, set } = c;
  const lines: string[] = [];
  if (calls.length === 0) lines.push(...trialField("calls", "(none)", width));
  calls.forEach((call, i) => {
    const e = set.matched.indexOf(i);
    const role =
      e !== -1
        ? `expected ${e + 1}${set.args_match[e] === null ? "" : set.args_match[e] ? ", arguments as expected" : ", arguments NOT as expected"}${set.args_valid[e] === false ? ", invalid against the schema" : ""}`
        : set.extra.includes(i)
          ? "EXTRA"
          : "allowed extra";
    lines.push(
      ...trialField(
        i === 0 ? "calls" : "",
        `${i + 1}. ${clean(call.tool)} ${formatArguments(call.arguments)} → ${role}`,
        width,
      ),
    );
  });
  const missed = set.matched.flatMap((index, e) =>
    index === null ? [`${e + 1}. ${set.expected[e].tools.join(" | ")}`] : [],
  );
  if (missed.length > 0) lines.push(...trialField("missed", missed.join(" · "), width));
  if (!set.in_order)
    lines.push(...trialField("order", "the expected calls were made out of order", width));
  if (set.ended !== "single")
    lines.push(...trialField("steps", `${set.steps}, ended: ${ENDINGS[set.ended]}`, width));
  return lines;
}

const ENDINGS: Record<Exclude<CallSetRecord["ended"], "single">, string> = {
  text: "the model answered without a call",
  control: "the model called a control",
  step_limit: "still calling at max_steps (the last calls were not answered)",
};

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function renderTrials(x: CaseExplanation, paint: Paint, width: number): string[] {
  return [
    paint(`Trials (${x.trials})`, "bold"),
    ...groupTrials(x.trial_views).flatMap((group) =>
      renderTrialGroup(group, x.acceptable, paint, width),
    ),
  ];
}

function renderForbidden(x: CaseExplanation, paint: Paint, width: number): string[] {
  if (x.forbidden.length === 0)
    return [paint("Forbidden hits", "bold"), "  none (the case forbids nothing)"];
  if (x.forbidden_hits.length === 0)
    return [
      paint("Forbidden hits", "bold"),
      `  none: no trial selected ${x.forbidden.map(clean).join(", ")}`,
    ];
  const hits = x.forbidden_hits.map((h) => `#${h.trial} ${clean(h.tool)}`).join(", ");
  const [first, ...rest] = indentWrap(
    `${x.forbidden_hits.length} of ${x.scored} trials selected a forbidden tool: ${hits}`,
    width,
    2,
  );
  return [paint("Forbidden hits", "bold"), paint(first, "red"), ...rest];
}

function renderRival(x: CaseExplanation, paint: Paint, width: number): string[] {
  const r = x.rival;
  if (r === null)
    return [
      paint("Nearest rival", "bold"),
      "  none: no trial of this case (nor of its expected label in the run) chose another tool",
    ];
  const scope = r.scope === "case" ? "in this case" : "across the run, for the same expected tools";
  const head = [
    paint("Nearest rival", "bold"),
    `  ${clean(r.rival.name)} took ${r.count} of ${r.of} trials (${scope})`,
  ];
  const text = (description: string | null, column: number): string[] =>
    wrapParagraphs(
      description === null ? NO_DESCRIPTION : description.split("\n").map(clean).join("\n"),
      column,
    );
  if (width < SIDE_BY_SIDE_MIN) {
    // Too narrow for two readable columns: one block after the other.
    const block = (label: string, tool: { name: string; description: string | null }) => [
      `  ${label}: ${clean(tool.name)}`,
      ...text(tool.description, width - 4).map((l) => `    ${l}`),
    ];
    return [...head, ...block("expected", r.expected), ...block("rival", r.rival)];
  }
  const column = (width - 5) >> 1;
  return [
    ...head,
    ...sideBySide(
      [`expected: ${clean(r.expected.name)}`, "─".repeat(column)],
      [`rival: ${clean(r.rival.name)}`, "─".repeat(column)],
      column,
    ).map((l) => `  ${l}`),
    ...sideBySide(
      text(r.expected.description, column),
      text(r.rival.description, column),
      column,
    ).map((l) => `  ${l}`),
  ];
}

function renderFix(x: CaseExplanation, paint: Paint, width: number): string[] {
  if (x.fix === null)
    return [paint("Fix", "bold"), "  nothing to fix: every scored trial was correct"];
  const title = paint(`Fix — ${x.fix.stage} → ${x.fix.action}`, "bold");
  return [title, ...x.fix.detail.flatMap((line) => indentWrap(clean(line), width, 2))];
}
