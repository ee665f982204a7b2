/** The one CLI runner: the real CLI in-process with a captured Io, and throwaway fixture files. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { main } from "../../src/cli.js";
import { argv, captureIo } from "./io.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `where` is the working directory, or {cwd, env}. */
export async function runCli(
  args: string[],
  where: string | { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  const { cwd, env } = typeof where === "string" ? { cwd: where, env: {} } : where;
  const captured = captureIo(cwd ?? process.cwd(), env ?? {});
  const code = await main(argv(...args), captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

/** Temporary directories of this test file, removed when it finishes (vitest evaluates this module once per file). */
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = "route-eval-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A fresh temporary directory holding `files` (name → content); returns its path. */
export function writeFiles(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}
