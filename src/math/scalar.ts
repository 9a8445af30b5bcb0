/** Scalar helpers on plain numbers (no allocation). */

/** Clamps `v` into `[lo, hi]` (assumes `lo <= hi`). */
export function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
