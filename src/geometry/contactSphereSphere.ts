import { writeSphereSphereContact } from './kernels/writeSphereSphereContact.js';
import { V, V_SLOTS, withinDistance } from './kernels/scalar.js';
import type { ContactResult, SphereShape } from './types.js';

const { V_LENGTH, V_R, V_X, V_Y, V_Z } = V_SLOTS;

/**
 * Static contact between spheres a and b at their current poses.
 *
 * Frame and units: world frame, the caller's length unit.
 * Result (when it returns true): `out.normal` is unit and points from b toward a's centre;
 * `out.depth` = ra + rb − |ca − cb| >= 0 (0 = touching); `out.point` = cb + normal·rb, the point of b's
 * surface toward a. Coincident centres: normal = +x (1, 0, 0), a documented fixed axis.
 * Swapping a and b negates the normal and keeps the depth.
 * Returns false, leaving `out` untouched, when separated, and when any input is NaN or ±Infinity (or
 * a difference of centres or the sum of the radii overflows). `out` may share vectors with the inputs
 * (they are read before `out` is written), but `out.normal` and `out.point` must be two objects.
 * No allocation.
 */
export function contactSphereSphere(a: SphereShape, b: SphereShape, out: ContactResult): boolean {
  V[V_X] = a.center.x - b.center.x;
  V[V_Y] = a.center.y - b.center.y;
  V[V_Z] = a.center.z - b.center.z;
  V[V_R] = a.radius + b.radius;
  // (withinDistance is false when any of these is NaN or ±Infinity)
  if (!withinDistance()) return false;
  writeSphereSphereContact(b, out);
  out.depth = V[V_LENGTH];
  return true;
}
