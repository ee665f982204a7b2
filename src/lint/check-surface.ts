/** surface: how many tools each phase puts in front of the model. */
import type { LintSurface } from "./lint-input.js";
import { finding, type Finding } from "./rules.js";

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
