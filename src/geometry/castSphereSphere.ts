import { writeSphereSphereContact } from './kernels/writeSphereSphereContact.js';
import { V, V_SLOTS, withinDistance } from './kernels/scalar.js';
import { END_CHECK } from './kernels/endCheck.js';
import { E, E_SLOTS, enterBall } from './kernels/entryTime.js';
import type { CastResult, SphereShape, Vec3 } from './types.js';

const { E_MOTION, E_RADIUS, E_START, E_TIME } = E_SLOTS;
const { V_R, V_X, V_Y, V_Z } = V_SLOTS;

/**
 * Swept sphere a against sphere b: the first time within one step at which they touch.
 *
 * Frame and units: world frame, the caller's length unit. `motion` is a's displacement over the step
 * relative to b (b is at rest at `b.center`; for two moving spheres pass motionA − motionB).
 * Result: `out.toi` in [0, 1] is the fraction of `motion` at first contact (0 when touching or
 * overlapping at the start; then normal and point are the static contact's); `out.normal` is unit
 * and points from b toward a's centre at impact; `out.point` = cb + normal·rb, on b's surface, in the
 * frame where b is at rest. Coincident centres at the start: normal +x. Solids are closed: touching
 * counts at the start, at a grazing instant and at the end of the step (toi 1: exactly when
 * {@link overlapSphereSphere} holds for a moved to `a.center + motion`).
 * Returns false, leaving `out` untouched, when they do not touch within the step, and when any input
 * is NaN or ±Infinity (or a difference of centres or the sum of the radii overflows).
 * `out` may share vectors with the inputs (all inputs are read before `out` is written), but
 * `out.normal` and `out.point` must be two objects.
 *
 * Algorithm: a ray against the sphere of radius ra + rb around cb (Ericson, Real-Time Collision
 * Detection, 5.5.5 reduced to 5.3.2), with the discriminant from the distance to the motion's line
 * and the cancellation-free root (Ray Tracing Gems, ch. 7); an entry at or after END_CHECK, or none,
 * is decided by the static test at the end pose. No allocation.
 */
export function castSphereSphere(a: SphereShape, motion: Vec3, b: SphereShape, out: CastResult): boolean {
  const ax = a.center.x, ay = a.center.y, az = a.center.z;
  const bx = b.center.x, by = b.center.y, bz = b.center.z;
  const qx = ax - bx;
  const qy = ay - by;
  const qz = az - bz;
  const rsum = a.radius + b.radius;
  const mx = motion.x;
  const my = motion.y;
  const mz = motion.z;
  V[V_X] = qx;
  V[V_Y] = qy;
  V[V_Z] = qz;
  V[V_R] = rsum;
  let t = 0;
  if (!withinDistance()) {
    E[E_START] = qx;
    E[E_START + 1] = qy;
    E[E_START + 2] = qz;
    E[E_MOTION] = mx;
    E[E_MOTION + 1] = my;
    E[E_MOTION + 2] = mz;
    E[E_RADIUS] = rsum;
    enterBall();
    t = E[E_TIME];
    if (!(t < END_CHECK)) {
      // at the end of the step within rounding, or no entry found: the end pose decides
      V[V_X] = ax + mx - bx;
      V[V_Y] = ay + my - by;
      V[V_Z] = az + mz - bz;
      if (!withinDistance()) return false;
      if (!(t <= 1)) t = 1;
    }
    V[V_X] = qx + t * mx;
    V[V_Y] = qy + t * my;
    V[V_Z] = qz + t * mz;
  }
  // NaN or ±Infinity anywhere (x − x is 0 for a finite x, NaN otherwise): no contact
  if (qx - qx + (qy - qy) + (qz - qz + (rsum - rsum)) + (mx - mx + (my - my) + (mz - mz)) !== 0) return false;
  out.toi = t;
  writeSphereSphereContact(b, out);
  return true;
}
