import type { SphereShape } from './types.js';

/**
 * Whether two spheres overlap or touch: |ca − cb|² <= (ra + rb)² (closed solids: touching is true).
 * World frame, caller's units. No allocation.
 */
export function overlapSphereSphere(a: SphereShape, b: SphereShape): boolean {
  const dx = a.center.x - b.center.x;
  const dy = a.center.y - b.center.y;
  const dz = a.center.z - b.center.z;
  const rr = a.radius + b.radius;
  return dx * dx + dy * dy + dz * dz <= rr * rr;
}
