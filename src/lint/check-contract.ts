/** contract: retried writes must be safe; controls come from route-eval, never from a registry. */
import { CONTROL_FAMILY, CONTROL_NAMES } from "../types.js";
import type { LintRegistry, LintTool } from "./lint-input.js";
import { finding, type Finding } from "./rules.js";
import { isObject } from "./walk-schema.js";

/** Parameter names that make a retried write safe. */
const IDEMPOTENCY_KEY = /idempoten|dedup|request_?id|client_?token/i;

export function checkContract(registry: LintRegistry): Finding[] {
  return registry.tools.flatMap((tool) => [...checkControlClaim(registry, tool), ...checkIdempotency(registry, tool)]);
}

function checkControlClaim(registry: LintRegistry, tool: LintTool): Finding[] {
  const byFamily = tool.family === CONTROL_FAMILY;
  const byName = CONTROL_NAMES.some((name) => name === tool.name);
  if (!byFamily && !byName) return [];
  return [
    finding({
      rule: "control-claim",
      file: registry.file,
      line: registry.lineOf(["tools", tool.index, byFamily ? "family" : "name"]),
      tool: tool.name,
      message:
        `${tool.name} claims to be a trusted control (${byFamily ? `family: ${CONTROL_FAMILY}` : "a control's name"}); ` +
        "controls come from route-eval's own configuration, so `route-eval run` rejects this registry",
      fix: byFamily ? "give it an ordinary family" : `rename it; ${CONTROL_NAMES.join(", ")} are built in`,
    }),
  ];
}

function checkIdempotency(registry: LintRegistry, tool: LintTool): Finding[] {
  if (tool.effect !== "mutating" && tool.effect !== "destructive") return [];
  if (tool.idempotent || hasIdempotencyKey(tool)) return [];
  return [
    finding({
      rule: "no-idempotency-key",
      file: registry.file,
      line: registry.lineOf(["tools", tool.index, "effect"]),
      tool: tool.name,
      message: `${tool.name} is ${tool.effect} and not idempotent, and takes no idempotency key: a retried call may act twice`,
      fix: 'add an optional idempotency_key string parameter, or mark the tool idempotent: true if repeating it is harmless',
    }),
  ];
}

function hasIdempotencyKey(tool: LintTool): boolean {
  const properties = tool.input_schema?.properties;
  return isObject(properties) && Object.keys(properties).some((name) => IDEMPOTENCY_KEY.test(name));
}
