import { EFFECTS, type HiddenReason, type PhasePolicy, type Tool } from "../types.js";

/** The attributes of a tool an exposure policy looks at. */
export type ExposureFacts = Pick<Tool, "family" | "effect" | "open_world">;

/**
 * Every rule of the phase policy that hides the tool, in the order expose() checks them
 * (family, then effect ceiling, then open world); empty when the policy admits it.
 * expose() reports the first; `show` names them all, since a fix must lift every one.
 */
export function listHidingRules(tool: ExposureFacts, policy: PhasePolicy): HiddenReason[] {
  const rules: HiddenReason[] = [];
  if (policy.families !== undefined && !policy.families.includes(tool.family)) rules.push("family");
  if (
    policy.max_effect !== undefined &&
    EFFECTS.indexOf(tool.effect) > EFFECTS.indexOf(policy.max_effect)
  )
    rules.push("effect");
  if (policy.open_world === false && tool.open_world) rules.push("open_world");
  return rules;
}
