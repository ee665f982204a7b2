/**
 * `route-eval import` of routing targets (docs/import.md#skills-agents-and-agent-cards), on
 * fixtures written from each format's documentation (test/fixtures/targets/README.md cites them):
 * each snapshot compared whole, then run — a skill chosen through the Skill tool, a handoff and
 * the tool inside the agent it hands to — and an agent card fetched from a local server.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./support/cli.js";
import { expectGolden } from "./support/golden.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = "test/fixtures/targets";

type Row = Record<string, any>;

async function importTo(format: string, input: string, extra: string[] = []) {
  const dir = tempDir("route-eval-import-targets-");
  const out = join(dir, "registry.yaml");
  const result = await runCli(["import", format, input, "-o", out, ...extra], { cwd: ROOT });
  return { dir, out, result, text: result.code === 0 ? readFileSync(out, "utf8") : "" };
}

function runOn(dir: string, cases: object[]) {
  writeFileSync(join(dir, "cases.yaml"), JSON.stringify({ registry: "registry.yaml", cases }));
  writeFileSync(
    join(dir, "route-eval.yaml"),
    JSON.stringify({
      cases: ["cases.yaml"],
      trials: 1,
      out_dir: "reports",
      controls: ["no_applicable_tool"],
    }),
  );
  return runCli(["run", "--run-id", "r", "--no-progress", "--no-gates"], { cwd: dir });
}

const recordsOf = (dir: string): Row[] =>
  readFileSync(join(dir, "reports", "r", "records.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));

describe("import skills", () => {
  it("reads each SKILL.md's frontmatter, skips a skill hidden from the listing, offers them through one Skill tool", async () => {
    const { dir, result, text } = await importTo("skills", `${FIXTURES}/skills`);
    expect(result.code).toBe(0);
    expect(result.stderr.split("\n")[0]).toBe(
      `route-eval import: ${FIXTURES}/skills/internal-only/SKILL.md: skill "internal-only" skipped: disable-model-invocation hides it from the model's listing, so it is never routed to`,
    );
    expectGolden("import-skills.yaml", text.replace(/-o \S+/, "-o OUT"));
    // The description is the trigger: kept verbatim as the model-facing text.
    expect(text).toContain(
      "purpose: Turn a list of changes into release notes. Use when the user asks for release notes or a changelog entry.",
    );
    const run = await runOn(dir, [
      {
        id: "notes",
        goal: "Write the release notes for these changes",
        acceptable: ["release-notes"],
      },
      { id: "csv", goal: "Analyze this CSV data and chart it", acceptable: ["data-analysis"] },
    ]);
    expect(run.code).toBe(0);
    expect(recordsOf(dir).map((r) => [r.case_id, r.selected, r.failed_stage])).toEqual([
      ["notes", "release-notes", null],
      ["csv", "data-analysis", null],
    ]);
  });

  it("names a description over 1,024 characters on stderr, and lint reports it", async () => {
    const dir = tempDir("route-eval-long-skill-");
    const skill = join(dir, "long-one");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(skill);
    writeFileSync(
      join(skill, "SKILL.md"),
      `---\nname: long-one\ndescription: ${"Use it a lot. ".repeat(80)}\n---\n`,
    );
    const out = join(dir, "registry.yaml");
    const result = await runCli(["import", "skills", dir, "-o", out], { cwd: dir });
    expect(result.stderr).toMatch(
      /skill "long-one": its description is 1119 characters, over the 1024 the specification allows/,
    );
    const lint = await runCli(["lint", out, "--format", "json"], { cwd: dir });
    const rules = JSON.parse(lint.stdout).findings.map((f: Row) => f.rule);
    expect(rules).toContain("skill-description-long");
    expect(rules).not.toContain("name-not-snake-case");
  });

  it("refuses a folder without skills, and frontmatter that is not YAML, with the file and line", async () => {
    const empty = await runCli(["import", "skills", FIXTURES], { cwd: ROOT });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/test\/fixtures\/targets: no SKILL\.md in it or in its folders/);
    const dir = tempDir("route-eval-bad-skill-");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(dir, "bad"));
    writeFileSync(join(dir, "bad", "SKILL.md"), "---\nname: bad\ndescription: [unclosed\n---\n");
    const bad = await runCli(["import", "skills", dir], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\/SKILL\.md:\d+: frontmatter is not valid YAML/);
  });
});

describe("import agents (Claude Code sub-agents)", () => {
  it("reads each agent file's frontmatter and keeps its body as its instructions", async () => {
    const { result, text } = await importTo("agents", `${FIXTURES}/agents`);
    expect(result.code).toBe(0);
    expectGolden("import-agents.yaml", text.replace(/-o \S+/, "-o OUT"));
  });
});

describe("import a2a", () => {
  it("reads an agent card's skills as its routing text, from a file or from its URL", async () => {
    const file = await importTo("a2a", `${FIXTURES}/agent-card.json`, ["--snapshot", "geo"]);
    expect(file.result.code).toBe(0);
    expectGolden("import-a2a.yaml", file.text.replace(/-o \S+/, "-o OUT"));

    const card = readFileSync(join(ROOT, FIXTURES, "agent-card.json"), "utf8");
    const server = createServer((req, res) => {
      if (req.url !== "/.well-known/agent-card.json") return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "application/json" }).end(card);
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const fetched = await importTo("a2a", `${base}/.well-known/agent-card.json`, [
        "--snapshot",
        "geo",
      ]);
      expect(fetched.result.code).toBe(0);
      const body = (text: string) => text.slice(text.indexOf("tools:"));
      expect(body(fetched.text)).toBe(body(file.text));
      const missing = await runCli(["import", "a2a", `${base}/nope.json`], { cwd: ROOT });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/nope\.json: HTTP 404 fetching the agent card/);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

describe("import handoffs (OpenAI Agents SDK)", () => {
  it("names each handoff as the SDK does, with the agent's own tools inside it, and runs a case through both levels", async () => {
    const { dir, result, text } = await importTo("handoffs", `${FIXTURES}/handoffs.json`);
    expect(result.code).toBe(0);
    expectGolden("import-handoffs.yaml", text.replace(/-o \S+/, "-o OUT"));
    const run = await runOn(dir, [
      {
        id: "refund",
        goal: "Refund my order ord_5 please",
        acceptable: ["transfer_to_refund_agent > refund_order"],
      },
    ]);
    expect(run.code).toBe(0);
    const [record] = recordsOf(dir);
    expect(record.selected).toBe("transfer_to_refund_agent");
    expect([record.hierarchy.target, record.hierarchy.inside, record.hierarchy.level]).toEqual([
      "transfer_to_refund_agent",
      "refund_order",
      null,
    ]);
  });
});

describe("init --from-skills", () => {
  it("scaffolds a Skill-dispatched registry, a trigger case per skill and near pairs between skills that compete", async () => {
    const dir = tempDir("route-eval-init-skills-");
    const { mkdirSync } = await import("node:fs");
    const skill = (name: string, description: string) => {
      mkdirSync(join(dir, "skills", name), { recursive: true });
      writeFileSync(
        join(dir, "skills", name, "SKILL.md"),
        `---\nname: ${name}\ndescription: ${description}\n---\n`,
      );
    };
    skill(
      "invoice-pdf",
      "Fill in and export invoice PDF files from the invoice template, with VAT fields.",
    );
    skill(
      "pdf-tools",
      "Fill in and export PDF files and PDF forms from a template, with their fields.",
    );
    skill(
      "sales-report",
      "Build sales reports from order spreadsheets - totals, trends and charts by month.",
    );
    const init = await runCli(["init", "--from-skills", "skills"], { cwd: dir });
    expect(init.code).toBe(0);
    const { parse } = await import("yaml");
    const registry = parse(readFileSync(join(dir, "registries", "skills.yaml"), "utf8"));
    expect(registry.dispatch).toBe("tool");
    expect(registry.tools.map((t: Row) => [t.name, t.kind])).toEqual([
      ["invoice-pdf", "skill"],
      ["pdf-tools", "skill"],
      ["sales-report", "skill"],
    ]);
    const cases = parse(readFileSync(join(dir, "cases", "skills.yaml"), "utf8")).cases;
    expect(cases.map((c: Row) => [c.id, c.acceptable, c.family ?? null])).toEqual([
      ["invoice-pdf-not-pdf-tools", ["invoice-pdf"], "invoice-pdf-or-pdf-tools"],
      ["pdf-tools-not-invoice-pdf", ["pdf-tools"], "invoice-pdf-or-pdf-tools"],
      ["invoice-pdf-triggers", ["invoice-pdf"], null],
      ["pdf-tools-triggers", ["pdf-tools"], null],
      ["sales-report-triggers", ["sales-report"], null],
      ["out-of-scope", ["no_applicable_tool"], null],
    ]);
    // Lint's only errors are the TODO goals still to write.
    const lint = await runCli(["lint", "--format", "json"], { cwd: dir });
    const errors = JSON.parse(lint.stdout).findings.filter((f: Row) => f.severity === "error");
    expect(new Set(errors.map((f: Row) => f.rule))).toEqual(new Set(["case-todo-goal"]));
  });
});
