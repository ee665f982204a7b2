/**
 * A run does not hold its cases' hashes while it asks: run.json is written when the run starts and
 * stamped with the time it finished at the end (stampFinished), the rest of it as it was.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/load-config.js";
import { InputError } from "../src/errors.js";
import { runEvaluation } from "../src/trial/evaluate.js";
import { stampFinished } from "../src/run-files/write-files.js";

const out = mkdtempSync(join(tmpdir(), "route-eval-run-json-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const config = () =>
  loadConfig(
    resolve("test/fixtures/sweep/route-eval.yaml"),
    { out_dir: out, trials: 2 },
    process.cwd(),
  );

describe("run.json at the end of a run", () => {
  it("is the run.json of its start with the time it finished, its case hashes kept", async () => {
    let atStart: string | null = null;
    const finished = new Date("2026-12-05T10:00:00.000Z");
    let clock = new Date("2026-12-05T09:00:00.000Z");
    const { runDir } = await runEvaluation(config(), {
      place: { kind: "new", id: "stamped" },
      env: {},
      now: () => clock,
      onProgress: (progress) => {
        if (atStart === null) atStart = readFileSync(join(out, "stamped", "run.json"), "utf8");
        if (progress.finished) clock = finished;
      },
    });
    const atEnd = readFileSync(join(runDir, "run.json"), "utf8");
    expect(atStart).not.toBeNull();
    expect(atEnd).toBe(
      (atStart as unknown as string).replace(
        '"finished_at": null',
        `"finished_at": "${finished.toISOString()}"`,
      ),
    );
    const meta = JSON.parse(atEnd);
    expect(Object.keys(meta.inputs.cases).length).toBeGreaterThan(1);
    expect(meta.finished_at).toBe(finished.toISOString());
  });

  it("refuses, naming the file, when run.json lost its finished_at during the run; the records are kept", async () => {
    const run = runEvaluation(config(), {
      place: { kind: "new", id: "edited" },
      env: {},
      now: () => new Date(),
      onProgress: (progress) => {
        if (progress.finished)
          writeFileSync(join(out, "edited", "run.json"), JSON.stringify({ run_id: "edited" }));
      },
    });
    await expect(run).rejects.toThrow(InputError);
    await expect(run).rejects.toThrow(/run\.json: changed while the run was writing it/);
    expect(
      readFileSync(join(out, "edited", "records.jsonl"), "utf8")
        .trim()
        .split("\n").length,
    ).toBeGreaterThan(1);
  });

  it("is found and set wherever it falls in the file (copied a megabyte at a time around it)", () => {
    const file = join(out, "padded.json");
    const at = "2026-12-05T10:00:00.000Z";
    // The member straddles the first megabyte's end, after a nested decoy and a look-alike.
    for (const shift of [-30, -12, -3, 0, 5]) {
      const head =
        '{\n  "a": {\n    "finished_at": null\n  },\n  "b": "finished_at": nullx,\n  "c": "';
      const pad = "x".repeat((1 << 20) + shift - head.length - 3);
      const text = `${head}${pad}",\n  "finished_at": null,\n  "z": 1\n}\n`;
      writeFileSync(file, text);
      stampFinished(file, at);
      expect(readFileSync(file, "utf8")).toBe(
        text.replace(',\n  "finished_at": null,', `,\n  "finished_at": "${at}",`),
      );
    }
    writeFileSync(file, '{\n  "finished_at": nullx\n}\n');
    expect(() => stampFinished(file, at)).toThrow(/changed while the run was writing it/);
  });
});
