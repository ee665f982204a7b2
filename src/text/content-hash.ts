/**
 * The one content address: sha256 (hex) of the canonical JSON of a value (stable key order), so
 * equal content always has one hash — store keys, request hashes, definition hashes and
 * snapshot revisions all mean "this content" the same way.
 */
import { createHash } from "node:crypto";
import { canonicalJson, createCanonicalWriter } from "./canonical-json.js";

export function contentHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/** The first 16 hex digits: a readable name for a definition or a snapshot revision. */
export function shortContentHash(value: unknown): string {
  return contentHash(value).slice(0, 16);
}

/**
 * contentHash for a stream of values that share large parts by reference (requests share their
 * tool schemas): the canonical text of every part written is remembered, so `json` of a part of
 * a value just hashed is only looked up (a request body is serialised once, for its key and for
 * the wire).
 */
export function createContentHasher(): { hash: (value: unknown) => string; json: (value: unknown) => string } {
  const json = createCanonicalWriter();
  return { hash: (value) => sha256Hex(json(value)), json };
}

function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
