/**
 * The trial loop's contract (src/trial/run-loop.ts): when calls leave the process (the endpoint
 * has a pace), a finished trial's place goes to the next trial before its record is made;
 * otherwise each record is made at once. Records are kept in the order trials finished and all of
 * them before the loop returns, a record that cannot be made fails the run (never an uncaught
 * error), and a fatal outcome stops it with what finished before it kept.
 */
import { describe, expect, it } from "vitest";
import { runTrialJobs, type TrialJob, type TrialResult } from "../src/trial/run-loop.js";
import type { EndpointOutcome, EndpointResponse, RunProgress, TrialRecord } from "../src/types.js";

const answered: EndpointOutcome = { ok: true, response: {} as EndpointResponse };
/** An endpoint's pace at its full concurrency: its calls leave the process. */
const pace = { capacity: () => 32, max: 32 };

/** Jobs that log when they are asked, when their record is made and when it is kept. */
function loggedJobs(
  count: number,
  options: {
    events: string[];
    kept: string[];
    outcomeOf?: (i: number) => EndpointOutcome;
    recordOf?: (i: number) => TrialRecord;
    wait?: (i: number) => Promise<void>;
  },
): TrialJob[] {
  return Array.from({ length: count }, (_, i) => ({
    run: async (): Promise<TrialResult> => {
      options.events.push(`ask ${i}`);
      await (options.wait?.(i) ?? Promise.resolve());
      return {
        outcome: options.outcomeOf?.(i) ?? answered,
        record: () => {
          options.events.push(`record ${i}`);
          return options.recordOf?.(i) ?? ({ case_id: `c${i}`, trial: 0 } as TrialRecord);
        },
      };
    },
    keep: (record) => options.kept.push(record.case_id),
  }));
}

describe("the trial loop", () => {
  it("gives a finished trial's place to the next trial before it makes the record", async () => {
    const events: string[] = [];
    const kept: string[] = [];
    const stop = await runTrialJobs(loggedJobs(3, { events, kept }), {
      concurrency: 1,
      resumed: 0,
      total: 3,
      pace,
    });
    expect(stop).toBeNull();
    expect(events.indexOf("ask 1")).toBeLessThan(events.indexOf("record 0"));
    expect(events.indexOf("ask 2")).toBeLessThan(events.indexOf("record 1"));
    expect(kept).toEqual(["c0", "c1", "c2"]);
  });

  it("makes each record at once when nothing waits on a place (no pace: no call leaves the process)", async () => {
    const events: string[] = [];
    const kept: string[] = [];
    await runTrialJobs(loggedJobs(3, { events, kept }), { concurrency: 1, resumed: 0, total: 3 });
    expect(events).toEqual(["ask 0", "record 0", "ask 1", "record 1", "ask 2", "record 2"]);
    expect(kept).toEqual(["c0", "c1", "c2"]);
  });

  it("keeps every record, in the order the trials finished, before it returns", async () => {
    const events: string[] = [];
    const kept: string[] = [];
    // Some trials answer in a microtask, some after a turn of the event loop, some after a timer.
    const wait = (i: number) =>
      i % 3 === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) =>
            i % 3 === 1 ? setImmediate(resolve) : setTimeout(resolve, i % 7),
          );
    const progress: RunProgress[] = [];
    const stop = await runTrialJobs(loggedJobs(300, { events, kept, wait }), {
      concurrency: 4,
      resumed: 0,
      total: 300,
      pace,
      onProgress: (p) => progress.push(p),
    });
    expect(stop).toBeNull();
    expect(kept).toHaveLength(300);
    expect(new Set(kept).size).toBe(300);
    // A trial's record is made once, just before it is kept, in the order the trials finished.
    const made = events.filter((e) => e.startsWith("record ")).map((e) => `c${e.slice(7)}`);
    expect(made).toEqual(kept);
    expect(progress.at(-1)).toMatchObject({ done: 300, finished: true });
  });

  it("fails the run when a record cannot be made (the error is the run's, not uncaught)", async () => {
    const events: string[] = [];
    const kept: string[] = [];
    const broken = new Error("cannot classify trial 5");
    const recordOf = (i: number) => {
      if (i === 5) throw broken;
      return { case_id: `c${i}`, trial: 0 } as TrialRecord;
    };
    const wait = () => new Promise<void>((resolve) => setImmediate(resolve));
    await expect(
      runTrialJobs(loggedJobs(40, { events, kept, recordOf, wait }), {
        concurrency: 2,
        resumed: 0,
        total: 40,
        pace,
      }),
    ).rejects.toBe(broken);
    expect(kept.slice(0, 5)).toEqual(["c0", "c1", "c2", "c3", "c4"]);
    expect(kept).not.toContain("c5");
  });

  it("stops at a fatal outcome: nothing new is asked, what finished before it is kept", async () => {
    const events: string[] = [];
    const kept: string[] = [];
    const outcomeOf = (i: number): EndpointOutcome =>
      i === 3 ? { ok: false, kind: "fatal", error: "the key was refused" } : answered;
    const stop = await runTrialJobs(loggedJobs(10, { events, kept, outcomeOf }), {
      concurrency: 1,
      resumed: 0,
      total: 10,
    });
    expect(stop).toEqual({ kind: "fatal", message: "the key was refused", setup: false });
    expect(kept).toEqual(["c0", "c1", "c2"]);
    expect(events).not.toContain("ask 4");
    expect(events).not.toContain("record 3");
  });
});
