/**
 * Bad YAML is bad input: 600 seeded mutations of a small project's config, registry and case
 * files, each run through `route-eval run` (baseline) or `route-eval lint` in-process. Every one
 * must end with exit 0, 1 or 2 — never 3 or 4 (a bug) — and never print a stack trace.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { seededRandom } from "../src/text/seeded-random.js";
import { CASES, TOOLS, removeTempDirs, makeTempDir } from "./fixtures/live-project.js";
import { runCli } from "./support/cli.js";

afterAll(removeTempDirs);

const FILES = {
  "route-eval.yaml": stringify({
    cases: ["cases/*.yaml"],
    phases: { orders: { families: ["orders"] }, payments: { families: ["payments", "orders"] } },
    controls: ["no_applicable_tool"],
    trials: 1,
    concurrency: 2,
    out_dir: "reports",
    store_dir: ".store",
    gates: { selection_accuracy: ">= 0.1" },
  }),
  "registries/shop.yaml": stringify({
    snapshot: "shop",
    revision: "1",
    tools: TOOLS.map((t) => ({ effect: "read_only", ...t })),
  }),
  "cases/cases.yaml": stringify({ registry: "../registries/shop.yaml", cases: CASES }),
};
type Name = keyof typeof FILES;
const NAMES = Object.keys(FILES) as Name[];

const SNIPPETS = [
  "*a",
  "&a ",
  "*nope",
  ": ",
  "- ",
  "[",
  "]",
  "{",
  "}",
  '"',
  "'",
  "!!binary ",
  "!!str ",
  "%YAML 1.2\n",
  "---\n",
  "? ",
  "|\n",
  ">\n",
  "\t",
  "\u0000",
  "\u0007",
  "\u001b[2J",
  "\u202e",
  "~",
  "null",
  "-1",
  "1e999",
  "0x1F",
  "  ",
  "\n  - ",
  "#",
  "@",
  "`",
  "<<: *a\n",
];
const BOMB =
  "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n";

function mutate(text: string, random: () => number): string {
  const lines = text.split("\n");
  const pick = (n: number) => Math.floor(random() * n);
  switch (pick(8)) {
    case 0:
      lines.splice(pick(lines.length), 1);
      break;
    case 1: {
      const i = pick(lines.length);
      lines.splice(i, 0, lines[i]);
      break;
    }
    case 2: {
      const [i, j] = [pick(lines.length), pick(lines.length)];
      [lines[i], lines[j]] = [lines[j], lines[i]];
      break;
    }
    case 3: {
      const i = pick(lines.length);
      const at = pick(lines[i].length + 1);
      lines[i] = lines[i].slice(0, at) + SNIPPETS[pick(SNIPPETS.length)] + lines[i].slice(at);
      break;
    }
    case 4:
      return text.slice(0, pick(text.length));
    case 5: {
      const i = pick(lines.length);
      lines[i] = (random() < 0.5 ? "  " : "") + lines[i].replace(/^ {1,2}/, "");
      break;
    }
    case 6: {
      const i = pick(lines.length);
      lines[i] = lines[i].replace(/: .*$/, ": *a");
      break;
    }
    default:
      return random() < 0.5 ? BOMB : `${text}\n${BOMB}`;
  }
  return lines.join("\n");
}

describe("fuzzed projects", () => {
  it("600 seeded mutations: exit codes 0–2 only, no stack trace, no internal error", async () => {
    const random = seededRandom(20261201);
    const seen = new Map<number, number>();
    const dir = makeTempDir("route-eval-fuzz-");
    for (let i = 0; i < 600; i++) {
      const project = join(dir, String(i));
      mkdirSync(join(project, "registries"), { recursive: true });
      mkdirSync(join(project, "cases"), { recursive: true });
      const target = NAMES[i % NAMES.length];
      for (const name of NAMES) {
        let text = FILES[name];
        if (name === target)
          for (let m = 0, n = 1 + Math.floor(random() * 3); m < n; m++) text = mutate(text, random);
        writeFileSync(join(project, name), text);
      }
      const command =
        i % 4 === 3 ? ["lint"] : ["run", "--no-progress", "--no-step-summary", "-f", "json"];
      const result = await runCli(command, project);
      seen.set(result.code, (seen.get(result.code) ?? 0) + 1);
      const context = `mutation ${i} of ${target}:\n${readFileSync(join(project, target), "utf8").slice(0, 400)}\n→ ${result.stderr}`;
      expect(result.code, context).toBeLessThanOrEqual(2);
      expect(result.stderr, context).not.toMatch(/internal error|\n\s+at |Error: /);
    }
    // The mutations must reach both sides: some still run, most are refused as bad input.
    expect(seen.get(2) ?? 0).toBeGreaterThan(100);
    expect((seen.get(0) ?? 0) + (seen.get(1) ?? 0)).toBeGreaterThan(30);
  }, 120_000);
});
