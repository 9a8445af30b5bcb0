import { withinDistance } from '../math/scalar.js';
import type { SphereShape } from './types.js';

/**
 * Whether two spheres overlap or touch: |ca − cb| <= ra + rb (closed solids: touching is true),
 * comparing squares when they cannot underflow or overflow.
 * World frame, caller's units. No allocation.
 */
export function overlapSphereSphere(a: SphereShape, b: SphereShape): boolean {
  const dx = a.center.x - b.center.x;
  const dy = a.center.y - b.center.y;
  const dz = a.center.z - b.center.z;
  return withinDistance(dx, dy, dz, a.radius + b.radius);
}
