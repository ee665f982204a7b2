/**
 * The composite GitHub Action (action.yml), its steps run locally: scripts/action/run.mjs on the
 * bundled example (run, diff against a baseline, one step summary that leads with the verdict,
 * the run folder for the artifact, the exit code — also for a run that never finished and a diff
 * that cannot compare), scripts/action/cache-key.mjs (the store and a key from the files the
 * config names), and scripts/action/comment.mjs against a local fake of GitHub's REST API (one
 * sticky comment, created once and then updated; 403, 404 and 422 are warnings, never a failed
 * job; a 500-case suite's comment stays under GitHub's size limit).
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
  for (const name of ["route-eval.yaml", "cases", "registries"])
    cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  return dir;
}

function outputs(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
}

function runStep(
  dir: string,
  inputs: Record<string, string>,
): { outputs: Record<string, string>; summary: string; stderr: string } {
  const summaryFile = join(dir, "step-summary.md");
  const outputFile = join(dir, "github-output.txt");
  writeFileSync(summaryFile, "");
  writeFileSync(outputFile, "");
  const env = {
    ...process.env,
    ROUTE_EVAL,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_OUTPUT: outputFile,
    RUNNER_TEMP: dir,
    CI: "true",
    ...inputs,
  };
  const result = spawnSync(process.execPath, [join(ROOT, "scripts", "action", "run.mjs")], {
    cwd: dir,
    env,
    encoding: "utf8",
  });
  expect(result.status, result.stderr).toBe(0);
  return {
    outputs: outputs(outputFile),
    summary: readFileSync(summaryFile, "utf8"),
    stderr: result.stderr,
  };
}

describe("the GitHub Action's steps", () => {
  it("runs, diffs against the baseline, writes the summary once, leaves the run folder and passes the exit code", () => {
    const dir = project();
    execFileSync(
      process.execPath,
      [
        join(ROOT, "bin", "route-eval.js"),
        "run",
        "--run-id",
        "main",
        "--no-progress",
        "--save-baseline",
        "main",
      ],
      { cwd: dir, stdio: "ignore" },
    );
    const step = runStep(dir, {
      INPUT_BASELINE: "reports/baselines/main",
      INPUT_MAX_DROP: "0.02",
      INPUT_RUN_ID: "ci",
    });
    expect(step.outputs["exit-code"]).toBe("0");
    expect(step.outputs["run-dir"]).toBe(join(dir, "reports", "ci"));
    expect(existsSync(join(dir, "reports", "ci", "report.html"))).toBe(true);
    expect(existsSync(join(dir, "reports", "ci", "records.jsonl"))).toBe(true);
    expect(step.summary.split("\n")[0]).toBe("### route-eval ✅ passed");
    expect(step.summary).toMatch(/^\*\*gates:\*\* 3 of 3 passed<br>$/m);
    expect(step.summary.match(/^## route-eval report$/gm)).toHaveLength(1);
    expect(step.summary.match(/^## route-eval diff$/gm)).toHaveLength(1);
    expect(readFileSync(step.outputs["summary-file"], "utf8")).toBe(step.summary);

    // A quality gate that fails is exit 1, passed through; the run folder is still there for the artifact.
    const config = parse(readFileSync(join(dir, "route-eval.yaml"), "utf8"));
    writeFileSync(
      join(dir, "route-eval.yaml"),
      JSON.stringify({ ...config, gates: { selection_accuracy: ">= 0.99" } }),
    );
    const failing = runStep(dir, { INPUT_RUN_ID: "ci" });
    expect(failing.outputs["exit-code"]).toBe("1");
    // Each message once in the log: the run says the gate failed; the re-renderings of its report do not again.
    expect(failing.stderr.match(/gate failed: selection_accuracy/g)).toHaveLength(1);
    expect(existsSync(join(dir, "reports", "ci", "report.html"))).toBe(true);
    expect(failing.summary.match(/^## route-eval report$/gm)).toHaveLength(1);
    expect(failing.summary.split("\n")[0]).toBe("### route-eval ❌ a gate failed (exit 1)");
    expect(failing.summary).toMatch(
      /^\*\*gates:\*\* 1 of 1 failed: selection_accuracy 0\.653 \(186\/285\) is below 0\.99/m,
    );
  }, 60_000);

  it("says a missing baseline in the verdict's first lines (regression checking off), and fails on it when asked", () => {
    const dir = project();
    const warned = runStep(dir, { INPUT_BASELINE: "reports/baselines/mian", INPUT_RUN_ID: "ci" });
    expect(warned.outputs["exit-code"]).toBe("0");
    const [head, , first] = warned.summary.split("\n");
    expect(head).toBe("### route-eval ✅ passed");
    expect(first).toMatch(
      /^⚠️ \*\*baseline reports\/baselines\/mian not found: nothing was checked for regressions\.\*\*/,
    );
    expect(warned.summary.match(/not found/g)).toHaveLength(1);
    const failed = runStep(dir, {
      INPUT_BASELINE: "reports/baselines/mian",
      INPUT_FAIL_ON_MISSING_BASELINE: "true",
      INPUT_RUN_ID: "ci",
    });
    expect(failed.outputs["exit-code"]).toBe("1");
    expect(failed.summary.split("\n")[0]).toBe(
      "### route-eval ❌ the baseline is missing (exit 1)",
    );
  }, 60_000);

  it("never prints a metric measured on neither side as moved (no '+0.0 pts')", () => {
    const dir = project();
    // Cases that state no expected arguments: argument_match is measured in neither run.
    writeFileSync(
      join(dir, "cases", "plain.yaml"),
      JSON.stringify({
        registry: "../registries/commerce.yaml",
        cases: [
          { id: "status", goal: "Is order ord_123 shipped yet?", acceptable: ["get_order"] },
          { id: "find", goal: "Find my order for the blue teapot", acceptable: ["search_orders"] },
        ],
      }),
    );
    const config = parse(readFileSync(join(dir, "route-eval.yaml"), "utf8"));
    writeFileSync(
      join(dir, "route-eval.yaml"),
      JSON.stringify({ ...config, cases: ["cases/plain.yaml"], gates: {} }),
    );
    execFileSync(
      process.execPath,
      [join(ROOT, "bin", "route-eval.js"), "run", "--no-progress", "--save-baseline", "main"],
      { cwd: dir, stdio: "ignore" },
    );
    const diff = JSON.parse(
      execFileSync(
        process.execPath,
        [join(ROOT, "bin", "route-eval.js"), "diff", "main", "main", "-f", "json", "--all"],
        { cwd: dir, encoding: "utf8" },
      ),
    );
    expect(diff.metrics.some((m: { change: string }) => m.change === "unmeasured")).toBe(true);
    const step = runStep(dir, { INPUT_BASELINE: "reports/baselines/main", INPUT_RUN_ID: "ci" });
    expect(step.summary).toMatch(
      /\*\*diff\*\* against reports\/baselines\/main: pass · .* · no metric changed/,
    );
    expect(step.summary).not.toContain("+0.0 pts");
  }, 60_000);

  it("puts a run that never finished, and a diff that cannot compare, in the summary with their reasons", () => {
    const dir = project();
    const broken = runStep(dir, { INPUT_RUN_ID: "ci", INPUT_CONFIG: "nope.yaml" });
    expect(broken.outputs).toMatchObject({ "exit-code": "2", "run-dir": "" });
    expect(broken.summary).toMatch(/^### route-eval ❌ the run did not finish \(exit 2\)$/m);
    expect(broken.summary).toContain("nope.yaml");
    expect(readFileSync(broken.outputs["summary-file"], "utf8")).toBe(broken.summary);

    execFileSync(
      process.execPath,
      [
        join(ROOT, "bin", "route-eval.js"),
        "run",
        "--run-id",
        "main",
        "-n",
        "3",
        "--no-progress",
        "--save-baseline",
        "main",
      ],
      { cwd: dir, stdio: "ignore" },
    );
    const step = runStep(dir, {
      INPUT_BASELINE: "reports/baselines/main",
      INPUT_RUN_ID: "ci",
      INPUT_ARGS: "-n 2",
    });
    expect(step.outputs["exit-code"]).toBe("2");
    expect(step.summary).toMatch(/^### route-eval ❌ the diff cannot compare \(exit 2\)$/m);
    expect(step.summary).toContain("trials per case differs: 3 vs 2");
    expect(step.summary).toContain("<details><summary>the full report</summary>");

    // --force (the action's force input) compares the shared cases instead.
    const forced = runStep(dir, {
      INPUT_BASELINE: "reports/baselines/main",
      INPUT_RUN_ID: "ci",
      INPUT_ARGS: "-n 2",
      INPUT_FORCE: "true",
      INPUT_FAIL_ON_REGRESSED_CASE: "true",
      INPUT_MAX_DROP: "0.02 violation_rate=0",
    });
    expect(forced.outputs["exit-code"]).toBe("0");
    expect(forced.summary).toMatch(
      /^\*\*diff\*\* against reports\/baselines\/main: pass · 0 fixed, 0 regressed of 106 cases/m,
    );
    // At 2 trials a case can never show a regression among 106 (106 / C(14, 7) < 0.05 needs 7): no ✅.
    expect(forced.summary.split("\n")[0]).toBe(
      "### route-eval ⚠️ passed, but a gate could not have failed",
    );
    expect(forced.summary).toContain(
      "not evaluable: fail-on-regressed-case (needs ≥ 7 trials per case on each side)",
    );
    expect(forced.summary).toContain(
      "<details><summary>the diff against reports/baselines/main</summary>",
    );
  }, 120_000);

  it("keys the store's cache on the files the config names and the args, hashed", () => {
    const dir = project();
    const key = (inputs: Record<string, string>) => {
      const outputFile = join(dir, "github-output.txt");
      writeFileSync(outputFile, "");
      const result = spawnSync(
        process.execPath,
        [join(ROOT, "scripts", "action", "cache-key.mjs")],
        {
          cwd: dir,
          env: { ...process.env, ROUTE_EVAL, GITHUB_OUTPUT: outputFile, ...inputs },
          encoding: "utf8",
        },
      );
      expect(result.status, result.stderr).toBe(0);
      return { ...outputs(outputFile), log: result.stdout } as Record<string, string>;
    };
    const first = key({ INPUT_ARGS: "--retriever bm25 -k 8 --system-prompt 'Route, then act.'" });
    expect(first.store).toBe(".route-eval/store");
    expect(first.key).toMatch(/^[0-9a-f]{32}$/);
    expect(
      key({ INPUT_ARGS: "--retriever bm25 -k 8 --system-prompt 'Route, then act.'" }).key,
    ).toBe(first.key);
    expect(key({ INPUT_ARGS: "" }).key).not.toBe(first.key);
    // The store the config names; a change to a case file (named through the config's globs) is a new key.
    writeFileSync(
      join(dir, "route-eval.yaml"),
      `${readFileSync(join(dir, "route-eval.yaml"), "utf8")}\nstore_dir: cache/answers\n`,
    );
    const moved = key({ INPUT_ARGS: "" });
    expect(moved.store).toBe("cache/answers");
    writeFileSync(
      join(dir, "cases", "orders.yaml"),
      `${readFileSync(join(dir, "cases", "orders.yaml"), "utf8")}\n# edited\n`,
    );
    expect(key({ INPUT_ARGS: "" }).key).not.toBe(moved.key);
    // A config that does not load: no cache (key ""), a warning, and the run step says what is wrong.
    const broken = key({ INPUT_CONFIG: "nope.yaml" });
    expect(broken).toMatchObject({ store: "", key: "" });
    expect(broken.log).toContain("::warning::");
  });

  it("keeps one sticky comment on the pull request: created the first time, updated after", async () => {
    await withFakeGitHub(async (github) => {
      expect((await github.comment("## route-eval report\nfirst")).out).toContain(
        "commented on #7",
      );
      expect((await github.comment("## route-eval report\nsecond")).out).toContain(
        "updated the comment on #7",
      );
      expect(github.comments).toHaveLength(2);
      expect(github.comments[1].body).toBe(
        "<!-- route-eval sticky comment -->\n## route-eval report\nsecond",
      );
      expect(github.comments[0].body).toBe("an unrelated review comment");
      expect(github.calls.every((c) => c.endsWith("Bearer ghs_test_token"))).toBe(true);
      expect(github.calls.filter((c) => c.startsWith("POST"))).toHaveLength(1);
    });
  });

  it("warns, and never fails the job, when the comment cannot be posted (403, 404, 422, no summary)", async () => {
    for (const status of [403, 404, 422]) {
      await withFakeGitHub(async (github) => {
        const result = await github.comment("### route-eval ✅ passed");
        expect(result.code).toBe(0);
        expect(result.out).toMatch(
          new RegExp(
            `^::warning::route-eval: could not post the PR comment: GET /repos/octo/agent/issues/7/comments\\?per_page=100&page=1: HTTP ${status}`,
            "m",
          ),
        );
        if (status === 403) expect(result.out).toContain("pull-requests: write");
      }, status);
    }
    // The run step ended before writing a summary (summary-file empty): the comment says so.
    await withFakeGitHub(async (github) => {
      const result = await github.comment(null);
      expect(result.code).toBe(0);
      expect(github.comments[1].body).toContain("route-eval ❌ no summary");
    });
  });

  it("leads a 500-case suite's comment with the verdict and keeps it under GitHub's size limit", async () => {
    const dir = project();
    const entries = Array.from(
      { length: 500 },
      (_, i) =>
        `  - id: bulk-${String(i).padStart(3, "0")}-${"x".repeat(40)}\n    goal: Where is order ord_${1000 + i}? I need it before ${(i % 28) + 1} December.\n    phase: support\n    acceptable: [${i % 3 === 0 ? "search_orders" : "get_order"}]\n`,
    );
    writeFileSync(
      join(dir, "cases", "bulk.yaml"),
      `registry: ../registries/commerce.yaml\ncases:\n${entries.join("")}`,
    );
    const step = runStep(dir, { INPUT_RUN_ID: "ci", INPUT_ARGS: "-n 1" });
    expect(step.outputs["run-dir"]).toBe(join(dir, "reports", "ci"));
    await withFakeGitHub(async (github) => {
      expect((await github.comment(step.summary)).code).toBe(0);
      const body = github.comments[1].body;
      expect(body.length).toBeLessThanOrEqual(65_536);
      expect(body.split("\n")[1]).toMatch(
        /^### route-eval (✅ passed|❌ a gate failed \(exit 1\))$/,
      );
      expect(body.split("\n").slice(0, 6).join("\n")).toMatch(/\*\*gates:\*\*/);
      expect(body).toContain("<details><summary>the full report</summary>");

      // Whatever the size: a section that would take the comment over the limit is named, not cut mid-table.
      const [verdict, ...sections] = step.summary.split("\n\n<!-- route-eval section -->\n\n");
      const huge = [
        verdict,
        ...sections,
        sections[0]
          .replace("the full report", "the full report, again")
          .repeat(1)
          .padEnd(200_000, "\n| a | row |"),
      ].join("\n\n<!-- route-eval section -->\n\n");
      expect((await github.comment(huge)).code).toBe(0);
      const cut = github.comments[1].body;
      expect(cut.length).toBeLessThanOrEqual(65_536);
      expect(cut).toContain("<details><summary>the full report</summary>");
      expect(cut).toMatch(
        /the full report, again: 195 KB, too long for a comment; it is in the job's step summary and the run's artifact/,
      );
      expect(cut.match(/<details>/g)?.length).toBe(cut.match(/<\/details>/g)?.length);
    });
  }, 180_000);
});

interface FakeGitHub {
  comments: { id: number; body: string }[];
  calls: string[];
  /** Runs comment.mjs with this summary (null: the run step wrote none). */
  comment(summary: string | null): Promise<{ code: number | null; out: string }>;
}

/** A local fake of GitHub's issue-comments API for pull request #7 of octo/agent; `failWith` answers every call with that status. */
async function withFakeGitHub(
  use: (github: FakeGitHub) => Promise<void>,
  failWith: number | null = null,
): Promise<void> {
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
      if (failWith !== null)
        return reply(failWith, {
          message:
            failWith === 403
              ? "Resource not accessible by integration"
              : failWith === 404
                ? "Not Found"
                : "Validation Failed",
        });
      if (req.method === "GET" && req.url?.startsWith("/repos/octo/agent/issues/7/comments"))
        return reply(200, comments);
      if (req.method === "POST" && req.url === "/repos/octo/agent/issues/7/comments") {
        const body = JSON.parse(text).body as string;
        if (body.length > 65_536)
          return reply(422, {
            message: "Validation Failed",
            errors: [{ message: "body is too long (maximum is 65536 characters)" }],
          });
        const created = { id: comments.length + 1, body };
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
    const comment = (summary: string | null) => {
      if (summary !== null) writeFileSync(join(dir, "summary.md"), summary);
      const env = {
        ...process.env,
        GITHUB_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        GITHUB_REPOSITORY: "octo/agent",
        GITHUB_EVENT_PATH: join(dir, "event.json"),
        GITHUB_TOKEN: "ghs_test_token",
        SUMMARY_FILE: summary === null ? "" : join(dir, "summary.md"),
      };
      return runNode(join(ROOT, "scripts", "action", "comment.mjs"), env);
    };
    await use({ comments, calls, comment });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Runs a node script without blocking the event loop (the fake API server must keep answering). */
function runNode(
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.on("close", (code) => resolve({ code, out }));
  });
}
