/**
 * Lines appended to a file, each event-loop turn's lines in one write: a run that finishes
 * thousands of trials a second (the baseline, a replay, a shadow of a day of traffic) pays a
 * write call a turn, not one a line — a tenth of the time on this machine. The lines are written
 * when the turn ends (setImmediate), once they pass FLUSH_BYTES, on `flush` and `close`, and when
 * the process exits however it exits (an error, an exit call, a signal route-eval handles): only
 * a kill of the process between a line and the end of its turn loses the line. A write that
 * fails is thrown by the next `append`, `flush` or `close`, with the file's path.
 */
import { closeSync, openSync, writeSync } from "node:fs";

export interface LineAppender {
  /** Adds text (one or more whole lines) after what was appended before. */
  append(text: string): void;
  /** Writes what is waiting now. */
  flush(): void;
  /** Writes what is waiting and closes the file. */
  close(): void;
}

/** Waiting text written at once, whatever the turn. */
const FLUSH_BYTES = 1 << 20;

/** Every appender with text waiting, written at the process's exit. */
const open = new Set<() => void>();
let exitHooked = false;

/** An appender to `file`, opened for appending now. */
export function openLineAppender(file: string): LineAppender {
  const fd = openSync(file, "a");
  let waiting: string[] = [];
  let size = 0;
  let scheduled = false;
  let failure: unknown = null;
  let closed = false;
  const write = () => {
    scheduled = false;
    if (waiting.length === 0) return;
    const text = waiting.length === 1 ? waiting[0] : waiting.join("");
    waiting = [];
    size = 0;
    open.delete(write);
    try {
      writeSync(fd, text);
    } catch (error) {
      // A full disk says ENOSPC without a path: name the file the lines were going to.
      if (error instanceof Error && !("path" in error)) Object.assign(error, { path: file });
      failure ??= error;
    }
  };
  const raise = () => {
    if (failure === null) return;
    const error = failure;
    failure = null;
    throw error;
  };
  if (!exitHooked) {
    exitHooked = true;
    process.on("exit", () => {
      for (const pending of [...open]) pending();
    });
  }
  return {
    append: (text) => {
      raise();
      waiting.push(text);
      size += text.length;
      open.add(write);
      if (size >= FLUSH_BYTES) write();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(write);
      }
      raise();
    },
    flush: () => {
      write();
      raise();
    },
    close: () => {
      if (closed) return;
      closed = true;
      write();
      closeSync(fd);
      raise();
    },
  };
}
