import { describe, expect, it } from "vitest";
import { createProgressPrinter, formatDuration, formatProgress } from "../src/render/progress.js";
import type { RunProgress } from "../src/types.js";
import { captureIo } from "./support/io.js";

function progress(fields: Partial<RunProgress>): RunProgress {
  return {
    total: 100,
    done: 0,
    resumed: 0,
    errored: 0,
    retries: 0,
    from_store: 0,
    elapsed_ms: 0,
    finished: false,
    ...fields,
  };
}

describe("progress line", () => {
  it("says done/total, errors, retries, store hits and an ETA from this session's pace", () => {
    expect(
      formatProgress(
        progress({
          done: 40,
          resumed: 20,
          errored: 2,
          retries: 5,
          from_store: 3,
          elapsed_ms: 10_000,
        }),
      ),
    ).toBe(
      "route-eval: 40/100 trials (40%) · 20 resumed · 2 errored · 5 retries · 3 from store · ETA 30s",
    );
    expect(formatProgress(progress({ done: 0 }))).toBe(
      "route-eval: 0/100 trials (0%) · 0 errored · 0 retries · ETA …",
    );
    expect(formatProgress(progress({ done: 100, elapsed_ms: 65_000, finished: true }))).toBe(
      "route-eval: 100/100 trials (100%) · 0 errored · 0 retries · took 1m 5s",
    );
    expect(formatDuration(4_321)).toBe("4.3s");
    expect(formatDuration(3_725_000)).toBe("1h 2m");
  });

  it("on a terminal, redraws one line in place at most every 100 ms and ends it with a newline", () => {
    const captured = captureIo("/", {}, true);
    const { io } = captured;
    let clock = 0;
    const print = createProgressPrinter(io, { tty: true, now: () => clock });
    for (let done = 0; done <= 100; done++) {
      clock = done * 10;
      print(progress({ done, elapsed_ms: clock }));
    }
    print(progress({ done: 100, elapsed_ms: 1000, finished: true }));
    const frames = captured
      .stderr()
      .split("\r\u001b[K")
      .filter((f) => f !== "");
    expect(frames).toHaveLength(12);
    expect(captured.stderr()).not.toMatch(/\n(?!$)/);
    expect(frames[frames.length - 1]).toBe(
      "route-eval: 100/100 trials (100%) · 0 errored · 0 retries · took 1.0s\n",
    );
  });

  it("in CI logs, prints a line per 10% and at least every 10 s, then the final line", () => {
    const captured = captureIo("/");
    const { io } = captured;
    let clock = 0;
    const print = createProgressPrinter(io, { tty: false, now: () => clock });
    print(progress({ done: 0, elapsed_ms: 2_000 }));
    for (let done = 1; done <= 100; done++) print(progress({ done, elapsed_ms: 2_000 + done }));
    clock = 5_000;
    print(progress({ done: 100, elapsed_ms: 7_000 }));
    print(progress({ done: 100, finished: true, elapsed_ms: 2000 }));
    const lines = captured.stderr().trim().split("\n");
    expect(lines.map((l) => l.split(" ")[1])).toEqual([
      "0/100",
      "10/100",
      "20/100",
      "30/100",
      "40/100",
      "50/100",
      "60/100",
      "70/100",
      "80/100",
      "90/100",
      "100/100",
    ]);
    expect(lines[lines.length - 1]).toContain("took 2.0s");

    const slow = captureIo("/");
    const printSlow = createProgressPrinter(slow.io, { tty: false, now: () => clock });
    clock = 0;
    printSlow(progress({ done: 1, total: 1000, elapsed_ms: 2_000 }));
    clock = 9_000;
    printSlow(progress({ done: 2, total: 1000, elapsed_ms: 11_000 }));
    clock = 10_500;
    printSlow(progress({ done: 3, total: 1000, elapsed_ms: 12_500 }));
    expect(
      slow
        .stderr()
        .trim()
        .split("\n")
        .map((l) => l.split(" ")[1]),
    ).toEqual(["1/1000", "3/1000"]);
  });

  it("in CI logs, a run shorter than 2 s prints only its last line", () => {
    const captured = captureIo("/");
    const { io } = captured;
    const print = createProgressPrinter(io, { tty: false, now: () => 0 });
    for (let done = 0; done <= 100; done++) print(progress({ done, elapsed_ms: done * 10 }));
    print(progress({ done: 100, elapsed_ms: 1_000, finished: true }));
    expect(captured.stderr()).toBe(
      "route-eval: 100/100 trials (100%) · 0 errored · 0 retries · took 1.0s\n",
    );
  });
});
