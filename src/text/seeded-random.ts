import { createHash } from "node:crypto";

/** A 32-bit seed from any parts (e.g. run seed, case id, trial): sha256 of their JSON, first 4 bytes. */
export function deriveSeed(...parts: (string | number)[]): number {
  return createHash("sha256").update(JSON.stringify(parts)).digest().readUInt32BE(0);
}

/** mulberry32: a small, fast, seeded generator of floats in [0, 1). Same seed, same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
