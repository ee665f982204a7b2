/**
 * `route-eval diff --format html`: one self-contained page (no script) — verdict and gates, how the
 * cases moved, every metric's delta with its paired tests, the flipped cases, the confusion cells
 * that moved, and each changed description side by side with its word diff and blast radius.
 */
import { plural } from "../render/format.js";
import { describeRegistries } from "../render/run-header.js";
import { html } from "../render/html/escape.js";
import { renderHtmlPage, type HtmlSection } from "../render/html/page.js";
import { describeDiscovery } from "./comparability.js";
import { FLIP_KINDS, type Diff, type DiffRunInfo } from "../types/diff.js";
import { describeDiff } from "./format-diff.js";
import { renderConfusionSection, renderFlipsSection, type RunPages } from "./render-html-cases.js";
import { renderDefinitionsSection } from "./render-html-definitions.js";
import { renderMetricsSection } from "./render-html-metrics.js";
import { flipBadge, renderPlainSection } from "./render-html-section.js";
import { DIFF_STYLE } from "./render-html-style.js";
import {
  buildComparabilitySection,
  buildNoiseSection,
  buildOutcomeSection,
  buildPowerSection,
  buildReliabilitySection,
} from "./render-sections.js";
import { buildGateSection } from "./render-definitions.js";

export interface DiffHtmlOptions {
  /** Each run's own report.html, relative to the page, for drill-down links; null where there is none. */
  pages: RunPages;
}

function renderVerdictSection(diff: Diff): HtmlSection {
  const gates = renderPlainSection("gates", buildGateSection(diff));
  const vacuous = diff.gates.some((g) => g.not_evaluable !== undefined);
  const verdict =
    diff.verdict === "fail"
      ? html`<p class="verdict fail" id="verdict">verdict: FAIL — exit 1</p>`
      : vacuous
        ? html`<p class="verdict" id="verdict">verdict: pass, a gate not evaluable (it could not have failed)</p>`
        : html`<p class="verdict pass" id="verdict">verdict: pass</p>`;
  return { ...gates, title: "Verdict and gates", body: html`${verdict}${gates.body}` };
}

function renderOutcomeSection(diff: Diff): HtmlSection {
  const { flips } = diff.outcome;
  const tiles = FLIP_KINDS.map(
    (kind) =>
      html`<div class="tile ${flips[kind] === 0 ? "zero" : ""}" data-kind="${kind}"><strong>${flips[kind]}</strong>${flipBadge(kind)}</div>`,
  );
  const plain = renderPlainSection("outcome", buildOutcomeSection(diff));
  return {
    ...plain,
    intro:
      "How each shared case moved, then the exact McNemar tests on case pass/fail and on trial correct/incorrect.",
    body: html`<div class="tiles">${tiles}</div>${plain.body}`,
  };
}

function side(info: DiffRunInfo): string {
  const registries = describeRegistries(info.registries);
  return `${info.run_id} (${registries}; ${info.source === "records" ? "trial records" : "report.json only"})`;
}

function diffFacts(diff: Diff): [string, string][] {
  const { base, current, scope } = diff;
  const endpoint =
    base.endpoint === current.endpoint && base.model === current.model
      ? `${base.endpoint} / ${base.model}`
      : `${base.endpoint} / ${base.model} → ${current.endpoint} / ${current.model}`;
  return [
    ["BASE", side(base)],
    ["CURRENT", side(current)],
    ["endpoint", endpoint],
    [
      "cases",
      `${scope.shared_cases} shared × ${base.trials === current.trials ? plural(base.trials, "trial") : `${base.trials}/${current.trials} trials`}`,
    ],
    [
      "discovery",
      describeDiscovery(base.discovery) === "none"
        ? "no retriever"
        : describeDiscovery(base.discovery),
    ],
    ["verdict", diff.verdict],
  ];
}

export function renderDiffHtml(diff: Diff, options: DiffHtmlOptions): string {
  const sections: HtmlSection[] = [
    renderVerdictSection(diff),
    renderOutcomeSection(diff),
    renderMetricsSection(diff.metrics, diff.power.alpha),
    renderFlipsSection(diff.flips, options.pages),
    {
      ...renderPlainSection("noise", buildNoiseSection(diff)),
      title: "Trial noise (per case)",
      intro:
        "Which flips are beyond each case's own trial noise (the test --fail-on-regressed-case gates on), the flaky cases and the quarantine.",
    },
    renderConfusionSection(diff.confusions),
    renderDefinitionsSection(diff),
    {
      ...renderPlainSection("reliability", buildReliabilitySection(diff)),
      title: "Reliability classes",
      intro:
        "Each run's cases by how their scored trials went: always pass, flaky, always fail, all errored.",
    },
    renderPlainSection("comparability", buildComparabilitySection(diff)),
    renderPlainSection(
      "power",
      buildPowerSection(diff),
      "Exact paired tests need enough discordant pairs before any change can be significant; these are the bounds for this sample.",
    ),
  ];
  return renderHtmlPage({
    title: `route-eval diff · ${diff.base.run_id} → ${diff.current.run_id}`,
    subtitle: describeDiff(diff),
    facts: diffFacts(diff),
    sections,
    data: { schema: "route-eval-diff-html/1", diff },
    script: null,
    footer: `route-eval diff schema ${diff.schema_version} · self-contained: no network, works offline`,
    style: DIFF_STYLE,
  });
}
