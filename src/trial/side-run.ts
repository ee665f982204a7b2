/**
 * The loop of a side run — a counterfactual's trials, `diff --remeasure-base`'s — asked into a
 * records file of its own beside the run's: each record appended as it finishes; a stop (an
 * interrupt, or a run-stopping endpoint failure) throws with how many records are kept there and
 * how to finish (asked again, the store answers what was asked).
 */
import { EndpointFailure, Interrupted } from "../errors.js";
import { openRecordWriter } from "../run-files/records-io.js";
import type { EndpointPace, RunProgress, TrialRecord } from "../types.js";
import { runTrialJobs, type JobList } from "./run-loop.js";

export interface SideRun {
  /** The records file (appended to). */
  file: string;
  /** Records already in it (a rerun's), counted in the progress and the kept count. */
  resumed: number;
  concurrency: number;
  /** "counterfactual trials", "remeasured trials" */
  what: string;
  /** How to finish after a stop: "run it again", "run the diff again". */
  again: string;
  onProgress?: (progress: RunProgress) => void;
  signal?: AbortSignal;
  /** The endpoint's pace (the loop follows it under rate limits). */
  pace?: EndpointPace;
}

/** Runs the jobs (made with the function that keeps a record) and gives the records they wrote. */
export async function runIntoFile(
  side: SideRun,
  jobsOf: (keep: (record: TrialRecord) => void) => JobList,
): Promise<TrialRecord[]> {
  const writer = openRecordWriter(side.file);
  const asked: TrialRecord[] = [];
  const jobs = jobsOf((record) => {
    writer.append(record);
    asked.push(record);
  });
  let stopped;
  try {
    stopped = await runTrialJobs(jobs, {
      concurrency: side.concurrency,
      resumed: side.resumed,
      total: side.resumed + jobs.length,
      onProgress: side.onProgress,
      signal: side.signal,
      pace: side.pace,
    });
  } finally {
    writer.close();
  }
  if (stopped === null) return asked;
  const kept = `${side.resumed + asked.length} ${side.what} kept in ${side.file}; ${side.again} to finish (the store answers what was asked)`;
  if (stopped.kind === "interrupted")
    throw new Interrupted(stopped.signal, `interrupted by ${stopped.signal}: ${kept}`);
  throw new EndpointFailure(`${stopped.message} (${kept})`);
}
