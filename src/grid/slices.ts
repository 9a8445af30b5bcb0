/**
 * A fast mover's motion over the tick, split into dyadic time slices (see `cells.ts`), so that it
 * costs what its path crosses: 2^d slices, each moving at most one cell side per axis, each with
 * its own bounds, instead of one box around the whole path (which meets everything the path's
 * bounding box holds, and for two crossing bullets meets the other at any time).
 *
 * The body is a caller-owned `Float64Array` of `SLICE_BODY_SLOTS` numbers: centre (slots 0–2), half
 * sizes already padded against rounding (3–5), motion over the tick (6–8), the slice length limit
 * (9). World frame, length units.
 * @module
 */

/** Slots of a body of {@link sliceDepth} and {@link sliceBounds}: centre, half sizes, motion, slice length. */
export const S_CX = 0, S_HX = 3, S_MX = 6, S_SIDE = 9;
/** Length of a body array. */
export const SLICE_BODY_SLOTS = 10;
/**
 * At most 2^16 slices per body. A motion longer than 2^16 slice lengths is left whole (one item,
 * bucketed on a coarse level or scanned): slices that long would each still span thousands of cells.
 */
export const MAX_SLICE_DEPTH = 16;

/**
 * The depth d of the split of `body`'s motion: the least d with each of the 2^d slices moving
 * at most `body[S_SIDE]` along every axis; 0 when that takes more than `cap` (at most
 * MAX_SLICE_DEPTH) or the motion is not finite. Callers cap the depth near log2 of the body count:
 * more slices than bodies cost more than one scan of them.
 */
export function sliceDepth(b: Float64Array, cap: number): number {
  let m = Math.max(Math.abs(b[S_MX]), Math.abs(b[S_MX + 1]), Math.abs(b[S_MX + 2]));
  const side = b[S_SIDE];
  const most = cap < MAX_SLICE_DEPTH ? cap : MAX_SLICE_DEPTH;
  let d = 0;
  while (m > side && d <= most) {
    m *= 0.5;
    d++;
  }
  return d <= most ? d : 0;
}

/**
 * Writes to `out[o .. o + 6]` the bounds (minX, minY, minZ, maxX, maxY, maxZ) of body `b` over
 * slice `j` of `2^d` (the time interval [j / 2^d, (j + 1) / 2^d] of the tick). With d = 0 these are
 * the bounds of the whole swept motion.
 */
export function sliceBounds(b: Float64Array, d: number, j: number, out: Float64Array, o: number): void {
  const scale = 1 / (1 << d); // exact: a power of two
  const t0 = j * scale;
  const t1 = (j + 1) * scale;
  for (let a = 0; a < 3; a++) {
    const c = b[S_CX + a];
    const h = b[S_HX + a];
    const m = b[S_MX + a];
    const p0 = d === 0 ? c : c + m * t0;
    const p1 = d === 0 ? c + m : c + m * t1;
    out[o + a] = (p0 < p1 ? p0 : p1) - h;
    out[o + 3 + a] = (p0 < p1 ? p1 : p0) + h;
  }
}
