import { writeSphereSphereContact } from './kernels/writeSphereSphereContact.js';
import { V, withinDistance } from '../math/scalar.js';
import { END_CHECK } from './kernels/endCheck.js';
import { E, enterBall, T } from './kernels/entryTime.js';
import type { CastResult, SphereShape, Vec3 } from './types.js';

/**
 * Swept sphere a against sphere b: the first time within one step at which they touch.
 *
 * Frame and units: world frame, the caller's length unit. `motion` is a's displacement over the step
 * relative to b (b is at rest at `b.center`; for two moving spheres pass motionA − motionB).
 * Result: `out.toi` in [0, 1] is the fraction of `motion` at first contact (0 when touching or
 * overlapping at the start; then normal and point are the static contact's); `out.normal` is unit
 * and points from b toward a's centre at impact; `out.point` = cb + normal·rb, on b's surface, in the
 * frame where b is at rest. Coincident centres at the start: normal +x. Returns false when they do
 * not touch within the step.
 *
 * Algorithm: a ray against the sphere of radius ra + rb around cb (Ericson, Real-Time Collision
 * Detection, 5.5.5 reduced to 5.3.2), with the discriminant from the distance to the motion's line
 * and the cancellation-free root (Ray Tracing Gems, ch. 7). No allocation.
 */
export function castSphereSphere(a: SphereShape, motion: Vec3, b: SphereShape, out: CastResult): boolean {
  const qx = a.center.x - b.center.x;
  const qy = a.center.y - b.center.y;
  const qz = a.center.z - b.center.z;
  const rsum = a.radius + b.radius;
  const mx = motion.x;
  const my = motion.y;
  const mz = motion.z;
  V[0] = qx;
  V[1] = qy;
  V[2] = qz;
  V[3] = rsum;
  if (withinDistance()) {
    out.toi = 0;
    writeSphereSphereContact(b, out);
    return true;
  }
  E[0] = qx;
  E[1] = qy;
  E[2] = qz;
  E[3] = mx;
  E[4] = my;
  E[5] = mz;
  E[6] = rsum;
  enterBall();
  const t = E[T];
  if (!(t <= 1)) return false;
  if (t >= END_CHECK) {
    V[0] = qx + mx;
    V[1] = qy + my;
    V[2] = qz + mz;
    V[3] = rsum;
    if (!withinDistance()) return false;
  }
  out.toi = t;
  V[0] = qx + t * mx;
  V[1] = qy + t * my;
  V[2] = qz + t * mz;
  V[3] = rsum;
  writeSphereSphereContact(b, out);
  return true;
}
