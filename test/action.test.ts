/**
 * The composite GitHub Action (action.yml), its steps run locally: scripts/action/run.sh on the
 * bundled example (run, diff against a baseline, one step summary, the run folder for the
 * artifact, the exit code) and scripts/action/comment.mjs against a local fake of GitHub's REST
 * API (one sticky comment, created once and then updated).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { tempDir } from "./support/cli.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// The action word-splits this, as it does its default "npx --no-install route-eval".
const ROUTE_EVAL = `${process.execPath} ${join(ROOT, "bin", "route-eval.js")}`;

function project(): string {
  const dir = tempDir("route-eval-action-");
  for (const name of ["route-eval.yaml", "cases", "registries"]) cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  return dir;
}

function outputs(file: string): Record<string, string> {
  return Object.fromEntries(readFileSync(file, "utf8").trim().split("\n").map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]));
}

function runStep(dir: string, inputs: Record<string, string>): { outputs: Record<string, string>; summary: string; stderr: string } {
  const summaryFile = join(dir, "step-summary.md");
  const outputFile = join(dir, "github-output.txt");
  writeFileSync(summaryFile, "");
  writeFileSync(outputFile, "");
  const env = { ...process.env, ROUTE_EVAL, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_OUTPUT: outputFile, RUNNER_TEMP: dir, CI: "true", ...inputs };
  const result = spawnSync("bash", [join(ROOT, "scripts", "action", "run.sh")], { cwd: dir, env, encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return { outputs: outputs(outputFile), summary: readFileSync(summaryFile, "utf8"), stderr: result.stderr };
}

describe("the GitHub Action's steps", () => {
  it("runs, diffs against the baseline, writes the summary once, leaves the run folder and passes the exit code", () => {
    const dir = project();
    execFileSync(process.execPath, [join(ROOT, "bin", "route-eval.js"), "run", "--run-id", "main", "--no-progress", "--save-baseline", "main"], { cwd: dir, stdio: "ignore" });
    const step = runStep(dir, { INPUT_BASELINE: "reports/baselines/main", INPUT_MAX_DROP: "0.02", INPUT_RUN_ID: "ci" });
    expect(step.outputs["exit-code"]).toBe("0");
    expect(step.outputs["run-dir"]).toBe(join(dir, "reports", "ci"));
    expect(existsSync(join(dir, "reports", "ci", "report.html"))).toBe(true);
    expect(existsSync(join(dir, "reports", "ci", "records.jsonl"))).toBe(true);
    expect(step.summary.match(/^## route-eval report$/gm)).toHaveLength(1);
    expect(step.summary.match(/^## route-eval diff$/gm)).toHaveLength(1);
    expect(readFileSync(step.outputs["summary-file"], "utf8")).toBe(step.summary);

    // A quality gate that fails is exit 1, passed through; the run folder is still there for the artifact.
    const config = parse(readFileSync(join(dir, "route-eval.yaml"), "utf8"));
    writeFileSync(join(dir, "route-eval.yaml"), JSON.stringify({ ...config, gates: { selection_accuracy: ">= 0.99" } }));
    const failing = runStep(dir, { INPUT_RUN_ID: "ci" });
    expect(failing.outputs["exit-code"]).toBe("1");
    expect(existsSync(join(dir, "reports", "ci", "report.html"))).toBe(true);
    expect(failing.summary.match(/^## route-eval report$/gm)).toHaveLength(1);

    // Bad input is exit 2 and no run directory.
    const broken = runStep(dir, { INPUT_RUN_ID: "ci", INPUT_CONFIG: "nope.yaml" });
    expect(broken.outputs).toMatchObject({ "exit-code": "2", "run-dir": "" });
  }, 60_000);

  it("keeps one sticky comment on the pull request: created the first time, updated after", async () => {
    const comments: { id: number; body: string }[] = [{ id: 1, body: "an unrelated review comment" }];
    const calls: string[] = [];
    const server = createServer((req, res) => {
      let text = "";
      req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      req.on("end", () => {
        calls.push(`${req.method} ${req.url} ${req.headers.authorization}`);
        const reply = (status: number, body: unknown) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(body));
        };
        if (req.method === "GET" && req.url?.startsWith("/repos/octo/agent/issues/7/comments")) return reply(200, comments);
        if (req.method === "POST" && req.url === "/repos/octo/agent/issues/7/comments") {
          const created = { id: comments.length + 1, body: JSON.parse(text).body };
          comments.push(created);
          return reply(201, created);
        }
        const patch = /^\/repos\/octo\/agent\/issues\/comments\/(\d+)$/.exec(req.url ?? "");
        if (req.method === "PATCH" && patch !== null) {
          const found = comments.find((c) => c.id === Number(patch[1]));
          if (found === undefined) return reply(404, { message: "Not Found" });
          found.body = JSON.parse(text).body;
          return reply(200, found);
        }
        reply(404, { message: "Not Found" });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const dir = tempDir("route-eval-comment-");
      writeFileSync(join(dir, "event.json"), JSON.stringify({ pull_request: { number: 7 } }));
      const comment = (summary: string) => {
        writeFileSync(join(dir, "summary.md"), summary);
        const env = {
          ...process.env,
          GITHUB_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          GITHUB_REPOSITORY: "octo/agent",
          GITHUB_EVENT_PATH: join(dir, "event.json"),
          GITHUB_TOKEN: "ghs_test_token",
          SUMMARY_FILE: join(dir, "summary.md"),
        };
        return runNode(join(ROOT, "scripts", "action", "comment.mjs"), env);
      };
      expect((await comment("## route-eval report\nfirst")).out).toContain("commented on #7");
      expect((await comment("## route-eval report\nsecond")).out).toContain("updated the comment on #7");
      expect(comments).toHaveLength(2);
      expect(comments[1].body).toBe("<!-- route-eval sticky comment -->\n## route-eval report\nsecond");
      expect(comments[0].body).toBe("an unrelated review comment");
      expect(calls.every((c) => c.endsWith("Bearer ghs_test_token"))).toBe(true);
      expect(calls.filter((c) => c.startsWith("POST"))).toHaveLength(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** Runs a node script without blocking the event loop (the fake API server must keep answering). */
function runNode(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.on("close", (code) => resolve({ code, out }));
  });
}
