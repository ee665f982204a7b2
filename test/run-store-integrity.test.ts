/** The response store checks itself: a swapped, truncated or garbage entry is never used as an answer. */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { offeredTools, openaiReply, useFakeServers } from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";
import { runCli } from "./support/cli.js";

afterAll(removeTempDirs);
const ENV = { OPENAI_API_KEY: "sk-test-store-0123456789" };
const servers = useFakeServers();

function entries(storeDir: string): string[] {
  return readdirSync(storeDir).flatMap((sub) => (statSync(join(storeDir, sub)).isDirectory() ? readdirSync(join(storeDir, sub)).map((f) => join(storeDir, sub, f)) : []));
}

const TAMPERING: [string, (files: string[]) => void, string][] = [
  ["an entry copied over another's", (files) => writeFileSync(files[1], readFileSync(files[0])), "holds another request's answer (its key does not match)"],
  ["a truncated entry", (files) => writeFileSync(files[1], readFileSync(files[1], "utf8").slice(0, 40)), "cannot be read ("],
  ["a garbage entry", (files) => writeFileSync(files[1], "\u0000\u0001 not json"), "cannot be read ("],
];

describe("a store that checks itself", () => {
  for (const [what, tamper, problem] of TAMPERING) {
    it(`${what}: cached mode warns naming the file and asks again; replay mode stops naming the file`, async () => {
      const server = await servers.start((request) => openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]));
      const dir = writeProject();
      const flags = ["run", "-e", "openai:test-model", "--base-url", `${server.url}/v1`, "--no-progress", "--no-gates", "--no-step-summary", "-n", "1", "-f", "json"];
      const first = await runCli(flags, { cwd: dir, env: ENV });
      expect(first.code, first.stderr).toBe(0);
      const files = entries(join(dir, ".route-eval", "store")).sort();
      expect(files).toHaveLength(3);
      tamper(files);

      const replay = await runCli([...flags, "--mode", "replay"], { cwd: dir, env: ENV });
      expect(replay.code).toBe(3);
      expect(replay.stderr).toContain(`replay: the response store entry ${files[1]} for `);
      expect(replay.stderr).toContain(problem);

      const before = server.requests.length;
      const cached = await runCli(flags, { cwd: dir, env: ENV });
      expect(cached.code, cached.stderr).toBe(0);
      expect(cached.stderr).toContain(`response store: ${files[1]} ${problem}`);
      expect(server.requests.length - before).toBe(1);
      expect(JSON.parse(cached.stdout).metrics.end_to_end_accuracy.value).toBe(JSON.parse(first.stdout).metrics.end_to_end_accuracy.value);
      const healed = await runCli(flags, { cwd: dir, env: ENV });
      expect(healed.stderr).not.toContain("response store:");
      expect(server.requests.length - before).toBe(1);
    });
  }
});
