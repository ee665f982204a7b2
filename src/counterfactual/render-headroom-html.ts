/** The run page's headroom section (when route-eval counterfactual has run): a bar per stage. */
import { formatPercent } from "../render/format.js";
import { html } from "../render/html/escape.js";
import type { HtmlSection } from "../render/html/page.js";
import type { CounterfactualReport } from "../types/counterfactual.js";
import { describeStage, formatTrials, points, selectionLine } from "./render-counterfactual.js";

export function renderHeadroomSection(r: CounterfactualReport): HtmlSection {
  const widest = Math.max(1, ...r.stages.map((s) => s.failures));
  const rows = r.stages.map((s) => {
    const width = (n: number) => `${((n / widest) * 100).toFixed(1)}%`;
    const gain = s.tested === 0 ? "—" : points(s.gain.value);
    const ci =
      s.tested === 0 || s.gain.ci === null
        ? ""
        : `[${(s.gain.ci[0] * 100).toFixed(1)}, ${(s.gain.ci[1] * 100).toFixed(1)}]`;
    return html`<tr data-stage="${s.stage}" data-failures="${s.failures}" data-binding="${s.binding}"><td>${s.stage}</td>
<td style="min-width:260px"><div class="stack" style="display:flex;height:14px;background:var(--line);border-radius:3px;overflow:hidden;width:${width(s.failures)}"><span class="st-${s.stage}" style="display:block;width:${s.failures === 0 ? "0" : ((Math.max(0, s.binding) / s.failures) * 100).toFixed(1)}%" title="${formatTrials(s.binding)} of ${s.failures} failures binding"></span></div></td>
<td class="num">${s.failures}</td><td class="num">${s.tested}</td><td>${s.kind ?? "—"}</td><td class="num">${s.tested === 0 ? "—" : formatTrials(s.placebo)}</td><td class="num">${s.tested === 0 ? "—" : formatTrials(s.binding)}</td>
<td class="num">${gain} <span class="ci">${ci}</span></td><td class="num">${s.tested === 0 ? "—" : `${formatPercent(s.if_fixed.value)} (${formatTrials(s.if_fixed.numerator)}/${s.if_fixed.denominator})`}</td></tr>`;
  });
  const pairs = r.rival_pairs.map(
    (p) =>
      html`<tr><td>${p.acceptable}</td><td>${p.rival}</td><td class="num">${p.failures}</td><td class="num">${formatTrials(p.recovered)}</td></tr>`,
  );
  const body = html`<table id="headroom"><thead><tr><th>stage</th><th>failures (bar) · binding (filled)</th><th class="num">failures</th><th class="num">tested</th><th>change</th><th class="num">placebo</th><th class="num">binding</th><th class="num">gain</th><th class="num">end-to-end if fixed</th></tr></thead><tbody>${rows}</tbody></table>
<ul>${r.stages.filter((s) => s.tested > 0).map((s) => html`<li>${describeStage(s)}</li>`)}<li>${selectionLine(r)}</li></ul>
${pairs.length === 0 ? "" : html`<h3>Rival pairs whose removal recovers the most</h3><table id="rival-pairs"><thead><tr><th>expected</th><th>rival removed</th><th class="num">failures</th><th class="num">recovered</th></tr></thead><tbody>${pairs}</tbody></table>`}`;
  const intro = `Each failed trial re-asked with one change to what the model saw (${r.kinds.join(", ")}) and, as a placebo, unchanged with the same fresh seeds: "binding" failures are those the change turns correct beyond what the placebo recovers. A counterfactual asks a different question; one run of it is evidence, not proof.`;
  return { id: "headroom", title: "Headroom (counterfactual)", intro, body };
}
