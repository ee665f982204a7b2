import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { argv, captureIo } from "./support/io.js";

const CONFIG = fileURLToPath(new URL("./fixtures/show/route-eval.yaml", import.meta.url));
let out: string;
let run: string;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "route-eval-html-cli-"));
  run = join(out, "r");
  const captured = captureIo();
  const code = await main(
    argv("run", "-c", CONFIG, "--run-id", "r", "--out-dir", out, "--no-gates", "-f", "html"),
    captured.io,
  );
  if (code !== 0) throw new Error(captured.stderr());
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("--format html", () => {
  it("run writes <run>/report.html by default and names it on stderr, nothing on stdout", async () => {
    expect(existsSync(join(run, "report.html"))).toBe(true);
    const page = readFileSync(join(run, "report.html"), "utf8");
    expect(page).toContain('data-case-id="can-it-still-be-cancelled"');
    expect(page).toContain('"case_id":"can-it-still-be-cancelled"');
  });

  it("report recomputes and writes <run>/report.html, or --output FILE, or stdout with --output -", async () => {
    rmSync(join(run, "report.html"));
    const a = captureIo();
    expect(await main(argv("report", run, "--format", "html", "--no-gates"), a.io)).toBe(0);
    expect(a.stdout()).toBe("");
    expect(a.stderr()).toBe(`wrote ${join(run, "report.html")}\n`);
    expect(existsSync(join(run, "report.html"))).toBe(true);

    const b = captureIo();
    await main(
      argv(
        "report",
        run,
        "--format",
        "html",
        "--no-gates",
        "--output",
        join(out, "elsewhere.html"),
      ),
      b.io,
    );
    expect(readFileSync(join(out, "elsewhere.html"), "utf8")).toBe(
      readFileSync(join(run, "report.html"), "utf8"),
    );

    const c = captureIo();
    await main(argv("report", run, "--format", "html", "--output", "-"), c.io);
    expect(c.stdout().startsWith("<!DOCTYPE html>")).toBe(true);
    expect(c.stdout()).toContain("route-eval report · r");
  });

  it("show accepts the run's report.json or records.jsonl as well as its directory", async () => {
    const viaDir = captureIo();
    const viaReport = captureIo();
    const viaRecords = captureIo();
    await main(argv("show", run), viaDir.io);
    await main(argv("show", join(run, "report.json")), viaReport.io);
    await main(argv("show", join(run, "records.jsonl")), viaRecords.io);
    // The last lines name the argument given ("Explain one case: route-eval show <it> --case …").
    const body = (text: string) => text.slice(0, text.indexOf("Explain one case:"));
    expect(body(viaReport.stdout())).toBe(body(viaDir.stdout()));
    expect(body(viaRecords.stdout())).toBe(body(viaDir.stdout()));
  });
});
