/**
 * Conversations asked on-policy: the turns of one (conversation, trial) in order, each asked with
 * the model's own earlier replies instead of the gold ones. A call the turn's case expects returns
 * the turn's `result`; a call it gives a stub for (`results:`) returns the stub; any other call
 * returns a structured error result — and the record lists the tools that got one
 * (`turn.unstubbed`). A turn after one that errored is not asked: it errors too, saying which.
 */
import { callsOf } from "../classify/call-set.js";
import { turnId } from "../cases/conversations.js";
import { trialKey } from "../types.js";
import type {
  Case,
  EndpointOutcome,
  JsonObject,
  JsonValue,
  Message,
  ToolCall,
  TrialRecord,
  TurnPlan,
} from "../types.js";
import type { TrialResult } from "./run-loop.js";

/** Asks a case's trial (`instead`: the outcome to record without calling the endpoint). */
export type Ask = (
  testCase: Case,
  trial: number,
  instead?: EndpointOutcome,
) => Promise<TrialResult>;

/**
 * The jobs of an on-policy run, in turn order: turn t of a trial waits for turn t − 1 of the same
 * trial and is asked with the model's own replies so far.
 */
export function listOnPolicy(
  pending: { testCase: Case; trial: number }[],
  cases: Case[],
  records: TrialRecord[],
  ask: Ask,
): (() => Promise<TrialResult>)[] {
  const plans = new Map(cases.map((c) => [c.id, c.plan]));
  // Each unit's record, as it is recorded (resumed ones at once; null: not asked, or stopped).
  const finished = new Map<string, Promise<TrialRecord | null>>(
    records.map((r) => [trialKey(r.case_id, r.trial), Promise.resolve(r)]),
  );
  const settle = new Map<string, (record: TrialRecord | null) => void>();
  for (const { testCase, trial } of pending) {
    const key = trialKey(testCase.id, trial);
    finished.set(key, new Promise((resolve) => settle.set(key, resolve)));
  }
  const ordered = [...pending].sort(
    (a, b) => (a.testCase.turn?.index ?? 0) - (b.testCase.turn?.index ?? 0),
  );
  return ordered.map(({ testCase, trial }) => async () => {
    const key = trialKey(testCase.id, trial);
    try {
      const result = await askOnPolicy(testCase, trial, plans, finished, ask);
      settle.get(key)?.(result.record());
      return result;
    } catch (error) {
      settle.get(key)?.(null);
      throw error;
    }
  });
}

async function askOnPolicy(
  testCase: Case,
  trial: number,
  plans: Map<string, TurnPlan | undefined>,
  finished: Map<string, Promise<TrialRecord | null>>,
  ask: Ask,
): Promise<TrialResult> {
  if (!followsReplies(testCase)) return ask(testCase, trial);
  const { turn, plan } = testCase;
  const earlierIds = Array.from({ length: turn.index - 1 }, (_, i) =>
    turnId(turn.conversation, i + 1),
  );
  const earlier = await Promise.all(
    earlierIds.map((id) => finished.get(trialKey(id, trial)) ?? Promise.resolve(null)),
  );
  const broken = earlier.findIndex((record) => record === null || record.error !== null);
  if (broken !== -1) {
    // The conversation cannot go on without that turn's reply: this turn is recorded errored, not asked.
    const error = `turn ${broken + 1} of this trial ${earlier[broken] === null ? "was not asked" : "errored"}, so on-policy turn ${turn.index} was not asked`;
    return ask({ ...testCase, turn: { ...turn, mode: "on-policy" } }, trial, { ok: false, error });
  }
  const { messages, unstubbed } = onPolicyHistory(
    plan,
    earlier.map((record, i) => ({
      plan: plans.get(earlierIds[i]) as TurnPlan,
      record: record as TrialRecord,
    })),
  );
  return ask({ ...testCase, messages, turn: { ...turn, mode: "on-policy", unstubbed } }, trial);
}

/** Whether an on-policy run asks this case with the model's own replies so far (a conversation's turn with a plan). */
export function followsReplies(
  testCase: Case,
): testCase is Case & Required<Pick<Case, "turn" | "plan">> {
  return testCase.turn !== undefined && testCase.plan !== undefined;
}

/** What a call with no result in the case returns to the model (documented in docs/conversations.md). */
function missingResult(tool: string, turn: number): JsonValue {
  return {
    error: "no_result",
    message: `route-eval has no result for ${tool} at turn ${turn}: the case gives none (results:)`,
  };
}

/** The messages turn t is asked with on-policy, and the tools whose calls had no result in the case. */
export function onPolicyHistory(
  plan: TurnPlan,
  earlier: { plan: TurnPlan; record: TrialRecord }[],
): { messages: Message[]; unstubbed: string[] } {
  const messages: Message[] = [...plan.prior];
  const unstubbed: string[] = [];
  earlier.forEach(({ plan: before, record }, u) => {
    messages.push({ role: "user", content: before.user });
    const calls = callsOf(record);
    if (calls.length === 0) {
      messages.push({ role: "assistant", content: record.response_text ?? "" });
      return;
    }
    const toolCalls: ToolCall[] = calls.map((call, i) => ({
      id: `turn_${u + 1}_${i + 1}`,
      name: call.tool,
      arguments: asObject(call.arguments),
    }));
    messages.push({
      role: "assistant",
      ...(record.response_text === null ? {} : { content: record.response_text }),
      tool_calls: toolCalls,
    });
    for (const call of toolCalls) {
      const stub = Object.hasOwn(before.results, call.name)
        ? before.results[call.name]
        : record.acceptable.includes(call.name)
          ? before.result
          : undefined;
      if (stub === undefined) unstubbed.push(call.name);
      const result = stub ?? missingResult(call.name, u + 1);
      messages.push({
        role: "tool",
        tool_call_id: call.id,
        name: call.name,
        content: typeof result === "string" ? result : JSON.stringify(result),
      });
    }
  });
  return { messages, unstubbed: [...new Set(unstubbed)] };
}

function asObject(value: JsonValue): JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
}
