/**
 * OpenAI tools → source tools. Accepts Chat Completions tools (`{type: "function", function:
 * {name, description, parameters}}`), Responses API tools (`{type: "function", name, …}`), a list
 * of either, or an object with a `tools` list (a saved request). Built-in tools (web_search…)
 * have no definition to import and are skipped with a note.
 */
import type { JsonObject, JsonValue } from "../types.js";
import type { SourceTool } from "./build-snapshot.js";
import { JsonReader, isJsonObject } from "./read-json-input.js";

export interface ReadTools {
  tools: SourceTool[];
  skipped: string[];
}

export function readOpenAiTools(data: JsonValue, reader: JsonReader): ReadTools {
  const { list, path } = toolList(data, reader);
  const result: ReadTools = { tools: [], skipped: [] };
  list.forEach((value, i) => {
    const at = `${path}[${i}]`;
    const tool = reader.object(value, at);
    const type = reader.optionalString(tool.type, `${at}.type`) ?? "function";
    if (type !== "function") {
      result.skipped.push(
        `${at}: built-in tool of type "${type}" skipped (no definition to import)`,
      );
      return;
    }
    const fn = isJsonObject(tool.function) ? tool.function : tool;
    const fnPath = isJsonObject(tool.function) ? `${at}.function` : at;
    result.tools.push(toSourceTool(fn, fnPath, reader));
  });
  return result;
}

/** A bare list, or `{tools: [...]}`. */
export function toolList(data: JsonValue, reader: JsonReader): { list: JsonValue[]; path: string } {
  if (Array.isArray(data)) return { list: data, path: "" };
  return { list: reader.array(reader.object(data, "(root)").tools, "tools"), path: "tools" };
}

function toSourceTool(fn: JsonObject, path: string, reader: JsonReader): SourceTool {
  const name = reader.string(fn.name, `${path}.name`);
  const description = reader.optionalString(fn.description, `${path}.description`);
  const parameters = reader.optionalObject(fn.parameters, `${path}.parameters`);
  const declared: JsonObject = typeof fn.strict === "boolean" ? { strict: fn.strict } : {};
  return {
    name,
    ...(description === undefined ? {} : { description }),
    ...(parameters === undefined ? {} : { input_schema: parameters }),
    hints: {},
    declared,
  };
}
