import { ArgumentError } from "../errors.js";

/** Option parsers: a bad value is a usage error (exit 2) that says what was expected. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new ArgumentError("expected a whole number ≥ 1.");
  return n;
}

/**
 * The most trials a case may be given (trials, max_trials) and searches a decision may make: a
 * value past these is a typo (1e9), not a plan, and would run on for days before anyone noticed.
 */
export const MOST_TRIALS = 10_000;
export const MOST_SEARCHES = 50;

/** A whole number from 1 to `most`. */
export function wholeNumberUpTo(most: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > most)
      throw new ArgumentError(`expected a whole number from 1 to ${most.toLocaleString("en")}.`);
    return n;
  };
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new ArgumentError("expected a whole number ≥ 0.");
  return n;
}

export function nonNegativeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new ArgumentError("expected a number ≥ 0.");
  return n;
}

/** "5,10,20" → [5, 10, 20]. */
export function positiveIntList(value: string): number[] {
  return value.split(",").map((part) => positiveInt(part.trim()));
}

/** "true" / "false" (also yes/no, on/off, 1/0) for a flag that takes a boolean. */
export function parseBoolean(raw: string): boolean {
  const text = raw.trim().toLowerCase();
  if (["true", "yes", "on", "1"].includes(text)) return true;
  if (["false", "no", "off", "0"].includes(text)) return false;
  throw new ArgumentError("expected true or false.");
}

/** "auto" (adaptive trials against the gates) is written as Infinity until load-config resolves it. */
export function parseTrials(raw: string): number {
  return raw.trim() === "auto" ? Infinity : wholeNumberUpTo(MOST_TRIALS)(raw);
}

/** A success probability strictly between 0 and 1, or auto. */
export function parseTarget(raw: string): number | "auto" {
  if (raw.trim() === "auto") return "auto";
  return parseUnitInterval(raw);
}

export function parseUnitInterval(raw: string): number {
  const n = Number(raw);
  if (!(n > 0 && n < 1))
    throw new ArgumentError("expected a number between 0 and 1 (exclusive), e.g. 0.9.");
  return n;
}
