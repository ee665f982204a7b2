import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { argv, captureIo } from "./support/io.js";
import { expectGolden } from "./support/golden.js";

const CONFIG = fileURLToPath(new URL("./fixtures/show/route-eval.yaml", import.meta.url));
let out: string;
let run: string;

/** Runs `show` and replaces the temporary run directory with a stable placeholder. */
async function show(...args: string[]): Promise<{ code: number; text: string; err: string }> {
  const captured = captureIo();
  const code = await main(argv("show", run, ...args), captured.io);
  return {
    code,
    text: captured.stdout().split(run).join("<run>"),
    err: captured.stderr().split(run).join("<run>"),
  };
}

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "route-eval-show-"));
  run = join(out, "golden");
  const captured = captureIo();
  const code = await main(
    argv("run", "-c", CONFIG, "--run-id", "golden", "--out-dir", out, "--no-gates", "-f", "json"),
    captured.io,
  );
  if (code !== 0) throw new Error(`fixture run failed (${code}): ${captured.stderr()}`);
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("route-eval show (golden, baseline endpoint on test/fixtures/show)", () => {
  it("lists the failing cases grouped by stage, worst first", async () => {
    const { code, text } = await show();
    expect(code).toBe(0);
    expectGolden("show-list.txt", text);
  });

  const CASES: [string, string][] = [
    ["translate-note", "coverage: the acceptable tool does not exist"],
    ["refund-in-triage", "exposure: hidden by family and effect"],
    ["track-in-triage", "exposure: hidden as open-world"],
    ["can-it-still-be-cancelled", "discovery: ranked below k, forbidden hits"],
    ["engraving-note-orders", "selection: a rival took the trials"],
    ["refund-without-reason", "selection: the expected tool is a control; argument errors"],
    ["order-by-id", "passed"],
  ];
  for (const [id, what] of CASES) {
    it(`explains ${id} (${what})`, async () => {
      const { code, text } = await show("--case", id);
      expect(code).toBe(0);
      expectGolden(`show-case-${id}.txt`, text);
    });
  }

  it("names the run and the known cases when the case id is unknown (exit 2)", async () => {
    const { code, text, err } = await show("--case", "refund");
    expect(code).toBe(2);
    expect(text).toBe("");
    expect(err).toBe(
      'route-eval: <run>: no case "refund" in this run (10 cases); did you mean "refund-in-triage", "refund-without-reason"?\n',
    );
  });

  it("fails with exit 2 on a directory that is not a run", async () => {
    const captured = captureIo();
    const code = await main(argv("show", join(out, "nope")), captured.io);
    expect(code).toBe(2);
    expect(captured.stderr()).toContain("no such file or directory");
  });

  it("prints the explanation as JSON with --json", async () => {
    const { code, text } = await show("--case", "can-it-still-be-cancelled", "--json");
    expect(code).toBe(0);
    const x = JSON.parse(text);
    expect(x.stage).toBe("discovery");
    expect(x.fix.action).toBe("improve retrieval");
    expect(x.forbidden_hits).toEqual([
      { trial: 0, tool: "cancel_order" },
      { trial: 1, tool: "cancel_order" },
    ]);
    expect(x.discovery.ranking.find((t: { name: string }) => t.name === "get_order")).toMatchObject(
      { rank: 3, kept: false, acceptable: true },
    );
  });
});
