/**
 * `--format html` for an experiment: one self-contained page (no script) with the ladder as a
 * chart (end-to-end and selection accuracy of each variant with 95% interval bars), each
 * variant's failure profile as a stacked bar, the full metric table, and per pair what moved.
 * Every name and sentence is data: the `html` tag escapes it.
 */
import { EXPERIMENT_KINDS } from "../types/ablate.js";
import { formatCount, formatMs, formatPercent, MISSING, plural } from "../render/format.js";
import { html, type SafeHtml } from "../render/html/escape.js";
import { renderHtmlPage, type HtmlSection } from "../render/html/page.js";
import { STAGES } from "../types.js";
import type { Comparison, Experiment, MetricRow } from "../types/ablate.js";
import { deltaOf, methodNote } from "./compare-variants.js";

const STYLE = `
svg.ladder text{font-size:11px;fill:var(--muted)}svg.ladder text.name{fill:var(--fg)}
svg.ladder .e2e{fill:var(--accent);stroke:var(--accent)}svg.ladder .sel{fill:var(--ok);stroke:var(--ok)}
.stack{display:flex;height:18px;border-radius:3px;overflow:hidden;min-width:240px;background:var(--line)}
.stack span{display:block;height:100%}
table.profile td:first-child{white-space:nowrap}
.verdict-helped{color:var(--good);font-weight:600}.verdict-hurt{color:var(--bad);font-weight:600}
`;

const SERIES = [
  { metric: "end_to_end_accuracy", label: "end-to-end accuracy", css: "e2e" },
  { metric: "selection_accuracy", label: "selection accuracy", css: "sel" },
] as const;

function rowOf(e: Experiment, metric: string): MetricRow | undefined {
  return e.metrics.find((r) => r.metric === metric);
}

/** Each variant a column of two points (end-to-end, selection), each with its 95% interval bar. */
function renderLadderChart(e: Experiment): SafeHtml {
  const slot = 130;
  const width = 60 + slot * e.variants.length;
  const height = 240;
  const top = 16;
  const plot = 180;
  const y = (v: number) => top + plot * (1 - v);
  const grid = [0, 0.25, 0.5, 0.75, 1].map(
    (t) =>
      html`<line x1="50" x2="${width - 10}" y1="${y(t)}" y2="${y(t)}" stroke="#dde1e8"/><text x="44" y="${y(t) + 4}" text-anchor="end">${Math.round(t * 100)}%</text>`,
  );
  const marks = e.variants.map((variant, i) => {
    const center = 60 + slot * i + slot / 2;
    const points = SERIES.map((series, s) => {
      const value = rowOf(e, series.metric)?.values[i];
      if (value === undefined || value.value === null) return html``;
      const x = center + (s === 0 ? -14 : 14);
      const bar =
        value.ci === null
          ? html``
          : html`<line class="${series.css}" x1="${x}" x2="${x}" y1="${y(value.ci[0])}" y2="${y(value.ci[1])}" stroke-width="2"/>`;
      const title = `${variant.name}: ${series.label} ${formatPercent(value.value)} (${formatCount(value.numerator ?? 0)}/${value.denominator ?? 0})${value.ci === null ? "" : ` 95% CI ${formatPercent(value.ci[0])}–${formatPercent(value.ci[1])}`}`;
      return html`<g data-variant="${variant.name}" data-metric="${series.metric}" data-value="${value.value}">${bar}<circle class="${series.css}" cx="${x}" cy="${y(value.value)}" r="5"><title>${title}</title></circle></g>`;
    });
    return html`${points}<text class="name" x="${center}" y="${top + plot + 18}" text-anchor="middle">${variant.name}</text>`;
  });
  const legend = SERIES.map(
    (s) =>
      html`<span><svg class="ladder" width="10" height="10"><circle class="${s.css}" cx="5" cy="5" r="5"/></svg> ${s.label}</span>`,
  );
  return html`<svg class="ladder" id="ladder-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="accuracy per variant">${grid}${marks}</svg><div class="legend">${legend}<span>bars: 95% case-clustered interval</span></div>`;
}

function renderProfiles(e: Experiment): SafeHtml {
  const rows = e.variants.map((variant, i) => {
    const p = e.profiles[i];
    const parts = [
      ...STAGES.map((stage) => ({ key: stage, css: `st-${stage}`, count: p.stages[stage] })),
      { key: "correct", css: "st-passed", count: p.correct },
      { key: "errored", css: "st-errored", count: p.errored },
    ];
    const total = Math.max(1, p.trials);
    const spans = parts
      .filter((part) => part.count > 0)
      .map(
        (part) =>
          html`<span class="${part.css}" style="width:${((part.count / total) * 100).toFixed(2)}%" title="${part.key}: ${part.count} of ${p.trials}"></span>`,
      );
    const counts = parts.map(
      (part) => html`<td class="num" data-stage="${part.key}">${part.count}</td>`,
    );
    return html`<tr data-variant="${variant.name}"><td>${variant.name}</td><td><div class="stack">${spans}</div></td>${counts}</tr>`;
  });
  const head = [...STAGES, "correct", "errored"].map((s) => html`<th class="num">${s}</th>`);
  const legend = [
    ...STAGES.map((s) => [s, `st-${s}`]),
    ["correct", "st-passed"],
    ["errored", "st-errored"],
  ].map(
    ([label, css]) =>
      html`<span><span class="swatch ${css}" style="display:inline-block;width:10px;height:10px"></span> ${label}</span>`,
  );
  return html`<div class="table-wrap"><table class="profile" id="profiles"><thead><tr><th>variant</th><th>trials by where they ended</th>${head}</tr></thead><tbody>${rows}</tbody></table></div><div class="legend">${legend}</div>`;
}

function formatCell(row: MetricRow, i: number): SafeHtml {
  const v = row.values[i];
  if (v.value === null) return html`<td class="num muted" data-value="">${MISSING}</td>`;
  const plain = ["mean_visible", "input_tokens", "latency_ms"].includes(row.metric);
  const text = !plain
    ? formatPercent(v.value)
    : row.metric === "latency_ms"
      ? formatMs(v.value)
      : v.value.toFixed(1);
  const evidence =
    v.numerator === null || v.denominator === null
      ? ""
      : ` (${formatCount(Math.round(v.numerator * 100) / 100)}/${v.denominator})`;
  const ci =
    v.ci === null
      ? html``
      : html`<div class="ci">[${formatPercent(v.ci[0])}, ${formatPercent(v.ci[1])}]</div>`;
  return html`<td class="num" data-value="${v.value}">${text}${evidence}${ci}</td>`;
}

function renderMetricTable(e: Experiment): SafeHtml {
  const head = e.variants.map((v) => html`<th class="num">${v.name}</th>`);
  const rows = e.metrics
    .filter((row) => row.values.some((v) => v.value !== null))
    .map(
      (row) =>
        html`<tr data-metric="${row.metric}"><td>${row.label}</td>${row.values.map((_, i) => formatCell(row, i))}</tr>`,
    );
  return html`<div class="table-wrap"><table id="metrics"><thead><tr><th>metric</th>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

function renderComparison(c: Comparison, links: Map<string, string>): SafeHtml {
  const cells = c.confusions
    .slice(0, 15)
    .map(
      (m) =>
        html`<tr><td>${m.acceptable}</td><td>${m.selected}</td><td>${m.correct ? "correct" : "error"}</td><td class="num">${m.base}</td><td class="num">${m.current}</td><td class="num">${m.delta > 0 ? `+${m.delta}` : String(m.delta)}</td></tr>`,
    );
  const moved =
    cells.length === 0
      ? html`<p class="muted">No confusion cell moved.</p>`
      : html`<table class="moved"><thead><tr><th>expected</th><th>selected</th><th>cell</th><th class="num">${c.reference}</th><th class="num">${c.variant}</th><th class="num">Δ</th></tr></thead><tbody>${cells}</tbody></table>${c.confusions.length > 15 ? html`<p class="muted">… and ${c.confusions.length - 15} more cells</p>` : ""}`;
  const link = links.get(c.variant);
  return html`<div class="pair" data-variant="${c.variant}" data-reference="${c.reference}" data-verdict="${c.verdict}">
<h3>${c.variant} <span class="muted">vs ${c.reference}</span> · <span class="verdict-${c.verdict === "no detectable change" ? "none" : c.verdict}">${c.verdict}</span> · end-to-end ${deltaOf(c, "end_to_end_accuracy")} · selection ${deltaOf(c, "selection_accuracy")}</h3>
<p>${c.because}</p><p>${c.movement}</p>
<p>cases fixed (${c.fixed.length}): ${c.fixed.join(", ") || "none"} · broken (${c.broken.length}): ${c.broken.join(", ") || "none"} · regressed beyond trial noise (${(c.regressed_beyond_noise ?? []).length}): ${(c.regressed_beyond_noise ?? []).join(", ") || "none"}${link === undefined ? "" : html` · <a href="${link}">${c.variant}'s report</a>`}</p>
${moved}</div>`;
}

export function renderExperimentHtml(e: Experiment): string {
  const links = new Map(e.variants.map((v) => [v.name, `${v.dir}/report.html`]));
  const sections: HtmlSection[] = [
    {
      id: "ladder",
      title: EXPERIMENT_KINDS[e.kind].sideBySide,
      intro:
        "End-to-end and selection accuracy of each variant, with 95% case-clustered interval bars. The cases are the same in every variant.",
      body: renderLadderChart(e),
    },
    {
      id: "profiles",
      title: "Failure profiles",
      intro: "Each variant's trials by the first rung that failed.",
      body: renderProfiles(e),
    },
    {
      id: "metrics",
      title: "Every metric",
      intro: "Value (numerator/denominator) and 95% interval per variant.",
      body: renderMetricTable(e),
    },
    {
      id: "pairs",
      title: EXPERIMENT_KINDS[e.kind].comparisons,
      intro: `${methodNote(e)}. The confusion cells that moved follow.`,
      body: html`${e.comparisons.map((c) => renderComparison(c, links))}`,
    },
  ];
  if (e.gates.length > 0) {
    const rows = e.gates.map(
      (g) =>
        html`<tr data-passed="${String(g.passed)}"><td class="${g.passed ? "good" : "bad"}">${g.passed ? "pass" : "FAIL"}</td><td>${g.rule}</td><td>${g.reason}</td></tr>`,
    );
    sections.push({
      id: "gates",
      title: "Gates",
      intro: null,
      body: html`<table id="gates"><tbody>${rows}</tbody></table>`,
    });
  }
  const facts: [string, string][] = [
    ["kind", e.kind],
    ["cases", `${e.cases} × ${plural(e.trials, "trial")} per variant`],
    ["variants", e.variants.map((v) => v.name).join(", ")],
    ...(e.skipped.length === 0
      ? []
      : [
          ["skipped", e.skipped.map((s) => `${s.name} (${s.reason})`).join("; ")] as [
            string,
            string,
          ],
        ]),
    ["started", e.started_at],
    ["finished", e.finished_at ?? MISSING],
  ];
  return renderHtmlPage({
    title: `route-eval ${EXPERIMENT_KINDS[e.kind].page} · ${e.experiment_id}`,
    subtitle: `${e.variants.length} variants over the same ${e.cases} cases`,
    facts,
    sections,
    data: { schema: "route-eval-experiment-html/1", experiment: e },
    script: null,
    footer: `route-eval ${e.tool_version} · experiment schema ${e.schema_version} · self-contained: no network, works offline`,
    style: STYLE,
  });
}
