/**
 * The appender of records.jsonl and the store's packs: a turn's lines are written together when
 * the turn ends, whatever waits is written when the process exits however it exits, and a write
 * that fails is said by the next call, with the file's path.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openLineAppender } from "../src/run-files/line-appender.js";
import { tempDir } from "./support/cli.js";

const turn = () => new Promise((resolve) => setImmediate(resolve));
const BUILT = new URL("../dist/run-files/line-appender.js", import.meta.url).pathname;

describe("openLineAppender", () => {
  it("writes a turn's lines together when the turn ends, in the order appended", async () => {
    const file = join(tempDir(), "lines.jsonl");
    const lines = openLineAppender(file);
    lines.append("a\n");
    lines.append("b\n");
    expect(readFileSync(file, "utf8")).toBe("");
    await turn();
    expect(readFileSync(file, "utf8")).toBe("a\nb\n");
    lines.append("c\n");
    lines.flush();
    expect(readFileSync(file, "utf8")).toBe("a\nb\nc\n");
    lines.append("d\n");
    lines.close();
    expect(readFileSync(file, "utf8")).toBe("a\nb\nc\nd\n");
  });

  it.skipIf(!existsSync(BUILT))(
    "writes what waits when the process exits: an exit call, an uncaught error",
    () => {
      for (const [ending, code] of [
        ["process.exit(0)", 0],
        ["throw new Error('boom')", 1],
      ] as const) {
        const file = join(tempDir(), "lines.jsonl");
        const script = `const { openLineAppender } = await import(${JSON.stringify(BUILT)});
const lines = openLineAppender(${JSON.stringify(file)});
lines.append("kept\\n");
${ending};`;
        const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
          encoding: "utf8",
        });
        expect(child.status, child.stderr).toBe(code);
        expect(readFileSync(file, "utf8")).toBe("kept\n");
      }
    },
  );

  it.skipIf(!existsSync("/dev/full"))(
    "says a write that failed at the next call, naming the file",
    async () => {
      const lines = openLineAppender("/dev/full");
      lines.append("lost\n");
      await turn();
      expect(() => lines.append("next\n")).toThrow(
        expect.objectContaining({ code: "ENOSPC", path: "/dev/full" }),
      );
      lines.append("again\n");
      expect(() => lines.close()).toThrow(expect.objectContaining({ code: "ENOSPC" }));
    },
  );
});
