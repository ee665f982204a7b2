import { createCanonicalWriter } from "../text/canonical-json.js";
import { sha256Hex } from "../text/content-hash.js";
import type { TrialRequest } from "../types.js";

/**
 * The request_hash of a trial whose endpoint has no store (the baseline): the content hash of the
 * same parts a stored endpoint's key is made of — endpoint, model, base URL (none), trial and the
 * request the endpoint is given — so request_hash means one thing whatever the endpoint. Written
 * by one canonical writer: the tool list trials share is written once, not once a trial.
 */
export function hashRequest(request: TrialRequest, endpoint: string, model: string): string {
  const { case_id: _caseId, ...content } = request;
  return sha256Hex(
    canonical({ endpoint, model, base_url: null, trial: request.trial, request: content }),
  );
}

/** Requests and their parts are never changed once asked (the writer's memo is by identity). */
const canonical = createCanonicalWriter();
