import { V, V_SLOTS, withinDistance } from './kernels/scalar.js';
import type { SphereShape } from './types.js';

const { V_R, V_X, V_Y, V_Z } = V_SLOTS;

/**
 * Whether two spheres overlap or touch: |ca − cb| <= ra + rb (closed solids: touching is true),
 * comparing squares (scaled by a power of two when they could underflow or overflow).
 * False when any input is NaN or ±Infinity (or a difference of centres or the sum of the radii
 * overflows). World frame, caller's units. No allocation.
 */
export function overlapSphereSphere(a: SphereShape, b: SphereShape): boolean {
  V[V_X] = a.center.x - b.center.x;
  V[V_Y] = a.center.y - b.center.y;
  V[V_Z] = a.center.z - b.center.z;
  V[V_R] = a.radius + b.radius;
  // (withinDistance is false when any of these is NaN or ±Infinity)
  return withinDistance();
}
