/**
 * OTLP JSON's values as plain data: AnyValue decoded, attributes from an OTLP list or a flat
 * object, flattened keys (`llm.tools.0.tool.name`) nested again, ids and times normalised.
 */
import type { JsonValue } from "../types.js";
import { isObject, TraceShapeError } from "./trace-messages.js";

/** Attribute keys → values, AnyValue decoded; later keys of the same name win (the span's over its resource's). */
export type Attributes = Map<string, JsonValue>;

/** An OTLP AnyValue as JSON: int64 written as decimal strings become numbers; kvlists become objects. */
export function anyValue(value: JsonValue | undefined): JsonValue {
  if (!isObject(value)) return value ?? null;
  if ("stringValue" in value) return value.stringValue;
  if ("boolValue" in value) return value.boolValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return Number(value.doubleValue);
  if ("bytesValue" in value) return value.bytesValue;
  if ("arrayValue" in value)
    return isObject(value.arrayValue) && Array.isArray(value.arrayValue.values)
      ? value.arrayValue.values.map(anyValue)
      : [];
  if ("kvlistValue" in value) {
    const list =
      isObject(value.kvlistValue) && Array.isArray(value.kvlistValue.values)
        ? value.kvlistValue.values
        : [];
    return Object.fromEntries(
      list.filter(isObject).map((kv) => [String(kv.key), anyValue(kv.value)]),
    );
  }
  return null;
}

/** Adds a span's (or resource's) attributes: an OTLP list of `{key, value}`, or a flat object. */
export function addAttributes(
  into: Attributes,
  attributes: JsonValue | undefined,
  path: string,
): void {
  if (attributes === undefined || attributes === null) return;
  if (Array.isArray(attributes)) {
    attributes.forEach((kv, i) => {
      if (!isObject(kv) || typeof kv.key !== "string")
        throw new TraceShapeError(`${path}[${i}]`, "expected an attribute {key, value}");
      into.set(kv.key, anyValue(kv.value));
    });
  } else if (isObject(attributes)) {
    for (const [key, value] of Object.entries(attributes)) into.set(key, value);
  } else
    throw new TraceShapeError(
      path,
      "expected the attributes as a list of {key, value} or an object",
    );
}

/** Flattened keys under `prefix.` as one nested value: numeric segments index lists. */
export function unflatten(attributes: Attributes, prefix: string): JsonValue | undefined {
  const start = `${prefix}.`;
  let root: JsonValue | undefined;
  for (const [key, value] of attributes) {
    if (!key.startsWith(start)) continue;
    const segments = key.slice(start.length).split(".");
    root = setPath(root, segments, 0, value);
  }
  return root;
}

function setPath(
  node: JsonValue | undefined,
  segments: string[],
  index: number,
  value: JsonValue,
): JsonValue {
  if (index === segments.length) return value;
  const segment = segments[index];
  if (/^\d+$/.test(segment)) {
    const list = Array.isArray(node) ? node : [];
    const at = Number(segment);
    list[at] = setPath(list[at], segments, index + 1, value);
    return list;
  }
  const object = isObject(node) ? node : {};
  object[segment] = setPath(object[segment], segments, index + 1, value);
  return object;
}

/**
 * An id as lower-case hex: OTLP JSON writes hex, Tempo and some exporters base64, console
 * exporters `0x…`. A value that is none of these is kept as written.
 */
export function normaliseId(value: JsonValue | undefined, bytes: number): string | null {
  if (typeof value !== "string" || value === "") return null;
  const hex = value.startsWith("0x") ? value.slice(2) : value;
  if (hex.length === bytes * 2 && /^[0-9a-fA-F]+$/.test(hex)) return hex.toLowerCase();
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(value)) {
    const decoded = Buffer.from(value, "base64");
    if (decoded.length === bytes) return decoded.toString("hex");
  }
  return value;
}

/** Unix nanoseconds (a decimal string or a number), or an ISO time, as ISO 8601. */
export function timeOf(value: JsonValue | undefined): string | null {
  if (typeof value === "string" && /^\d+$/.test(value))
    return new Date(Number(BigInt(value) / 1_000_000n)).toISOString();
  if (typeof value === "number") return new Date(value / 1e6).toISOString();
  if (typeof value === "string" && !Number.isNaN(Date.parse(value)))
    return new Date(value).toISOString();
  return null;
}
