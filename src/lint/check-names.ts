/** names: provider-safe, snake_case (unique names are the snapshot's own rule: parse-registry.ts). */
import type { LintRegistry } from "./lint-input.js";
import { finding, type Finding } from "./rules.js";

const PROVIDER_SAFE = /^[A-Za-z0-9_-]{1,64}$/;
const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

export function checkNames(registry: LintRegistry): Finding[] {
  const findings: Finding[] = [];
  for (const tool of registry.tools) {
    const line = registry.lineOf(["tools", registry.indexOf(tool), "name"]);
    const base = { file: registry.file, line, tool: tool.name };
    if (!PROVIDER_SAFE.test(tool.name)) {
      findings.push(
        finding({
          ...base,
          rule: "name-invalid",
          message: `tool name "${tool.name}" is not accepted by provider APIs (letters, digits, _ and -, 1 to 64 characters)`,
          fix: `rename it, e.g. "${suggestName(tool.name)}"`,
        }),
      );
    } else if (!SNAKE_CASE.test(tool.name) && tool.kind !== "skill") {
      // A skill's name is kebab-case by the Agent Skills specification: its convention, not a slip.
      findings.push(
        finding({
          ...base,
          rule: "name-not-snake-case",
          message: `tool name "${tool.name}" is not snake_case; mixed conventions make near names harder to tell apart`,
          fix: `rename it "${suggestName(tool.name)}"`,
        }),
      );
    }
  }
  return findings;
}

/** snake_case, provider-safe, at most 64 characters. */
export function suggestName(name: string): string {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase()
    .slice(0, 64);
  return snake === "" ? "tool" : snake;
}
