/**
 * JSON inputs of `route-eval import`, read at the boundary: a parse error names the line, and a
 * wrong shape names the JSON path and what was expected.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { showPath } from "../config/yaml-document.js";
import { InputError } from "../errors.js";
import type { JsonObject, JsonValue } from "../types.js";

export interface JsonInput {
  /** The file as shown in messages. */
  shown: string;
  data: JsonValue;
}

export function readJsonInput(file: string, cwd: string): JsonInput {
  const absolute = resolve(cwd, file);
  const shown = showPath(absolute, cwd);
  if (!existsSync(absolute)) throw new InputError(`${shown}: file not found`);
  if (!statSync(absolute).isFile()) throw new InputError(`${shown}: not a file`);
  const text = readFileSync(absolute, "utf8");
  try {
    const data: JsonValue = JSON.parse(text);
    return { shown, data };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const line = position === null ? null : text.slice(0, Number(position[1])).split("\n").length;
    throw new InputError(`${shown}${line === null ? "" : `:${line}`}: not valid JSON (${message})`);
  }
}

/** Reads fields of untrusted JSON; every failure is `file: path: expected …`. */
export class JsonReader {
  constructor(readonly shown: string) {}

  fail(path: string, expected: string, value: JsonValue | undefined): never {
    throw new InputError(
      `${this.shown}: ${path}: expected ${expected}, got ${describeValue(value)}`,
    );
  }

  object(value: JsonValue | undefined, path: string): JsonObject {
    if (isJsonObject(value)) return value;
    return this.fail(path, "an object", value);
  }

  array(value: JsonValue | undefined, path: string): JsonValue[] {
    if (Array.isArray(value)) return value;
    return this.fail(path, "a list", value);
  }

  string(value: JsonValue | undefined, path: string): string {
    if (typeof value === "string" && value !== "") return value;
    return this.fail(path, "a non-empty string", value);
  }

  optionalString(value: JsonValue | undefined, path: string): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === "string") return value;
    return this.fail(path, "a string", value);
  }

  optionalObject(value: JsonValue | undefined, path: string): JsonObject | undefined {
    if (value === undefined || value === null) return undefined;
    return this.object(value, path);
  }
}

function describeValue(value: JsonValue | undefined): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (value !== null && typeof value === "object") return "an object";
  return JSON.stringify(value);
}

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
