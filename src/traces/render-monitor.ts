/** `route-eval monitor`'s report in every format: the same sections for the terminal, Markdown and HTML, or the JSON itself. */
import { differenceInterval, rate } from "../metrics/wilson.js";
import {
  formatCi,
  formatNumber,
  formatPercent,
  formatRate,
  MISSING,
  plural,
} from "../render/format.js";
import { renderHtmlPage } from "../render/html/page.js";
import { sectionHtml, sectionMarkdown, sectionTerminal } from "../render/lay-out-sections.js";
import { RATE_ALIGN, rateRow, section, type Cell, type Section } from "../render/section.js";
import { stableStringify } from "../render/stable-json.js";
import { makePaint } from "../render/terminal.js";
import type { MeanEstimate, MonitorReport, MonitorSignals, Rate } from "../types.js";
import type { MonitorFormat } from "../types/formats.js";

/** Groups shown per --by key (JSON has every one). */
const SHOWN_GROUPS = 25;
const SHOWN_RIVALS = 15;

type RateKey =
  | "call_rate"
  | "parallel_call_rate"
  | "clarification_rate"
  | "abstention_rate"
  | "no_call_rate"
  | "phantom_rate"
  | "schema_rejection_rate"
  | "rival_selection_rate";

const RATES: [RateKey, string][] = [
  ["call_rate", "tool call"],
  ["parallel_call_rate", "parallel calls"],
  ["clarification_rate", "clarification"],
  ["abstention_rate", "abstention"],
  ["no_call_rate", "text, no call"],
  ["phantom_rate", "call of a tool not offered"],
  ["schema_rejection_rate", "schema rejection"],
  ["rival_selection_rate", "rival selection"],
];

/** " (3 other spans, 2 model-call spans without content, 1 malformed span skipped)", or "". */
function skippedSpans(t: MonitorReport["traces"]): string {
  const parts = [
    t.skipped > 0 ? plural(t.skipped, "other span") : null,
    t.without_content > 0
      ? `${plural(t.without_content, "model-call span")} without content`
      : null,
    t.malformed > 0 ? plural(t.malformed, "malformed span") : null,
  ].filter((part) => part !== null);
  return parts.length === 0 ? "" : ` (${parts.join(", ")} skipped)`;
}

export function buildMonitorSections(r: MonitorReport): Section[] {
  const t = r.traces;
  const lines = [
    `${plural(t.turns, "model call")} in ${plural(t.files, "file")}${skippedSpans(t)}${t.unreplied > 0 ? `; ${t.unreplied} without a traced reply, in no rate` : ""}`,
    ...(r.all.no_tool_list > 0
      ? [
          `${plural(r.all.no_tool_list, "turn")} carry no list of offered tools: in no set size, and their calls in no per-call rate`,
        ]
      : []),
    "per turn: tool call (several in one reply: of the turns with a call), clarification (ask_user, or text ending in ?), abstention (no_applicable_tool), text without a call; per call: a tool not offered, arguments rejected by the offered schema, a tool whose lint rival was offered beside it",
  ];
  const rows: Cell[][] = [
    [
      "candidate-set size",
      `${plural(r.all.set_size.n, "turn")}`,
      MISSING,
      formatMean(r.all.set_size),
      `max ${r.all.set_size.max ?? MISSING}`,
    ],
    ...r.all.stages.map((s): Cell[] => [
      `  stage ${s.stage}`,
      `${plural(s.size.n, "turn")}`,
      MISSING,
      formatMean(s.size),
      "",
    ]),
    [
      "calls per turn",
      `${plural(r.all.calls_per_turn.n, "turn")}`,
      MISSING,
      formatMean(r.all.calls_per_turn),
      "",
    ],
    ...RATES.map(([key, label]) => rateRow(label, r.all[key])),
  ];
  const sections = [
    section("Routing signals", lines, {
      head: ["signal", "population", "count", "value", "95% CI"],
      align: RATE_ALIGN,
      rows,
    }),
  ];
  sections.push(buildToolSection(r));
  if (r.windows !== null) sections.push(buildWindowSection(r.windows));
  for (const breakdown of r.by) sections.push(buildBreakdownSection(breakdown));
  sections.push(buildRivalSection(r));
  return sections;
}

/** Tools shown per table (the JSON lists every one). */
const SHOWN_TOOLS = 20;

/** Calls per tool: overall, and — when the traces are split — before and after, with the change. */
function buildToolSection(r: MonitorReport): Section {
  const w = r.windows;
  const shown = r.all.calls_by_tool.slice(0, SHOWN_TOOLS);
  const shareOf = (s: MonitorSignals, tool: string) =>
    s.calls_by_tool.find((t) => t.tool === tool)?.share ?? rate(0, s.call_rate.numerator);
  const rows = shown.map((t): Cell[] => {
    const base: Cell[] = [t.tool, String(t.calls), formatRate(t.share)];
    if (w === null) return [...base, formatCi(t.share.ci)];
    return [...base, ...windowChange(shareOf(w.before, t.tool), shareOf(w.after, t.tool))];
  });
  const more = r.all.calls_by_tool.length - shown.length;
  return section(
    "Calls per tool",
    [
      "calls of each tool, and the share of the turns with a call whose reply called it (a turn counts once per tool)",
    ],
    rows.length === 0
      ? null
      : {
          head:
            w === null
              ? ["tool", "calls", "share of turns", "95% CI"]
              : ["tool", "calls", "share of turns", "before", "after", "change", "95% CI"],
          align:
            w === null
              ? ["left", "right", "right", "left"]
              : ["left", "right", "right", "right", "right", "right", "left"],
          rows,
        },
    [
      ...(rows.length === 0 ? ["no tool calls"] : []),
      ...(more > 0 ? [`… and ${more} more tools (--format json lists every one)`] : []),
    ],
  );
}

/** Before, after, the change and its 95% interval (Newcombe), the change marked when the interval excludes 0. */
function windowChange(before: Rate, after: Rate): Cell[] {
  const ci = differenceInterval(after, before);
  const change =
    after.value === null || before.value === null
      ? MISSING
      : `${after.value - before.value >= 0 ? "+" : "−"}${formatPercent(Math.abs(after.value - before.value))}`;
  const beyond = ci !== null && (ci[0] > 0 || ci[1] < 0);
  return [
    formatRate(before),
    formatRate(after),
    beyond ? { text: change, tone: "bad" } : change,
    ci === null ? MISSING : formatDelta(ci),
  ];
}

function buildWindowSection(w: NonNullable<MonitorReport["windows"]>): Section {
  const row = (label: string, before: Rate, after: Rate): Cell[] => [
    label,
    ...windowChange(before, after),
  ];
  const size = (s: MonitorSignals) => formatMean(s.set_size);
  return section(
    `Between windows (split at ${w.split_at})`,
    [
      `before: ${plural(w.before.turns, "turn")} · after: ${plural(w.after.turns, "turn")}${w.untimed > 0 ? ` · ${w.untimed} without a time, in neither` : ""}; a change is marked when its 95% interval (Newcombe) excludes 0`,
    ],
    {
      head: ["signal", "before", "after", "change", "95% CI"],
      align: ["left", "right", "right", "right", "left"],
      rows: [
        [
          "candidate-set size",
          size(w.before),
          size(w.after),
          meanChange(w.before.set_size, w.after.set_size),
          "",
        ],
        ...RATES.map(([key, label]) => row(label, w.before[key], w.after[key])),
      ],
    },
  );
}

function buildBreakdownSection(b: MonitorReport["by"][number]): Section {
  const shown = b.groups.slice(0, SHOWN_GROUPS);
  const short = (rate: Rate) =>
    rate.value === null
      ? MISSING
      : `${formatPercent(rate.value)} (${rate.numerator}/${rate.denominator})`;
  return section(
    `By ${b.key}`,
    [],
    {
      head: [
        b.key,
        "turns",
        "set size",
        "clarification",
        "abstention",
        "schema rejection",
        "phantom",
        "rival selection",
      ],
      align: ["left", "right", "right", "right", "right", "right", "right", "right"],
      rows: shown.map(({ value, signals: s }) => [
        value,
        String(s.turns),
        formatNumber(s.set_size.mean, 1),
        short(s.clarification_rate),
        short(s.abstention_rate),
        short(s.schema_rejection_rate),
        short(s.phantom_rate),
        short(s.rival_selection_rate),
      ]),
    },
    b.groups.length > SHOWN_GROUPS
      ? [`… and ${b.groups.length - SHOWN_GROUPS} more values (--format json lists every one)`]
      : [],
  );
}

function buildRivalSection(r: MonitorReport): Section {
  const rows = r.rivals.slice(0, SHOWN_RIVALS).map((p): Cell[] => {
    const calls = p.calls_a + p.calls_b;
    return [
      `${p.a} · ${p.b}`,
      p.score.toFixed(2),
      String(p.turns),
      `${p.calls_a} · ${p.calls_b}`,
      calls === 0
        ? MISSING
        : `${formatPercent(p.calls_a / calls)} · ${formatPercent(p.calls_b / calls)}`,
    ];
  });
  const notes = [
    ...(r.rivals.length > SHOWN_RIVALS
      ? [`… and ${r.rivals.length - SHOWN_RIVALS} more pairs (--format json lists every one)`]
      : []),
    ...(r.rivals_not_computed > 0
      ? [
          `${plural(r.rivals_not_computed, "turn")} offered a set unlike the first ones seen; their rivals were not computed (memory bound)`,
        ]
      : []),
  ];
  return section(
    "Rivals: who takes the calls",
    [
      "tool pairs lint calls rivals (close names or descriptions), offered together, and how the calls between the two split",
    ],
    rows.length === 0
      ? null
      : {
          head: ["pair", "score", "turns offering both", "calls", "split"],
          align: ["left", "right", "right", "right", "right"],
          rows,
        },
    rows.length === 0 ? ["no rival pairs among the offered tools", ...notes] : notes,
  );
}

function formatMean(m: MeanEstimate): string {
  if (m.mean === null) return MISSING;
  return `${m.mean.toFixed(1)}${m.ci === null ? "" : ` [${m.ci[0].toFixed(1)}, ${m.ci[1].toFixed(1)}]`}`;
}

function meanChange(before: MeanEstimate, after: MeanEstimate): string {
  if (before.mean === null || after.mean === null) return MISSING;
  const d = after.mean - before.mean;
  return `${d >= 0 ? "+" : "−"}${Math.abs(d).toFixed(1)}`;
}

function formatDelta(ci: [number, number]): string {
  const pts = (v: number) => `${v >= 0 ? "+" : "−"}${(Math.abs(v) * 100).toFixed(1)}`;
  return `[${pts(ci[0])}, ${pts(ci[1])}] pts`;
}

export function renderMonitor(
  r: MonitorReport,
  format: MonitorFormat,
  options: { color: boolean; width: number },
): string {
  const sections = buildMonitorSections(r);
  switch (format) {
    case "json":
      return `${stableStringify(r, 2)}\n`;
    case "markdown":
      return `${["## Routing signals from production traces", ...sections.map(sectionMarkdown)].join("\n\n")}\n`;
    case "html":
      return renderHtmlPage({
        title: "route-eval monitor",
        subtitle: "routing signals of production model calls",
        facts: [
          ["model calls", String(r.traces.turns)],
          ["files", String(r.traces.files)],
          ["clarification", formatPercent(r.all.clarification_rate.value)],
          ["schema rejection", formatPercent(r.all.schema_rejection_rate.value)],
        ],
        sections: sections.map((s, i) => sectionHtml(s, `monitor-${i}`, null)),
        data: r,
        script: null,
        footer: "route-eval monitor · self-contained: no network, works offline",
      });
    default: {
      const paint = makePaint(options.color);
      return `${sections.map((s) => sectionTerminal(s, paint, options.width)).join("\n\n")}\n`;
    }
  }
}
