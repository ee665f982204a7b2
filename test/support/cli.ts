import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI in-process with captured output and no colour. */
export async function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await main(["node", "route-eval", ...args], {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    color: false,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
  });
  return { code, stdout, stderr };
}

export function tempDir(prefix = "route-eval-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
