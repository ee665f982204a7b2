/**
 * MCP → source tools. Accepts a `tools/list` result (`{tools, nextCursor?}`), the JSON-RPC
 * response around one (`{result: {tools}}`), several pages as a list of results, or a bare list
 * of tools. Annotations are kept as declared hints (see build-snapshot.ts).
 */
import type { JsonObject, JsonValue } from "../types.js";
import type { BehaviourHints, SourceTool } from "./build-snapshot.js";
import { JsonReader, isJsonObject } from "./read-json-input.js";

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

export function readMcpTools(data: JsonValue, reader: JsonReader): SourceTool[] {
  return listMcpTools(data, reader).map(({ value, path }) => toSourceTool(value, path, reader));
}

interface Located {
  value: JsonValue;
  path: string;
}

function listMcpTools(data: JsonValue, reader: JsonReader): Located[] {
  if (Array.isArray(data)) {
    const pages = data.length > 0 && data.every((item) => isJsonObject(item) && "tools" in item);
    if (!pages) return data.map((value, i) => ({ value, path: `[${i}]` }));
    return data.flatMap((page, p) => toolsOf(page, `[${p}]`, reader));
  }
  const root = reader.object(data, "(root)");
  if (root.result !== undefined) return toolsOf(root.result, "result", reader);
  return toolsOf(root, "", reader);
}

function toolsOf(page: JsonValue, path: string, reader: JsonReader): Located[] {
  const where = path === "" ? "tools" : `${path}.tools`;
  const tools = reader.array(reader.object(page, path === "" ? "(root)" : path).tools, where);
  return tools.map((value, i) => ({ value, path: `${where}[${i}]` }));
}

function toSourceTool(value: JsonValue, path: string, reader: JsonReader): SourceTool {
  const tool = reader.object(value, path);
  const name = reader.string(tool.name, `${path}.name`);
  const description = reader.optionalString(tool.description, `${path}.description`);
  const title = reader.optionalString(tool.title, `${path}.title`);
  const annotations = reader.optionalObject(tool.annotations, `${path}.annotations`);
  const declared: JsonObject = {};
  if (title !== undefined) declared.title = title;
  if (annotations !== undefined) declared.annotations = annotations;
  // A tool's own _meta (the 2026-07-28 revision versions and extends tools there): kept, never read.
  const meta = reader.optionalObject(tool._meta, `${path}._meta`);
  if (meta !== undefined && Object.keys(meta).length > 0) declared._meta = meta;
  const inputSchema = reader.optionalObject(tool.inputSchema, `${path}.inputSchema`);
  const outputSchema = reader.optionalObject(tool.outputSchema, `${path}.outputSchema`);
  return {
    name,
    ...(description === undefined ? {} : { description }),
    ...(inputSchema === undefined ? {} : { input_schema: inputSchema }),
    ...(outputSchema === undefined ? {} : { output_schema: outputSchema }),
    hints: readHints(annotations, `${path}.annotations`, reader),
    declared,
  };
}

function readHints(
  annotations: JsonObject | undefined,
  path: string,
  reader: JsonReader,
): BehaviourHints {
  const hints: BehaviourHints = {};
  if (annotations === undefined) return hints;
  for (const key of HINTS) {
    const value = annotations[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== "boolean") reader.fail(`${path}.${key}`, "true or false", value);
    hints[key] = value;
  }
  return hints;
}
