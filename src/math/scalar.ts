/**
 * Scalar helpers (no allocation). The distance helpers read their inputs from the scratch `V`
 * (x, y, z, r in V[0..3]) and write lengths to V[4], so that no double is boxed by a call.
 */

/** Scratch of the distance helpers: x, y, z, r, and the length result in V[4]. */
export const V = new Float64Array(5);

// Squares of numbers outside [1e-140, 1e140] may underflow or overflow; such inputs take a scaled path.
const SQ_MIN = 1e-280;
const SQ_MAX = 1e280;

/** Writes |(V[0], V[1], V[2])| to V[4], without underflow or overflow of the squares. */
export function length3(): void {
  const x = V[0], y = V[1], z = V[2];
  const d2 = x * x + y * y + z * z;
  if (d2 > SQ_MIN && d2 < SQ_MAX) {
    V[4] = Math.sqrt(d2);
    return;
  }
  const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  if (m === 0 || m === Infinity || m !== m) {
    V[4] = m;
    return;
  }
  const sx = x / m;
  const sy = y / m;
  const sz = z / m;
  V[4] = m * Math.sqrt(sx * sx + sy * sy + sz * sz);
}

/**
 * Whether |(V[0], V[1], V[2])| <= V[3] (closed). Compares squares (exact for small integers) unless
 * they could underflow or overflow, then lengths.
 */
export function withinDistance(): boolean {
  const x = V[0], y = V[1], z = V[2], r = V[3];
  const d2 = x * x + y * y + z * z;
  if (d2 > SQ_MIN && d2 < SQ_MAX && r < 1e140) return d2 <= r * r;
  length3();
  return V[4] <= r;
}
