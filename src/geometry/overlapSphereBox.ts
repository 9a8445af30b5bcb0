import { K_SLOTS, loadSphereBox, withinBoxLocal } from './kernels/boxFrame.js';
import type { BoxShape, SphereShape } from './types.js';

const { K_CENTER } = K_SLOTS;

/**
 * Whether a sphere and a box overlap or touch (solids are closed: distance == radius is true).
 * False when any input is NaN or ±Infinity (or a difference of centres overflows).
 *
 * Algorithm: the sphere's centre in the box's frame, clamped onto the box, gives the closest point;
 * compare the distance with r (Ericson, Real-Time Collision Detection, 5.1.3 and 5.2.5).
 * World frame, caller's units. No allocation.
 */
export function overlapSphereBox(sphere: SphereShape, box: BoxShape): boolean {
  loadSphereBox(box, sphere);
  return withinBoxLocal(K_CENTER);
}
