/**
 * The rate table (src/types/rates.ts) is the one definition of every rate: the report's schema,
 * the gate names, the renderings and diff's trial pairing all come from its rows.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { findGateProblem } from "../src/gates/gate-names.js";
import { RATE_NAMES, RATES } from "../src/types/rates.js";
import { runCli, tempDir } from "./support/cli.js";

describe("the rate table", () => {
  it("is what schemas/report.schema.json says of each rate (run `npm run schemas` after adding a row)", () => {
    const schema = JSON.parse(
      readFileSync(new URL("../schemas/report.schema.json", import.meta.url), "utf8"),
    );
    const properties: Record<string, unknown> = schema.properties.metrics.properties;
    for (const name of RATE_NAMES)
      expect(properties[name], name).toEqual({
        $ref: "#/$defs/rate",
        description: RATES[name].label,
      });
  });

  it("names a gate for every rate", () => {
    for (const name of RATE_NAMES) expect(findGateProblem(name, ">= 0.5"), name).toBeNull();
    expect(findGateProblem("selection_acuracy", ">= 0.5")).toContain(
      'did you mean "selection_accuracy"',
    );
  });

  it("gives every rate its label in the report, and its delta in a diff", async () => {
    const out = tempDir();
    const run = await runCli([
      "run",
      "--run-id",
      "r",
      "--out-dir",
      out,
      "-n",
      "1",
      "-f",
      "markdown",
    ]);
    expect(run.code).toBe(0);
    for (const name of RATE_NAMES) {
      const { label, shown } = RATES[name];
      if (shown === "other") expect(run.stdout, name).toContain(label);
    }
    const diff = await runCli(["diff", `${out}/r`, `${out}/r`, "-f", "json"]);
    const metrics: { metric: string; direction: string }[] = JSON.parse(diff.stdout).metrics;
    for (const name of RATE_NAMES)
      expect(metrics.find((m) => m.metric === name)?.direction, name).toBe(RATES[name].better);
  }, 60_000);
});
