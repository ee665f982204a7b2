import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/load-config.js";
import { runSweep } from "../src/trial/sweep.js";

const out = mkdtempSync(join(tmpdir(), "route-eval-sweep-bundled-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The bundled example (README "Sweeps"), offline with the baseline; one trial, since the baseline is deterministic. */
const config = () =>
  loadConfig(resolve("route-eval.yaml"), { out_dir: out, trials: 1 }, process.cwd());
const accuracy = (points: { selection_accuracy: { value: number | null } }[]) =>
  points.map((p) => p.selection_accuracy.value ?? NaN);

describe(
  "a size sweep of the bundled example with the baseline endpoint",
  { timeout: 60_000 },
  () => {
    it("shows selection accuracy falling as the visible set grows, padded by registries/distractors.yaml", async () => {
      const { sweep } = await runSweep(config(), {
        env: {},
        now: () => new Date(),
        kind: "size",
        values: [5, 10, 20, 40],
        distractors: "random",
        distractorRegistry: resolve("registries/distractors.yaml"),
      });
      const values = accuracy(sweep.points);
      for (let i = 1; i < values.length; i++)
        expect(values[i], `size ${sweep.points[i].value}`).toBeLessThanOrEqual(values[i - 1]);
      expect(values[0] - values[3]).toBeGreaterThan(0.08);
      expect(sweep.points.map((p) => [p.visible.min, p.visible.max])).toEqual([
        [5, 5],
        [10, 10],
        [20, 20],
        [40, 40],
      ]);
      const tokens = sweep.points.map((p) => p.input_tokens.mean ?? 0);
      expect([...tokens].sort((a, b) => a - b)).toEqual(tokens); // more tools shown, more tokens sent
    });

    it("without padding, caps the phases that expose fewer than 40 tools and records the true size", async () => {
      const { sweep } = await runSweep(config(), {
        env: {},
        now: () => new Date(),
        kind: "size",
        values: [10, 40],
        distractors: "similar",
        distractorRegistry: null,
      });
      const [ten, forty] = sweep.points;
      expect(ten.capped_cases).toEqual([]);
      expect(forty.capped_cases.length).toBeGreaterThan(0);
      expect(forty.visible.max).toBe(40);
      expect(forty.visible.min).toBe(15); // triage: read-only, closed-world, five families
      expect(forty.visible.mean).toBeLessThan(40);
      expect(sweep.thresholds?.n50.status).toBe("not_reached");
    });
  },
);
