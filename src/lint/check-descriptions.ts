/** descriptions: a purpose that says something, a winning and a losing condition, contrast with rivals. */
import { tokenize } from "../text/tokenize.js";
import { namesRival } from "./check-rivals.js";
import { LISTED_RIVALS, listSome, type RivalPair } from "./find-rivals.js";
import type { LintRegistry } from "./lint-input.js";
import type { Tool } from "../types.js";
import { finding, type Finding } from "./rules.js";

export function checkDescriptions(registry: LintRegistry, pairs: RivalPair[]): Finding[] {
  const rivals = rivalsByTool(pairs);
  return registry.tools.flatMap((tool) => [
    ...checkPurpose(registry, tool),
    ...checkConditions(registry, tool),
    ...checkLosingCondition(registry, tool, rivals.get(tool) ?? []),
  ]);
}

function checkPurpose(registry: LintRegistry, tool: Tool): Finding[] {
  const base = { file: registry.file, tool: tool.name };
  if (tool.purpose.trim() === "") {
    return [
      finding({
        ...base,
        rule: "purpose-missing",
        line: registry.lineOf(["tools", registry.indexOf(tool), "name"]),
        message: `${tool.name} has no purpose; the model sees only its name`,
        fix: "add purpose: one sentence saying what the tool does and what it returns or changes",
      }),
    ];
  }
  if (!addsToName(tool.purpose, tool.name)) {
    return [
      finding({
        ...base,
        rule: "purpose-vague",
        line: registry.lineOf(["tools", registry.indexOf(tool), "purpose"]),
        message: `${tool.name}: purpose "${tool.purpose}" says nothing its name does not`,
        fix: "say what it acts on, what it returns or changes, and what sets it apart from its neighbours",
      }),
    ];
  }
  return [];
}

/** Whether the purpose has a content word that the name lacks. */
function addsToName(purpose: string, name: string): boolean {
  const nameWords = new Set(tokenize(name));
  return tokenize(purpose).some((word) => !nameWords.has(word));
}

function checkConditions(registry: LintRegistry, tool: Tool): Finding[] {
  const line = registry.lineOf(["tools", registry.indexOf(tool), "name"]);
  const base = { file: registry.file, line, tool: tool.name };
  const findings: Finding[] = [];
  if (tool.use_when.length === 0) {
    findings.push(
      finding({
        ...base,
        rule: "use-when-missing",
        message: `${tool.name} has no use_when: nothing says when it is the right choice`,
        fix: 'add use_when: the situations it wins, e.g. "The user gives an exact order id."',
      }),
    );
  }
  if (tool.avoid_when.length === 0) {
    findings.push(
      finding({
        ...base,
        rule: "avoid-when-missing",
        message: `${tool.name} has no avoid_when: nothing says when another tool is better`,
        fix: 'add avoid_when: the situations it loses, naming the tool that wins, e.g. "Only an email is known; use find_customer."',
      }),
    );
  }
  return findings;
}

function checkLosingCondition(registry: LintRegistry, tool: Tool, rivals: RivalPair[]): Finding[] {
  const missing = rivals.filter((pair) => !namesRival(tool, other(pair, tool)));
  if (missing.length === 0) return [];
  // Pairs come strongest first; a tool with dozens of rivals names the first few and counts the rest.
  const listed = missing.slice(0, LISTED_RIVALS);
  const names = listed.map((pair) => other(pair, tool).name);
  const scored = listed.map((pair) => `${other(pair, tool).name} (${pair.score.toFixed(2)})`);
  const path = tool.avoid_when.length > 0 ? ["tools", registry.indexOf(tool), "avoid_when"] : ["tools", registry.indexOf(tool), "name"];
  return [
    finding({
      rule: "no-losing-condition",
      file: registry.file,
      line: registry.lineOf(path),
      tool: tool.name,
      message: `${tool.name} has close rival${missing.length > 1 ? "s" : ""} ${listSome(scored, LISTED_RIVALS, missing.length)} that its avoid_when never names`,
      fix: `add to avoid_when the case it loses, naming the winner, e.g. "<when ${names[0]} fits>; use ${names[0]}."`,
      related: names,
    }),
  ];
}

function rivalsByTool(pairs: RivalPair[]): Map<Tool, RivalPair[]> {
  const byTool = new Map<Tool, RivalPair[]>();
  for (const pair of pairs) {
    for (const tool of [pair.a, pair.b]) {
      const list = byTool.get(tool) ?? [];
      list.push(pair);
      byTool.set(tool, list);
    }
  }
  return byTool;
}

function other(pair: RivalPair, tool: Tool): Tool {
  return pair.a === tool ? pair.b : pair.a;
}
