import { createHash } from "node:crypto";
import { canonicalJson } from "../text/canonical-json.js";
import type { TrialRequest } from "../types.js";

/**
 * Content address of one trial's request: the canonical rendered request (stable key order) plus
 * the endpoint, model and trial index. Two runs that would send the same bytes share the hash.
 */
export function hashRequest(request: TrialRequest, endpoint: string, model: string): string {
  const { case_id: _caseId, ...content } = request;
  return createHash("sha256").update(canonicalJson({ endpoint, model, request: content })).digest("hex");
}
