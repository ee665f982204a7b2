import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { readFileSync } from "node:fs";
import { main } from "../src/cli.js";
import { captureIo } from "./support/io.js";
import { buildMeta, buildRecords, writeRunDir } from "./fixtures/diff-records.js";
import { makeShopRuns, ROOT, type ShopRuns } from "./fixtures/diff-runs.js";
import { expectGolden } from "./support/golden.js";

let tmp = "";
let shop: ShopRuns;
let flaky: { base: string; current: string };

async function diff(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo(ROOT);
  const code = await main(["node", "route-eval", "diff", ...args], io.io);
  const normalise = (text: string): string => text.split(tmp).join("<tmp>");
  return { code, out: normalise(io.stdout()), err: normalise(io.stderr()) };
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "route-eval-diff-golden-"));
  shop = await makeShopRuns(tmp);
  const base = buildRecords({
    errors: "PPP",
    recovers: "FPF",
    slips: "PPP",
    steady: "PPP",
    ties: "FPP",
    wobbles: "FFF",
  });
  const current = buildRecords({
    errors: "EEE",
    recovers: "PPP",
    slips: "PFP",
    steady: "PPP",
    ties: "PPF",
    wobbles: "FFP",
  });
  flaky = {
    base: writeRunDir(join(tmp, "flaky-base"), base, buildMeta("flaky-base", base)),
    current: writeRunDir(join(tmp, "flaky-current"), current, buildMeta("flaky-current", current)),
  };
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("route-eval diff golden outputs (real runs of test/fixtures/diff/shop, revision A → B)", () => {
  it("terminal", async () => {
    const { code, out } = await diff([shop.base, shop.current, "--force"]);
    expect(code).toBe(0);
    expectGolden("diff/shop.txt", out);
  });

  it("markdown, with gates", async () => {
    // Selection accuracy is unchanged; the one pass → fail flip (2/2 → 0/2) is within its trial noise.
    const { code, out } = await diff([
      shop.base,
      shop.current,
      "--force",
      "-f",
      "markdown",
      "--max-drop",
      "0.02",
      "--fail-on-regressed-case",
    ]);
    expect(code).toBe(0);
    expectGolden("diff/shop.md", out);
  });

  it("json, valid against schemas/diff.schema.json", async () => {
    const { code, out } = await diff([shop.base, shop.current, "--force", "-f", "json"]);
    expect(code).toBe(0);
    expectGolden("diff/shop.json", out);
    const schema: unknown = JSON.parse(
      readFileSync(join(ROOT, "schemas/diff.schema.json"), "utf8"),
    );
    const validate = new Ajv2020({ strict: false }).compile(schema as object);
    const parsed: unknown = JSON.parse(out);
    expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
    expect(Object.keys(JSON.parse(out))[0]).toBe("schema_version");
  });

  it("junit", async () => {
    const { out } = await diff([
      shop.base,
      shop.current,
      "--force",
      "-f",
      "junit",
      "--fail-on-regressed-case",
    ]);
    expectGolden("diff/shop.xml", out);
  });

  it("contains each kind of flip, a moved confusion cell and a changed definition", async () => {
    const parsed = JSON.parse((await diff([shop.base, shop.current, "--force", "-f", "json"])).out);
    const kinds = new Set(parsed.flips.map((f: { kind: string }) => f.kind));
    for (const kind of ["regressed", "fixed", "still_failing", "new", "removed", "still_passing"])
      expect(kinds).toContain(kind);
    expect(parsed.confusions.length).toBeGreaterThan(0);
    expect(
      parsed.definitions.changes.map(
        (c: { tool: string; change: string }) => `${c.tool}:${c.change}`,
      ),
    ).toEqual([
      "legacy_lookup:removed",
      "refund_order:changed",
      "search_orders:changed",
      "update_address:added",
    ]);
  });

  it("terminal, on hand-written records with flaky and errored cases", async () => {
    const { code, out } = await diff([flaky.base, flaky.current]);
    expect(code).toBe(0);
    expectGolden("diff/flaky.txt", out);
  });
});
