/** `route-eval lint` end to end: the bundled example, exit codes, formats, phases and budgets. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { Finding } from "../src/lint/rules.js";
import { runCli, writeFiles } from "./support/cli.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const GOLDEN = fileURLToPath(new URL("./golden/lint-commerce.txt", import.meta.url));

interface LintJson {
  schema_version: number;
  counts: { error: number; warning: number; info: number };
  scope: { registries: number; tools: number; case_files: number; cases: number };
  findings: Finding[];
}

async function lintJson(args: string[], cwd = ROOT): Promise<{ code: number; json: LintJson }> {
  const result = await runCli(["lint", ...args, "--format", "json"], cwd);
  if (result.code > 1) throw new Error(result.stderr);
  return { code: result.code, json: JSON.parse(result.stdout) };
}

const pairsOf = (findings: Finding[]): string[] =>
  findings
    .filter((f) => f.rule === "rival-pair")
    .map((f) => [f.tool, ...(f.related ?? [])].sort().join(" ~ "));

describe("the bundled example", () => {
  let code = -1;
  let json: LintJson = {
    schema_version: 0,
    counts: { error: 0, warning: 0, info: 0 },
    scope: { registries: 0, tools: 0, case_files: 0, cases: 0 },
    findings: [],
  };
  beforeAll(async () => {
    ({ code, json } = await lintJson([]));
  });

  it("lints clean of errors (exit 0) over every case file and the registry", () => {
    expect(code).toBe(0);
    expect(json.counts.error).toBe(0);
    expect(json.scope).toEqual({ registries: 1, tools: 47, case_files: 8, cases: 106 });
  });

  it("reports its deliberate rival pairs, with scores", () => {
    const pairs = pairsOf(json.findings);
    for (const expected of [
      "get_order ~ search_orders",
      "get_order ~ lookup_order_by_email",
      "get_order ~ list_orders",
      "list_orders ~ search_orders",
      "find_customer ~ get_customer",
      "get_customer ~ search_customers",
      "find_customer ~ search_customers",
      "send_email ~ send_sms",
      "notify_customer ~ send_email",
      "notify_customer ~ send_sms",
      "refund_order ~ refund_payment",
      "update_customer_address ~ update_shipping_address",
      "bulk_cancel_orders ~ cancel_order",
      "delete_customer ~ purge_customer_data",
      "search_products ~ web_search_products",
    ]) {
      expect(pairs).toContain(expected);
    }
    expect(pairs).not.toContain("list_orders ~ list_payments");
    expect(
      json.findings
        .filter((f) => f.rule === "rival-pair")
        .every((f) => typeof f.score === "number" && f.score >= 0.4),
    ).toBe(true);
  });

  it("reports the near-synonym clusters", () => {
    const clusters = json.findings
      .filter((f) => f.rule === "rival-cluster")
      .map((f) => [f.tool, ...(f.related ?? [])]);
    expect(clusters).toContainEqual([
      "get_order",
      "search_orders",
      "lookup_order_by_email",
      "list_orders",
    ]);
    expect(clusters).toContainEqual(["get_customer", "find_customer", "search_customers"]);
    expect(clusters).toContainEqual(["send_email", "send_sms", "notify_customer"]);
  });

  it("finds the deliberate flaws of list_orders and notify_customer, at their lines", () => {
    const of = (tool: string) =>
      json.findings
        .filter((f) => f.tool === tool && f.rule !== "rival-pair")
        .map((f) => [f.rule, f.line, f.related]);
    expect(of("list_orders")).toEqual([
      ["purpose-vague", 126, undefined],
      ["no-losing-condition", 129, ["get_order", "search_orders", "lookup_order_by_email"]],
      ["schema-naked-string", 135, undefined],
    ]);
    expect(of("notify_customer")).toEqual([
      ["purpose-vague", 1127, undefined],
      ["no-losing-condition", 1130, ["send_email", "send_sms"]],
    ]);
  });

  it("renders as text, matching the golden file (UPDATE_GOLDEN=1 rewrites it)", async () => {
    const result = await runCli(["lint"], ROOT);
    if (process.env.UPDATE_GOLDEN === "1" || !existsSync(GOLDEN))
      writeFileSync(GOLDEN, result.stdout);
    expect(result.stdout).toBe(readFileSync(GOLDEN, "utf8"));
  });

  it("exits 1 with --strict, because it has warnings", async () => {
    expect((await runCli(["lint", "--strict"], ROOT)).code).toBe(1);
  });
});

const TOOL = (name: string, extra = ""): string =>
  `  - {name: ${name}, family: f_${name}, purpose: "Does the ${name} job for one record.", use_when: [It fits.], avoid_when: [It does not fit.], ` +
  `input_schema: {type: object, properties: {}, required: [], additionalProperties: false}, effect: read_only${extra}}\n`;
const REGISTRY = (tools: string): string => `revision: "1"\ntools:\n${tools}`;

describe("exit codes", () => {
  it("exits 1 on an error finding, naming file and line", async () => {
    const dir = writeFiles({ "r.yaml": REGISTRY(TOOL("alpha") + TOOL("alpha")) });
    const result = await runCli(["lint", join(dir, "r.yaml")], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `r.yaml:4: error name-duplicate: tools[1].name: duplicate tool name "alpha" (first defined at line 3)`,
    );
  });

  it("says what `run` says about a snapshot's own faults, from the same rule", async () => {
    const cases = "registry: r.yaml\ncases:\n  - {id: c1, goal: Do it., acceptable: [alpha]}\n";
    const faults: Record<string, string> = {
      "name-duplicate": TOOL("alpha") + TOOL("alpha"),
      "control-claim": TOOL("alpha") + TOOL("ask_user"),
      "schema-invalid":
        TOOL("alpha") + TOOL("beta").replace("properties: {}", "properties: {x: {type: strin}}"),
    };
    for (const [rule, tools] of Object.entries(faults)) {
      const dir = writeFiles({ "r.yaml": REGISTRY(tools), "c.yaml": cases });
      const run = await runCli(
        ["run", "--cases", join(dir, "c.yaml"), "--out", join(dir, "reports")],
        dir,
      );
      const lint = await runCli(["lint", join(dir, "r.yaml")], dir);
      const said = run.stderr.replace(/^route-eval: /, "").trim();
      expect(run.code, rule).toBe(2);
      const [where, ...words] = said.split(": ");
      expect(lint.stdout, rule).toContain(`${where}: error ${rule}: ${words.join(": ")}`);
    }
  });

  it("exits 0 on a clean registry, even with --strict", async () => {
    const dir = writeFiles({ "r.yaml": REGISTRY(TOOL("alpha") + TOOL("beta")) });
    const result = await runCli(["lint", join(dir, "r.yaml"), "--strict"], dir);
    expect(result.stdout).toBe(
      "2 tools in 1 registry, 0 cases in 0 files: 0 errors, 0 warnings, 0 info\n",
    );
    expect(result.code).toBe(0);
  });

  it.each([
    ["a missing file", {}, "nope.yaml", "nope.yaml: file not found"],
    [
      "a YAML syntax error",
      { "bad.yaml": "tools: [\n" },
      "bad.yaml",
      "bad.yaml:2: YAML syntax error",
    ],
    [
      "a file that is neither registry nor cases",
      { "x.yaml": "hello: 1\n" },
      "x.yaml",
      "x.yaml:1: neither a registry snapshot (tools:) nor a case file (cases:)",
    ],
    [
      "a registry with an unknown effect",
      { "r.yaml": REGISTRY(TOOL("alpha").replace("read_only", "sometimes")) },
      "r.yaml",
      "r.yaml:3: tools[0].effect: expected one of",
    ],
  ])("exits 2 on %s", async (_, files: Record<string, string>, name, message) => {
    const dir = writeFiles(files);
    const result = await runCli(["lint", join(dir, name)], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});

describe("phases and retrieval budgets size the surface checks", () => {
  const tools = Array.from({ length: 130 }, (_, i) => TOOL(`tool_${i}`)).join("");
  const config = (discovery: string) =>
    `cases: ["cases.yaml"]\nphases:\n  everything: {}\n  one: {families: [f_tool_1]}\n${discovery}`;
  const cases =
    "registry: r.yaml\ncases:\n  - {id: a, goal: x, phase: everything, acceptable: [no_applicable_tool]}\n";

  it("flags a phase over the provider limit at its line in route-eval.yaml", async () => {
    const dir = writeFiles({
      "r.yaml": REGISTRY(tools),
      "route-eval.yaml": config(""),
      "cases.yaml": cases,
    });
    const { json } = await lintJson([], dir);
    const surface = json.findings.filter((f) => f.rule.startsWith("surface"));
    expect(surface.map((f) => [f.rule, f.file, f.line])).toEqual([
      ["surface-over-limit", "route-eval.yaml", 3],
    ]);
    expect(surface[0].message).toContain("130 ordinary tools + 3 controls = 133 per request");
  });

  it("counts only the retriever's k when one is configured", async () => {
    const dir = writeFiles({
      "r.yaml": REGISTRY(tools),
      "route-eval.yaml": config("discovery: {retriever: bm25, k: 25}\n"),
      "cases.yaml": cases,
    });
    const { json } = await lintJson([], dir);
    const surface = json.findings.filter((f) => f.rule.startsWith("surface"));
    expect(surface.map((f) => f.rule)).toEqual(["surface-crowded"]);
    expect(surface[0].message).toContain("(retriever keeps k = 25 of 130 exposed)");
  });
});

describe("--format json", () => {
  it("puts schema_version first and keeps finding keys in a stable order", async () => {
    const dir = writeFiles({ "r.yaml": REGISTRY(TOOL("getThing")) });
    const result = await runCli(["lint", join(dir, "r.yaml"), "--format", "json"], dir);
    const json = JSON.parse(result.stdout);
    expect(Object.keys(json)).toEqual(["schema_version", "counts", "scope", "findings"]);
    expect(json.findings).toEqual([
      {
        rule: "name-not-snake-case",
        severity: "warning",
        file: "r.yaml",
        line: 3,
        tool: "getThing",
        message:
          'tool name "getThing" is not snake_case; mixed conventions make near names harder to tell apart',
        fix: 'rename it "get_thing"',
      },
    ]);
  });
});

describe("case rules shared with run", () => {
  const registry = REGISTRY(TOOL("get_order") + TOOL("list_orders"));

  it("a likely typo of a tool name: run warns and counts the coverage gap, lint errors, in the same words", async () => {
    const dir = writeFiles({
      "r.yaml": registry,
      "c.yaml":
        "registry: r.yaml\ncases:\n  - {id: c1, goal: Where is ord_1?, acceptable: [get_ordr]}\n",
    });
    const words = `case "c1": acceptable names "get_ordr", which registry r does not have (did you mean "get_order"?); no trial of this case can succeed`;
    const run = await runCli(
      [
        "run",
        "--cases",
        join(dir, "c.yaml"),
        "--out",
        join(dir, "reports"),
        "--no-gates",
        "--no-progress",
      ],
      dir,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`c.yaml:3: warning: ${words}`);
    const lint = await runCli(["lint", join(dir, "c.yaml")], dir);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain(`error case-unknown-tool: ${words}`);
  });

  it("a case id defined in two files: run and lint refuse it in the same words", async () => {
    const one = (id: string) =>
      `registry: r.yaml\ncases:\n  - {id: ${id}, goal: Where is ord_1?, acceptable: [get_order]}\n`;
    const dir = writeFiles({ "r.yaml": registry, "a.yaml": one("same"), "b.yaml": one("same") });
    const run = await runCli(
      ["run", "--cases", join(dir, "a.yaml"), join(dir, "b.yaml"), "--out", join(dir, "reports")],
      dir,
    );
    const lint = await runCli(["lint", join(dir, "a.yaml"), join(dir, "b.yaml")], dir);
    expect(lint.code).toBe(2);
    expect(lint.stderr).toBe(
      `route-eval: b.yaml:3: duplicate case id "same" (also defined at a.yaml:3)\n`,
    );
    expect(run.stderr).toBe(lint.stderr);
  });
});

describe("a case that contradicts itself", () => {
  it("acceptable [a tool, no_applicable_tool]: lint errors, run warns, in the same words", async () => {
    const dir = writeFiles({
      "r.yaml": REGISTRY(TOOL("get_order")),
      "c.yaml":
        "registry: r.yaml\ncases:\n  - {id: c1, goal: Where is ord_1?, acceptable: [get_order, no_applicable_tool]}\n",
    });
    const words = `case "c1": acceptable names no_applicable_tool beside get_order — "nothing applies" and "get_order applies" contradict, so abstention accuracy punishes a correct pick`;
    const lint = await runCli(["lint", join(dir, "c.yaml")], dir);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain(`error case-contradictory: ${words}`);
    const run = await runCli(
      [
        "run",
        "--cases",
        join(dir, "c.yaml"),
        "--out",
        join(dir, "reports"),
        "--no-gates",
        "--no-progress",
      ],
      dir,
    );
    expect(run.stderr).toContain(`c.yaml:3: warning: ${words}`);
  });
});
