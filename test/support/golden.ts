/** Golden files under test/golden/: compared whole; rewritten only with UPDATE_GOLDEN=1; a missing one fails. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

export function expectGolden(name: string, actual: string): void {
  const file = fileURLToPath(new URL(`../golden/${name}`, import.meta.url));
  if (process.env.UPDATE_GOLDEN === "1") {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file))
    throw new Error(
      `golden file test/golden/${name} is missing; run UPDATE_GOLDEN=1 npx vitest run to create it`,
    );
  expect(actual, `test/golden/${name} (UPDATE_GOLDEN=1 rewrites it)`).toBe(
    readFileSync(file, "utf8"),
  );
}

/** Replaces the volatile parts of an output: named paths, ISO timestamps, the tool version. */
export function normalise(text: string, paths: Record<string, string>): string {
  let out = text;
  for (const [label, path] of Object.entries(paths).sort(([, a], [, b]) => b.length - a.length)) {
    out = out.split(path).join(label);
  }
  return out
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>")
    .replace(/"tool_version": "[^"]+"/g, '"tool_version": "<version>"');
}

/** Timings vary from run to run: every figure on a latency line, and milliseconds anywhere; `dir` shown as <dir>. */
export function steady(text: string, dir: string): string {
  return (
    normalise(text, { "<dir>": dir })
      .replace(/\d{8}-\d{6}/g, "<stamp>")
      .split("\n")
      // The figures, and the padding their width gives them.
      .map((line) =>
        /latency|p50|p95|took [\d.]+ ?m?s\b/i.test(line)
          ? line.replace(/\d+(\.\d+)?/g, "<n>").replace(/ {2,}/g, " ")
          : line,
      )
      .join("\n")
  );
}
