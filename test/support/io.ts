/** The one captured Io: drives `main(argv, io)` in-process and records what the command wrote. */
import type { Io } from "../../src/context.js";

export interface CapturedIo {
  io: Io;
  stdout: () => string;
  stderr: () => string;
}

export function captureIo(
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = {},
  stderrTTY = false,
): CapturedIo {
  let out = "";
  let err = "";
  return {
    io: {
      stdout: (t) => void (out += t),
      stderr: (t) => void (err += t),
      color: false,
      stderrTTY,
      env,
      cwd,
      now: () => new Date(),
    },
    stdout: () => out,
    stderr: () => err,
  };
}

/** argv as process.argv would hold it. */
export function argv(...args: string[]): string[] {
  return ["node", "route-eval", ...args];
}
