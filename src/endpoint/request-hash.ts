import { createCanonicalWriter } from "../text/canonical-json.js";
import { envelopeHash } from "../text/content-hash.js";
import type { TrialRequest } from "../types.js";

/**
 * The request_hash of a trial whose endpoint has no store (the baseline): the content hash of the
 * same parts a stored endpoint's key is made of — endpoint, model, base URL (none), trial and the
 * request the endpoint is given — so request_hash means one thing whatever the endpoint. Hashed in
 * pieces by one canonical writer: the tool definitions trials share are written and encoded once,
 * and hashed from those bytes, never joined into a text a trial.
 */
export function hashRequest(request: TrialRequest, endpoint: string, model: string): string {
  const { case_id: _caseId, ...content } = request;
  return envelopeHash(
    { endpoint, model, base_url: null, trial: request.trial },
    canonical.pieces(content),
  );
}

/** Requests and their parts are never changed once asked (the writer's memo is by identity). */
const canonical = createCanonicalWriter();
