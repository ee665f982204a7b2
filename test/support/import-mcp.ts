/** `route-eval import mcp ARGS -o FILE` in a fresh folder: the CLI's result and the snapshot it wrote (null when it failed). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { runCli, tempDir, type CliResult } from "./cli.js";

export async function importMcp(args: string[]): Promise<{ result: CliResult; registry: any }> {
  const dir = tempDir("route-eval-import-mcp-");
  const out = join(dir, "registry.yaml");
  const result = await runCli(["import", "mcp", ...args, "-o", out], { cwd: dir });
  return { result, registry: result.code === 0 ? parse(readFileSync(out, "utf8")) : null };
}
