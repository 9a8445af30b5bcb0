/**
 * Scalar helpers (no allocation). The distance helpers read their inputs from the scratch `V` and
 * write lengths to it, so that no double is boxed by a call.
 */

/**
 * Scratch of the distance helpers, in named slots: the inputs V_X, V_Y, V_Z (a vector's components)
 * and V_R (the bound of {@link withinDistance}); the output V_LENGTH (the length from {@link length3}).
 */
export const V = new Float64Array(5);
const V_X = 0, V_Y = 1, V_Z = 2, V_R = 3, V_LENGTH = 4;
/**
 * The named slots of V, for other modules. They copy them into module-local constants,
 * `const { V_X, ... } = V_SLOTS;`, rather than importing one constant per slot: V8 reads an imported
 * binding through a cell on every use, which costs these kernels measurably (about 15 % in the
 * micro benchmarks), while a module-local constant costs no more than a literal. The same holds for
 * the slots of the geometry kernels' scratch arrays.
 */
export const V_SLOTS = { V_X, V_Y, V_Z, V_R, V_LENGTH } as const;

// Squares of numbers outside [1e-140, 1e140] may underflow or overflow; such inputs take a scaled path.
const SQ_MIN = 1e-280;
const SQ_MAX = 1e280;

/** Writes |(V[V_X], V[V_Y], V[V_Z])| to V[V_LENGTH], without underflow or overflow of the squares. */
export function length3(): void {
  const x = V[V_X], y = V[V_Y], z = V[V_Z];
  const d2 = x * x + y * y + z * z;
  if (d2 > SQ_MIN && d2 < SQ_MAX) {
    V[V_LENGTH] = Math.sqrt(d2);
    return;
  }
  const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  if (m === 0 || m === Infinity || m !== m) {
    V[V_LENGTH] = m;
    return;
  }
  const sx = x / m;
  const sy = y / m;
  const sz = z / m;
  V[V_LENGTH] = m * Math.sqrt(sx * sx + sy * sy + sz * sz);
}

/**
 * Whether |(V[V_X], V[V_Y], V[V_Z])| <= V[V_R] (closed). Compares squares (exact for small integers) unless
 * they could underflow or overflow, then lengths.
 */
export function withinDistance(): boolean {
  const x = V[V_X], y = V[V_Y], z = V[V_Z], r = V[V_R];
  const d2 = x * x + y * y + z * z;
  if (d2 > SQ_MIN && d2 < SQ_MAX && r < 1e140) return d2 <= r * r;
  length3();
  return V[V_LENGTH] <= r;
}
