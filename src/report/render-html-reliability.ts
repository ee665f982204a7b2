/** pass^k and pass@k against k, with their intervals, then consistency and the unstable cases. */
import type { CaseMean, Metrics } from "../types.js";
import { compareKeys, formatCi, formatCounts, formatPercent } from "../render/format.js";
import { describeConsistency } from "./render-sections.js";
import { renderLineChart, type ChartSeries } from "../render/html/chart.js";
import { html } from "../render/html/escape.js";
import type { HtmlSection } from "../render/html/page.js";

function toSeries(
  name: string,
  color: string,
  dashed: boolean,
  means: Record<string, CaseMean>,
): ChartSeries {
  const points = Object.keys(means)
    .filter((k) => means[k].value !== null)
    .sort(compareKeys)
    .map((k) => ({
      x: Number(k),
      y: means[k].value ?? 0,
      band: means[k].ci,
      title: `${name.split(" ")[0]} k=${k}: ${formatPercent(means[k].value)} ${formatCi(means[k].ci)} over ${means[k].denominator} cases`,
    }));
  return { name, color, dashed, points };
}

export function renderReliabilitySection(metrics: Metrics): HtmlSection {
  const ks = [
    ...new Set([...Object.keys(metrics.pass_hat_k), ...Object.keys(metrics.pass_at_k)]),
  ].sort(compareKeys);
  const cases = metrics.pass_hat_k["1"]?.denominator ?? 0;
  const chart = renderLineChart({
    label: `pass^k and pass@k against k (each a mean over ${cases} case${cases === 1 ? "" : "s"})`,
    xLabel: "k (trials of a case)",
    series: [
      toSeries("pass^k (all k succeed)", "#c2362b", false, metrics.pass_hat_k),
      toSeries("pass@k (any of k succeeds)", "#2a6fd6", true, metrics.pass_at_k),
    ],
  });
  const row = (label: string, means: Record<string, CaseMean>) =>
    html`<tr><td>${label}</td><td class="num">${means["1"]?.denominator ?? 0}</td>${ks.map((k) => html`<td class="num" title="95% CI ${formatCi(means[k]?.ci ?? null)}">${formatPercent(means[k]?.value ?? null)} <span class="count">${formatCi(means[k]?.ci ?? null)}</span></td>`)}</tr>`;
  const unstable = [...metrics.unstable_cases].sort(
    (a, b) => a.modal_count / a.n - b.modal_count / b.n,
  );
  const unstableRows = unstable.map(
    (u) =>
      html`<tr><td><a href="#case=${encodeURIComponent(u.case_id)}">${u.case_id}</a></td><td>${u.modal}</td><td class="num">${u.modal_count}/${u.n}</td><td>${formatCounts(u.selections)}</td></tr>`,
  );
  const body = html`${chart}
<table id="pass-k"><thead><tr><th>metric</th><th class="num">cases</th>${ks.map((k) => html`<th class="num">k=${k}</th>`)}</tr></thead><tbody>${row("pass^k (all k succeed)", metrics.pass_hat_k)}${row("pass@k (any of k succeeds)", metrics.pass_at_k)}</tbody></table>
<h3>Consistency</h3>
<p class="intro">${describeConsistency(metrics)}. ${unstable.length} unstable case${unstable.length === 1 ? "" : "s"} (more than one distinct selection).</p>
${unstable.length === 0 ? "" : html`<table><thead><tr><th>case</th><th>modal selection</th><th class="num">share</th><th>selections</th></tr></thead><tbody>${unstableRows}</tbody></table>`}`;
  const intro =
    "Reliability over repeated trials: pass^k is the chance that all k trials of a case succeed (what a user who retries sees fail), pass@k that at least one does. Shaded: 95% intervals.";
  return { id: "reliability", title: "pass^k and pass@k", intro, body };
}
