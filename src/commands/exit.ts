import type { Outcome } from "../types.js";
/** Exit codes (docs/commands.md "Exit codes"). 4 is ours: an internal error, i.e. a bug. Only cli.ts returns them. */
export const EXIT = { ok: 0, gate: 1, input: 2, endpoint: 3, bug: 4 } as const;

/** A command action reports its verdict through this; cli.ts turns it into the process exit code. */
export type SetExit = (code: number) => void;

/** The exit code of a root's outcome. */
export function exitOf(outcome: Outcome): number {
  const codes: Record<Outcome, number> = { ok: EXIT.ok, failed: EXIT.gate, errored: EXIT.endpoint };
  return codes[outcome];
}
