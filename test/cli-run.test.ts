import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./support/cli.js";
import { readRecords } from "../src/run-files/records-io.js";
import { expectGolden, normalise, steady } from "./support/golden.js";
import { offeredTools, openaiReply, startFakeServer } from "./fixtures/fake-provider.js";

const PROJECT = fileURLToPath(new URL("./fixtures/golden/", import.meta.url)).replace(/\/$/, "");
const CONFIG = join(PROJECT, "route-eval.yaml");
const FORMATS = { terminal: "txt", markdown: "md", json: "json", junit: "xml" } as const;

async function runGolden(format: keyof typeof FORMATS) {
  const out = tempDir();
  const result = await runCli([
    "run",
    "-c",
    CONFIG,
    "--out",
    out,
    "--run-id",
    "golden",
    "-f",
    format,
  ]);
  return {
    ...result,
    out,
    runDir: join(out, "golden"),
    text: normalise(result.stdout, { "<out>": out, "<root>": PROJECT }),
  };
}

describe("route-eval run on the golden fixture project", () => {
  it("replays from the store exactly as the golden file, with no request", async () => {
    const fake = await startFakeServer((request) =>
      openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
    );
    try {
      const dir = tempDir();
      cpSync(PROJECT, dir, { recursive: true });
      const where = { cwd: dir, env: { OPENAI_API_KEY: "sk-test-replay-0123456789" } };
      const flags = ["-e", "openai:test-model", "--base-url", `${fake.url}/v1`, "--no-gates"];
      const fill = await runCli(["run", ...flags, "--mode", "cached", "--run-id", "fill"], where);
      expect(fill.code, fill.stderr).toBe(0);
      const asked = fake.requests.length;
      expect(asked).toBe(22);
      const replay = await runCli(
        ["run", ...flags, "--mode", "replay", "--run-id", "replayed"],
        where,
      );
      expect(replay.code, replay.stderr).toBe(0);
      expect(fake.requests.length).toBe(asked);
      expectGolden("run-replayed.txt", steady(replay.stdout, dir));
    } finally {
      await fake.close();
    }
  }, 120_000);

  for (const format of Object.keys(FORMATS) as (keyof typeof FORMATS)[]) {
    it(`renders ${format} exactly as the golden file`, async () => {
      const { code, text, stderr } = await runGolden(format);
      expect(code).toBe(1); // two of its three gates fail by design
      expect(stderr).toMatch(
        /^run directory: .*golden\nroute-eval: 22\/22 trials \(100%\) · 0 errored · 0 retries · took \d+(\.\d+)?m?s\nrecords and report: .*golden\n(route-eval: gate failed: .*\n){2}$/,
      );
      // Every exit 1 says why, whatever the format: each failed gate with its value and population.
      expect(stderr).toContain(
        "route-eval: gate failed: selection_accuracy >= 0.9: selection_accuracy ",
      );
      expectGolden(`run.${FORMATS[format]}`, text);
    });
  }

  it("writes one record per case × trial and a report.json with schema_version first", async () => {
    const { runDir } = await runGolden("json");
    const lines = readFileSync(join(runDir, "records.jsonl"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(11 * 2);
    const keys = lines.map((line) => {
      const r = JSON.parse(line);
      return `${r.case_id}#${r.trial}`;
    });
    expect(new Set(keys).size).toBe(22);
    expect(
      readFileSync(join(runDir, "report.json"), "utf8").startsWith('{\n  "schema_version": 2,'),
    ).toBe(true);
    expect(readdirSync(runDir).sort()).toEqual([
      "records.jsonl",
      "report.json",
      "run.json",
      "sets.jsonl",
    ]);
  });

  it("`report` recomputes the same report.json from records.jsonl", async () => {
    const { runDir } = await runGolden("json");
    const original = readFileSync(join(runDir, "report.json"), "utf8");
    const again = await runCli(["report", runDir, "-f", "json"]);
    expect(again.code).toBe(1);
    expect(readFileSync(join(runDir, "report.json"), "utf8")).toBe(original);
    expect(again.stdout).toBe(original);
  });

  it("`report` reads records written by another tool with only the required fields", async () => {
    const { runDir } = await runGolden("json");
    const report = JSON.parse(readFileSync(join(runDir, "report.json"), "utf8"));
    const foreign = join(tempDir(), "foreign-run");
    // The inline form (records format 1): every set in every record, no sets.jsonl.
    const required = [
      "case_id",
      "trial",
      "acceptable",
      "forbidden",
      "registry_names",
      "exposed_names",
      "retrieved_names",
      "visible_order",
      "retrieval_k",
      "selected",
      "argument_errors",
      "argument_match",
      "phase",
      "family",
      "tags",
      "must_see",
      "must_not_see",
      "retrieval",
      "usage",
    ] as const;
    const lines = readRecords(join(runDir, "records.jsonl")).map((r) =>
      JSON.stringify(Object.fromEntries(required.map((key) => [key, r[key]]))),
    );
    mkdirSync(foreign);
    writeFileSync(join(foreign, "records.jsonl"), lines.join("\n") + "\n");
    const result = await runCli(["report", foreign, "-f", "json", "--no-gates"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const recomputed = JSON.parse(result.stdout);
    expect(recomputed.metrics).toEqual(report.metrics);
    expect(recomputed.cases).toEqual(report.cases);
  });

  it("`report` names the line of a malformed record and exits 2", async () => {
    const { runDir } = await runGolden("json");
    const file = join(runDir, "records.jsonl");
    const lines = readFileSync(file, "utf8").split("\n");
    lines[2] = lines[2].slice(0, 40);
    writeFileSync(file, lines.join("\n"));
    const result = await runCli(["report", runDir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^route-eval: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3: not valid JSON \\(.*\\); each line must be one trial record\\n$`,
      ),
    );
  });

  it("`report` names a record that misses a required field", async () => {
    const { runDir } = await runGolden("json");
    const file = join(runDir, "records.jsonl");
    const lines = readFileSync(file, "utf8").trim().split("\n");
    const r = JSON.parse(lines[4]);
    delete r.acceptable;
    lines[4] = JSON.stringify(r);
    writeFileSync(file, lines.join("\n") + "\n");
    const result = await runCli(["report", runDir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `route-eval: ${file}:5: trial record: missing required field "acceptable"\n`,
    );
  });

  it("exits 0 with --no-gates when no exposure assertion fails", async () => {
    const out = tempDir();
    const result = await runCli(["run", "-c", CONFIG, "--out", out, "--no-gates", "-f", "json"]);
    expect(result.code).toBe(0);
    expect(existsSync(out)).toBe(true);
  });
});
