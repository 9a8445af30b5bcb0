/**
 * Quaternion helpers over typed arrays (no allocation, no doubles passed as arguments). Two hot paths
 * keep the matrix inline instead: the box bounds of physics/bodyReads.ts (through
 * {@link rotatedHalfExtents}, 10,000 box bounds took 1.16–1.25× as long) and the box–box frame of
 * geometry/kernels/boxBoxFrame.ts (column-major, in its own scratch).
 * @module
 */

/**
 * Writes the rotation matrix of the unit quaternion (x, y, z, w) = `q[qo .. qo + 4)` to
 * `out[o .. o + 9)`, row-major: `out[o + 3i + j]` = R_ij, so that R·v rotates a vector v from the
 * body's local frame to the world (column j of R is the body's local axis j in world coordinates).
 * The quaternion must be normalised by the caller (a non-unit one gives a scaled, sheared matrix).
 * `out` is caller-owned; `q` is read before `out` is written, so they may share an array.
 */
export function quatToMatrix(q: Float64Array, qo: number, out: Float64Array, o: number): void {
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  out[o] = 1 - 2 * (y * y + z * z);
  out[o + 1] = 2 * (x * y - z * w);
  out[o + 2] = 2 * (x * z + y * w);
  out[o + 3] = 2 * (x * y + z * w);
  out[o + 4] = 1 - 2 * (x * x + z * z);
  out[o + 5] = 2 * (y * z - x * w);
  out[o + 6] = 2 * (x * z - y * w);
  out[o + 7] = 2 * (y * z + x * w);
  out[o + 8] = 1 - 2 * (x * x + y * y);
}

/** The rotation matrix of {@link rotatedHalfExtents}, per call (nothing kept between calls). */
const R = new Float64Array(9);

/**
 * Writes to `out[o .. o + 3)` the half size along each world axis of the box with half extents
 * `h[ho .. ho + 3)` (along its local axes, >= 0) rotated by the unit quaternion `q[qo .. qo + 4)`:
 * Σ_j |R_ij|·h_j (Ericson, Real-Time Collision Detection, 4.2.6), the half size of its world bounds.
 * Length units as `h`. The inputs are read before `out` is written, so they may share an array.
 */
export function rotatedHalfExtents(q: Float64Array, qo: number, h: Float64Array, ho: number, out: Float64Array, o: number): void {
  const hx = h[ho], hy = h[ho + 1], hz = h[ho + 2];
  quatToMatrix(q, qo, R, 0);
  out[o] = Math.abs(R[0]) * hx + Math.abs(R[1]) * hy + Math.abs(R[2]) * hz;
  out[o + 1] = Math.abs(R[3]) * hx + Math.abs(R[4]) * hy + Math.abs(R[5]) * hz;
  out[o + 2] = Math.abs(R[6]) * hx + Math.abs(R[7]) * hy + Math.abs(R[8]) * hz;
}
