/** Conversation cases on the report page: success over whole conversations, the ladder by turn, first failures. */
import { STAGES, type ConversationMetrics } from "../types.js";
import { formatCi, formatPercent, formatRate } from "../render/format.js";
import { html } from "../render/html/escape.js";
import type { HtmlSection } from "../render/html/page.js";

export function renderConversationSection(c: ConversationMetrics): HtmlSection {
  const rows = c.by_turn.map(
    (t) =>
      html`<tr><td>turn ${t.turn}</td><td class="num">${t.scored}</td><td class="num">${formatPercent(t.scored === 0 ? null : t.correct / t.scored)} (${t.correct})</td>${STAGES.map((stage) => html`<td class="num">${t.failure_profile[stage]}</td>`)}</tr>`,
  );
  const first = Object.entries(c.first_failure)
    .map(([turn, n]) => (turn === "none" ? `none ×${n}` : `turn ${turn} ×${n}`))
    .join(" · ");
  const onPolicy = c.on_policy;
  const body = html`<p data-field="conversation-success"><strong>Conversation success ${formatRate(c.success)}</strong> of ${c.success.denominator} scored trials ${formatCi(c.success.ci)}, ${c.conversations} conversations of ${c.turns} turns.</p>
<table id="conversation-turns"><thead><tr><th>turn</th><th class="num">scored</th><th class="num">correct</th>${STAGES.map((stage) => html`<th class="num">${stage}</th>`)}</tr></thead><tbody>${rows}</tbody></table>
<p>First failure: ${first === "" ? "no scored trial" : first}. Exposure lag: ${c.exposure_lag} selection failure${c.exposure_lag === 1 ? "" : "s"} at the turn that added an acceptable tool.</p>
${onPolicy === undefined ? "" : html`<p data-field="on-policy">After a wrong turn: ${onPolicy.after_miss} later turns, ${onPolicy.recovered} recovered, ${onPolicy.downstream_failures} failed downstream; ${onPolicy.unstubbed} turns had a call in their history with no result in the case.</p>`}`;
  const intro =
    onPolicy === undefined
      ? "Each turn asked with the gold history of the turns before it; a conversation's trial succeeds when every turn of it is correct."
      : "Each turn asked with the model's own earlier replies (on-policy); a conversation's trial succeeds when every turn of it is correct.";
  return { id: "conversations", title: "Conversations", intro, body };
}
