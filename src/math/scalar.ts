/** Scalar helpers on plain numbers (no allocation). */

/** Clamps `v` into `[lo, hi]` (assumes `lo <= hi`). */
export function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

// Squares of numbers outside [1e-140, 1e140] may underflow or overflow; such inputs take a scaled path.
const SQ_MIN = 1e-280;
const SQ_MAX = 1e280;

/** Length of (x, y, z), without underflow or overflow of the squares. */
export function length3(x: number, y: number, z: number): number {
  const d2 = x * x + y * y + z * z;
  if (d2 > SQ_MIN && d2 < SQ_MAX) return Math.sqrt(d2);
  const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  if (m === 0 || m === Infinity || m !== m) return m;
  const sx = x / m;
  const sy = y / m;
  const sz = z / m;
  return m * Math.sqrt(sx * sx + sy * sy + sz * sz);
}

/**
 * Whether |(x, y, z)| <= r (closed). Compares squares (exact for small integers) unless they could
 * underflow or overflow, then lengths.
 */
export function withinDistance(x: number, y: number, z: number, r: number): boolean {
  const d2 = x * x + y * y + z * z;
  if (d2 > SQ_MIN && d2 < SQ_MAX && r < 1e140) return d2 <= r * r;
  return length3(x, y, z) <= r;
}
