/** Checks of a run's inputs made before the first call: what would hide a family or a tool by a typo. */
import { findContradiction, findUnknownNames } from "../cases/unknown-names.js";
import { readYamlFile, showPath } from "../config/yaml-document.js";
import { InputError, at } from "../errors.js";
import { findNearName } from "../text/near-name.js";
import { findUnknownFamilies } from "../exposure/check-policies.js";
import { draft04Marker } from "../json-schema/dialects.js";
import {
  CONTROL_NAMES,
  SEARCH_TOOL,
  TODO,
  type Case,
  type Config,
  type Registry,
} from "../types.js";
import { providerOf } from "../types/providers.js";
import { countCases, findCase, registriesOf, type CaseList } from "../cases/case-list.js";

/**
 * Every family a phase in use admits should be carried by some tool of its cases' registries: a
 * likely typo is an error (it hides a family), another absent family a warning (returned).
 */
export function checkPhaseFamilies(config: Config, cases: Iterable<Case>): string[] {
  const problems = Object.keys(config.phases).flatMap((phase) => {
    const registries = new Set<Registry>();
    for (const c of cases) if (c.phase === phase) registries.add(c.registry);
    if (registries.size === 0) return [];
    const families = new Set(
      [...registries].flatMap((registry) => registry.tools.map((tool) => tool.family)),
    );
    return findUnknownFamilies({ [phase]: config.phases[phase] }, families);
  });
  if (problems.length === 0) return [];
  const yaml = config.file === null ? null : readYamlFile(config.file, config.cwd);
  const place = (p: (typeof problems)[number], message: string) =>
    at(
      yaml?.shown ?? "phases",
      yaml?.lineOf(["phases", p.phase, "families", p.index]) ?? null,
      message,
    );
  const typo = problems.find((p) => p.near !== null);
  if (typo !== undefined) throw new InputError(place(typo, typo.message));
  return problems.map((p) => place(p, `warning: ${p.message}`));
}

/**
 * A tool whose input_schema declares no $schema but only draft-04 reads it as written (a boolean
 * exclusiveMinimum): it is read as draft-04 rather than stopping the run, and each such tool is
 * named once, so the registry can say so.
 */
export function findDialectWarnings(cases: Iterable<Case>, cwd: string): string[] {
  return registriesOf(cases).flatMap((registry) =>
    registry.tools.flatMap((tool) => {
      const marker = tool.input_schema === undefined ? null : draft04Marker(tool.input_schema);
      if (marker === null) return [];
      const where = registry.file === "" ? registry.snapshot : showPath(registry.file, cwd);
      return [
        `${where}: warning: tool "${tool.name}": input_schema has no $schema but uses draft-04's ${marker.replace(/^(.*): (.*)$/, "$2 (at $1)")}; read as draft-04 — add $schema: http://json-schema.org/draft-04/schema# to say so`,
      ];
    }),
  );
}

/** Warnings about the cases: a name that looks like a typo of a registry tool, a self-contradicting acceptable list. */
export function findNameWarnings(cases: Iterable<Case>, cwd: string): string[] {
  const names = new Map<Case["registry"], Set<string>>();
  const knownIn = (registry: Case["registry"]) => {
    let known = names.get(registry);
    if (known === undefined)
      names.set(
        registry,
        (known = new Set([...CONTROL_NAMES, ...registry.tools.map((tool) => tool.name)])),
      );
    return known;
  };
  const warnings: string[] = [];
  for (const testCase of cases) {
    for (const unknown of findUnknownNames(
      testCase,
      knownIn(testCase.registry),
      testCase.registry.snapshot,
    ))
      if (unknown.near !== null)
        warnings.push(
          `${showPath(testCase.source.file, cwd)}:${testCase.source.line}: warning: ${unknown.message}`,
        );
    warnings.push(...contradiction(testCase, cwd));
  }
  return warnings;
}

function contradiction(testCase: Case, cwd: string): string[] {
  const message = findContradiction(testCase);
  return message === null
    ? []
    : [`${showPath(testCase.source.file, cwd)}:${testCase.source.line}: warning: ${message}`];
}

/**
 * The names a provider's own tool search takes in the request (Anthropic's server tools, OpenAI's
 * hosted tool_search): a registry tool of that name would be sent twice, and the provider refuses it.
 */
const PROVIDER_SEARCH_NAMES: Partial<Record<string, readonly string[]>> = {
  "anthropic-messages": ["tool_search_tool_bm25", "tool_search_tool_regex"],
  "openai-responses": ["tool_search"],
};

/** Anthropic's limit on the tools one request may defer (its tool-search docs, "Limits"). */
export const ANTHROPIC_MAX_DEFERRED = 10_000;

/** With tool search on, no registry tool may take the search function's name, nor the provider's own; always_loaded names what exists. */
export function checkToolSearchNames(config: Config, cases: Iterable<Case>): void {
  if (config.tool_search.mode === "off") return;
  const registries = registriesOf(cases);
  const wire = providerOf(config.endpoint)?.row.wire ?? "";
  const reserved = new Map([
    [SEARCH_TOOL, "the name of route-eval's search function under tool_search"],
    ...(config.tool_search.mode === "provider" ? (PROVIDER_SEARCH_NAMES[wire] ?? []) : []).map(
      (name) => [name, `a name ${config.endpoint}'s own tool search takes in the request`] as const,
    ),
  ]);
  for (const registry of registries) {
    const clash = registry.tools.find((tool) => reserved.has(tool.name));
    if (clash !== undefined)
      throw new InputError(
        `registry ${registry.snapshot} has a tool named ${clash.name}, ${reserved.get(clash.name)}; rename the tool, or set tool_search.mode: off`,
      );
    if (wire === "anthropic-messages" && registry.tools.length > ANTHROPIC_MAX_DEFERRED)
      throw new InputError(
        `registry ${registry.snapshot} has ${registry.tools.length.toLocaleString("en")} tools, and Anthropic's tool search defers at most ${ANTHROPIC_MAX_DEFERRED.toLocaleString("en")} in one request; narrow it with phases, or search it with an endpoint without that limit`,
      );
  }
  for (const entry of config.tool_search.always_loaded) {
    const family = entry.startsWith("family:") ? entry.slice("family:".length) : null;
    const known = registries.some((registry) =>
      registry.tools.some((tool) =>
        family === null ? tool.name === entry : tool.family === family,
      ),
    );
    if (known) continue;
    const names = new Set(
      registries.flatMap((registry) =>
        registry.tools.map((tool) => (family === null ? tool.name : tool.family)),
      ),
    );
    const near = findNearName(family ?? entry, names);
    const hint =
      near === null ? "" : ` (did you mean "${family === null ? near : `family:${near}`}"?)`;
    throw new InputError(
      `tool_search.always_loaded: "${entry}" names no ${family === null ? "tool" : "family"} of the cases' registries${hint}; write a tool name, or family:NAME`,
    );
  }
}

/**
 * A case asked in steps (max_steps above 1) needs each step's reply before the next request can
 * be written: a batch cannot hold it, and tool search's own loop of searches would be a second
 * loop inside the first (not supported yet). Refused before any call, naming the first such case.
 */
export function checkSteps(
  config: Config,
  cases: Iterable<Case>,
  answering: "endpoint" | "batch" | "replies",
): void {
  const resumed = findCase(cases, (c) => c.prior_steps !== undefined);
  if (resumed !== undefined && config.tool_search.mode !== "off") {
    const where = at(
      showPath(resumed.source.file, config.cwd),
      resumed.source.line,
      `case "${resumed.id}"`,
    );
    throw new InputError(
      `${where} has prior_steps (a decision taken after earlier steps), and tool_search is on: a search exchange after those steps is not supported yet; set tool_search.mode: off for these cases`,
    );
  }
  checkHandoffs(config, cases, answering);
  const stepped = findCase(cases, (c) => (c.max_steps ?? 1) > 1);
  if (stepped === undefined) return;
  const where = at(
    showPath(stepped.source.file, config.cwd),
    stepped.source.line,
    `case "${stepped.id}"`,
  );
  if (answering === "batch")
    throw new InputError(
      `${where} has max_steps: ${stepped.max_steps}: each step's request needs the reply before it, which a batch cannot give; run it with route-eval run (or set max_steps: 1)`,
    );
  if (config.tool_search.mode !== "off")
    throw new InputError(
      `${where} has max_steps: ${stepped.max_steps}, and tool_search is on: a decision in steps with searches is not supported yet; set tool_search.mode: off for these cases, or max_steps: 1`,
    );
}

/**
 * A hierarchical case whose targets are agents (docs/targets.md) asks the agent chosen once its
 * reply is in: a batch cannot hold that, and tool search's loop does not ask it (the inside would
 * go unasked, and read as a failure). Refused before any call. (A path never has max_steps: that
 * needs calls:, which a path is not.)
 */
function checkHandoffs(
  config: Config,
  cases: Iterable<Case>,
  answering: "endpoint" | "batch" | "replies",
): void {
  const handed = findCase(cases, (c) => c.hierarchy?.by === "agent");
  if (handed === undefined) return;
  const why =
    answering === "batch"
      ? "a batch cannot hold the agent's request, which needs the reply before it; run it with route-eval run"
      : config.tool_search.mode !== "off"
        ? "tool_search is on, and a search loop does not hand the task on yet; set tool_search.mode: off for these cases"
        : null;
  if (why === null) return;
  const where = at(
    showPath(handed.source.file, config.cwd),
    handed.source.line,
    `case "${handed.id}"`,
  );
  throw new InputError(
    `${where} names agent > tool paths (the agent chosen is asked again with its own tools), but ${why}`,
  );
}

/**
 * Cases whose goal is still init's TODO placeholder are not scored: a run of them is refused in
 * one line saying how many and where the first is (lint lists every one, as case-todo-goal).
 */
export function checkTodoGoals(cases: CaseList, cwd: string): void {
  const unwritten = findCase(cases, (c) => c.todo !== undefined);
  if (unwritten !== undefined) {
    const where = at(
      showPath(unwritten.source.file, cwd),
      unwritten.source.line,
      `case "${unwritten.id}"`,
    );
    throw new InputError(
      `${where} is not written yet: ${unwritten.todo}; write its acceptable tools and remove todo: (route-eval lint lists every case left)`,
    );
  }
  const isTodo = (c: Case) => c.goal.trimStart().startsWith(TODO);
  const first = findCase(cases, isTodo);
  if (first === undefined) return;
  const where = at(showPath(first.source.file, cwd), first.source.line, `case "${first.id}"`);
  throw new InputError(
    `${countCases(cases, isTodo)} of ${cases.length} cases still have a TODO goal as route-eval init wrote them (the first: ${where}); write each as a real request — route-eval lint lists them all`,
  );
}
