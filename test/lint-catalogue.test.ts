/**
 * lint and run on a catalogue the size of LiveMCPBench's (527 tools from 70 MCP servers,
 * test/fixtures/catalogue): the text summary fits a screen and says how to see the rest; rival
 * clusters never chain (every member is a rival of every other, while the rival pairs themselves
 * connect hundreds of tools); a tool whose schema is undeclared draft-04 is read as draft-04 with
 * a warning naming it, in lint and in run, instead of stopping the run of all 527.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { findClusters } from "../src/lint/find-clusters.js";
import {
  describeForSimilarity,
  FAMILY_GROUP_MAX,
  findRivalPairs,
  findRivals,
  NAME_THRESHOLD,
  TEXT_THRESHOLD,
} from "../src/lint/find-rivals.js";
import { relateNames, splitName } from "../src/lint/name-parts.js";
import { buildTfIdf, cosine } from "../src/text/tfidf.js";
import { expectGolden } from "./support/golden.js";
import { displayWidth } from "../src/render/text-layout.js";
import { generateCatalogue } from "./fixtures/catalogue/generate.js";
import { runCli, tempDir } from "./support/cli.js";

const tools = generateCatalogue();
const draft04 = tools.find((tool) =>
  JSON.stringify(tool.input_schema).includes('"exclusiveMinimum":true'),
);
let dir = "";

beforeAll(() => {
  dir = tempDir("route-eval-catalogue-");
  writeFileSync(
    join(dir, "catalogue.yaml"),
    stringify({ snapshot: "catalogue", revision: "1", tools }),
  );
  const cases = tools
    .filter((_, i) => i % 53 === 0)
    .map((tool, i) => ({
      id: `case-${i}`,
      goal: `Please ${tool.name.replace(/_/g, " ")} for me.`,
      acceptable: [tool.name],
    }));
  cases.push({
    id: "uses-the-draft-04-tool",
    goal: `Please ${draft04?.name.replace(/_/g, " ")} within 5 km.`,
    acceptable: [draft04?.name ?? ""],
  });
  writeFileSync(join(dir, "cases.yaml"), stringify({ registry: "catalogue.yaml", cases }));
  writeFileSync(
    join(dir, "route-eval.yaml"),
    stringify({ cases: ["cases.yaml"], trials: 1, controls: ["ask_user", "no_applicable_tool"] }),
  );
});

describe("a 527-tool catalogue from 70 servers", () => {
  it("is the size of LiveMCPBench's", () => {
    expect(tools).toHaveLength(527);
    expect(new Set(tools.map((tool) => tool.family)).size).toBe(70);
    expect(draft04).toBeDefined();
  });

  it("lint's text fits a screen at 80 columns: the worst of each rule, counts, and how to list the rest", async () => {
    const result = await runCli(["lint"], { cwd: dir, env: { COLUMNS: "80" } });
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines.length).toBeLessThanOrEqual(60);
    expect(Math.max(...lines.map((line) => displayWidth(line)))).toBeLessThanOrEqual(80);
    expect(result.stdout).toMatch(/^rival-cluster · \d+ warnings — /m);
    expect(result.stdout).toMatch(
      /^\d+ of \d+ findings not shown, and no fixes: route-eval lint --all lists every/m,
    );
    expect(lines.at(-1)).toMatch(
      /^527 tools in 1 registry, 11 cases in 1 file: \d+ errors?, \d+ warnings?, \d+ info$/,
    );
    // --all: every finding on its own file:line line, as before.
    const all = await runCli(["lint", "--all"], { cwd: dir, env: { COLUMNS: "80" } });
    const json = JSON.parse((await runCli(["lint", "--format", "json"], dir)).stdout);
    expect(
      all.stdout
        .split("\n")
        .filter((line) =>
          /^(catalogue|cases|route-eval)\.yaml(:\d+)?: (error|warning|info) /.test(line),
        ),
    ).toHaveLength(json.findings.length);
  });

  it("clusters rivals without chaining: every member of a cluster is a rival of every other", async () => {
    const json = JSON.parse((await runCli(["lint", "--format", "json"], dir)).stdout);
    const clusters = (json.findings as { rule: string; tool: string; related: string[] }[])
      .filter((f) => f.rule === "rival-cluster")
      .map((f) => [f.tool, ...f.related]);
    expect(clusters.length).toBeGreaterThan(0);
    const pairs = findRivals(tools);
    const score = new Map(pairs.map((p) => [[p.a.name, p.b.name].sort().join(" "), p]));
    for (const members of clusters) {
      for (const [i, a] of members.entries()) {
        for (const b of members.slice(i + 1)) {
          const pair = score.get([a, b].sort().join(" "));
          expect(pair, `${a} – ${b} in one cluster`).toBeDefined();
          expect(
            pair !== undefined && (pair.text >= TEXT_THRESHOLD || pair.names >= NAME_THRESHOLD),
          ).toBe(true);
        }
      }
    }
    // The rival pairs themselves link far more tools than any cluster holds: chaining them (single
    // linkage) would have made one "cluster" of unrelated tools.
    const component = largestComponent(pairs.map((p) => [p.a.name, p.b.name]));
    const largest = Math.max(
      ...findClusters(findRivalPairs(tools)).map((members) => members.length),
    );
    expect(component).toBeGreaterThan(3 * largest);
  });

  it("finds exactly the rival pairs of a comparison of every pair, scored and ordered alike", () => {
    const { vectors } = buildTfIdf(tools.map(describeForSimilarity));
    const parts = tools.map((tool) => splitName(tool.name));
    const familySize = new Map<string, number>();
    for (const [i, part] of parts.entries())
      familySize.set(
        `${part.verbKey} ${tools[i].family}`,
        (familySize.get(`${part.verbKey} ${tools[i].family}`) ?? 0) + 1,
      );
    const brute = [];
    for (let i = 0; i < tools.length; i++) {
      for (let j = i + 1; j < tools.length; j++) {
        const small = (k: number) =>
          parts[k].verbKey !== null &&
          (familySize.get(`${parts[k].verbKey} ${tools[k].family}`) ?? 0) <= FAMILY_GROUP_MAX;
        const family =
          small(i) && small(j) && tools[i].family === tools[j].family ? tools[i].family : null;
        const names = relateNames(parts[i], parts[j], family);
        const text = cosine(vectors[i], vectors[j]);
        if (text >= TEXT_THRESHOLD || names.score >= NAME_THRESHOLD)
          brute.push({
            ai: i,
            bi: j,
            score: Math.max(text, names.score),
            text,
            names: names.score,
            why: names.why,
          });
      }
    }
    brute.sort((x, y) => y.score - x.score || x.ai - y.ai || x.bi - y.bi);
    const found = findRivals(tools).map(({ ai, bi, score, text, names, why }) => ({
      ai,
      bi,
      score,
      text,
      names,
      why,
    }));
    expect(found.length).toBeGreaterThan(1000);
    expect(found).toEqual(brute);
  });

  it("lints the catalogue as before: the screen and the whole JSON (golden)", async () => {
    const text = await runCli(["lint"], { cwd: dir, env: { COLUMNS: "100" } });
    const json = await runCli(["lint", "--format", "json"], dir);
    const digest = createHash("sha256").update(json.stdout).digest("hex");
    expectGolden("lint-catalogue.txt", `${text.stdout}\nsha256 of --format json: ${digest}\n`);
  });

  it("reads an undeclared draft-04 schema as draft-04: lint warns, run proceeds and names the tool", async () => {
    const json = JSON.parse((await runCli(["lint", "--format", "json"], dir)).stdout);
    const inferred = (json.findings as { rule: string; tool: string; message: string }[]).filter(
      (f) => f.rule === "schema-dialect-inferred",
    );
    expect(inferred.map((f) => f.tool)).toEqual([draft04?.name]);
    expect(inferred[0].message).toContain("properties.radius_km: boolean exclusiveMinimum");
    expect(json.findings.filter((f: { rule: string }) => f.rule === "schema-invalid")).toEqual([]);
    const run = await runCli(["run", "--no-progress", "--no-gates", "-f", "json"], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `catalogue.yaml: warning: tool "${draft04?.name}": input_schema has no $schema but uses draft-04's boolean exclusiveMinimum (at properties.radius_km); read as draft-04`,
    );
    expect(JSON.parse(run.stdout).metrics.trials).toBe(11);
  }, 120_000);
});

function largestComponent(edges: string[][]): number {
  const parent = new Map<string, string>();
  const root = (x: string): string => {
    while (parent.get(x) !== x) x = parent.get(x) ?? x;
    return x;
  };
  for (const [a, b] of edges) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    parent.set(root(a), root(b));
  }
  const sizes = new Map<string, number>();
  for (const node of parent.keys()) sizes.set(root(node), (sizes.get(root(node)) ?? 0) + 1);
  return Math.max(...sizes.values());
}
