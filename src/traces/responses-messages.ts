/** OpenAI Responses items in traces: the request's `input` and the reply's `output`, as route-eval's messages and traced calls. */
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

/** OpenAI Responses `input`: a string, or items (messages, function_call, function_call_output). */
export function fromResponsesInput(input: JsonValue | undefined, path: string): Conversation {
  const conversation: Conversation = { system: null, messages: [] };
  if (typeof input === "string") {
    conversation.messages.push({ role: "user", content: input });
    return conversation;
  }
  if (!Array.isArray(input))
    throw new TraceShapeError(path, "expected a string or a list of input items");
  input.forEach((item, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(item)) throw new TraceShapeError(at, "expected an input item object");
    const type = item.type ?? "message";
    if (type === "function_call") {
      const call = historyCall(
        tracedCall(item.call_id ?? item.id, item.name, item.arguments, at),
        conversation.messages.length,
      );
      const last = conversation.messages[conversation.messages.length - 1];
      if (last?.role === "assistant" && last.tool_calls !== undefined) last.tool_calls.push(call);
      else conversation.messages.push({ role: "assistant", tool_calls: [call] });
    } else if (type === "function_call_output") {
      conversation.messages.push({
        role: "tool",
        tool_call_id: String(item.call_id ?? ""),
        content: resultText(item.output),
      });
    } else if (type === "message") {
      const role = item.role;
      if (role === "system" || role === "developer") addSystem(conversation, textOf(item.content));
      else if (role === "user")
        conversation.messages.push({ role: "user", content: textOf(item.content) });
      else if (role === "assistant")
        conversation.messages.push({ role: "assistant", content: textOf(item.content) });
      else
        throw new TraceShapeError(
          `${at}.role`,
          `expected system, developer, user or assistant, got ${JSON.stringify(role ?? null)}`,
        );
    }
    // Other items (reasoning, tool search, built-in tool calls) carry no routing decision of the client's tools.
  });
  return conversation;
}

/** OpenAI Responses `output` items: function_call items are calls; message items' output_text is the text. */
export function responsesReply(
  output: JsonValue | undefined,
  path: string,
): { calls: TracedCall[]; text: string | null } {
  if (!Array.isArray(output))
    throw new TraceShapeError(path, "expected the response's output list");
  const calls: TracedCall[] = [];
  const texts: string[] = [];
  output.forEach((item, i) => {
    if (!isObject(item))
      throw new TraceShapeError(`${path}[${i}]`, "expected an output item object");
    if (item.type === "function_call")
      calls.push(tracedCall(item.call_id ?? item.id, item.name, item.arguments, `${path}[${i}]`));
    else if (item.type === "message") texts.push(textOf(item.content));
  });
  return { calls, text: joinText(texts) };
}
