import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

const GOLDEN = fileURLToPath(new URL("../golden/", import.meta.url));

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

/** Compares with test/golden/NAME; UPDATE_GOLDEN=1 rewrites the file instead. */
export function expectGolden(name: string, actual: string): void {
  const file = GOLDEN + name;
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(file)) {
    if (process.env.CI === "true" && !existsSync(file)) throw new Error(`golden file ${name} is missing`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  expect(actual).toBe(readFileSync(file, "utf8"));
}
