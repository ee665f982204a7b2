import { shortContentHash } from "../text/content-hash.js";
import {
  isControl,
  type ControlName,
  type DescriptionMode,
  type JsonObject,
  type Tool,
  type ToolDefinition,
} from "../types.js";

const EMPTY_OBJECT_SCHEMA: JsonObject = {
  type: "object",
  properties: {},
  additionalProperties: false,
};

/**
 * The model-facing description of a tool: its purpose, then its use_when and avoid_when lines.
 * Every endpoint (the baseline router included) sees exactly this text and nothing else.
 */
export function renderDescription(
  tool: Pick<Tool, "purpose" | "use_when" | "avoid_when">,
  mode: DescriptionMode = "full",
): string {
  const lines = [tool.purpose.trim()];
  if (mode === "purpose") return lines[0];
  if (tool.use_when.length > 0) lines.push(`Use when: ${joinItems(tool.use_when)}`);
  if (tool.avoid_when.length > 0) lines.push(`Avoid when: ${joinItems(tool.avoid_when)}`);
  return lines.join("\n");
}

/**
 * Items as clean text: an item that ends a sentence (".", "!", "?") is followed by a space, any
 * other by "; " — never ".;". Nothing is added or removed, so `import` splits it back exactly.
 */
function joinItems(items: string[]): string {
  return items
    .map((item) => item.trim())
    .filter((item) => item !== "")
    .reduce(
      (text, item) => (text === "" ? item : `${text}${/[.!?]$/.test(text) ? " " : "; "}${item}`),
      "",
    );
}

/** `descriptions: purpose` (config) renders a registry tool's purpose alone; the trusted controls always render in full. */
export function renderDefinition(tool: Tool, mode: DescriptionMode = "full"): ToolDefinition {
  const shown = tool.family === "control" && isControl(tool.name) ? "full" : mode;
  return {
    name: tool.name,
    description: renderDescription(tool, shown),
    input_schema: tool.input_schema ?? EMPTY_OBJECT_SCHEMA,
  };
}

/** sha256 (first 16 hex) of the rendered definition, so a diff can name tools whose text changed. */
export function hashDefinition(definition: ToolDefinition): string {
  return shortContentHash(definition);
}

/** The trusted controls, as the runtime renders them. */
export const CONTROL_TOOLS: Record<ControlName, Tool> = {
  ask_user: control(
    "ask_user",
    "Ask the user a clarifying question.",
    [
      "Information needed to act (an identifier, an amount, a choice between several matches) is missing or ambiguous.",
    ],
    ["The request already contains everything a tool needs."],
    {
      type: "object",
      properties: { question: { type: "string" } },
      required: ["question"],
      additionalProperties: false,
    },
  ),
  wait_for_event: control(
    "wait_for_event",
    "Wait for an external event before acting.",
    [
      "The next step depends on something that has not happened yet (a delivery, a payment settling, a reply).",
    ],
    ["The action can be taken now."],
    {
      type: "object",
      properties: { event: { type: "string" } },
      required: ["event"],
      additionalProperties: false,
    },
  ),
  no_applicable_tool: control(
    "no_applicable_tool",
    "Decline: none of the available tools can do what is asked.",
    ["The request is outside what every listed tool does."],
    ["Any listed tool fits the request."],
    {
      type: "object",
      properties: { reason: { type: "string" } },
      additionalProperties: false,
    },
  ),
};

function control(
  name: ControlName,
  purpose: string,
  useWhen: string[],
  avoidWhen: string[],
  schema: JsonObject,
): Tool {
  return {
    name,
    family: "control",
    purpose,
    use_when: useWhen,
    avoid_when: avoidWhen,
    input_schema: schema,
    effect: "none",
    idempotent: true,
    open_world: false,
  };
}
