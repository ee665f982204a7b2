/**
 * Which traced turns a command takes: by span id (hex, base64 or `0x…`, however the exporter writes
 * it), and by `--where KEY=VALUE` on the turn's attributes — plus `model`, `provider`,
 * `called` (the first called tool, or `none`) — every condition holding. Turns come back in
 * time order (then trace, span, file and line): exporters write spans out of order.
 */
import { InputError } from "../errors.js";
import type { TracedTurn } from "../types.js";
import { normaliseId } from "./otlp-values.js";

export interface TurnFilter {
  spans: Set<string>;
  where: [key: string, value: string][];
}

export function parseFilter(spans: string[], where: string[]): TurnFilter {
  return {
    spans: new Set(spans.map((span) => normaliseId(span, 8) ?? span)),
    where: where.map((condition) => {
      const equals = condition.indexOf("=");
      if (equals <= 0)
        throw new InputError(
          `--where ${JSON.stringify(condition)}: expected KEY=VALUE, e.g. --where tenant=acme or --where model=gpt-4o`,
        );
      return [condition.slice(0, equals), condition.slice(equals + 1)];
    }),
  };
}

/** A turn's value for a --where or --by key: its attribute, or model, provider, called. */
export function valueOf(turn: TracedTurn, key: string): string | null {
  if (key === "model") return turn.model;
  if (key === "provider") return turn.provider;
  if (key === "called") return turn.calls[0]?.name ?? "none";
  return turn.attributes[key] ?? null;
}

export function matches(turn: TracedTurn, filter: TurnFilter): boolean {
  if (filter.spans.size > 0 && (turn.span_id === null || !filter.spans.has(turn.span_id)))
    return false;
  return filter.where.every(([key, value]) => valueOf(turn, key) === value);
}

/** Where a turn falls in the order turns are read in: what compareTurns compares. */
export type TurnPlace = Pick<TracedTurn, "time" | "trace_id" | "span_id"> & {
  source: Pick<TracedTurn["source"], "file" | "line">;
};

/**
 * A turn's place, read from what stands for the turn (its place, or its index in lists of them).
 * Its time may be read as milliseconds: an ISO time of a four-digit year (what readers write) is
 * in the same order as its milliseconds.
 */
export type PlaceOf<T> = { [K in Exclude<keyof TurnPlace, "time">]: (turn: T) => TurnPlace[K] } & {
  time: (turn: T) => TurnPlace["time"] | number;
};

/**
 * Time order; turns without a time after those with one; then by ids and place, so the order
 * never depends on the files' order alone.
 */
export function orderOfTurns<T>(place: PlaceOf<T>): (a: T, b: T) => number {
  return (a, b) =>
    compareNullable(place.time(a), place.time(b)) ||
    compareNullable(place.trace_id(a), place.trace_id(b)) ||
    compareNullable(place.span_id(a), place.span_id(b)) ||
    compareSources(place.source(a), place.source(b));
}

export const compareTurns = orderOfTurns<TurnPlace>({
  time: (p) => p.time,
  trace_id: (p) => p.trace_id,
  span_id: (p) => p.span_id,
  source: (p) => p.source,
});

function compareSources(a: TurnPlace["source"], b: TurnPlace["source"]): number {
  return a.file.localeCompare(b.file) || a.line - b.line;
}

/** Text (or numbers) in order, null after every value. */
function compareNullable<V extends string | number>(a: V | null, b: V | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/** How a turn is named in messages: its span (or trace file and line). */
export function nameTurn(turn: TracedTurn): string {
  return turn.span_id === null
    ? `${turn.source.file}:${turn.source.line}`
    : `span ${turn.span_id} (${turn.source.file}:${turn.source.line})`;
}
