/**
 * Anthropic tools → source tools. Accepts a list of client tools (`{name, description,
 * input_schema}`) or an object with a `tools` list (a saved Messages request). Server tools
 * (`type: "web_search_20250305"`…) have no definition to import and are skipped with a note.
 */
import type { JsonValue } from "../types.js";
import type { SourceTool } from "./build-snapshot.js";
import { toolList, type ReadTools } from "./import-openai.js";
import type { JsonReader } from "./read-json-input.js";

export function readAnthropicTools(data: JsonValue, reader: JsonReader): ReadTools {
  const { list, path } = toolList(data, reader);
  const result: ReadTools = { tools: [], skipped: [] };
  list.forEach((value, i) => {
    const at = `${path}[${i}]`;
    const tool = reader.object(value, at);
    const type = reader.optionalString(tool.type, `${at}.type`);
    if (type !== undefined && type !== "custom") {
      result.skipped.push(`${at}: server tool of type "${type}" skipped (no definition to import)`);
      return;
    }
    const name = reader.string(tool.name, `${at}.name`);
    const description = reader.optionalString(tool.description, `${at}.description`);
    const inputSchema = reader.object(tool.input_schema, `${at}.input_schema`);
    const sourceTool: SourceTool = { name, input_schema: inputSchema, hints: {}, declared: {} };
    if (description !== undefined) sourceTool.description = description;
    result.tools.push(sourceTool);
  });
  return result;
}
