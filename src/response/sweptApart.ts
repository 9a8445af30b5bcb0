/**
 * A cheap conservative reject before the exact sphere–sphere cast of a prediction (predict.ts): the
 * closest distance of the two remaining paths, both linear over the same time window, is the
 * distance from the partner's centre to the segment a's centre sweeps in the partner's frame
 * (a.center + u·motion, u in [0, 1]; motion = (va − vb) × the remaining time). When it exceeds the
 * radii sum by more than the slack below, {@link castSphereSphere} cannot report a touch, so the
 * cast is skipped and nothing else changes: the response's results are bit-identical with or
 * without the reject (the pinned state hashes hold), only its work shrinks.
 * @module
 */
import type { SphereShape, Vec3 } from '../geometry/types.js';

/**
 * Relative slack of the reject: a pair is kept unless its computed closest distance exceeds
 * rA + rB + APART_SLACK × (|ca|₁ + |cb|₁ + |m|₁ + rA + rB) (ca, cb the centres, m the relative
 * motion): the cast rounds the end pose in world coordinates (ca + m − cb), so its decisions are
 * exact only to ulps of the centres' magnitudes, not of their offset.
 */
export const APART_SLACK = 1e-9;
/** Below this squared bound (lengths under ~1e-140) rounding of squares is not relative: never reject. */
const TINY = 1e-280;

/**
 * Whether sphere `a` moving by `motion` (relative to `b`, which is at rest at `b.center`) stays
 * farther than its radii sum from `b` over the whole motion, by a clear margin: then
 * `castSphereSphere(a, motion, b, out)` returns false. World frame, length units. Reads only; no
 * allocation; false for NaN or infinite inputs (the cast decides those).
 *
 * Closest point: u* = clamp(−q·m / |m|², 0, 1) minimises |q + u·m|² (a parabola in u; Ericson,
 * Real-Time Collision Detection, 5.1.2, closest point on a segment), q = a.center − b.center.
 *
 * Conservative (never true for a pair the cast reports touching): let D be the exact closest
 * distance. The cast reports a touch only when D ≤ R + e_c, with e_c a few tens of ulps of
 * S = |ca|₁ + |cb|₁ + |m|₁ + R (its entry root treats a line distance within 8 ulps of |q| as
 * touching, the discriminant form it uses near the surface errs by a few ulps of R, the start test
 * rounds q = ca − cb once per component, the end test rounds ca + m − cb in world coordinates, a few
 * ulps of the centres: entryTime.ts, castSphereSphere.ts). Here q rounds the same way, u* carries
 * a relative error of about 2 ulps, which moves |q + u·m| by at most 2 ulps of |m|, and the sum of
 * squares rounds by a few ulps: the computed distance is within e_r ≈ 10 ulps of S of D. The slack,
 * 1e-9 of S, is about 10⁷ ulps of S, far above e_c + e_r; so a rejected pair has D > R + e_c. (A
 * fast-check property, test/response/sweptApart.test.ts, found the centres' term: two points
 * 2e-9 apart at coordinates 1e4, where the cast's end pose rounds to a touch.) Squares
 * are only trusted in the normal range: when the squared bound is below 1e-280 the pair is kept; a
 * squared distance that overflows to Infinity exceeds every finite bound truly (the distance is then
 * above 1.3e154 and the bound below); NaN compares false (kept).
 */
export function sweptSpheresApart(a: SphereShape, motion: Vec3, b: SphereShape): boolean {
  const qx = a.center.x - b.center.x, qy = a.center.y - b.center.y, qz = a.center.z - b.center.z;
  const mx = motion.x, my = motion.y, mz = motion.z;
  const mm = mx * mx + my * my + mz * mz;
  const qm = qx * mx + qy * my + qz * mz;
  // u* = clamp(−q·m / |m|², 0, 1); q·m ≥ 0 (or NaN) means moving away from the start: u* = 0.
  const u = qm < 0 ? (-qm >= mm ? 1 : -qm / mm) : 0;
  const dx = qx + u * mx, dy = qy + u * my, dz = qz + u * mz;
  const R = a.radius + b.radius;
  const ca = a.center, cb = b.center;
  const scale = Math.abs(ca.x) + Math.abs(ca.y) + Math.abs(ca.z) + Math.abs(cb.x) + Math.abs(cb.y) + Math.abs(cb.z) + Math.abs(mx) + Math.abs(my) + Math.abs(mz) + R;
  const bound = R + APART_SLACK * scale;
  const bb = bound * bound;
  return dx * dx + dy * dy + dz * dz > bb && bb > TINY;
}
