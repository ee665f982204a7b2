import { canonicalJson } from "../text/canonical-json.js";
import type { TrialRequest } from "../types.js";

/**
 * The system text every provider receives: the configured system prompt, then the case's trusted
 * context as JSON (keys sorted), labelled as coming from the application rather than the user.
 */
export function renderSystemText(request: Pick<TrialRequest, "system" | "context">): string {
  if (Object.keys(request.context).length === 0) return request.system;
  return `${request.system}\n\nTrusted context (from the application, not the user):\n${canonicalJson(request.context)}`;
}
