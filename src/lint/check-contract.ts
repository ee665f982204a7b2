/** contract: retried writes must be safe (a control claim is the snapshot's own rule: parse-registry.ts). */
import type { LintRegistry } from "./lint-input.js";
import type { Tool } from "../types.js";
import { finding, type Finding } from "./rules.js";
import { isObject } from "./walk-schema.js";

/** Parameter names that make a retried write safe. */
const IDEMPOTENCY_KEY = /idempoten|dedup|request_?id|client_?token/i;

export function checkContract(registry: LintRegistry): Finding[] {
  return registry.tools.flatMap((tool) => checkIdempotency(registry, tool));
}

function checkIdempotency(registry: LintRegistry, tool: Tool): Finding[] {
  if (tool.effect !== "mutating" && tool.effect !== "destructive") return [];
  if (tool.idempotent || hasIdempotencyKey(tool)) return [];
  return [
    finding({
      rule: "no-idempotency-key",
      file: registry.file,
      line: registry.lineOf(["tools", registry.indexOf(tool), "effect"]),
      tool: tool.name,
      message: `${tool.name} is ${tool.effect} and not idempotent, and takes no idempotency key: a retried call may act twice`,
      fix: "add an optional idempotency_key string parameter, or mark the tool idempotent: true if repeating it is harmless",
    }),
  ];
}

function hasIdempotencyKey(tool: Tool): boolean {
  const properties = tool.input_schema?.properties;
  return isObject(properties) && Object.keys(properties).some((name) => IDEMPOTENCY_KEY.test(name));
}
