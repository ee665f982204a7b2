import { EFFECTS, type ControlName, type Exposure, type HiddenReason, type PhasePolicy, type Tool } from "../types.js";

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
  if (policy.families !== undefined && !policy.families.includes(tool.family)) return "family";
  if (policy.max_effect !== undefined && EFFECTS.indexOf(tool.effect) > EFFECTS.indexOf(policy.max_effect)) return "effect";
  if (policy.open_world === false && tool.open_world) return "open_world";
  return null;
}
