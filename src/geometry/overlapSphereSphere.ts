import { V, withinDistance } from '../math/scalar.js';
import type { SphereShape } from './types.js';

/**
 * Whether two spheres overlap or touch: |ca − cb| <= ra + rb (closed solids: touching is true),
 * comparing squares when they cannot underflow or overflow.
 * World frame, caller's units. No allocation.
 */
export function overlapSphereSphere(a: SphereShape, b: SphereShape): boolean {
  V[0] = a.center.x - b.center.x;
  V[1] = a.center.y - b.center.y;
  V[2] = a.center.z - b.center.z;
  V[3] = a.radius + b.radius;
  return withinDistance();
}
