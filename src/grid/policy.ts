/**
 * The cell size and the static margin, chosen from the bodies present and chosen again when they
 * drift — robust to a few outliers (one giant, one bullet), to an empty first step and to bodies
 * of zero size.
 *
 * Input: a log-scale histogram of the bodies' extents (length units: a sphere's largest swept
 * side without padding, 2·radius + its largest motion component over the tick; for a point at rest,
 * its bounds' padding). Buckets are quarter octaves from 2^-64 to 2^64 (the float64 exponent and the
 * two leading mantissa bits), each keeping its count and its largest extent; non-finite or negative
 * extents (bad bodies with validation off) are left out, so they cannot steer the grid that valid
 * bodies use.
 *
 * Policy (deterministic: a function of the histogram and the current cell side only; the step
 * applies it, see `updatePolicy` in src/step/findPairs.ts):
 * - cell side = `CELL_PER_EXTENT` × the largest extent of the median's bucket, re-chosen when the
 *   median bucket moves more than `DRIFT_BUCKETS` (a factor `DRIFT`) from the current cell's, so
 *   steady scenes never rebuild;
 * - static margin = `MARGIN_SLACK` × half the largest extent among the smallest `MARGIN_QUANTILE`
 *   of the bodies (the outliers above it take multi-cell queries), at most one cell; re-chosen when
 *   that share reaches a higher bucket or falls `DRIFT_BUCKETS` below. Fast movers (added with
 *   `sizeStatsAddFast`: bodies whose motion the step splits into time slices) count toward the
 *   median but not toward the margin's share: their slices query the static grid on their own, and
 *   a few percent of bullets would otherwise grow every static box by a whole cell.
 * @module
 */

/**
 * Quarter-octave buckets over 2^-64 … 2^64 (the float64 exponent and the two leading mantissa
 * bits); extents beyond fall into the end buckets, which keep their exact largest extent.
 */
export const BUCKETS = 512;
/** The biased float64 exponent of the lowest bucket (2^-64). */
const LOW_EXPONENT = 1023 - 64;
/** Cell side per median extent (measured on the arena, see docs/benchmarks.md). */
export const CELL_PER_EXTENT = 3;
/** The cell is chosen again when the ideal drifts beyond this factor of the current one. */
export const DRIFT = 2;
/** Share of the bodies whose extents the static margin covers. */
export const MARGIN_QUANTILE = 0.99;
/** Headroom of the margin over the extents it covers. */
export const MARGIN_SLACK = 1.25;

export interface SizeStats {
  /**
   * Slot 0: the extent the next `sizeStatsAdd` / `sizeStatsAddFast` files (length units), written by
   * the caller (a typed slot, not a double argument: docs/internals.md).
   */
  input: Float64Array;
  /** `input`'s bytes as words, for the bucket: little-endian, word 1 holds sign and exponent. */
  inputBits: Uint32Array;
  count: Uint32Array;
  /** Of `count`, the fast movers (left out of the margin's share). */
  fast: Uint32Array;
  max: Float64Array;
  /** Extents counted (written by `sizeStatsBuckets`). */
  total: number;
}

export function createSizeStats(): SizeStats {
  const input = new Float64Array(1);
  return {
    input, inputBits: new Uint32Array(input.buffer),
    count: new Uint32Array(BUCKETS), fast: new Uint32Array(BUCKETS), max: new Float64Array(BUCKETS), total: 0,
  };
}

export function sizeStatsClear(s: SizeStats): void {
  s.count.fill(0);
  s.fast.fill(0);
  s.max.fill(0);
  s.total = 0;
}

/** The bucket (>= 0) of the float64 whose words are `bits[0 .. 2]` (word 1: sign and exponent). */
export function bucketOfBits(bits: Uint32Array): number {
  const b = (bits[1] >>> 18) - 4 * LOW_EXPONENT;
  return b < 0 ? 0 : b >= BUCKETS ? BUCKETS - 1 : b;
}

/** Adds the extent in `s.input[0]` (ignored unless finite and >= 0). Per body per tick: keep it lean. */
export function sizeStatsAdd(s: SizeStats): void {
  const e = s.input[0];
  if (!(e >= 0 && e < Infinity)) return;
  const b = bucketOfBits(s.inputBits);
  s.count[b]++;
  if (e > s.max[b]) s.max[b] = e;
}

/** Adds the extent in `s.input[0]` as {@link sizeStatsAdd} does, for a fast mover (see the module notes). */
export function sizeStatsAddFast(s: SizeStats): void {
  const e = s.input[0];
  if (!(e >= 0 && e < Infinity)) return;
  const b = bucketOfBits(s.inputBits);
  s.count[b]++;
  s.fast[b]++;
  if (e > s.max[b]) s.max[b] = e;
}

/** Slots of the bucket pair written by {@link sizeStatsBuckets}. */
export const B_MEDIAN = 0;
export const B_COVER = 1;
/** Buckets per octave: a drift of more than `DRIFT` is more than this many buckets. */
export const DRIFT_BUCKETS = 4;

/**
 * Writes to `out` the bucket holding the median extent (`B_MEDIAN`) and the bucket where the
 * `MARGIN_QUANTILE` share of the extents is reached (`B_COVER`), or −1 for an empty histogram. The
 * share counts the extents that are not fast movers (all of them when every one is). Integer
 * arithmetic only (run every tick: no heap number is made, see docs/internals.md).
 */
export function sizeStatsBuckets(s: SizeStats, out: Int32Array): void {
  out[B_MEDIAN] = -1;
  out[B_COVER] = -1;
  let total = 0;
  let fast = 0;
  for (let b = 0; b < BUCKETS; b++) {
    total += s.count[b];
    fast += s.fast[b];
  }
  s.total = total;
  const slow = fast < total ? 1 : 0;
  const covered = total - slow * fast;
  let sum = 0;
  let share = 0;
  for (let b = 0; b < BUCKETS; b++) {
    const c = s.count[b];
    if (c === 0) continue;
    sum += c;
    share += c - slow * s.fast[b];
    if (out[B_MEDIAN] < 0 && 2 * sum >= total) out[B_MEDIAN] = b;
    if (out[B_COVER] < 0 && 100 * share >= 99 * covered) out[B_COVER] = b;
  }
}

/** Scratch of {@link bucketOf} (per call): the extent and its words. */
const extent = new Float64Array(1);
const extentBits = new Uint32Array(extent.buffer);

/** The bucket of extent `e` (> 0, finite), as `sizeStatsAdd` files it. */
export function bucketOf(e: number): number {
  extent[0] = e;
  return bucketOfBits(extentBits);
}

/** The cell side for median bucket `median`: `CELL_PER_EXTENT` × the largest extent in it. */
export function cellFor(s: SizeStats, median: number): number {
  return CELL_PER_EXTENT * s.max[median];
}

/**
 * The static margin for cover bucket `cover`: `MARGIN_SLACK` × half the largest extent in the
 * buckets up to it, at most `cell`.
 */
export function marginFor(s: SizeStats, cover: number, cell: number): number {
  let widest = 0;
  for (let b = 0; b <= cover; b++) if (s.max[b] > widest) widest = s.max[b];
  return Math.min(MARGIN_SLACK * 0.5 * widest, cell);
}
