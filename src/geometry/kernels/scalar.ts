/**
 * Scalar helpers of the geometry kernels (no allocation). The distance helpers read their inputs from
 * the scratch `V` and write their results to it, so that no double is boxed by a call. `V` and `P` are
 * per-call argument and result slots shared by the geometry's kernels (nothing is carried from one
 * call to the next), which is why this file lives in geometry/kernels, the one place for such
 * scratch, rather than in src/math: only the geometry calls it.
 *
 * Extreme magnitudes: squares of numbers outside about [1e-140, 1e140] underflow or overflow. Such
 * inputs are first multiplied by a power of two that brings the largest of them to [1, 2) (see
 * {@link pow2Scale}); a power of two changes no significant bit, so the scaled computation rounds
 * exactly as an unscaled one of order 1 would, and results are scale invariant: a configuration
 * multiplied by 2^k gets the same decisions and unit vectors, and lengths multiplied by 2^k, as long as
 * its inputs and results are normal numbers. Subnormal inputs are scaled up exactly before any
 * product is formed, so their few significant bits are used in full.
 */

/**
 * Scratch of the distance helpers, in named slots: the inputs V_X, V_Y, V_Z (a vector's components)
 * and V_R (the bound of {@link withinDistance}); the outputs of {@link normalize3}, V_LENGTH (the
 * length) and the unit vector in V_X, V_Y, V_Z.
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
/** The bounds above, for code that must decide exactly as these helpers do (the ray batch's exact casts, src/queries/candidate.ts). */
export const SQ_LIMITS = { SQ_MIN, SQ_MAX } as const;

/**
 * Scratch of {@link pow2Scale}: P_IN the magnitude (input), P_SCALE the power of two (output). A
 * float64 and its two 32-bit halves share P's buffer; `P_HIGH` indexes the half with the exponent.
 */
export const P = new Float64Array(2);
const P_IN = 0, P_SCALE = 1;
/** The named slots of P, for other modules to copy into module-local constants (see `V_SLOTS`). */
export const P_SLOTS = { P_IN, P_SCALE } as const;
const bits = new Uint32Array(P.buffer);
const P_HIGH = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f ? 1 : 0;
const TWO_64 = 18446744073709551616; // 2^64

/**
 * Writes to P[P_SCALE] a power of two s such that P[P_IN]·s lies in [1, 2), for a finite nonzero
 * magnitude P[P_IN] (its sign is ignored). Where that s is not a normal float64 the nearest normal
 * power of two is taken: s = 2^1023 for magnitudes below 2^-1023 (then the product is in
 * [2^-51, 2)), s = 2^-1022 for magnitudes of 2^1023 and above (the product is in [2, 4)). Every
 * product x·s is then exact unless it underflows, which only a number below 2^-1022 of the
 * magnitude can do: its contribution is lost anyway to rounding when combined with the largest.
 * Computed from the exponent bits: exact, no libm.
 */
export function pow2Scale(): void {
  let m = Math.abs(P[P_IN]);
  let shift = 0;
  if (m < 2.2250738585072014e-308) {
    // subnormal: bring it to the normal range first (exact), then read the exponent
    m *= TWO_64;
    shift = 64;
  }
  P[P_SCALE] = m;
  const biased = ((bits[2 + P_HIGH] >>> 20) & 0x7ff) - shift;
  // m in [2^(biased − 1023), 2^(biased − 1022)): s = 2^(1023 − biased), biased exponent 2046 − biased
  let e = 2046 - biased;
  if (e < 1) e = 1;
  else if (e > 2046) e = 2046;
  bits[2 + P_HIGH] = e << 20;
  bits[2 + 1 - P_HIGH] = 0;
}

/**
 * Normalises the nonzero vector (V[V_X], V[V_Y], V[V_Z]) in place and writes its length to
 * V[V_LENGTH]. For extreme magnitudes the unit vector is computed from the vector scaled by a power
 * of two (so subnormal components keep their precision and the result is unit to rounding); the
 * length is then the one rounding of the scaled length divided back. Finite inputs.
 */
export function normalize3(): void {
  const x = V[V_X], y = V[V_Y], z = V[V_Z];
  const d2 = x * x + y * y + z * z;
  if (d2 > SQ_MIN && d2 < SQ_MAX) {
    const d = Math.sqrt(d2);
    V[V_X] = x / d;
    V[V_Y] = y / d;
    V[V_Z] = z / d;
    V[V_LENGTH] = d;
  } else scaledNormalize3();
}

/**
 * Whether |(V[V_X], V[V_Y], V[V_Z])| <= V[V_R] (closed), for V[V_R] >= 0.
 * Compares squares (exact for small integers and dyadic grids). Where the squared distance could
 * underflow or overflow, all four numbers are first scaled by one power of two (exact), so the
 * decision is the one an order-1 configuration of the same shape gets. (A radius whose square
 * overflows or underflows while the squared distance does not is far from the distance: the
 * unscaled comparison is then right as it stands.)
 * False when any of the four is NaN or ±Infinity (r − r is 0 for a finite r and NaN otherwise; a NaN
 * or infinite x, y or z fails the comparison).
 */
export function withinDistance(): boolean {
  const x = V[V_X], y = V[V_Y], z = V[V_Z], r = V[V_R];
  const d2 = x * x + y * y + z * z;
  const rr = r * r;
  // Squares in range are accurate; a squared distance below SQ_MIN (0 for a centre inside a box, or
  // underflowed) against a radius whose square is well above it is within for certain.
  if (d2 < SQ_MAX && (d2 > SQ_MIN || rr > 2 * SQ_MIN)) return d2 <= rr && r - r === 0;
  return scaledWithinDistance();
}

// The scaled paths, out of line so that the common paths above stay small enough to be inlined.

/** normalize3 on the vector scaled by a power of two. */
function scaledNormalize3(): void {
  const x = V[V_X], y = V[V_Y], z = V[V_Z];
  P[P_IN] = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  pow2Scale();
  const s = P[P_SCALE];
  const sx = x * s;
  const sy = y * s;
  const sz = z * s;
  const d = Math.sqrt(sx * sx + sy * sy + sz * sz);
  V[V_X] = sx / d;
  V[V_Y] = sy / d;
  V[V_Z] = sz / d;
  V[V_LENGTH] = d / s;
}

function scaledWithinDistance(): boolean {
  const x = V[V_X], y = V[V_Y], z = V[V_Z], r = V[V_R];
  P[P_IN] = Math.max(Math.abs(x), Math.abs(y), Math.abs(z), r);
  pow2Scale();
  const s = P[P_SCALE];
  const sx = x * s;
  const sy = y * s;
  const sz = z * s;
  const sr = r * s;
  return sx * sx + sy * sy + sz * sz <= sr * sr && r - r === 0;
}
