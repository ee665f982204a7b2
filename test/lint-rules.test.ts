/**
 * Every lint rule: a fixture that triggers it and a near one that does not. Fixtures go through
 * the real CLI (`route-eval lint FILE --format json`).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RULE_IDS, type Finding, type RuleId } from "../src/lint/rules.js";
import { runCli, writeFiles } from "./support/cli.js";

interface ToolSpec {
  name?: string;
  kind?: string;
  family?: string;
  purpose?: string | null;
  use_when?: string[] | null;
  avoid_when?: string[] | null;
  input_schema?: unknown;
  output_schema?: unknown;
  effect?: string;
  idempotent?: boolean;
}

/** A tool that no rule flags on its own. */
const CLEAN: Required<Omit<ToolSpec, "output_schema" | "kind">> = {
  name: "get_invoice",
  family: "billing",
  purpose: "Return one invoice with its lines and totals.",
  use_when: ["The exact invoice id is known."],
  avoid_when: ["Only the customer is known; ask for the invoice id."],
  input_schema: {
    type: "object",
    properties: { invoice_id: { type: "string", pattern: "^inv_[0-9]+$" } },
    required: ["invoice_id"],
    additionalProperties: false,
  },
  effect: "read_only",
  idempotent: true,
};

function tool(spec: ToolSpec = {}): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...CLEAN, ...spec };
  for (const key of Object.keys(merged)) if (merged[key] === null) delete merged[key];
  return merged;
}

/** JSON is YAML: one tool per line keeps line numbers predictable. */
function registryYaml(tools: Record<string, unknown>[]): string {
  return `revision: "1"\ntools:\n${tools.map((t) => `  - ${JSON.stringify(t)}\n`).join("")}`;
}

function params(count: number): Record<string, unknown> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`p${i}`, { type: "integer" }]),
  );
}

function schema(
  properties: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { type: "object", properties, required: [], additionalProperties: false, ...extra };
}

function manyTools(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) =>
    tool({ name: `tool_${i}`, family: `family_${i}`, purpose: `Purpose number ${i}.` }),
  );
}

const rivalA = tool({
  name: "get_invoice",
  avoid_when: ["Only words describe it; use search_invoices."],
});
const rivalB = (avoid: string[]): Record<string, unknown> =>
  tool({
    name: "search_invoices",
    purpose: "Full-text search across invoices by note or amount.",
    use_when: ["The user describes an invoice in words."],
    avoid_when: avoid,
  });

interface RegistryCase {
  rule: RuleId;
  trigger: Record<string, unknown>[];
  near: Record<string, unknown>[];
}

const REGISTRY_CASES: RegistryCase[] = [
  {
    rule: "name-invalid",
    trigger: [tool({ name: "billing.get_invoice" })],
    near: [tool({ name: "billing_get_invoice" })],
  },
  {
    rule: "name-not-snake-case",
    trigger: [tool({ name: "getInvoice" })],
    near: [tool({ name: "get_invoice" })],
  },
  {
    rule: "skill-description-long",
    trigger: [
      tool({
        name: "pdf-forms",
        kind: "skill",
        purpose: `Fill in PDF forms. ${"Use it for tax and VAT forms. ".repeat(40)}`,
      }),
    ],
    near: [
      tool({
        name: "pdf-forms",
        kind: "skill",
        purpose: "Fill in PDF forms, such as tax and VAT forms.",
      }),
    ],
  },
  {
    rule: "name-duplicate",
    trigger: [tool(), tool()],
    near: [tool(), tool({ name: "get_invoice_pdf", purpose: "Render one invoice as a PDF link." })],
  },
  {
    rule: "purpose-missing",
    trigger: [tool({ purpose: null })],
    near: [tool({ purpose: "Return the invoice." })],
  },
  {
    rule: "purpose-vague",
    trigger: [tool({ purpose: "Get an invoice." })],
    near: [tool({ purpose: "Get an invoice's totals." })],
  },
  { rule: "use-when-missing", trigger: [tool({ use_when: null })], near: [tool()] },
  { rule: "avoid-when-missing", trigger: [tool({ avoid_when: [] })], near: [tool()] },
  {
    rule: "no-losing-condition",
    trigger: [rivalA, rivalB(["The request is not about invoices."])],
    near: [rivalA, rivalB(["The invoice id is known; use get_invoice."])],
  },
  {
    rule: "rival-pair",
    trigger: [rivalA, rivalB(["The invoice id is known; use get_invoice."])],
    near: [
      rivalA,
      tool({ name: "void_invoice", purpose: "Cancel an unpaid invoice.", effect: "destructive" }),
    ],
  },
  {
    rule: "rival-cluster",
    trigger: [
      rivalA,
      rivalB([]),
      tool({ name: "list_invoices", purpose: "Page through invoices by status and date." }),
    ],
    near: [
      rivalA,
      rivalB([]),
      tool({ name: "void_invoice", purpose: "Cancel an unpaid invoice.", effect: "destructive" }),
    ],
  },
  {
    rule: "schema-invalid",
    trigger: [tool({ input_schema: schema({ n: { type: "integr" } }) })],
    near: [tool({ input_schema: schema({ n: { type: "integer" } }) })],
  },
  {
    rule: "schema-invalid",
    trigger: [tool({ output_schema: { type: "object", required: "id" } })],
    near: [tool({ output_schema: { type: "object", required: ["id"] } })],
  },
  {
    rule: "schema-invalid",
    trigger: [tool({ input_schema: schema({ code: { type: "string", pattern: "([a-z" } }) })],
    near: [tool({ input_schema: schema({ code: { type: "string", pattern: "([a-z])" } }) })],
  },
  {
    rule: "schema-invalid",
    trigger: [tool({ input_schema: schema({ when: { $ref: "#/$defs/date" } }) })],
    near: [
      tool({
        input_schema: schema(
          { when: { $ref: "#/$defs/date" } },
          { $defs: { date: { type: "string", format: "date" } } },
        ),
      }),
    ],
  },
  {
    rule: "schema-dialect-inferred",
    // (draft-04 wants at least one name in required)
    trigger: [
      tool({
        input_schema: schema(
          { km: { type: "number", minimum: 0, exclusiveMinimum: true } },
          { required: ["km"] },
        ),
      }),
    ],
    near: [
      tool({ input_schema: schema({ km: { type: "number", exclusiveMinimum: 0 } }) }),
      tool({
        input_schema: schema(
          { km: { type: "number", minimum: 0, exclusiveMinimum: true } },
          { required: ["km"], $schema: "http://json-schema.org/draft-04/schema#" },
        ),
      }),
    ],
  },
  {
    rule: "schema-root-not-object",
    trigger: [tool({ input_schema: { type: "array", items: { type: "string" } } })],
    near: [tool({ input_schema: schema({}) })],
  },
  {
    rule: "schema-open",
    trigger: [
      tool({ input_schema: schema({ a: { type: "integer" } }, { additionalProperties: true }) }),
    ],
    near: [tool({ input_schema: schema({ a: { type: "integer" } }) })],
  },
  {
    rule: "schema-open",
    trigger: [
      tool({
        input_schema: schema({
          address: { type: "object", properties: { city: { type: "string" } } },
        }),
      }),
    ],
    near: [
      tool({
        input_schema: schema({
          address: {
            type: "object",
            properties: { city: { type: "string" } },
            additionalProperties: false,
          },
        }),
      }),
    ],
  },
  {
    rule: "schema-required-missing",
    trigger: [
      tool({ input_schema: { type: "object", properties: {}, additionalProperties: false } }),
    ],
    near: [tool({ input_schema: schema({}) })],
  },
  {
    rule: "schema-too-many-params",
    trigger: [tool({ input_schema: schema(params(8)) })],
    near: [tool({ input_schema: schema(params(7)) })],
  },
  {
    rule: "schema-nested",
    trigger: [
      tool({ input_schema: schema({ a: schema({ b: schema({ c: { type: "integer" } }) }) }) }),
    ],
    near: [
      tool({
        input_schema: schema({
          a: { type: "array", items: schema({ c: { type: "integer" } }) },
          b: schema({ c: { type: "integer" } }),
        }),
      }),
    ],
  },
  {
    rule: "schema-naked-string",
    trigger: [tool({ input_schema: schema({ order_status: { type: "string" } }) })],
    near: [
      tool({ input_schema: schema({ order_status: { type: "string", enum: ["open", "paid"] } }) }),
    ],
  },
  {
    rule: "schema-naked-string",
    trigger: [tool({ input_schema: schema({ sortBy: { type: "string" } }) })],
    near: [tool({ input_schema: schema({ order_note: { type: "string" } }) })],
  },
  {
    rule: "schema-pattern-backtracks",
    trigger: [
      tool({ input_schema: schema({ order_id: { type: "string", pattern: "^(ord_\\d+)+$" } }) }),
    ],
    near: [tool({ input_schema: schema({ order_id: { type: "string", pattern: "^ord_\\d+$" } }) })],
  },
  {
    rule: "no-idempotency-key",
    trigger: [
      tool({
        name: "pay_invoice",
        purpose: "Charge the invoice to the card on file.",
        effect: "mutating",
        idempotent: false,
      }),
    ],
    near: [
      tool({
        name: "pay_invoice",
        purpose: "Charge the invoice to the card on file.",
        effect: "mutating",
        idempotent: false,
        input_schema: schema({
          invoice_id: { type: "string", pattern: "^inv_" },
          idempotency_key: { type: "string" },
        }),
      }),
    ],
  },
  {
    rule: "control-claim",
    trigger: [tool({ family: "control" })],
    near: [tool({ family: "controls" })],
  },
  {
    rule: "control-claim",
    trigger: [tool({ name: "ask_user", purpose: "Ask the user a question." })],
    near: [tool({ name: "ask_agent", purpose: "Ask another agent a question." })],
  },
  { rule: "surface-crowded", trigger: manyTools(21), near: manyTools(20) },
  { rule: "surface-over-limit", trigger: manyTools(126), near: manyTools(125) },
];

async function lintRegistry(tools: Record<string, unknown>[]): Promise<Finding[]> {
  const dir = writeFiles({ "registry.yaml": registryYaml(tools) });
  const result = await runCli(["lint", join(dir, "registry.yaml"), "--format", "json"], dir);
  if (result.code > 1) throw new Error(result.stderr);
  return JSON.parse(result.stdout).findings;
}

const rulesOf = (findings: Finding[]): RuleId[] => findings.map((f) => f.rule);

describe("each registry rule has a fixture that triggers it and a near one that does not", () => {
  it("starts from a tool that no rule flags", async () => {
    expect(await lintRegistry([tool()])).toEqual([]);
  });

  for (const { rule, trigger, near } of REGISTRY_CASES) {
    it(rule, async () => {
      expect(rulesOf(await lintRegistry(trigger))).toContain(rule);
      expect(rulesOf(await lintRegistry(near))).not.toContain(rule);
    });
  }

  it("tool-partial (a snapshot's partial: list, as route-eval freeze writes it)", async () => {
    const lintText = async (text: string) => {
      const dir = writeFiles({ "registry.yaml": text });
      return JSON.parse(
        (await runCli(["lint", join(dir, "registry.yaml"), "--format", "json"], dir)).stdout,
      ).findings as Finding[];
    };
    const yaml = registryYaml([tool()]);
    expect(
      rulesOf(await lintText(yaml.replace("tools:\n", "partial: [get_invoice]\ntools:\n"))),
    ).toContain("tool-partial");
    expect(
      rulesOf(await lintText(yaml.replace("tools:\n", "partial: []\ntools:\n"))),
    ).not.toContain("tool-partial");
  });
});

const CASES_HEAD = "registry: registry.yaml\ncases:\n";
const caseLine = (id: string, acceptable: string[], family = "invoices", extra = ""): string =>
  `  - {id: ${id}, goal: "Goal of ${id}", acceptable: [${acceptable.join(", ")}], family: ${family}${extra}}\n`;
const SUITE_OK =
  caseLine("abstain", ["no_applicable_tool"], "nothing-applies") +
  caseLine("abstain-2", ["no_applicable_tool"], "nothing-applies");

const CASE_CASES: { rule: RuleId; trigger: string; near: string }[] = [
  {
    rule: "case-unknown-tool",
    trigger: caseLine("a", ["get_invoce"]) + caseLine("b", ["get_invoice"]),
    near: caseLine("a", ["get_invoice"]) + caseLine("b", ["get_invoice"]),
  },
  {
    rule: "case-unknown-tool",
    trigger:
      caseLine("a", ["get_invoice"], "invoices", ", forbidden: [delete_everything]") +
      caseLine("b", ["get_invoice"]),
    near:
      caseLine("a", ["get_invoice"], "invoices", ", forbidden: [ask_user]") +
      caseLine("b", ["get_invoice"]),
  },
  {
    rule: "case-coverage-gap",
    trigger: caseLine("a", ["issue_gift_card"]) + caseLine("b", ["get_invoice"]),
    near: caseLine("a", ["get_invoice"]) + caseLine("b", ["get_invoice"]),
  },
  {
    rule: "case-family-single",
    trigger: caseLine("a", ["get_invoice"]) + caseLine("b", ["get_invoice"], "other"),
    near: caseLine("a", ["get_invoice"]) + caseLine("b", ["get_invoice"]),
  },
  {
    rule: "case-contradictory",
    trigger: caseLine("a", ["get_invoice", "no_applicable_tool"]) + caseLine("b", ["get_invoice"]),
    near: caseLine("a", ["get_invoice", "ask_user"]) + caseLine("b", ["get_invoice"]),
  },
  {
    rule: "case-todo-goal",
    trigger:
      `  - {id: a, goal: "TODO: a request only get_invoice serves", acceptable: [get_invoice], family: invoices}\n` +
      caseLine("b", ["get_invoice"]),
    near:
      `  - {id: a, goal: "Show invoice INV-1 (TODO items are listed on it)", acceptable: [get_invoice], family: invoices}\n` +
      caseLine("b", ["get_invoice"]),
  },
  {
    rule: "case-todo",
    trigger:
      `  - {id: a, goal: "Show invoice INV-1", todo: "name the acceptable tools (production called get_invoice)", family: invoices}\n` +
      caseLine("b", ["get_invoice"]),
    near:
      `  - {id: a, goal: "Show invoice INV-1", acceptable: [get_invoice], family: invoices}\n` +
      caseLine("b", ["get_invoice"]),
  },
];

async function lintCases(cases: string): Promise<Finding[]> {
  const dir = writeFiles({
    "registry.yaml": registryYaml([tool()]),
    "cases.yaml": CASES_HEAD + cases,
  });
  const result = await runCli(["lint", join(dir, "cases.yaml"), "--format", "json"], dir);
  if (result.code > 1) throw new Error(result.stderr);
  return JSON.parse(result.stdout).findings;
}

describe("each case rule has a fixture that triggers it and a near one that does not", () => {
  it("starts from a suite that no rule flags", async () => {
    expect(
      await lintCases(caseLine("a", ["get_invoice"]) + caseLine("b", ["get_invoice"]) + SUITE_OK),
    ).toEqual([]);
  });

  for (const { rule, trigger, near } of CASE_CASES) {
    it(rule, async () => {
      expect(rulesOf(await lintCases(trigger + SUITE_OK))).toContain(rule);
      expect(rulesOf(await lintCases(near + SUITE_OK))).not.toContain(rule);
    });
  }

  it("surface-empty: a phase that admits none of the registry's tools, and why", async () => {
    const lintPhase = async (phase: Record<string, unknown>) => {
      const dir = writeFiles({
        "registry.yaml": registryYaml([
          tool({ effect: "destructive" }),
          tool({ name: "void_invoice", effect: "destructive" }),
        ]),
        "route-eval.yaml": JSON.stringify({ cases: ["cases.yaml"], phases: { read: phase } }),
        "cases.yaml": CASES_HEAD + caseLine("a", ["get_invoice"], "invoices", ", phase: read"),
      });
      const result = await runCli(["lint", "--format", "json"], dir);
      if (result.code > 1) throw new Error(result.stderr);
      return JSON.parse(result.stdout).findings as Finding[];
    };
    const empty = (await lintPhase({ max_effect: "read_only" })).filter(
      (f) => f.rule === "surface-empty",
    );
    expect(empty.map((f) => f.message)).toEqual([
      'phase "read" on registry: admits none of its 2 tools (hidden by its effect ceiling ×2): every case in it fails at exposure',
    ]);
    expect(rulesOf(await lintPhase({ max_effect: "destructive" }))).not.toContain("surface-empty");
  });

  it("suite-no-control-case", async () => {
    const twoReads = caseLine("a", ["get_invoice"]) + caseLine("b", ["get_invoice"]);
    expect(rulesOf(await lintCases(twoReads))).toContain("suite-no-control-case");
    expect(
      rulesOf(
        await lintCases(twoReads + caseLine("c", ["ask_user"]) + caseLine("d", ["ask_user"])),
      ),
    ).not.toContain("suite-no-control-case");
  });
});

describe("the rule table", () => {
  it("has a trigger fixture for every rule id", () => {
    const covered = new Set<RuleId>([...REGISTRY_CASES, ...CASE_CASES].map((c) => c.rule));
    covered.add("suite-no-control-case");
    covered.add("tool-partial");
    covered.add("surface-empty");
    expect(RULE_IDS.filter((id) => !covered.has(id))).toEqual([]);
  });
});

describe("a skill's conditions are in its description (SKILL.md is one text)", () => {
  it("finds the winning and losing conditions a skill author writes in words", async () => {
    const skill = (purpose: string) =>
      tool({ name: "pdf-forms", kind: "skill", purpose, use_when: null, avoid_when: null });
    const silent = rulesOf(await lintRegistry([skill("Fill in PDF forms and tax forms.")]));
    expect(silent).toContain("use-when-missing");
    expect(silent).toContain("avoid-when-missing");
    const said = rulesOf(
      await lintRegistry([
        skill("Fill in PDF forms. Use when the user mentions a form. Do not use for invoices."),
      ]),
    );
    expect(said).not.toContain("use-when-missing");
    expect(said).not.toContain("avoid-when-missing");
  });
});

describe("rival findings stay O(tools)", () => {
  // 30 near-identical tools: hundreds of rival pairs, one cluster.
  const catalogue = Array.from({ length: 30 }, (_, i) =>
    tool({
      name: `get_invoice_${i}`,
      purpose: `Return one invoice with its lines and totals, variant ${i}.`,
      avoid_when: ["Only the customer is known; ask."],
    }),
  );

  it("a tool of a cluster too large to name whole gets its strongest pair only, the rest counted; the cluster names ten", async () => {
    const findings = await lintRegistry(catalogue);
    const pairs = findings.filter((f) => f.rule === "rival-pair");
    const perTool = new Map<string, number>();
    for (const f of pairs) perTool.set(f.tool ?? "", (perTool.get(f.tool ?? "") ?? 0) + 1);
    expect(Math.max(...perTool.values())).toBe(1);
    expect(pairs.length).toBeGreaterThanOrEqual(10);
    expect(pairs[0].message).toMatch(
      /; get_invoice_\d+ has \d+ more rivals below these, not listed$/,
    );
    const [cluster] = findings.filter((f) => f.rule === "rival-cluster");
    // A cluster is tools that are all rivals of one another (not a chain of pairs): every pair of its members is a rival pair.
    const size = Number(/^(\d+) tools compete for the same requests/.exec(cluster.message)?.[1]);
    expect(size).toBeGreaterThan(10);
    expect(cluster.message).toMatch(
      new RegExp(
        `^${size} tools compete for the same requests, all ${(size * (size - 1)) / 2} pairs among them rivals \\(the rival-pair findings list each tool's strongest\\): (get_invoice_\\d+, ){9}get_invoice_\\d+ and ${size - 10} more$`,
      ),
    );
    expect(cluster.related).toHaveLength(size - 1);
    const losing = findings.filter((f) => f.rule === "no-losing-condition");
    expect(losing.length).toBeGreaterThanOrEqual(10);
    // Each names exactly the rivals in `related` (at most three, strongest first), then counts the rest.
    for (const f of losing) {
      const related = f.related ?? [];
      expect(related.length).toBeGreaterThan(0);
      expect(related.length).toBeLessThanOrEqual(3);
      const named = related.map((name) => `${name} \\(\\d\\.\\d\\d\\)`).join(", ");
      expect(f.message).toMatch(
        new RegExp(
          `^${f.tool} has close rivals? ${named}( and \\d+ more)? that its avoid_when never names$`,
        ),
      );
    }
    expect(
      losing.some((f) => / and \d+ more that its avoid_when never names$/.test(f.message)),
    ).toBe(true);
  });

  it("a small cluster lists every pair", async () => {
    const findings = await lintRegistry(catalogue.slice(0, 4));
    expect(findings.filter((f) => f.rule === "rival-pair")).toHaveLength(6);
  });
});
