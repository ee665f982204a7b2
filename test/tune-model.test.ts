/**
 * route-eval tune with a model proposer, end to end through the real OpenAI SDK: a local server
 * whose routing follows the words of each tool's description (test/fixtures/keyword-model.ts,
 * seeded noise) also answers the proposer's requests, scripted to write one good revision (the
 * tool gains the words its requests use) and one bad one (a tool gains the words of another
 * tool's requests: it wins its own cases on both splits and takes the other tool's). The good one
 * is kept, the bad one rejected for what it did to the other tool, every figure of the evidence is
 * recomputed here from the runs' records, and no held-out goal ever reaches the proposer.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TrialRecord } from "../src/types.js";
import type { TuneResult } from "../src/types/tune.js";
import { runCli } from "./support/cli.js";
import { useFakeServers, type ReceivedRequest } from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject, type ToolSpec } from "./fixtures/live-project.js";
import { keywordModel } from "./fixtures/keyword-model.js";
import { fileSchemaErrors } from "./support/schemas.js";

afterAll(removeTempDirs);
const fake = useFakeServers();
const ENV = { OPENAI_API_KEY: "sk-test-tune-0123456789" };

const TOOLS: ToolSpec[] = [
  {
    name: "reroute_package",
    family: "shipping",
    purpose: "Send an unshipped order to a different address.",
  },
  { name: "track_package", family: "shipping", purpose: "Track a parcel with the carrier." },
  {
    name: "update_profile_address",
    family: "customers",
    purpose: "Change the address saved on a profile.",
  },
  {
    name: "get_order",
    family: "orders",
    purpose: "Look up an order: where it is going now, its items and its status.",
  },
];

const REDIRECT = [
  "office",
  "gym",
  "studio",
  "hotel",
  "cafe",
  "school",
  "locker",
  "shop",
  "reception",
  "cottage",
  "garage",
  "library",
];
const MOVED = [
  "Elm Street",
  "Mill Lane",
  "Park Row",
  "Oak Avenue",
  "Canal Walk",
  "Hill Road",
  "Bridge Street",
  "Station Road",
];
const LOOKUP = [
  "going now",
  "status now",
  "items now",
  "going right now",
  "status right now",
  "items right now",
  "going now exactly",
  "status now exactly",
];

const CASES = [
  ...REDIRECT.map((place) => ({
    id: `redirect-${place}`,
    goal: `redirect my parcel to the ${place} instead`,
    acceptable: ["reroute_package"],
    family: "redirect",
  })),
  ...MOVED.map((street) => ({
    id: `moved-${street.toLowerCase().replace(" ", "-")}`,
    goal: `we moved house, ${street} from today`,
    acceptable: ["update_profile_address"],
    family: "moved",
  })),
  ...LOOKUP.map((what, i) => ({
    id: `lookup-${i}`,
    goal: `where is my order ord_${i}, ${what}`,
    acceptable: ["get_order"],
    family: "lookup",
  })),
];

const GOOD = {
  use_when: ["The customer asks to redirect a parcel somewhere else instead."],
  why: "names the words redirect requests use",
};
const BAD = {
  use_when: ["Someone moved house, or asks where an order is going now, its status or items."],
  why: "catches every request about where things go",
};

/** The scripted proposer: by the tool its prompt names. */
function propose(request: ReceivedRequest): unknown {
  const messages = request.body.messages as { role: string; content: string }[];
  const prompt = messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
  const tool = /^Tool: (\S+)/m.exec(prompt)?.[1];
  if (tool === "reroute_package") return GOOD;
  if (tool === "update_profile_address") return BAD;
  return { why: "nothing to change" };
}

function records(file: string): TrialRecord[] {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as TrialRecord);
}

/** Per case: correct and scored trials, from a run's records alone. */
function tally(runDir: string): Map<string, { correct: number; scored: number }> {
  const out = new Map<string, { correct: number; scored: number }>();
  for (const r of records(join(runDir, "records.jsonl"))) {
    const t = out.get(r.case_id) ?? { correct: 0, scored: 0 };
    if (r.error === null) {
      t.scored += 1;
      if (r.failed_stage === null) t.correct += 1;
    }
    out.set(r.case_id, t);
  }
  return out;
}

function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/** P(X ≥ up), X ~ Binomial(up + down, 1/2). */
function signP(up: number, down: number): number {
  const n = up + down;
  if (n === 0) return 1;
  let p = 0;
  for (let i = up; i <= n; i++) p += choose(n, i) / 2 ** n;
  return p;
}

/** One-sided Fisher: P(current successes ≤ observed) under the hypergeometric. */
function fisher(b: number, bn: number, c: number, cn: number): number {
  const k = b + c;
  const n = bn + cn;
  let p = 0;
  for (let x = Math.max(0, cn - (n - k)); x <= Math.min(c, k); x++)
    p += (choose(k, x) * choose(n - k, cn - x)) / choose(n, cn);
  return p;
}

describe("tune with the endpoint as proposer, on a keyword-driven seeded-random model", () => {
  it("keeps the good revision, rejects the one that takes another tool's cases, and every figure follows from the records", async () => {
    const dir = writeProject(TOOLS, CASES);
    const server = await fake.start(keywordModel(propose));
    const args = [
      "tune",
      "-e",
      "openai:keyword-model",
      "--base-url",
      `${server.url}/v1`,
      "--proposer",
      "endpoint",
      "--trials",
      "4",
      "--retry-base-ms",
      "1",
      "--no-progress",
      "--id",
      "kw",
      "-f",
      "json",
    ];
    const tune = await runCli(args, { cwd: dir, env: ENV });
    expect(tune.code, tune.stderr).toBe(0);
    const tuneDir = join(dir, "reports", "kw");
    const result = JSON.parse(readFileSync(join(tuneDir, "tune.json"), "utf8")) as TuneResult;
    expect(JSON.parse(tune.stdout)).toEqual(result);
    expect(fileSchemaErrors("tune.schema.json", join(tuneDir, "tune.json"))).toBeNull();

    const [first] = result.rounds;
    const byTool = new Map(first.candidates.map((c) => [c.revision.tool, c]));
    const good = byTool.get("reroute_package");
    const bad = byTool.get("update_profile_address");
    expect(good?.verdict).toBe("accepted");
    expect(bad?.verdict).toBe("rejected");
    expect(first.accepted).toBe(good?.id);
    // The bad one won its own cases on the tune split, and took get_order's.
    expect(bad?.evidence.tune.up.filter((id) => id.startsWith("moved-")).length).toBeGreaterThan(0);
    expect(bad?.evidence.blast.map((b) => b.tool)).toEqual(["get_order"]);
    expect(bad?.reasons.some((r) => r.startsWith("blast radius: get_order"))).toBe(true);
    expect(bad?.evidence.regressions.every((r) => r.case_id.startsWith("lookup-"))).toBe(true);
    expect(bad?.evidence.regressions.length).toBeGreaterThan(0);

    // Every figure again, from the records.
    const held = new Set(result.split.held_out);
    const base = tally(join(tuneDir, "runs", "base"));
    const pValues: number[] = [];
    for (const candidate of first.candidates) {
      const after = tally(join(tuneDir, candidate.run));
      const share = (t: { correct: number; scored: number }) => t.correct / t.scored;
      const ids = [...base.keys()].filter((id) => held.has(id)).sort();
      const up = ids.filter((id) => share(after.get(id)!) > share(base.get(id)!));
      const down = ids.filter((id) => share(after.get(id)!) < share(base.get(id)!));
      expect([...candidate.evidence.held_out.up].sort()).toEqual(up);
      expect([...candidate.evidence.held_out.down].sort()).toEqual(down);
      expect(candidate.evidence.test.p_value).toBeCloseTo(signP(up.length, down.length), 12);
      pValues.push(signP(up.length, down.length));
      const correct = (t: Map<string, { correct: number }>) =>
        ids.reduce((s, id) => s + t.get(id)!.correct, 0);
      expect(candidate.evidence.held_out.before.numerator).toBe(correct(base));
      expect(candidate.evidence.held_out.after.numerator).toBe(correct(after));
      const drops = ids
        .filter(
          (id) =>
            fisher(
              base.get(id)!.correct,
              base.get(id)!.scored,
              after.get(id)!.correct,
              after.get(id)!.scored,
            ) < 0.1,
        )
        .sort();
      expect(candidate.evidence.regressions.map((r) => r.case_id).sort()).toEqual(drops);
    }
    // Holm across the round's candidates.
    const m = pValues.length;
    const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
    let running = 0;
    for (const [rank, [p, i]] of order.entries()) {
      running = Math.max(running, Math.min(1, (m - rank) * p));
      expect(first.candidates[i].evidence.test.p_holm).toBeCloseTo(running, 12);
    }
    expect(good!.evidence.test.p_holm).toBeLessThan(0.05);

    // The proposer saw tune goals only.
    const prompts = server.requests
      .filter((r) => JSON.stringify(r.body.tools).includes("propose_revision"))
      .map((r) => JSON.stringify(r.body.messages));
    expect(prompts.length).toBeGreaterThan(0);
    for (const c of CASES.filter((c) => held.has(c.id)))
      for (const prompt of prompts) expect(prompt).not.toContain(c.goal);
    expect(prompts.some((p) => p.includes("redirect my parcel"))).toBe(true);

    // The tuned snapshot holds the good revision only, and its run is the accepted run.
    const tuned = JSON.parse(
      JSON.stringify(
        (await import("yaml")).parse(
          readFileSync(join(dir, "registries", "shop.tuned.yaml"), "utf8"),
        ),
      ),
    );
    const reroute = tuned.tools.find((t: { name: string }) => t.name === "reroute_package");
    expect(reroute.use_when).toEqual(GOOD.use_when);
    expect(
      tuned.tools.find((t: { name: string }) => t.name === "update_profile_address").use_when,
    ).toBeUndefined();
    expect(tuned.revision).toBe("2");

    // A second tune asks nothing new: every routing and proposer request comes from the store.
    const seen = server.requests.length;
    const again = await runCli([...args.slice(0, -4), "--id", "kw2", "-f", "json"], {
      cwd: dir,
      env: ENV,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests.length).toBe(seen);
    const second = JSON.parse(again.stdout) as TuneResult;
    expect(second.calls).toBe(0);
    expect(second.rounds.map((r) => r.accepted)).toEqual(result.rounds.map((r) => r.accepted));
  }, 120_000);
});
