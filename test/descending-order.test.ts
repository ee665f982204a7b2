import { describe, expect, it } from "vitest";
import { descendingOrder } from "../src/text/descending-order.js";
import { deriveSeed, seededRandom } from "../src/text/seeded-random.js";

describe("descendingOrder", () => {
  it("orders scores from the largest down, ties in their order, as a comparison sort does", () => {
    const random = seededRandom(deriveSeed("descending-order"));
    const ties = [0, -0, 1, 0.5, 0.4, 0.8, Number.MIN_VALUE, 1e-300, 0.1 + 0.2, 0.3];
    for (const size of [0, 1, 2, 1000, 70_000]) {
      const values = Float64Array.from({ length: size }, () =>
        random() < 0.5 ? ties[Math.floor(random() * ties.length)] : random(),
      );
      const expected = Array.from({ length: size }, (_, k) => k).sort(
        (x, y) => values[y] - values[x] || x - y,
      );
      expect([...descendingOrder(values)], `${size} values`).toEqual(expected);
    }
  });
});
