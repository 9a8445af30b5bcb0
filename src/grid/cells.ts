/**
 * Cell coordinates and their hash, at full precision (no clamp): a cell coordinate is
 * `Math.floor(v / side)` as a float64 integer, exact while its magnitude is below 2^52, and the hash
 * mixes all of its bits (low and high 32-bit halves), so bodies far from the origin (1e10 with
 * cells of 1e-4: coordinates near 1e14) keep distinct cells instead of collapsing into one. Ranges
 * whose coordinates reach `CELL_LIMIT` (2^52, where consecutive integers stop being distinct
 * doubles) are never iterated: callers treat them as "too many cells" (a coarser level or a scan).
 *
 * Also: dyadic time slices of a tick (`slice` codes), used to split a fast mover's motion.
 * @module
 */

/** Cell coordinates must stay strictly inside ±CELL_LIMIT to be iterated (2^52). */
export const CELL_LIMIT = 2 ** 52;
const TWO_TO_MINUS_32 = 2 ** -32;

/**
 * Hash of cell (x, y, z) on `level` into a power-of-two table (`mask` = size − 1). The coordinates
 * are float64 integers of magnitude < 2^52; their low and high 32-bit halves are both mixed.
 */
export function hashCell(x: number, y: number, z: number, level: number, mask: number): number {
  const xl = x | 0, yl = y | 0, zl = z | 0;
  let h = Math.imul(xl, 0x8da6b343) ^ Math.imul(yl, 0xd8163841) ^ Math.imul(zl, 0xcb1ab31f) ^ Math.imul(level + 1, 0x165667b1);
  // High halves: zero for |coordinate| < 2^31, so this costs a test in the common case.
  const xh = ((x - xl) * TWO_TO_MINUS_32) | 0, yh = ((y - yl) * TWO_TO_MINUS_32) | 0, zh = ((z - zl) * TWO_TO_MINUS_32) | 0;
  if ((xh | yh | zh) !== 0) h ^= Math.imul(xh ^ Math.imul(yh, 0x27d4eb2f) ^ Math.imul(zh, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 15;
  return h & mask;
}

/**
 * Dyadic time slices of a tick, coded like the nodes of a binary heap: 1 is the whole tick [0, 1];
 * the children of slice `s` are `2s` (its first half) and `2s + 1` (its second half). Slice `s` at
 * depth d = floor(log2 s) covers [k / 2^d, (k + 1) / 2^d) with k = s − 2^d (the last one also
 * holds t = 1). Two slices share a moment iff one is an ancestor of the other.
 */
export const WHOLE_TICK = 1;

/** Whether slices `a` and `b` (see {@link WHOLE_TICK}) share a moment of the tick. */
export function slicesMeet(a: number, b: number): boolean {
  const da = 31 - Math.clz32(a);
  const db = 31 - Math.clz32(b);
  return da >= db ? a >>> (da - db) === b : b >>> (db - da) === a;
}
