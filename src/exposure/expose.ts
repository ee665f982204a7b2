import type { ControlName, Exposure, HiddenReason, PhasePolicy, Tool } from "../types.js";
import { listHidingRules } from "./hiding-rules.js";

/**
 * The phase's exposure policy applied to a registry: which ordinary tools this phase admits, and
 * for each hidden tool the first rule that hid it (family, then effect ceiling, then open world).
 * Trusted controls are always exposed. A null policy (a case with no phase) admits every tool.
 */
export function expose(tools: Tool[], policy: PhasePolicy | null, controls: ControlName[]): Exposure {
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
