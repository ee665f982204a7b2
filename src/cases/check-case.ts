/** Checks on one routing case beyond its schema; each failure is one line at the offending entry. */
import type { JsonPath } from "../types/json.js";
import type { CaseEntry } from "../config/file-types.js";
import { formatPath, isRecord } from "../json-schema/describe-errors.js";
import type { YamlFile } from "../config/yaml-document.js";
import { InputError, at } from "../errors.js";
import type { Case, Registry } from "../types.js";
import type { Decision } from "./conversations.js";
import { linearPatternProblem } from "../text/linear-regexp.js";
import { showPath } from "../config/yaml-document.js";

/** Where a case is written. */
export type CaseSource = Case["source"];

type NameListKey = "acceptable" | "forbidden" | "must_see" | "must_not_see";

/** Throws an InputError for the first problem of one decision (a case, or a conversation's turn) of `yaml`. */
export function checkDecision(yaml: YamlFile, decision: Decision, phases: string[]): void {
  const { entry, at: where } = decision;
  checkDisjoint(yaml, entry, where, ["acceptable", "forbidden"]);
  checkDisjoint(yaml, entry, where, ["must_see", "must_not_see"]);
  checkPhase(yaml, entry, where, phases);
  checkArgPatterns(yaml, entry, where);
  checkCallSet(yaml, entry, where);
  checkPriorSteps(yaml, entry, where);
}

/** The steps after the goal are the model's calls and their results: no user turn, every result answering a call before it. */
function checkPriorSteps(yaml: YamlFile, entry: CaseEntry, where: JsonPath): void {
  const ids = new Set<string>();
  (entry.prior_steps ?? []).forEach((message, index) => {
    const path = [...where, "prior_steps", index];
    if (message.role === "user")
      fail(
        yaml,
        path,
        `case "${entry.id}": prior_steps[${index}] is a user message; the steps after the goal are the model's calls and their results (a user message before them goes in messages:, the last one is the goal)`,
      );
    if (message.role === "assistant") for (const call of message.tool_calls ?? []) ids.add(call.id);
    if (message.role === "tool" && !ids.has(message.tool_call_id))
      fail(
        yaml,
        [...path, "tool_call_id"],
        `case "${entry.id}": prior_steps[${index}] answers call "${message.tool_call_id}", which no earlier step made`,
      );
  });
}

/** `calls:` replaces acceptable; its companions need it, results need steps to be returned in. */
function checkCallSet(yaml: YamlFile, entry: CaseEntry, where: JsonPath): void {
  const say = (key: string, message: string): never =>
    fail(yaml, [...where, key], `case "${entry.id}": ${message}`);
  if (entry.calls === undefined) {
    for (const key of ["order", "allow_extra", "max_steps", "results"] as const)
      if (entry[key] !== undefined)
        say(key, `${key}: applies to expected calls; give calls: (or remove ${key}:)`);
    return;
  }
  if (entry.acceptable !== undefined)
    say(
      "acceptable",
      "gives both acceptable: and calls:; a call set names its tools in calls: (a single call is calls: [{tool: NAME}])",
    );
  if (entry.results !== undefined && (entry.max_steps ?? 1) <= 1)
    say(
      "results",
      "results: are returned only between steps; set max_steps: above 1 (or remove results:)",
    );
  const forbidden = new Set(entry.forbidden ?? []);
  entry.calls.forEach((call, index) => {
    const tools = typeof call.tool === "string" ? [call.tool] : call.tool;
    const clash = tools.find((tool) => forbidden.has(tool));
    if (clash !== undefined)
      fail(
        yaml,
        [...where, "calls", index, "tool"],
        `case "${entry.id}": calls[${index}] expects "${clash}", which forbidden: also names`,
      );
    checkPatterns(yaml, call.args ?? {}, [...where, "calls", index, "args"]);
  });
  (entry.results ?? []).forEach((stub, index) =>
    checkPatterns(yaml, stub.args ?? {}, [...where, "results", index, "args"]),
  );
  const allowed = (entry.allow_extra ?? []).find((tool) => forbidden.has(tool));
  if (allowed !== undefined) say("allow_extra", `allow_extra and forbidden both name "${allowed}"`);
}

function checkPatterns(yaml: YamlFile, expectations: object, at: JsonPath): void {
  for (const [arg, expectation] of Object.entries(expectations)) {
    const pattern = isRecord(expectation) ? expectation.pattern : undefined;
    if (typeof pattern !== "string") continue;
    const path = [...at, arg, "pattern"];
    const problem = regexProblem(pattern);
    if (problem !== null) fail(yaml, path, `${formatPath(path)}: ${problem}`);
  }
}

/** `target > tool` as [target, tool], or null for a plain name. */
export function splitPath(name: string): [string, string] | null {
  const parts = name.split(">").map((part) => part.trim());
  return parts.length === 2 && parts[0] !== "" && parts[1] !== "" ? [parts[0], parts[1]] : null;
}

/**
 * A hierarchical acceptable (docs/targets.md): every entry `target > tool`, the targets all agents
 * (the tool one of the agent's own) or all servers (the tool one it groups). Null for a plain case.
 */
export function hierarchyOf(
  yaml: YamlFile,
  decision: Decision,
  registry: Registry,
): NonNullable<Case["hierarchy"]> | null {
  const { entry, at: where } = decision;
  const written = entry.acceptable ?? [];
  if (!written.some((name) => name.includes(">"))) {
    written.forEach((name, index) => {
      const owner = [...(registry.agents ?? [])].find(([, agent]) => agent.tools.includes(name));
      if (owner !== undefined)
        fail(
          yaml,
          [...where, "acceptable", index],
          `case "${entry.id}": "${name}" is agent ${owner[0]}'s own tool, offered only once the task is handed to it; write "${owner[0]} > ${name}"`,
        );
    });
    return null;
  }
  const paths: [string, string][] = [];
  let by: "agent" | "server" | null = null;
  written.forEach((name, index) => {
    const path = [...where, "acceptable", index];
    const split = splitPath(name);
    if (split === null)
      fail(
        yaml,
        path,
        `case "${entry.id}": acceptable[${index}] "${name}" is not a path; a hierarchical case writes every acceptable as "target > tool" (an agent or server, then a tool inside it)`,
      );
    const [target, tool] = split;
    const agent = registry.agents?.get(target);
    const server = registry.servers?.find((s) => s.name === target);
    const members = agent?.tools ?? server?.tools;
    if (members === undefined)
      fail(
        yaml,
        path,
        `case "${entry.id}": "${target}" is not an agent with tools or a server of registry ${registry.snapshot}; the target of "${name}" must be one (kind: agent or kind: server, with tools:)`,
      );
    if (!members.includes(tool))
      fail(
        yaml,
        path,
        `case "${entry.id}": "${tool}" is not one of ${agent === undefined ? "server" : "agent"} ${target}'s tools (${members.join(", ")})`,
      );
    const kind = agent === undefined ? "server" : "agent";
    if (by !== null && by !== kind)
      fail(
        yaml,
        path,
        `case "${entry.id}": acceptable mixes agents and servers as targets; a case's paths start from one kind`,
      );
    by = kind;
    paths.push([target, tool]);
  });
  if (entry.calls !== undefined || by === null) return null;
  return { by, paths };
}

function fail(yaml: YamlFile, path: JsonPath, message: string): never {
  throw new InputError(at(yaml.shown, yaml.lineOf(path), message));
}

function checkDisjoint(
  yaml: YamlFile,
  entry: CaseEntry,
  where: JsonPath,
  keys: [NameListKey, NameListKey],
): void {
  const [first, second] = keys;
  const firstNames = new Set(entry[first] ?? []);
  const position = (entry[second] ?? []).findIndex((name) => firstNames.has(name));
  if (position === -1) return;
  const name = (entry[second] ?? [])[position];
  fail(
    yaml,
    [...where, second, position],
    `case "${entry.id}": ${first} and ${second} both name "${name}"`,
  );
}

function checkPhase(yaml: YamlFile, entry: CaseEntry, where: JsonPath, phases: string[]): void {
  const phase = entry.phase;
  if (phase === undefined || phase === null || phases.includes(phase)) return;
  const known =
    phases.length > 0
      ? `known phases: ${[...phases].sort().join(", ")}`
      : "route-eval.yaml defines no phases; add it under phases:";
  fail(yaml, [...where, "phase"], `case "${entry.id}": unknown phase "${phase}" (${known})`);
}

/** `{pattern: "…"}` expectations must be regular expressions JavaScript can compile. */
function checkArgPatterns(yaml: YamlFile, entry: CaseEntry, where: JsonPath): void {
  for (const [tool, expectations] of Object.entries(entry.args ?? {}))
    checkPatterns(yaml, expectations, [...where, "args", tool]);
}

function regexProblem(pattern: string): string | null {
  return linearPatternProblem(pattern);
}

/**
 * Record where a decision's id is defined (a turn's at its conversation's id); a second definition
 * anywhere names both places. Returns where the decision is written.
 */
export function claimCaseId(
  yaml: YamlFile,
  id: string,
  where: JsonPath,
  seen: Map<string, CaseSource>,
  cwd: string,
): CaseSource {
  const source = { file: yaml.file, line: yaml.lineOf(where) };
  const idLine = yaml.lineOf([...where.slice(0, 2), "id"]);
  const first = seen.get(id);
  if (first !== undefined) {
    const where = `${showPath(first.file, cwd)}:${first.line}`;
    throw new InputError(
      at(yaml.shown, idLine, `duplicate case id "${id}" (also defined at ${where})`),
    );
  }
  // Mostly the id opens the case (`- id:`): one place for both.
  seen.set(id, idLine === source.line ? source : { file: yaml.file, line: idLine });
  return source;
}
