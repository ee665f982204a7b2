/**
 * whenIdle (src/text/when-idle.ts): set-up run while the event loop waits, never while it works —
 * in the order given, one that throws forgotten — and no look keeps the process alive (that one
 * runs the build, dist/, in a process of its own).
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { whenIdle } from "../src/text/when-idle.js";

const waitFor = async (done: () => boolean): Promise<void> => {
  for (let i = 0; i < 2_000 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
};

/** Keeps the event loop working for `ms`: a chain of immediates that each spin a while. */
const busyFor = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    const end = performance.now() + ms;
    const spin = () => {
      const until = Math.min(end, performance.now() + 2);
      while (performance.now() < until);
      if (performance.now() < end) setImmediate(spin);
      else resolve();
    };
    setImmediate(spin);
  });

describe("whenIdle", () => {
  it("runs nothing while the event loop works, then each task in order once it waits", async () => {
    const ran: string[] = [];
    const working = busyFor(300);
    whenIdle(() => ran.push("first"));
    whenIdle(() => {
      throw new Error("a warm-up that fails is forgotten");
    });
    whenIdle(() => ran.push("third"));
    await working;
    expect(ran).toEqual([]);
    await waitFor(() => ran.length === 2);
    expect(ran).toEqual(["first", "third"]);
  });

  it("does not keep a process alive: a task still waiting at exit is not run", () => {
    const script = `
      import { whenIdle } from ${JSON.stringify(new URL("../dist/text/when-idle.js", import.meta.url).href)};
      const end = performance.now() + 200;
      whenIdle(() => console.log("ran"));
      while (performance.now() < end);
      console.log("done");`;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(child.stderr).toBe("");
    expect(child.stdout).toBe("done\n");
  });
});
