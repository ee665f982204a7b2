/**
 * The records format: records name their shared sets (sets.jsonl) and keep only the top of the
 * retriever's ranking, and records in the inline form of format 1 read exactly as before.
 * The legacy fixture was written by route-eval before format 2, with its report, markdown,
 * terminal and `show` outputs as that version rendered them.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "./support/cli.js";

const LEGACY = fileURLToPath(new URL("./fixtures/legacy-v1/", import.meta.url));
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const legacyFile = (name: string): string => {
  const bytes = readFileSync(join(LEGACY, name));
  return (name.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
};
const withoutVersion = (text: string) =>
  text.replace(/"tool_version": "[^"]+"/g, '"tool_version": "<version>"');

let legacy: string;
let current: string;
const dirs: string[] = [];

beforeAll(async () => {
  const base = tempDir();
  dirs.push(base);
  legacy = join(base, "legacy");
  mkdirSync(legacy);
  copyFileSync(join(LEGACY, "run.json"), join(legacy, "run.json"));
  writeFileSync(join(legacy, "records.jsonl"), legacyFile("records.jsonl.gz"));
  // The same decisions as the fixture, run today: bundled example (its single-decision cases, as
  // when the fixture was written), bm25 k=4, shuffled, 2 trials.
  const singles = [
    "billing",
    "customers",
    "fulfilment",
    "messaging",
    "orders",
    "out-of-scope",
    "safety",
  ].map((name) => `cases/${name}.yaml`);
  const flags = [
    "run",
    "--cases",
    ...singles,
    "--retriever",
    "bm25",
    "-k",
    "4",
    "--shuffle-tools",
    "-n",
    "2",
    "--no-progress",
    "--no-step-summary",
    "--out-dir",
    base,
    "--run-id",
    "current",
    "-f",
    "json",
  ];
  const result = await runCli(flags, ROOT);
  expect(result.code, result.stderr).toBe(0);
  current = join(base, "current");
});

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("records in the inline form (format 1)", () => {
  it("give byte-identical reports in every format, and the same `show`", async () => {
    const json = await runCli(["report", legacy, "-f", "json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(withoutVersion(json.stdout)).toBe(withoutVersion(legacyFile("report.json.txt.gz")));
    // The legacy renderings were captured when output of unknown width was laid out at 100 columns.
    const wide = { env: { COLUMNS: "100" } };
    for (const format of ["terminal", "markdown"] as const) {
      expect((await runCli(["report", legacy, "-f", format], wide)).stdout).toBe(
        legacyFile(`report.${format}.txt`),
      );
    }
    expect((await runCli(["show", legacy, "--case", "refund-over-limit"], wide)).stdout).toBe(
      legacyFile("show.txt"),
    );
  });
});

describe("records in the referenced form (format 2)", () => {
  it("name the registry and exposed sets by id and keep each set once in sets.jsonl", () => {
    const lines = readFileSync(join(current, "records.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const sets = readFileSync(join(current, "sets.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const ids = sets.map((set) => set.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const record of lines) {
      expect(record).not.toHaveProperty("registry_names");
      expect(record).not.toHaveProperty("exposed_names");
      expect(record).not.toHaveProperty("retrieval_scores");
      expect(ids).toContain(record.registry_set);
      expect(ids).toContain(record.exposed_set);
      expect(record.visible_order.length).toBeLessThanOrEqual(4 + 3);
      expect(record.retrieval.top.length).toBeLessThanOrEqual(4 + 3);
    }
    // One registry and one exposed set per phase, each once (admin exposes the whole registry: the same set).
    expect(new Set(lines.map((r) => r.registry_set)).size).toBe(1);
    expect(sets.length).toBe(new Set(lines.flatMap((r) => [r.registry_set, r.exposed_set])).size);
  });

  it("give the same report, `show` and a clean diff as the same decisions in the inline form", async () => {
    const old = JSON.parse(legacyFile("report.json.txt.gz"));
    const now = JSON.parse((await runCli(["report", current, "-f", "json"])).stdout);
    // Input tokens are estimated from the request text, and the model-facing descriptions read
    // more cleanly since this fixture was written (no ".;"): every other number is the same.
    expect({ ...now.metrics, input_tokens: null }).toEqual({ ...old.metrics, input_tokens: null });
    expect(now.metrics.input_tokens.mean).toBeCloseTo(old.metrics.input_tokens.mean, -1);
    expect(now.cases).toEqual(old.cases);
    // The same explanation; only the description text reads ". " where it read ".; " then.
    const squeeze = (text: string) => text.replaceAll(".;", ".").replace(/[─│ \n]+/g, " ");
    expect(squeeze((await runCli(["show", current, "--case", "refund-over-limit"])).stdout)).toBe(
      squeeze(legacyFile("show.txt")),
    );
    const diff = await runCli(["diff", legacy, current]);
    expect(diff.code, diff.stderr).toBe(0);
    const said = diff.stdout.replace(/\s+/g, " ");
    expect(said).toContain("0 fixed vs 0 regressed of 83 cases scored in both runs");
    expect(said).toContain("0 fixed vs 0 regressed of 166 trial pairs");
  });

  it("a records file without the sets it names is a one-line error naming the line and the fix", async () => {
    const alone = join(dirs[0], "alone");
    mkdirSync(alone);
    copyFileSync(join(current, "records.jsonl"), join(alone, "records.jsonl"));
    const result = await runCli(["report", alone]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^route-eval: .*alone\/records\.jsonl:1: trial record names registry_set "[0-9a-f]{16}", which is not in sets\.jsonl beside it; keep a run's sets\.jsonl with its records\.jsonl\n$/,
    );
  });

  it("--resume appends to sets.jsonl only the sets it has not seen", async () => {
    const resumed = join(dirs[0], "resumed");
    mkdirSync(resumed);
    for (const file of readdirSync(current)) copyFileSync(join(current, file), join(resumed, file));
    const lines = readFileSync(join(resumed, "records.jsonl"), "utf8").trim().split("\n");
    writeFileSync(join(resumed, "records.jsonl"), lines.slice(0, 10).join("\n") + "\n");
    const setsBefore = readFileSync(join(resumed, "sets.jsonl"), "utf8");
    const result = await runCli(
      ["run", "--resume", resumed, "--no-progress", "--no-step-summary", "-f", "json"],
      ROOT,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(resumed, "sets.jsonl"), "utf8")).toBe(setsBefore);
    expect(readFileSync(join(resumed, "records.jsonl"), "utf8").trim().split("\n")).toHaveLength(
      lines.length,
    );
    expect(existsSync(join(resumed, "report.json"))).toBe(true);
  });
});
