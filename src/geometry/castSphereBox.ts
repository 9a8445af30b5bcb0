import { castSphereBoxLocal } from './kernels/castSphereBoxLocal.js';
import { K, K_SLOTS, loadMotion, loadSphereBox, writeWorldNormalPoint } from './kernels/boxFrame.js';
import type { BoxShape, CastResult, SphereShape, Vec3 } from './types.js';

const { K_TOI } = K_SLOTS;

/**
 * Swept sphere against a box: the first time within one step at which the moving sphere touches
 * the box (continuous collision detection; a sphere crossing a thin box within one step still hits).
 *
 * Frame and units: world frame, the caller's length unit. `motion` is the sphere's displacement over
 * the step relative to the box (the box is at rest).
 * Result: `out.toi` in [0, 1] is the fraction of `motion` at the first contact (0 when touching or
 * overlapping at the start: then `out` is the static contact of {@link contactSphereBox}); `out.normal`
 * is unit and points from the box toward the sphere's centre at impact; `out.point` is the contact
 * point on the box surface at impact. Solids are closed: touching counts at the start, at a grazing
 * instant (distance exactly r) and at the end of the step (toi 1: exactly when
 * {@link overlapSphereBox} holds for the sphere moved by `motion`, to rounding of that move).
 * Returns false, leaving `out` untouched, when there is no contact within the step, and when any
 * input is NaN or ±Infinity (or a difference of centres overflows). `out` may share vectors with the
 * inputs (they are read before `out` is written), but `out.normal` and `out.point` must be two objects.
 *
 * Algorithm: in the box's frame, a ray against the box grown by the radius, then the entry point's
 * region picks face, edge capsule or vertex capsules (Ericson, Real-Time Collision Detection, 5.5.7);
 * an entry at or after END_CHECK, or none, is decided by the static test at the end pose. Zero
 * radius, zero extents, zero motion and motion parallel to a face are exact. No allocation.
 */
export function castSphereBox(sphere: SphereShape, motion: Vec3, box: BoxShape, out: CastResult): boolean {
  loadSphereBox(box, sphere);
  loadMotion(box, motion);
  if (!castSphereBoxLocal()) return false;
  out.toi = K[K_TOI];
  writeWorldNormalPoint(box, out);
  return true;
}
