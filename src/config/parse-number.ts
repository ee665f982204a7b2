import { ArgumentError } from "../errors.js";

/** Option parsers: a bad value is a usage error (exit 2) that says what was expected. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new ArgumentError("expected a whole number ≥ 1.");
  return n;
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
