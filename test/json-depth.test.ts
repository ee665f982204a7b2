/** nestsDeeper (text/json-depth.ts) against the depth measured the plain way, on random values and at the limit. */
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeper } from "../src/text/json-depth.js";
import { seededRandom } from "../src/text/seeded-random.js";

/** Levels of arrays and objects (a scalar 0, `[]` 1). */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

function randomValue(random: () => number, budget: number): unknown {
  const pick = random();
  if (budget <= 0 || pick < 0.3) return pick < 0.1 ? null : pick < 0.2 ? "text" : 7;
  const size = Math.floor(random() * 4);
  const children = Array.from({ length: size }, () => randomValue(random, budget - 1));
  return pick < 0.65 ? children : Object.fromEntries(children.map((c, i) => [`k${i}`, c]));
}

describe("nestsDeeper", () => {
  it("says whether a value nests more than the limit, as its measured depth does, on random values", () => {
    const random = seededRandom(52);
    for (let i = 0; i < 2_000; i++) {
      const value = randomValue(random, 8);
      const limit = Math.floor(random() * 8);
      expect(nestsDeeper(value, limit), JSON.stringify({ value, limit })).toBe(
        depthOf(value) > limit,
      );
    }
  });

  it("at the default limit: 500 levels pass, 501 do not, arrays and objects alike", () => {
    const nest = (levels: number, inObject: boolean): unknown => {
      let value: unknown = inObject ? {} : [];
      for (let i = 1; i < levels; i++) value = inObject ? { x: value, y: 1 } : [1, value];
      return value;
    };
    for (const inObject of [false, true]) {
      expect(nestsDeeper(nest(MAX_JSON_DEPTH, inObject))).toBe(false);
      expect(nestsDeeper(nest(MAX_JSON_DEPTH + 1, inObject))).toBe(true);
    }
    // 100,000 levels: refused without walking them all (nor overflowing the stack).
    expect(nestsDeeper(JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`))).toBe(true);
  });
});
