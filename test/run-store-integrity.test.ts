/** The response store checks itself: a swapped, truncated or garbage entry is never used as an answer. */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { offeredTools, openaiReply, useFakeServers } from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";
import { runCli } from "./support/cli.js";

afterAll(removeTempDirs);
const ENV = { OPENAI_API_KEY: "sk-test-store-0123456789" };
const servers = useFakeServers();

/** The store's one pack (a first run writes one) and its lines: `<key>\t<entry JSON>` each. */
function pack(storeDir: string): { file: string; lines: string[] } {
  const names = readdirSync(join(storeDir, "packs"));
  expect(names).toHaveLength(1);
  const file = join(storeDir, "packs", names[0]);
  return { file, lines: readFileSync(file, "utf8").trimEnd().split("\n") };
}

/** Replaces the entry JSON of line `n` (0-based), keeping its key. */
function tamperLine(
  file: string,
  lines: string[],
  n: number,
  entry: (json: string, lines: string[]) => string,
): void {
  const [key, json] = lines[n].split("\t");
  const changed = lines.map((line, i) => (i === n ? `${key}\t${entry(json, lines)}` : line));
  writeFileSync(file, changed.join("\n") + "\n");
}

const TAMPERING: [string, (json: string, lines: string[]) => string, string][] = [
  [
    "an entry copied over another's",
    (_, lines) => lines[0].split("\t")[1],
    "holds another request's answer (its key does not match)",
  ],
  ["a truncated entry", (json) => json.slice(0, 40), "cannot be read ("],
  ["a garbage entry", () => "\u0000\u0001 not json", "cannot be read ("],
];

describe("a store that checks itself", () => {
  for (const [what, tamper, problem] of TAMPERING) {
    it(`${what}: cached mode warns naming the file and asks again; replay mode stops naming the file`, async () => {
      const server = await servers.start((request) =>
        openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
      );
      const dir = writeProject();
      const flags = [
        "run",
        "-e",
        "openai:test-model",
        "--base-url",
        `${server.url}/v1`,
        "--no-progress",
        "--no-gates",
        "--no-step-summary",
        "-n",
        "1",
        "-f",
        "json",
      ];
      const first = await runCli(flags, { cwd: dir, env: ENV });
      expect(first.code, first.stderr).toBe(0);
      const { file, lines } = pack(join(dir, ".route-eval", "store"));
      expect(lines).toHaveLength(3);
      tamperLine(file, lines, 1, tamper);
      const where = `${file}:2`;

      const replay = await runCli([...flags, "--mode", "replay"], { cwd: dir, env: ENV });
      expect(replay.code).toBe(3);
      expect(replay.stderr).toContain(`replay: the response store entry ${where} for `);
      expect(replay.stderr).toContain(problem);

      const before = server.requests.length;
      const cached = await runCli(flags, { cwd: dir, env: ENV });
      expect(cached.code, cached.stderr).toBe(0);
      expect(cached.stderr).toContain(`response store: ${where} ${problem}`);
      expect(server.requests.length - before).toBe(1);
      expect(JSON.parse(cached.stdout).metrics.end_to_end_accuracy.value).toBe(
        JSON.parse(first.stdout).metrics.end_to_end_accuracy.value,
      );
      const healed = await runCli(flags, { cwd: dir, env: ENV });
      expect(healed.stderr).not.toContain("response store:");
      expect(server.requests.length - before).toBe(1);
    });
  }
});
