/** surface: how many tools each phase puts in front of the model. */
import type { LintSurface } from "./lint-input.js";
import type { HiddenReason } from "../types.js";
import { finding, type Finding } from "./rules.js";

/** How a hiding rule is named in a finding. */
const HIDDEN_BY: Record<HiddenReason, string> = {
  family: "its families",
  effect: "its effect ceiling",
  open_world: "open_world: false",
  withheld: "a later turn",
  removed: "an earlier turn",
};

/** Beyond this many ordinary tools, selection accuracy drops measurably (see `route-eval sweep`). */
export const CROWDED_AT = 20;
/** The most tools one request may carry (OpenAI's limit; Anthropic's is higher). */
export const PROVIDER_LIMIT = 128;

export function checkSurface(surface: LintSurface): Finding[] {
  const shown = surface.k === null ? surface.exposed : Math.min(surface.k, surface.exposed);
  const total = shown + surface.controls;
  const snapshot = surface.registry.snapshot;
  const where =
    surface.phase === null
      ? `cases without a phase see all of ${snapshot}`
      : `phase "${surface.phase}" on ${snapshot}`;
  const budget =
    surface.k === null ? "" : ` (retriever keeps k = ${surface.k} of ${surface.exposed} exposed)`;
  const base = { file: surface.file, line: surface.line };
  if (surface.exposed === 0 && surface.registry.tools.length > 0) {
    const why = Object.entries(surface.hidden)
      .map(([reason, count]) => `${HIDDEN_BY[reason as HiddenReason]} ×${count}`)
      .join(", ");
    return [
      finding({
        ...base,
        rule: "surface-empty",
        message: `${where}: admits none of its ${surface.registry.tools.length} tools (hidden by ${why}): every case in it fails at exposure`,
        fix: "widen the phase (families, max_effect, open_world), or review each tool's effect and open_world in the registry (imported MCP tools are destructive until reviewed)",
      }),
    ];
  }
  if (total > PROVIDER_LIMIT) {
    return [
      finding({
        ...base,
        rule: "surface-over-limit",
        message: `${where}: ${shown} ordinary tools + ${surface.controls} controls = ${total} per request${budget}, over the provider limit of ${PROVIDER_LIMIT}`,
        fix: "narrow the phase (families, max_effect, open_world) or set discovery: {retriever: bm25, k: 20}",
      }),
    ];
  }
  if (shown > CROWDED_AT) {
    return [
      finding({
        ...base,
        rule: "surface-crowded",
        message: `${where}: the model chooses among ${shown} ordinary tools${budget} (more than ${CROWDED_AT})`,
        fix: "narrow the phase's families or effect ceiling, or retrieve the top k (discovery: {retriever: bm25, k: 10}) and measure with route-eval run",
      }),
    ];
  }
  return [];
}
