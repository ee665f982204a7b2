/**
 * route-eval tune on the bundled example (examples/tune: the commerce registry and cases, and
 * three more families) with the rules proposer and the baseline endpoint — offline, no key. The
 * rules propose; one revision (update_shipping_address learns the words its re-route requests
 * use) raises held-out accuracy beyond noise and is kept; one (update_customer_address learns
 * "area, home, new") helps the tune split but takes held-out out-of-scope requests and is
 * rejected; the tuned snapshot's own run matches the report; resume, --apply, the budget, a
 * command proposer and bad input are tested through the CLI.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../src/types.js";
import type { TuneResult } from "../src/types/tune.js";
import { runCli, tempDir } from "./support/cli.js";
import { expectGolden, steady } from "./support/golden.js";
import { fileSchemaErrors } from "./support/schemas.js";
import { loadConfig } from "../src/config/load-config.js";
import { loadCases } from "../src/cases/load-cases.js";
import { briefsOf } from "../src/tune/briefs.js";
import { splitCases } from "../src/tune/split-cases.js";
import { PROPOSE_DEFINITION, PROPOSER_SYSTEM, proposalPrompt } from "../src/tune/propose-model.js";

const ROOT = new URL("..", import.meta.url).pathname;
const CONFIG = "examples/tune/route-eval.yaml";

/** The example's files in a fresh directory (the tuned snapshot is written beside the registry). */
function copyExample(): string {
  const dir = tempDir("route-eval-tune-");
  for (const part of ["registries/commerce.yaml", "cases", "examples/tune"])
    cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  return dir;
}

function readTune(dir: string, id: string): TuneResult {
  return JSON.parse(readFileSync(join(dir, "reports", id, "tune.json"), "utf8")) as TuneResult;
}

function reportOf(runDir: string): Report {
  return JSON.parse(readFileSync(join(runDir, "report.json"), "utf8")) as Report;
}

describe("tune on the bundled example with the rules proposer and the baseline", () => {
  it("keeps the revision that raises held-out accuracy, rejects the one that only helps the tune split, and the tuned snapshot's run matches", async () => {
    const dir = copyExample();
    const tune = await runCli(["tune", "-c", CONFIG, "--id", "ex", "--no-progress"], dir);
    expect(tune.code, tune.stderr).toBe(0);
    expectGolden("tune.txt", steady(tune.stdout, dir));
    const result = readTune(dir, "ex");
    expect(
      fileSchemaErrors("tune.schema.json", join(dir, "reports", "ex", "tune.json")),
    ).toBeNull();

    const [first] = result.rounds;
    const kept = first.candidates.find((c) => c.id === first.accepted);
    expect(kept?.revision).toMatchObject({ tool: "update_shipping_address", by: "rules:use-when" });
    const reroute = result.split.held_out.filter((id) => id.startsWith("reroute-"));
    expect(reroute).toHaveLength(8);
    expect([...(kept?.evidence.held_out.up ?? [])].sort()).toEqual([...reroute].sort());
    expect(kept?.evidence.held_out.down).toEqual([]);
    expect(kept?.evidence.test.p_value).toBeCloseTo(1 / 256, 12);
    expect(kept?.evidence.test.p_holm).toBeCloseTo(first.candidates.length / 256, 12);

    const overfit = first.candidates.find(
      (c) => c.revision.tool === "update_customer_address" && c.revision.by === "rules:use-when",
    );
    expect(overfit?.verdict).toBe("rejected");
    expect(overfit?.evidence.tune.delta).toBeGreaterThan(0);
    expect(overfit?.evidence.held_out.delta).toBeLessThan(0);
    const outOfScope = result.split.held_out.filter((id) => id.startsWith("oos-")).sort();
    expect(overfit?.evidence.regressions.map((r) => r.case_id).sort()).toEqual(outOfScope);
    expect(overfit?.evidence.blast.map((b) => b.tool)).toContain("no_applicable_tool");

    // The tuned snapshot: written beside the registry, revision counted up, one tool changed.
    expect(result.registry.written).toBe(join(dir, "registries", "commerce.tuned.yaml"));
    expect(result.registry.tuned_revision).toBe("2026-11-29.2");
    const original = readFileSync(join(dir, "registries", "commerce.yaml"), "utf8").split("\n");
    const tuned = readFileSync(join(dir, "registries", "commerce.tuned.yaml"), "utf8").split("\n");
    expect(tuned.filter((line) => !original.includes(line))).toEqual([
      'revision: "2026-11-29.2"',
      '      - "The user asks in words like: instead, package, reroute, street, flat."',
    ]);

    // Its own run answers every case as the accepted candidate's run did; the outcome is that run's.
    const run = await runCli(
      [
        "run",
        "-c",
        CONFIG,
        "--registry",
        "registries/commerce.tuned.yaml",
        "--run-id",
        "tuned",
        "--no-progress",
      ],
      dir,
    );
    expect(run.code, run.stderr).toBe(0);
    const own = reportOf(join(dir, "reports", "tuned"));
    const final = reportOf(join(dir, "reports", "ex", result.final_run ?? ""));
    const rows = (r: Report) => r.cases.map((c) => [c.case_id, c.correct, c.trials, c.selections]);
    expect(rows(own)).toEqual(rows(final));
    const held = new Set(result.split.held_out);
    const correct = own.cases.filter((c) => held.has(c.case_id)).reduce((s, c) => s + c.correct, 0);
    const trials = own.cases.filter((c) => held.has(c.case_id)).reduce((s, c) => s + c.trials, 0);
    expect([correct, trials]).toEqual([
      result.outcome.held_out.after.numerator,
      result.outcome.held_out.after.denominator,
    ]);
    // The diff report between the two registries names the changed definition.
    expect(readFileSync(join(dir, "reports", "ex", "diff.md"), "utf8")).toContain(
      "update_shipping_address",
    );

    // Resumed with the same flags: every run is kept, nothing is asked, the same revision kept.
    const resumed = await runCli(
      ["tune", "-c", CONFIG, "--resume", "reports/ex", "--no-progress", "-f", "json"],
      dir,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const again = JSON.parse(resumed.stdout) as TuneResult;
    expect(again.calls).toBe(0);
    expect(again.rounds.map((r) => r.accepted)).toEqual(result.rounds.map((r) => r.accepted));
    const other = await runCli(
      ["tune", "-c", CONFIG, "--resume", "reports/ex", "--holdout", "0.4"],
      dir,
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("--resume");
    expect(other.stderr).toContain("resume with the same flags");

    // docs/tune.md prints the proposer's system prompt, its function and this run's brief as sent.
    const docs = readFileSync(join(ROOT, "docs", "tune.md"), "utf8");
    expect(docs).toContain(`\`\`\`text\n${PROPOSER_SYSTEM}\n\`\`\``);
    const fenced = (lang: string, from: number) => {
      const start = docs.indexOf(`\`\`\`${lang}\n`, from) + lang.length + 4;
      return docs.slice(start, docs.indexOf("\n```", start));
    };
    expect(JSON.parse(fenced("json", 0))).toEqual(PROPOSE_DEFINITION);
    const config = loadConfig(join(dir, CONFIG), {}, dir, "other");
    const cases = loadCases(config);
    const base = reportOf(join(dir, "reports", "ex", "runs", "base"));
    const briefs = briefsOf(
      cases,
      new Map(base.cases.map((row) => [row.case_id, row])),
      splitCases(cases, config.seed, 0.5),
      cases[0].registry,
    );
    const brief = briefs.find((b) => b.tool === "update_customer_address");
    expect(fenced("text", docs.indexOf("and the brief as the user's message"))).toBe(
      proposalPrompt(brief!),
    );

    // The page: candidate cards with the word diff marked, text escaped.
    const page = await runCli(
      [
        "tune",
        "-c",
        CONFIG,
        "--resume",
        "reports/ex",
        "--no-progress",
        "-f",
        "html",
        "-o",
        "tune.html",
      ],
      dir,
    );
    expect(page.code, page.stderr).toBe(0);
    const html = readFileSync(join(dir, "tune.html"), "utf8");
    expect(html).toContain("<ins>");
    expect(html).toContain("r1-1-update_shipping_address");
  }, 240_000);

  it("--apply writes over the registry; --budget stops before a round it cannot pay for", async () => {
    const dir = copyExample();
    const applied = await runCli(
      ["tune", "-c", CONFIG, "--id", "a", "--rounds", "1", "--apply", "--no-progress"],
      dir,
    );
    expect(applied.code, applied.stderr).toBe(0);
    expect(readFileSync(join(dir, "registries", "commerce.yaml"), "utf8")).toContain(
      'revision: "2026-11-29.2"',
    );
    expect(existsSync(join(dir, "registries", "commerce.tuned.yaml"))).toBe(false);
    expect(readTune(dir, "a").stop.reason).toBe("rounds");

    const poor = await runCli(
      ["tune", "-c", CONFIG, "--id", "b", "--budget", "500", "--no-progress"],
      dir,
    );
    expect(poor.code, poor.stderr).toBe(0);
    const result = readTune(dir, "b");
    expect(result.rounds).toEqual([]);
    expect(result.stop.reason).toBe("budget");
    expect(result.stop.detail).toContain("a candidate costs up to 408 calls");
    expect(result.registry.written).toBeNull();
  }, 240_000);

  it("a command proposer: its revision is tested like any other, its unreadable replies are said", async () => {
    const dir = copyExample();
    writeFileSync(
      join(dir, "proposer.js"),
      `let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  const { brief, prompt } = JSON.parse(input);
  if (!prompt.includes(brief.tool)) process.exit(3);
  if (brief.tool === "update_shipping_address")
    console.log(JSON.stringify({ use_when: [...brief.use_when, "The customer wants to reroute a package somewhere else instead."], why: "reroute words" }));
  else if (brief.tool === "update_customer_address") console.log("not json");
  else console.log(JSON.stringify({ use_when: "one line", why: "wrong type" }));
});
`,
    );
    const tune = await runCli(
      [
        "tune",
        "-c",
        CONFIG,
        "--id",
        "c",
        "--rounds",
        "1",
        "--proposer-command",
        "node proposer.js",
        "--no-progress",
        "-f",
        "json",
      ],
      dir,
    );
    expect(tune.code, tune.stderr).toBe(0);
    const result = JSON.parse(tune.stdout) as TuneResult;
    expect(result.proposer).toEqual({ kind: "command", command: "node proposer.js" });
    const [round] = result.rounds;
    expect(round.candidates.map((c) => [c.revision.tool, c.revision.by, c.verdict])).toEqual([
      ["update_shipping_address", "command", "accepted"],
    ]);
    expect(round.notes).toContain(
      "proposer command for update_customer_address: stdout is not JSON (expected a revision object or a list of them)",
    );
    expect(round.notes.some((n) => n.includes("use_when: expected a list of text"))).toBe(true);
  }, 240_000);

  it("refuses what it cannot do, with the reason (exit 2)", async () => {
    const dir = copyExample();
    const endpoint = await runCli(["tune", "-c", CONFIG, "--proposer", "endpoint"], dir);
    expect(endpoint.code).toBe(2);
    expect(endpoint.stderr).toContain(
      "the baseline endpoint routes by word overlap and cannot write a revision",
    );
    const holdout = await runCli(["tune", "-c", CONFIG, "--holdout", "1.5"], dir);
    expect(holdout.code).toBe(2);
    expect(holdout.stderr).toContain("between 0 and 1");
    const dry = await runCli(["tune", "-c", CONFIG, "--dry-run", "--trials", "2"], dir);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      "dry run: 136 cases (68 tune, 68 held out) × 2 trials: the base run asks up to 272 calls, each round up to 4 candidates × 272; at most 3 rounds: ≤ 3536 calls (a store hit costs none; tokens per round are said once the base run has measured them)\n",
    );
    expect(dry.stderr).toContain("the per-case guards are blind");
    expect(existsSync(join(dir, "reports"))).toBe(false);
    const missing = await runCli(["tune", "-c", CONFIG, "--resume", "reports/nothing"], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no tune.json there");
  });
});
