/**
 * Routing targets (docs/targets.md) through the real pipeline: sub-agents offered as handoff
 * functions and skills offered through one Skill tool, asked through the real OpenAI SDK against a
 * local Chat Completions server whose every reply the test decides. Each record's choice, level
 * and stage is checked against a table derived by hand; the requests against what the framework
 * would send; a second run against the store, with no request made. Offline, with the baseline:
 * a diff between two revisions of one skill's description names the cases that moved.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "./support/cli.js";
import {
  anthropicReply,
  openaiReply,
  useFakeServers,
  type ReceivedRequest,
} from "./fixtures/fake-provider.js";
import { removeTempDirs } from "./fixtures/live-project.js";
import { schemaErrors } from "./support/schemas.js";

afterAll(removeTempDirs);
const fake = useFakeServers();
const ENV = {
  OPENAI_API_KEY: "sk-test-targets-0123456789",
  ANTHROPIC_API_KEY: "sk-ant-test-targets-0123456789",
};
const EXAMPLE = fileURLToPath(new URL("../examples/targets", import.meta.url));

type Row = Record<string, any>;

const orderSchema = {
  type: "object",
  properties: { order_id: { type: "string" } },
  required: ["order_id"],
  additionalProperties: false,
};

const AGENTS = {
  snapshot: "support",
  revision: "1",
  tools: [
    {
      name: "billing_agent",
      kind: "agent",
      purpose: "Refunds and invoices.",
      instructions: "You are the billing agent.",
      tools: ["refund_order", "get_invoice"],
    },
    {
      name: "shipping_agent",
      kind: "agent",
      purpose: "Parcels and deliveries.",
      tools: ["track_shipment"],
    },
    {
      name: "refund_order",
      family: "billing",
      purpose: "Refund an order.",
      effect: "mutating",
      input_schema: orderSchema,
    },
    {
      name: "get_invoice",
      family: "billing",
      purpose: "An order's invoice.",
      effect: "read_only",
      input_schema: orderSchema,
    },
    {
      name: "track_shipment",
      family: "shipping",
      purpose: "Track a parcel.",
      effect: "read_only",
      input_schema: orderSchema,
    },
  ],
};

const AGENT_CASES = [
  {
    id: "refund",
    goal: "Refund order ord_1 please.",
    acceptable: ["billing_agent > refund_order"],
  },
  {
    id: "invoice",
    goal: "Send me the invoice of ord_2.",
    acceptable: ["billing_agent > get_invoice"],
  },
  {
    id: "track",
    goal: "Where is the parcel of ord_3?",
    acceptable: ["shipping_agent > track_shipment"],
  },
];

/** What the scripted model does, by goal: the agent it hands the task to, then the tool it uses there. */
const SCRIPT: Record<string, { agent: string; tool: string }> = {
  "Refund order ord_1 please.": { agent: "billing_agent", tool: "refund_order" },
  "Send me the invoice of ord_2.": { agent: "billing_agent", tool: "refund_order" },
  "Where is the parcel of ord_3?": { agent: "billing_agent", tool: "get_invoice" },
};

function writeTargetProject(registry: object, cases: object[]): string {
  const dir = tempDir("route-eval-targets-");
  writeFileSync(join(dir, "registry.yaml"), JSON.stringify(registry, null, 2));
  writeFileSync(
    join(dir, "cases.yaml"),
    JSON.stringify({ registry: "registry.yaml", cases }, null, 2),
  );
  writeFileSync(
    join(dir, "route-eval.yaml"),
    JSON.stringify({
      cases: ["cases.yaml"],
      controls: ["no_applicable_tool"],
      trials: 1,
      out_dir: "reports",
      store_dir: ".route-eval/store",
    }),
  );
  return dir;
}

/** The last user message: Chat Completions' string, or the text of Anthropic's content blocks. */
const goalOf = (request: ReceivedRequest): string => {
  const messages = request.body.messages as Row[];
  const content = messages.filter((m) => m.role === "user").at(-1)?.content;
  return typeof content === "string" ? content : content[0].text;
};

/** A local Anthropic Messages server whose model loads, for each goal, the skill `picks` names (a Skill call). */
const skillServer = (picks: Record<string, string>) =>
  fake.start((request) =>
    anthropicReply([{ name: "Skill", input: { skill: picks[goalOf(request)] } }]),
  );
const systemOf = (request: ReceivedRequest): string =>
  (request.body.messages as Row[]).find((m) => m.role === "system")?.content;
const toolNames = (request: ReceivedRequest): string[] =>
  ((request.body.tools as Row[]) ?? []).map((t) => t.function.name);

const records = (dir: string, run: string): Row[] =>
  readFileSync(join(dir, "reports", run, "records.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));

const live = (url: string, run: string) => [
  "run",
  "-e",
  "openai:test-model",
  "--base-url",
  `${url}/v1`,
  "--run-id",
  run,
  "--no-progress",
  "--no-gates",
];

describe("sub-agents offered as handoff functions (dispatch: functions)", () => {
  it("asks the agent chosen with its own tools, tells a wrong agent from a wrong tool inside, and replays from the store", async () => {
    const dir = writeTargetProject(AGENTS, AGENT_CASES);
    const server = await fake.start((request) => {
      const planned = SCRIPT[goalOf(request)];
      const handed = systemOf(request) === "You are the billing agent.";
      return openaiReply([{ name: handed ? planned.tool : planned.agent, arguments: "{}" }]);
    });
    const run = await runCli(live(server.url, "first"), { cwd: dir, env: ENV });
    expect(run.stderr).not.toMatch(/warning|error/i);
    expect(run.code).toBe(0);

    // The orchestrator is offered the agents (their own tools are not), the billing agent its own two.
    const top = server.requests.filter((r) => systemOf(r) !== "You are the billing agent.");
    const inside = server.requests.filter((r) => systemOf(r) === "You are the billing agent.");
    expect(top.map(toolNames)).toEqual(
      Array(3).fill(["billing_agent", "shipping_agent", "no_applicable_tool"]),
    );
    // Asked inside only where the agent chosen was right (refund, invoice): a wrong agent fails at the target.
    expect(inside.map(goalOf).sort()).toEqual([
      "Refund order ord_1 please.",
      "Send me the invoice of ord_2.",
    ]);
    expect(inside.map(toolNames)).toEqual(Array(2).fill(["refund_order", "get_invoice"]));

    const byCase = new Map(records(dir, "first").map((r) => [r.case_id, r]));
    const derived = (id: string) => {
      const r = byCase.get(id) as Row;
      return [
        r.selected,
        r.hierarchy.target,
        r.hierarchy.inside,
        r.hierarchy.level,
        r.failed_stage,
        r.selection_error,
      ];
    };
    expect(derived("refund")).toEqual([
      "billing_agent",
      "billing_agent",
      "refund_order",
      null,
      null,
      null,
    ]);
    expect(derived("invoice")).toEqual([
      "billing_agent",
      "billing_agent",
      "refund_order",
      "inside",
      "selection",
      "wrong_tool",
    ]);
    expect(derived("track")).toEqual([
      "billing_agent",
      "billing_agent",
      null,
      "target",
      "selection",
      "wrong_tool",
    ]);

    const report = await runCli(["report", "reports/first", "--format", "json"], { cwd: dir });
    expect(schemaErrors("report.schema.json", JSON.parse(report.stdout))).toBeNull();
    for (const r of records(dir, "first")) expect(schemaErrors("record.schema.json", r)).toBeNull();
    const markdown = await runCli(["report", "reports/first", "--format", "markdown"], {
      cwd: dir,
    });
    await runCli(["report", "reports/first", "--format", "html"], { cwd: dir });
    const html = readFileSync(join(dir, "reports", "first", "report.html"), "utf8");
    for (const shown of [markdown.stdout, html]) {
      expect(shown).toContain("Routing targets");
      expect(shown).toContain("wrong tool inside");
    }
    const h = JSON.parse(report.stdout).metrics.hierarchy;
    expect([h.decisions, h.wrong_target.numerator, h.wrong_inside.numerator]).toEqual([3, 1, 1]);
    expect([
      h.right_inside_given_target.numerator,
      h.right_inside_given_target.denominator,
    ]).toEqual([1, 2]);

    const asked = server.requests.length;
    expect(asked).toBe(5);
    const again = await runCli(live(server.url, "second"), { cwd: dir, env: ENV });
    expect(again.code).toBe(0);
    expect(server.requests.length).toBe(asked);
    const hierarchies = (run: string) =>
      records(dir, run)
        .sort((a, b) => a.case_id.localeCompare(b.case_id))
        .map((r) => r.hierarchy);
    expect(hierarchies("second")).toEqual(hierarchies("first"));
  });
});

describe("a conversation whose turns hand the task to agents", () => {
  it("gives later turns the handoff as the gold history, and scores each turn's level", async () => {
    const dir = writeTargetProject(AGENTS, [
      {
        id: "conv",
        turns: [
          { user: "Refund order ord_1 please.", acceptable: ["billing_agent > refund_order"] },
          {
            user: "Where is the parcel of ord_3?",
            acceptable: ["shipping_agent > track_shipment"],
          },
        ],
      },
    ]);
    const server = await fake.start((request) => {
      const planned = SCRIPT[goalOf(request)];
      const handed = systemOf(request) === "You are the billing agent.";
      return openaiReply([{ name: handed ? planned.tool : planned.agent, arguments: "{}" }]);
    });
    const run = await runCli(live(server.url, "conv"), { cwd: dir, env: ENV });
    expect(run.code).toBe(0);
    const second = server.requests.find((r) => goalOf(r) === "Where is the parcel of ord_3?");
    const history = (second?.body.messages as Row[]).filter((m) => m.role !== "system");
    expect(history.map((m) => [m.role, m.tool_calls?.[0]?.function?.name ?? m.content])).toEqual([
      ["user", "Refund order ord_1 please."],
      ["assistant", "billing_agent"],
      ["tool", '{"ok":true}'],
      ["user", "Where is the parcel of ord_3?"],
    ]);
    const levels = records(dir, "conv")
      .sort((a, b) => a.case_id.localeCompare(b.case_id))
      .map((r) => [r.case_id, r.hierarchy.level]);
    expect(levels).toEqual([
      ["conv@1", null],
      ["conv@2", "target"],
    ]);
  });
});

const SKILLS = {
  snapshot: "skills",
  revision: "1",
  dispatch: "tool",
  tools: [
    { name: "pdf-forms", kind: "skill", purpose: "Fill in PDF forms." },
    {
      name: "sales-report",
      kind: "skill",
      purpose: "Build sales reports from spreadsheets.",
      use_when: ["Totals or charts by month."],
    },
    { name: "refund-policy", kind: "skill", purpose: "The refund policy." },
    {
      name: "get_order",
      family: "orders",
      purpose: "Look up an order.",
      effect: "read_only",
      input_schema: orderSchema,
    },
  ],
};

describe("skills offered through one Skill tool (dispatch: tool)", () => {
  it("folds the skills into the Skill tool's enum and listing, and reads the skill its call names", async () => {
    const dir = writeTargetProject(SKILLS, [
      { id: "form", goal: "Fill in the VAT form.", acceptable: ["pdf-forms"] },
      { id: "chart", goal: "Chart sales by month.", acceptable: ["sales-report"] },
      { id: "policy", goal: "Can I return this?", acceptable: ["refund-policy"] },
      { id: "order", goal: "Where is ord_9?", acceptable: ["get_order"] },
    ]);
    const replies: Record<string, object> = {
      "Fill in the VAT form.": { name: "Skill", arguments: '{"skill":"pdf-forms"}' },
      "Chart sales by month.": { name: "Skill", arguments: '{"skill":"refund-policy"}' },
      "Can I return this?": { name: "Skill", arguments: '{"skill":"returns-faq"}' },
      "Where is ord_9?": { name: "get_order", arguments: '{"order_id":"ord_9"}' },
    };
    const server = await fake.start((request) => openaiReply([replies[goalOf(request)] as any]));
    const run = await runCli(live(server.url, "skills"), { cwd: dir, env: ENV });
    expect(run.stderr).not.toMatch(/warning|error/i);

    const tools = server.requests[0].body.tools as Row[];
    expect(tools.map((t) => t.function.name)).toEqual(["Skill", "get_order", "no_applicable_tool"]);
    const skill = tools[0].function;
    expect(skill.parameters).toEqual({
      type: "object",
      properties: {
        skill: {
          type: "string",
          enum: ["pdf-forms", "sales-report", "refund-policy"],
          description: "The skill to load, by name.",
        },
      },
      required: ["skill"],
      additionalProperties: false,
    });
    expect(skill.description.split("\n")).toEqual([
      "Load a skill: its instructions and resources for the task at hand.",
      "",
      "Available skills:",
      "- pdf-forms: Fill in PDF forms.",
      "- sales-report: Build sales reports from spreadsheets. Use when: Totals or charts by month.",
      "- refund-policy: The refund policy.",
    ]);

    const rows = records(dir, "skills").map((r) => [
      r.case_id,
      r.selected,
      r.failed_stage,
      r.selection_error,
    ]);
    expect(rows).toEqual([
      ["form", "pdf-forms", null, null],
      ["chart", "refund-policy", "selection", "wrong_tool"],
      ["policy", "returns-faq", "selection", "phantom_tool"],
      ["order", "get_order", null, null],
    ]);
  });
});

describe("a case's own dispatch:", () => {
  it("offers the skills as functions in a case that says so, through the Skill tool in the others", async () => {
    const dir = writeTargetProject(SKILLS, [
      { id: "folded", goal: "Fill in the VAT form.", acceptable: ["pdf-forms"] },
      {
        id: "as-functions",
        goal: "Chart sales by month.",
        acceptable: ["sales-report"],
        dispatch: "functions",
      },
    ]);
    const server = await fake.start((request) =>
      openaiReply([
        toolNames(request).includes("Skill")
          ? { name: "Skill", arguments: '{"skill":"pdf-forms"}' }
          : { name: "sales-report", arguments: "{}" },
      ]),
    );
    const run = await runCli(live(server.url, "own"), { cwd: dir, env: ENV });
    expect(run.code).toBe(0);
    const offered = new Map(server.requests.map((r) => [goalOf(r), toolNames(r)]));
    expect(offered.get("Fill in the VAT form.")).toEqual([
      "Skill",
      "get_order",
      "no_applicable_tool",
    ]);
    expect(offered.get("Chart sales by month.")).toEqual([
      "pdf-forms",
      "sales-report",
      "refund-policy",
      "get_order",
      "no_applicable_tool",
    ]);
    expect(records(dir, "own").map((r) => [r.case_id, r.selected, r.failed_stage])).toEqual([
      ["folded", "pdf-forms", null],
      ["as-functions", "sales-report", null],
    ]);
  });
});

describe("skills through the Anthropic SDK (Messages tool use)", () => {
  it("offers the Skill tool in Anthropic's tool form and reads the skill from the tool_use input", async () => {
    const dir = writeTargetProject(SKILLS, [
      { id: "form", goal: "Fill in the VAT form.", acceptable: ["pdf-forms"] },
      { id: "chart", goal: "Chart sales by month.", acceptable: ["sales-report"] },
    ]);
    const picks: Record<string, string> = {
      "Fill in the VAT form.": "pdf-forms",
      "Chart sales by month.": "pdf-forms",
    };
    const server = await skillServer(picks);
    const run = await runCli(
      [
        "run",
        "-e",
        "anthropic:test-model",
        "--base-url",
        server.url,
        "--run-id",
        "a",
        "--no-progress",
        "--no-gates",
      ],
      { cwd: dir, env: ENV },
    );
    expect(run.stderr).not.toMatch(/warning|error/i);
    const tools = server.requests[0].body.tools as Row[];
    expect(tools.map((t) => t.name)).toEqual(["Skill", "get_order", "no_applicable_tool"]);
    expect(tools[0].input_schema.properties.skill.enum).toEqual([
      "pdf-forms",
      "sales-report",
      "refund-policy",
    ]);
    expect(records(dir, "a").map((r) => [r.case_id, r.selected, r.failed_stage])).toEqual([
      ["form", "pdf-forms", null],
      ["chart", "pdf-forms", "selection"],
    ]);
  });
});

describe("tools grouped by server (server > tool)", () => {
  it("scores a tool of another server at the target, a wrong tool of the right server inside it", async () => {
    const dir = writeTargetProject(
      {
        snapshot: "servers",
        revision: "1",
        tools: [
          {
            name: "github",
            kind: "server",
            purpose: "GitHub.",
            tools: ["create_issue", "search_issues"],
          },
          { name: "jira", kind: "server", purpose: "Jira.", tools: ["create_ticket"] },
          {
            name: "create_issue",
            family: "github",
            purpose: "Open a GitHub issue.",
            effect: "mutating",
          },
          {
            name: "search_issues",
            family: "github",
            purpose: "Search GitHub issues.",
            effect: "read_only",
          },
          {
            name: "create_ticket",
            family: "jira",
            purpose: "Open a Jira ticket.",
            effect: "mutating",
          },
        ],
      },
      [
        { id: "right", goal: "File a bug: login fails.", acceptable: ["github > create_issue"] },
        {
          id: "other-server",
          goal: "File a bug: logout fails.",
          acceptable: ["github > create_issue"],
        },
        {
          id: "same-server",
          goal: "File a bug: signup fails.",
          acceptable: ["github > create_issue"],
        },
      ],
    );
    const picks: Record<string, string> = {
      "File a bug: login fails.": "create_issue",
      "File a bug: logout fails.": "create_ticket",
      "File a bug: signup fails.": "search_issues",
    };
    const server = await fake.start((request) =>
      openaiReply([{ name: picks[goalOf(request)], arguments: "{}" }]),
    );
    const run = await runCli(live(server.url, "servers"), { cwd: dir, env: ENV });
    expect(run.code).toBe(0);
    // The servers are not offered: their tools are, as functions.
    expect(toolNames(server.requests[0])).toEqual([
      "create_issue",
      "search_issues",
      "create_ticket",
      "no_applicable_tool",
    ]);
    const rows = records(dir, "servers")
      .sort((a, b) => a.case_id.localeCompare(b.case_id))
      .map((r) => [r.case_id, r.selected, r.hierarchy.target, r.hierarchy.level, r.failed_stage]);
    expect(rows).toEqual([
      ["other-server", "create_ticket", "jira", "target", "selection"],
      ["right", "create_issue", "github", null, null],
      ["same-server", "search_issues", "github", "inside", "selection"],
    ]);
  });
});

describe("the bundled example (examples/targets), offline with the baseline", () => {
  it("routes through the Skill tool's listing, and a diff between two revisions of a skill's description names the cases it moved", async () => {
    const dir = tempDir("route-eval-targets-example-");
    cpSync(EXAMPLE, dir, { recursive: true });
    const config = join(dir, "route-eval.yaml");
    writeFileSync(
      config,
      readFileSync(config, "utf8").replace("out_dir: ../../reports", "out_dir: reports"),
    );
    const base = await runCli(["run", "--run-id", "base", "--no-progress"], { cwd: dir });
    expect(base.code).toBe(0);
    const before = new Map(records(dir, "base").map((r) => [r.case_id, r.selected]));
    expect(before.get("fill-vat-form")).toBe("invoice-pdf");

    // Revision 2 of one skill: pdf-tools says it fills forms (the VAT form among them).
    const skills = join(dir, "skills.yaml");
    writeFileSync(
      skills,
      readFileSync(skills, "utf8")
        .replace('revision: "1"', 'revision: "2"')
        .replace(
          "purpose: Merge, split, rotate and fill PDF files and forms.",
          "purpose: Merge, split, rotate and fill PDF files and forms.\n    use_when: [Fill in a form PDF, such as a VAT or tax form.]",
        ),
    );
    const current = await runCli(["run", "--run-id", "current", "--no-progress"], { cwd: dir });
    expect(current.code).toBe(0);
    const diff = await runCli(["diff", "reports/base", "reports/current", "--format", "json"], {
      cwd: dir,
    });
    const report = JSON.parse(diff.stdout);
    const moved = report.flips.filter((f: Row) => f.kind === "fixed" || f.kind === "regressed");
    expect(moved.map((f: Row) => [f.case_id, f.kind])).toEqual([["fill-vat-form", "fixed"]]);
    expect(report.definitions.changes.map((c: Row) => [c.tool, c.change])).toEqual([
      ["pdf-tools", "changed"],
    ]);
    expect(report.verdict).toBe("pass");
  });
});

describe("a registry's targets are checked where they are written", () => {
  it.each([
    [
      { name: "x", kind: "skill", purpose: "X.", tools: ["get_order"] },
      /registry\.yaml:\d+: tools\[1\]\.tools: skill "x" lists tools; only an agent \(its own tools\) or a server \(the tools it groups\) has them/,
    ],
    [
      { name: "a", kind: "agent", purpose: "A.", tools: ["nope"] },
      /registry\.yaml:\d+: tools\[1\]\.tools\[0\]: "nope" is not an entry of this snapshot/,
    ],
    [
      { name: "Skill", family: "f", purpose: "A tool named like the dispatcher.", effect: "none" },
      /registry\.yaml:\d+: tools\[1\]\.name: the skill dispatcher tool "Skill" has the name of an entry or control/,
    ],
  ])("refuses %j with the line and what to do", async (entry, message) => {
    const dir = writeTargetProject(
      { ...SKILLS, tools: [SKILLS.tools[0], entry, SKILLS.tools[3]] },
      [{ id: "c", goal: "g", acceptable: ["get_order"] }],
    );
    const run = await runCli(["run", "--no-progress"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it("refuses agent paths where the agent could not be asked again (tool search)", async () => {
    const dir = writeTargetProject(AGENTS, AGENT_CASES);
    const search = await runCli(["run", "--tool-search", "client", "--no-progress"], { cwd: dir });
    expect(search.code).toBe(2);
    expect(search.stderr).toMatch(
      /cases\.yaml:\d+: case "refund" names agent > tool paths \(the agent chosen is asked again with its own tools\), but tool_search is on/,
    );
  });

  it("refuses a path whose target is not an agent or server, or whose tool is not inside it", async () => {
    for (const [acceptable, message] of [
      [
        "get_invoice > refund_order",
        /"get_invoice" is not an agent with tools or a server of registry support/,
      ],
      [
        "shipping_agent > refund_order",
        /"refund_order" is not one of agent shipping_agent's tools \(track_shipment\)/,
      ],
      [
        "billing_agent > refund_order, x",
        /is not a path; a hierarchical case writes every acceptable as "target > tool"/,
      ],
    ] as const) {
      const dir = writeTargetProject(AGENTS, [
        { id: "c", goal: "g", acceptable: acceptable.split(", ") },
      ]);
      const run = await runCli(["run", "--no-progress"], { cwd: dir });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });
});

/**
 * Production traffic of an agent offering a Skill tool (its listing and enum), as Claude Code
 * does: the real Anthropic SDK against a local server, each request and reply as sent and
 * received, logged as a pair. Fill in the VAT form → pdf-forms; Chart sales by month → sales-report.
 */
async function skillTraffic(): Promise<string[]> {
  const production: Record<string, string> = {
    "Fill in the VAT form.": "pdf-forms",
    "Chart sales by month.": "sales-report",
  };
  const prod = await skillServer(production);
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  const client = new Anthropic({
    apiKey: ENV.ANTHROPIC_API_KEY,
    baseURL: prod.url,
    maxRetries: 0,
  });
  const skillTool = {
    name: "Skill",
    description:
      "Load a skill.\n\nAvailable skills:\n- pdf-forms: Fill in PDF forms.\n- sales-report: Build sales reports from spreadsheets.",
    input_schema: {
      type: "object" as const,
      properties: { skill: { type: "string", enum: ["pdf-forms", "sales-report"] } },
      required: ["skill"],
    },
  };
  const pairs: string[] = [];
  for (const goal of Object.keys(production)) {
    const response = await client.messages.create({
      model: "claude-test",
      max_tokens: 256,
      tools: [skillTool],
      messages: [{ role: "user", content: goal }],
    });
    pairs.push(JSON.stringify({ request: prod.requests.at(-1)?.body, response }));
  }
  return pairs;
}

describe("shadow over traffic that chose skills through a Skill tool", () => {
  it("reads a traced Skill call as the skill it names and asks the candidate's skills: a description change moves the skill chosen", async () => {
    const pairs = await skillTraffic();
    const dir = writeTargetProject(SKILLS, [{ id: "c", goal: "g", acceptable: ["get_order"] }]);
    writeFileSync(join(dir, "traffic.jsonl"), `${pairs.join("\n")}\n`);

    // The candidate: the same skills, asked through a model that now loads refund-policy for the chart.
    const picks: Record<string, string> = {
      "Fill in the VAT form.": "pdf-forms",
      "Chart sales by month.": "refund-policy",
    };
    const candidate = await skillServer(picks);
    const shadow = await runCli(
      [
        "shadow",
        "traffic.jsonl",
        "--registry",
        "registry.yaml",
        "-e",
        "anthropic:test-model",
        "--base-url",
        candidate.url,
        "--run-id",
        "s",
        "--no-progress",
        "--format",
        "json",
      ],
      { cwd: dir, env: ENV },
    );
    expect(shadow.code).toBe(0);
    const cells = JSON.parse(shadow.stdout).cells.map((c: Row) => [c.from, c.to, c.count, c.moved]);
    expect(cells).toEqual([
      ["sales-report", "refund-policy", 1, true],
      ["pdf-forms", "pdf-forms", 1, false],
    ]);
    // The candidate was offered its own skills, folded into its Skill tool.
    const offered = candidate.requests[0].body.tools as Row[];
    expect(offered.map((t) => t.name)).toEqual(["Skill", "no_applicable_tool"]);
    expect(offered[0].input_schema.properties.skill.enum).toEqual([
      "pdf-forms",
      "sales-report",
      "refund-policy",
    ]);
  });
});

describe("freeze of a turn that chose a skill through a Skill tool", () => {
  it("freezes the --join registry's skills behind its dispatcher, and the replay reads the stored Skill call as the skill", async () => {
    const pairs = await skillTraffic();
    const dir = writeTargetProject(SKILLS, [{ id: "c", goal: "g", acceptable: ["get_order"] }]);
    writeFileSync(join(dir, "traffic.jsonl"), `${pairs[0]}\n`);
    const frozen = await runCli(
      [
        "freeze",
        "traffic.jsonl",
        "--join",
        "registry.yaml",
        "--acceptable",
        "pdf-forms",
        "--endpoint",
        "anthropic:claude-test",
      ],
      { cwd: dir, env: ENV },
    );
    expect(frozen.code).toBe(0);
    const { parse } = await import("yaml");
    const { readdirSync } = await import("node:fs");
    const snapshots = join(dir, "registries", "frozen");
    const snapshot = parse(readFileSync(join(snapshots, readdirSync(snapshots)[0]), "utf8"));
    expect(snapshot.dispatch).toBe("tool");
    expect(snapshot.tools.map((t: Row) => [t.name, t.kind])).toEqual([
      ["pdf-forms", "skill"],
      ["sales-report", "skill"],
      ["refund-policy", "skill"],
    ]);
    // The replay command freeze printed: no call, the stored Skill call read as the skill.
    const replay = frozen.stdout.trim().split(" ").slice(1);
    const run = await runCli([...replay, "--run-id", "replayed", "--no-progress", "--no-gates"], {
      cwd: dir,
      env: ENV,
    });
    expect(run.code).toBe(0);
    expect(records(dir, "replayed").map((r) => [r.selected, r.failed_stage])).toEqual([
      ["pdf-forms", null],
    ]);
  });
});
