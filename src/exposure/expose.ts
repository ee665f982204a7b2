import type {
  ControlName,
  ConversationTurn,
  Exposure,
  HiddenReason,
  PhasePolicy,
  Tool,
} from "../types.js";
import { listHidingRules } from "./hiding-rules.js";

/**
 * The phase's exposure policy applied to a registry: which ordinary tools this phase admits, and
 * for each hidden tool the first rule that hid it (family, then effect ceiling, then open world).
 * Trusted controls are always exposed. A null policy (a case with no phase) admits every tool.
 */
export function expose(
  tools: Tool[],
  policy: PhasePolicy | null,
  controls: ControlName[],
): Exposure {
  const exposed: string[] = [];
  const hidden: Record<string, HiddenReason> = {};
  for (const tool of tools) {
    const reason = policy === null ? null : hiddenBy(tool, policy);
    if (reason === null) exposed.push(tool.name);
    else hidden[tool.name] = reason;
  }
  return { exposed: [...controls, ...exposed], hidden };
}

function hiddenBy(tool: Tool, policy: PhasePolicy): HiddenReason | null {
  return listHidingRules(tool, policy)[0] ?? null;
}

/**
 * A conversation turn's surface on top of its phase's exposure: the tools added up to this turn
 * are exposed whatever the phase says; the tools removed up to it, and the tools a later turn
 * adds, are hidden (reasons "removed" and "withheld"). Order stays the registry's, controls first.
 */
export function exposeTurn(
  base: Exposure,
  turn: Pick<ConversationTurn, "added" | "removed" | "withheld">,
  tools: Tool[],
  controls: ControlName[],
): Exposure {
  const admitted = new Set(base.exposed);
  const added = new Set(turn.added);
  const removed = new Set(turn.removed);
  const withheld = new Set(turn.withheld);
  const exposed: string[] = [];
  const hidden: Record<string, HiddenReason> = {};
  for (const { name } of tools) {
    if (removed.has(name)) hidden[name] = "removed";
    else if (withheld.has(name)) hidden[name] = "withheld";
    else if (added.has(name) || admitted.has(name)) exposed.push(name);
    else if (base.hidden[name] !== undefined) hidden[name] = base.hidden[name];
  }
  return { exposed: [...controls, ...exposed], hidden };
}
