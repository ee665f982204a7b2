/**
 * The positions of `values` (non-negative numbers) from the largest down, equal values in their
 * order: a stable radix sort on each value's bits, which for a non-negative double rise with it.
 * Four passes of 16 bits over a million scores, instead of twenty million comparisons.
 */
export function descendingOrder(values: Float64Array): Int32Array {
  const n = values.length;
  const bits = new Float64Array(n);
  for (let k = 0; k < n; k++) bits[k] = values[k] + 0; // -0 as 0
  // Each value's two 32-bit words, inverted so that ascending words mean descending values, each
  // word in its own array (a pass reads one word contiguously, about 1.5× faster than striding over both).
  const words = new Uint32Array(bits.buffer);
  const [lowWord, highWord] = LITTLE_ENDIAN ? [0, 1] : [1, 0];
  const low = new Uint32Array(n);
  const high = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    low[k] = ~words[2 * k + lowWord];
    high[k] = ~words[2 * k + highWord];
  }
  let order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  let next = new Int32Array(n);
  const count = new Int32Array(0x10001);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass < 2 ? low : high;
    const shift = pass % 2 === 0 ? 0 : 16;
    count.fill(0);
    for (let k = 0; k < n; k++) count[((word[k] >>> shift) & 0xffff) + 1] += 1;
    for (let d = 0; d < 0xffff; d++) count[d + 1] += count[d];
    for (let at = 0; at < n; at++) {
      const k = order[at];
      next[count[(word[k] >>> shift) & 0xffff]++] = k;
    }
    [order, next] = [next, order];
  }
  return order;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
