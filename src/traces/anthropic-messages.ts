/** Anthropic Messages in traces: the request's `system` and messages, and the reply's content blocks, as route-eval's messages and traced calls. */
import type { JsonValue, TracedCall } from "../types.js";
import {
  TraceShapeError,
  isObject,
  textOf,
  tracedCall,
  historyCall,
  type Conversation,
  addSystem,
  resultText,
  joinText,
} from "./trace-messages.js";

/** Anthropic Messages: `system` (a string or text blocks) and messages whose content is a string or blocks. */
export function fromAnthropicMessages(
  system: JsonValue | undefined,
  list: JsonValue | undefined,
  path: string,
): Conversation {
  if (!Array.isArray(list)) throw new TraceShapeError(path, "expected a list of messages");
  const conversation: Conversation = { system: null, messages: [] };
  if (system !== undefined && system !== null) addSystem(conversation, textOf(system));
  list.forEach((value, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(value)) throw new TraceShapeError(at, "expected a message object");
    const blocks: JsonValue =
      typeof value.content === "string"
        ? [{ type: "text", text: value.content }]
        : (value.content ?? null);
    if (!Array.isArray(blocks))
      throw new TraceShapeError(`${at}.content`, "expected a string or a list of content blocks");
    if (value.role === "assistant") {
      const { calls, text } = anthropicReply(blocks, `${at}.content`);
      conversation.messages.push({
        role: "assistant",
        ...(text === null ? {} : { content: text }),
        ...(calls.length === 0 ? {} : { tool_calls: calls.map(historyCall) }),
      });
    } else if (value.role === "user") {
      const texts: string[] = [];
      for (const block of blocks) {
        if (!isObject(block)) continue;
        if (block.type === "tool_result")
          conversation.messages.push({
            role: "tool",
            tool_call_id: String(block.tool_use_id ?? ""),
            content: resultText(block.content),
          });
        else if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
      }
      if (texts.length > 0) conversation.messages.push({ role: "user", content: texts.join("\n") });
    } else
      throw new TraceShapeError(
        `${at}.role`,
        `expected user or assistant, got ${JSON.stringify(value.role ?? null)}`,
      );
  });
  return conversation;
}

/** An Anthropic reply's content blocks: tool_use blocks are calls (input is an object), text blocks the text. */
export function anthropicReply(
  blocks: JsonValue | undefined,
  path: string,
): { calls: TracedCall[]; text: string | null } {
  if (!Array.isArray(blocks))
    throw new TraceShapeError(path, "expected the reply's content blocks");
  const calls: TracedCall[] = [];
  const texts: string[] = [];
  blocks.forEach((block, i) => {
    if (!isObject(block)) return;
    if (block.type === "tool_use")
      calls.push(tracedCall(block.id, block.name, block.input, `${path}[${i}]`));
    else if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
  });
  return { calls, text: joinText(texts) };
}
