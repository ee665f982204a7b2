/**
 * Deterministic randomness, the same on every machine: seeds derived from their parts, a seeded
 * generator, and a seeded shuffle. Tool-order shuffles and sweep distractor draws both use it.
 */

/**
 * A 32-bit seed from any parts (e.g. run seed, case id, trial): cyrb53 of their JSON, low 32 bits.
 * Not cryptographic — it only has to spread nearby inputs apart, cheaply, on every trial.
 */
export function deriveSeed(...parts: (string | number)[]): number {
  const text = JSON.stringify(parts);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
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

/** A Fisher–Yates shuffle of a copy. */
export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A 32-bit seed from its parts (FNV-1a over their text), as sweeps draw distractors with it. */
export function hashSeed(...parts: (string | number)[]): number {
  return fnv1a(parts.join("\u0000"));
}

/** FNV-1a over a text's code points, 32 bits: a seed's parts, a text table's slots (text/text-index.ts). */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const point = text.codePointAt(i) as number;
    hash = Math.imul(hash ^ point, 0x01000193);
    if (point > 0xffff) i += 1;
  }
  return hash >>> 0;
}
