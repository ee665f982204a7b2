/**
 * `route-eval init`'s files, from a registry's tools: route-eval.yaml with phases proposed from
 * the tools' effects, the registry snapshot, and starter cases with TODO goals in near pairs —
 * the seed's regression families: for each rival pair an exact-identifier and a free-text case;
 * for each write tool a read-vs-write pair and a missing-information (ask_user) case; one
 * no_applicable_tool case. A TODO goal is a lint error, so the scaffold cannot pass for real cases.
 */
import { stringifyInert } from "../render/inert-yaml.js";
import type { RegistryFile, ToolEntry } from "../config/file-types.js";
import { findRivals } from "../lint/find-rivals.js";
import { EFFECTS, TODO, type Tool } from "../types.js";

const MAX_PAIRS = 5;
const MAX_WRITES = 5;
const MAX_TARGETS = 10;

export interface Scaffold {
  config: string;
  registry: string;
  cases: string;
  /** Counts, for the summary line. */
  counts: { tools: number; cases: number; phases: number };
}

export interface ScaffoldOptions {
  name: string;
  /** `$schema` base as seen from the project directory, e.g. ./node_modules/route-eval/schemas. */
  schemas: string;
  /** What produced the registry, for its header. */
  header: string;
}

interface StarterCase {
  id: string;
  goal: string;
  acceptable: string[];
  forbidden?: string[];
  family?: string;
}

function toTool(entry: ToolEntry): Tool {
  return { use_when: [], avoid_when: [], idempotent: false, open_world: true, ...entry } as Tool;
}

function isWrite(tool: Tool): boolean {
  return EFFECTS.indexOf(tool.effect) >= EFFECTS.indexOf("mutating");
}

export function buildScaffold(registry: RegistryFile, options: ScaffoldOptions): Scaffold {
  // A server entry groups tools (docs/targets.md): its tools are what the cases and phases are about.
  const tools = registry.tools.filter((entry) => entry.kind !== "server").map(toTool);
  const cases = starterCases(tools);
  const phases = proposePhases(tools);
  const config = [
    `# yaml-language-server: $schema=${options.schemas}/config.schema.json`,
    "#",
    "# route-eval configuration, written by `route-eval init`. Every key has a command-line flag;",
    "# relative paths resolve against this file. Fill in the TODO goals in cases/, then:",
    "#   npx route-eval lint && npx route-eval run",
    "",
    stringifyInert(
      {
        cases: ["cases/*.yaml"],
        ...(Object.keys(phases).length === 0 ? {} : { phases }),
        controls: ["ask_user", "wait_for_event", "no_applicable_tool"],
        endpoint: "baseline",
        trials: 3,
      },
      { lineWidth: 0 },
    ).trimEnd(),
    "",
    "# Gates make a run a CI check (exit 1 when one fails). None is set yet: a floor chosen before",
    "# the first run fails, or passes, for no reason. Once a run shows where the routing stands,",
    "# set each a little under today's figure, e.g.:",
    "# gates:",
    '#   selection_accuracy: ">= 0.8"',
    '#   violation_rate: "<= 0.05"',
    "# Or gate on change instead: save a baseline (route-eval run --save-baseline main) and diff",
    "# each later run against it (route-eval diff reports/baselines/main RUN --max-drop 0.02).",
    "",
    "# The phases above were proposed from the tools' effects: review which families each admits.",
    "# endpoint: openai:gpt-4.1-mini          # then a real model (needs OPENAI_API_KEY)",
    "",
  ].join("\n");
  const casesText = [
    `# yaml-language-server: $schema=${fromSubfolder(options.schemas)}/cases.schema.json`,
    "#",
    "# Starter cases in near pairs, written by `route-eval init`. Each goal says what to write;",
    "# replace every TODO with a real request (route-eval lint reports the ones left).",
    "",
    stringifyInert(
      { registry: `../registries/${options.name}.yaml`, cases },
      { lineWidth: 0 },
    ).trimEnd(),
    "",
  ].join("\n");
  const registryText = [
    `# yaml-language-server: $schema=${fromSubfolder(options.schemas)}/registry.schema.json`,
    options.header,
    "",
    stringifyInert(registry),
  ].join("\n");
  return {
    config,
    registry: registryText,
    cases: casesText,
    counts: { tools: tools.length, cases: cases.length, phases: Object.keys(phases).length },
  };
}

/**
 * A look-up phase (read-only tools) and an acting phase, when the tools have both. The acting
 * phase admits up to the highest effect its tools declare — imported MCP tools are destructive
 * until reviewed, and a `mutating` ceiling would admit none of them.
 */
function proposePhases(tools: Tool[]): Record<string, { max_effect: string; families?: string[] }> {
  const phases: Record<string, { max_effect: string; families?: string[] }> = {};
  const families = (list: Tool[]) => [...new Set(list.map((t) => t.family))].sort();
  const reads = tools.filter((t) => !isWrite(t));
  const writes = tools.filter(isWrite);
  if (reads.length > 0 && writes.length > 0)
    phases.lookup = { families: families(reads), max_effect: "read_only" };
  if (writes.length > 0) {
    const highest = Math.max(...writes.map((t) => EFFECTS.indexOf(t.effect)));
    phases.act = { max_effect: EFFECTS[highest] };
  }
  return phases;
}

function starterCases(tools: Tool[]): StarterCase[] {
  const cases: StarterCase[] = [];
  const ids = new Set<string>();
  const add = (c: StarterCase) => {
    let id = c.id;
    for (let n = 2; ids.has(id); n++) id = `${c.id}-${n}`;
    ids.add(id);
    cases.push({ ...c, id });
  };
  for (const pair of findRivals(tools).slice(0, MAX_PAIRS)) {
    const family = `${pair.a.name}-or-${pair.b.name}`;
    // Two skills (or agents) that compete: one request each way, worded near the other's ground.
    if (pair.a.kind !== undefined && pair.b.kind !== undefined) {
      for (const [right, other] of [
        [pair.a, pair.b],
        [pair.b, pair.a],
      ])
        add({
          id: `${right.name}-not-${other.name}`,
          goal: `${TODO} a request only ${right.name} serves, worded close to what ${other.name} does`,
          acceptable: [right.name],
          family,
        });
      continue;
    }
    add({
      id: `${pair.a.name}-exact`,
      goal: `${TODO} a request that gives the exact identifier ${pair.a.name} needs, so it (not ${pair.b.name}) is the right call`,
      acceptable: [pair.a.name],
      family,
    });
    add({
      id: `${pair.b.name}-free-text`,
      goal: `${TODO} a request in free text, without that identifier, that only ${pair.b.name} serves`,
      acceptable: [pair.b.name],
      family,
    });
  }
  // A skill or agent is a trigger to test: one request that should choose it (the near pairs above are its misses).
  for (const target of tools.filter((t) => t.kind !== undefined).slice(0, MAX_TARGETS))
    add({
      id: `${target.name}-triggers`,
      goal: `${TODO} a request that should ${target.kind === "skill" ? "load" : "be handed to"} ${target.name}`,
      acceptable: [target.name],
    });
  for (const write of tools.filter(isWrite).slice(0, MAX_WRITES)) {
    const family = `${write.name}-read-or-write`;
    const read = tools.find((t) => t.family === write.family && !isWrite(t));
    if (read !== undefined) {
      add({
        id: `${read.name}-not-${write.name}`,
        goal: `${TODO} a question about the same thing that only asks to look (${read.name}), and must not ${write.name}`,
        acceptable: [read.name],
        forbidden: [write.name],
        family,
      });
    }
    add({
      id: `${write.name}-complete`,
      goal: `${TODO} a request to ${write.name} with every detail it needs`,
      acceptable: [write.name],
      family,
    });
    add({
      id: `${write.name}-missing-info`,
      goal: `${TODO} a request to ${write.name} that leaves out a detail it needs (the agent should ask)`,
      acceptable: ["ask_user"],
      forbidden: [write.name],
      family,
    });
  }
  add({
    id: "out-of-scope",
    goal: `${TODO} a request none of these tools can serve`,
    acceptable: ["no_applicable_tool"],
  });
  return cases;
}

/** A small registry to start from when no tools are given (route-eval init without --from-*). */
export function exampleRegistry(): RegistryFile {
  const idSchema = (property: string) => ({
    type: "object",
    properties: { [property]: { type: "string" } },
    required: [property],
    additionalProperties: false,
  });
  const withKey = (property: string) => ({
    ...idSchema(property),
    properties: { [property]: { type: "string" }, idempotency_key: { type: "string" } },
  });
  return {
    snapshot: "example",
    revision: "1",
    source:
      'route-eval init (example: replace with your tools, e.g. route-eval import mcp --command "…")',
    tools: [
      {
        name: "get_order",
        family: "orders",
        effect: "read_only",
        purpose: "Look up one order by its exact id.",
        use_when: ["The request gives an order id such as ord_1042."],
        avoid_when: ["Only a description of the order is known; use search_orders."],
        input_schema: idSchema("order_id"),
      },
      {
        name: "search_orders",
        family: "orders",
        effect: "read_only",
        purpose: "Find orders from a free-text description.",
        use_when: ["The request describes an order without its id."],
        avoid_when: ["The request gives an order id; use get_order."],
        input_schema: idSchema("query"),
      },
      {
        name: "refund_order",
        family: "orders",
        effect: "mutating",
        purpose: "Refund an order in full.",
        use_when: ["The customer asks for their money back on a known order."],
        avoid_when: ["The order id is not known; ask for it."],
        input_schema: withKey("order_id"),
      },
      {
        name: "send_email",
        family: "messaging",
        effect: "mutating",
        open_world: true,
        purpose: "Email the customer.",
        use_when: ["The customer should get a written message."],
        avoid_when: ["The request is a question about an order; use get_order or search_orders."],
        input_schema: withKey("body"),
      },
    ],
  };
}

/**
 * The schemas folder as seen from cases/ or registries/: a relative `$schema` resolves from the
 * YAML file's own folder, one below the project's.
 */
function fromSubfolder(schemas: string): string {
  if (schemas.startsWith("/")) return schemas;
  return `../${schemas.replace(/^\.\//, "")}`;
}
