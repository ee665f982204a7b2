/**
 * Conversations asked on-policy: the turns of one (conversation, trial) in order, each asked with
 * the model's own earlier replies instead of the gold ones. A call the turn's case expects returns
 * the turn's `result`; a call it gives a stub for (`results:`) returns the stub; any other call
 * returns a structured error result — and the record lists the tools that got one
 * (`turn.unstubbed`). A turn after one that errored is not asked: it errors too, saying which.
 */
import type { JsonObject, JsonValue, Message, ToolCall, TrialRecord, TurnPlan } from "../types.js";

/** What a call with no result in the case returns to the model (documented in docs/conversations.md). */
function missingResult(tool: string, turn: number): JsonValue {
  return { error: "no_result", message: `route-eval has no result for ${tool} at turn ${turn}: the case gives none (results:)` };
}

/** The messages turn t is asked with on-policy, and the tools whose calls had no result in the case. */
export function onPolicyHistory(plan: TurnPlan, earlier: { plan: TurnPlan; record: TrialRecord }[]): { messages: Message[]; unstubbed: string[] } {
  const messages: Message[] = [...plan.prior];
  const unstubbed: string[] = [];
  earlier.forEach(({ plan: before, record }, u) => {
    messages.push({ role: "user", content: before.user });
    const calls = record.calls ?? (record.selected === null ? [] : [{ tool: record.selected, arguments: record.arguments }]);
    if (calls.length === 0) {
      messages.push({ role: "assistant", content: record.response_text ?? "" });
      return;
    }
    const toolCalls: ToolCall[] = calls.map((call, i) => ({ id: `turn_${u + 1}_${i + 1}`, name: call.tool, arguments: asObject(call.arguments) }));
    messages.push({ role: "assistant", ...(record.response_text === null ? {} : { content: record.response_text }), tool_calls: toolCalls });
    for (const call of toolCalls) {
      const stub = Object.hasOwn(before.results, call.name) ? before.results[call.name] : record.acceptable.includes(call.name) ? before.result : undefined;
      if (stub === undefined) unstubbed.push(call.name);
      const result = stub ?? missingResult(call.name, u + 1);
      messages.push({ role: "tool", tool_call_id: call.id, name: call.name, content: typeof result === "string" ? result : JSON.stringify(result) });
    }
  });
  return { messages, unstubbed: [...new Set(unstubbed)] };
}

function asObject(value: JsonValue): JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
}
