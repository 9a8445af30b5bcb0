import { fillContactLocal, K, K_SLOTS, loadSphereBox, withinBoxLocal, writeWorldNormalPoint } from './kernels/boxFrame.js';
import type { BoxShape, ContactResult, SphereShape } from './types.js';

const { K_CENTER, K_DEPTH } = K_SLOTS;

/**
 * Static contact between a sphere and a box at their current poses.
 *
 * Frame and units: world frame, the caller's length unit.
 * Result (when it returns true): `out.normal` is unit and points from the box toward the sphere's
 * centre (the direction that pushes the sphere out); `out.depth` >= 0 is the overlap: r − distance
 * when the centre is outside the box, r + distance to the nearest face when it is inside (0 means
 * touching); `out.point` is the point on the box surface closest to the centre.
 * Centre inside or on the surface: the face of least penetration is chosen; ties go to the lowest
 * local axis (x, then y, then z) and, when the centre is on the box's mid-plane of that axis, to the
 * + face; `out.point` is the centre projected onto that face.
 * Returns false, leaving `out` untouched, when the distance exceeds the radius, and when any input is
 * NaN or ±Infinity (or a difference of centres overflows). `out` may share vectors with the inputs
 * (they are read before `out` is written), but `out.normal` and `out.point` must be two objects.
 *
 * Algorithm: closest point on an oriented box by moving the centre into the box's frame and
 * clamping (Ericson, Real-Time Collision Detection, 5.1.3, 5.2.5). No allocation.
 */
export function contactSphereBox(sphere: SphereShape, box: BoxShape, out: ContactResult): boolean {
  loadSphereBox(box, sphere);
  if (!withinBoxLocal(K_CENTER)) return false;
  fillContactLocal(K_CENTER);
  out.depth = K[K_DEPTH];
  writeWorldNormalPoint(box, out);
  return true;
}
