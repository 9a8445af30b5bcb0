/**
 * Entry times of a moving point into round solids. Internal kernels of the cast queries.
 *
 * A point moves as q(t) = q + t·m, where q is its start relative to the solid's centre (line) and t
 * is in units of the motion m. The kernels read q = E[E_START..+2], m = E[E_MOTION..+2], the radius
 * E[E_RADIUS] (and a capsule's half length E[E_HALF_LENGTH]) and write to E[E_TIME] the first t >= 0
 * at which the point is inside the solid (0 when it starts inside), or Infinity when it never enters.
 * Callers compare with 1 for "within this step". Numbers travel through the typed array, never as arguments or return values,
 * so no call boxes a double (no allocation whether or not the kernels are inlined).
 *
 * Precision: the discriminant b² − a·c of |q + t·m|² = r² cancels catastrophically when r is small
 * next to |q| (rays, small spheres) or the motion aims at the centre. It is then computed as
 * a·(r² − p²), where p is the distance from the centre to the motion's line (Lagrange's identity
 * b² − a·(|q|² − r²) = a·r² − |q × m|²; "Precision Improvements for Ray/Sphere Intersection", Ray
 * Tracing Gems, ch. 7), and the root as c / (−b + √disc), which does not cancel. Inputs beyond
 * ~1e±60 are rescaled first (the discriminant is quartic in lengths; t does not change with scale),
 * by a power of two ({@link pow2Scale}): exact, so a configuration scaled by 2^k gets the same t to
 * the last bit, and subnormal inputs are brought to the normal range before any product is formed.
 */
import { P, P_SLOTS, pow2Scale } from './scalar.js';

const { P_IN, P_SCALE } = P_SLOTS;

/**
 * Inputs and result of the entry-time kernels, in named slots: E_START the start q (three slots,
 * relative to the solid's centre), E_MOTION the motion m (three slots), E_RADIUS the radius r,
 * E_HALF_LENGTH a capsule's half length h (input of {@link enterCapsule}); E_TIME the entry time t
 * (the output; Infinity when the point never enters).
 */
export const E = new Float64Array(9);
const E_START = 0, E_MOTION = 3, E_RADIUS = 6, E_HALF_LENGTH = 7, E_TIME = 8;
/** The named slots of E, for other modules to copy into module-local constants (see `V_SLOTS`). */
export const E_SLOTS = { E_START, E_MOTION, E_RADIUS, E_HALF_LENGTH, E_TIME } as const;
/** How many input slots (q, m, r, h) precede E_TIME. */
const INPUTS = 8;

const PERP_EPS = 8 * Number.EPSILON;
const BIG = 1e60;
const SMALL = 1e-60;
/** The constants above, for code that must decide exactly as these kernels do (the ray batch's exact casts, src/queries/candidate.ts). */
export const ENTRY_LIMITS = { PERP_EPS, BIG, SMALL } as const;

/**
 * Rescales q, m and r (and h) by a power of two to order 1 when their magnitudes could overflow or
 * underflow (exact: no significant bit changes).
 */
function rescale(dims: number): void {
  let big = E[E_RADIUS];
  for (let i = 0; i < 3; i++) {
    if (i < dims) big = Math.max(big, Math.abs(E[E_START + i]), Math.abs(E[E_MOTION + i]));
  }
  if (!(big > BIG || (big < SMALL && big > 0))) return;
  P[P_IN] = big;
  pow2Scale();
  const k = P[P_SCALE];
  for (let i = 0; i < INPUTS; i++) E[i] *= k;
}

/**
 * Writes to E[E_TIME] the first t >= 0 with |q + t·m| <= r in `dims` (2 or 3) dimensions.
 * The discriminant is taken in whichever form rounds less: b² − a·c when b² + a·c is below a·r²
 * (a start near the surface, where c = |q|² − r² is small), else a·(r² − p²). In the second form a
 * line distance within rounding of r (a few ulps of |q|) counts as touching, so a ray aimed exactly
 * at a point hits it, at the moment of closest approach.
 */
function enterRound(dims: number): void {
  rescale(dims);
  const qx = E[E_START], qy = E[E_START + 1], qz = dims === 3 ? E[E_START + 2] : 0;
  const mx = E[E_MOTION], my = E[E_MOTION + 1], mz = dims === 3 ? E[E_MOTION + 2] : 0;
  const r = E[E_RADIUS];
  const a = mx * mx + my * my + mz * mz;
  const b = qx * mx + qy * my + qz * mz;
  const qq = qx * qx + qy * qy + qz * qz;
  const rr = r * r;
  const c = qq - rr;
  if (c <= 0) E[E_TIME] = 0;
  else if (b >= 0 || a === 0) E[E_TIME] = Infinity;
  else if (b * b + a * c < a * rr) {
    const disc = b * b - a * c;
    E[E_TIME] = disc < 0 ? Infinity : c / (-b + Math.sqrt(disc));
  } else {
    const s = b / a;
    const px = qx - s * mx;
    const py = qy - s * my;
    const pz = qz - s * mz;
    const perp2 = px * px + py * py + pz * pz;
    if (perp2 <= rr) E[E_TIME] = c / (-b + Math.sqrt(a * (rr - perp2)));
    else {
      const slack = r + PERP_EPS * Math.sqrt(qq);
      E[E_TIME] = perp2 > slack * slack ? Infinity : -b / a;
    }
  }
}

/** Entry time of q + t·m into the ball of radius r at the origin (Ericson 5.3.2). Uses E. */
export function enterBall(): void {
  enterRound(3);
}

/**
 * Entry time of q + t·m into the capsule of radius r around the segment {x = 0, y = 0,
 * −h <= z <= h} with h = E[E_HALF_LENGTH] (the capsule's axis is E's third coordinate). The capsule is a finite
 * cylinder plus a ball at each end; its first entry is the earliest entry of those parts (the
 * cylinder's flat caps lie inside the end balls). Ericson, 5.3.7 (segment against cylinder) with the
 * end spheres of 5.3.2. Uses E; leaves its inputs as it found them.
 */
export function enterCapsule(): void {
  saveInputs();
  enterRound(2);
  let t = Infinity;
  const side = E[E_TIME];
  restoreInputs();
  if (side !== Infinity) {
    const k = E[E_START + 2] + side * E[E_MOTION + 2];
    if (k >= -E[E_HALF_LENGTH] && k <= E[E_HALF_LENGTH]) t = side;
  }
  E[E_START + 2] = saved[E_START + 2] - saved[E_HALF_LENGTH];
  enterRound(3);
  if (E[E_TIME] < t) t = E[E_TIME];
  restoreInputs();
  E[E_START + 2] = saved[E_START + 2] + saved[E_HALF_LENGTH];
  enterRound(3);
  if (E[E_TIME] < t) t = E[E_TIME];
  restoreInputs();
  E[E_TIME] = t;
}

/** A copy of E's inputs, same slots, so that {@link enterCapsule} can restore them. */
const saved = new Float64Array(INPUTS);

function saveInputs(): void {
  for (let i = 0; i < INPUTS; i++) saved[i] = E[i];
}

function restoreInputs(): void {
  for (let i = 0; i < INPUTS; i++) E[i] = saved[i];
}
