import { length3, V, withinDistance } from '../math/scalar.js';
import type { ContactResult, SphereShape, Vec3 } from './types.js';

/**
 * Writes the normal and point of sphere a against sphere b into `out`, given a's centre relative to
 * b's in V[0..2] and ra + rb in V[3]; leaves the depth ra + rb − |ca − cb| in V[4]. Shared by the
 * static and swept sphere–sphere queries. Coincident centres get the fixed normal +x.
 */
export function writeSphereSphereContact(b: SphereShape, out: { normal: Vec3; point: Vec3 }): void {
  const dx = V[0], dy = V[1], dz = V[2], rsum = V[3];
  let nx = 1;
  let ny = 0;
  let nz = 0;
  let d = 0;
  if (dx !== 0 || dy !== 0 || dz !== 0) {
    length3();
    d = V[4];
    nx = dx / d;
    ny = dy / d;
    nz = dz / d;
  }
  const c = b.center;
  out.normal.x = nx;
  out.normal.y = ny;
  out.normal.z = nz;
  out.point.x = c.x + nx * b.radius;
  out.point.y = c.y + ny * b.radius;
  out.point.z = c.z + nz * b.radius;
  V[4] = rsum - d;
}

/**
 * Static contact between spheres a and b at their current poses.
 *
 * Frame and units: world frame, the caller's length unit.
 * Result (when it returns true): `out.normal` is unit and points from b toward a's centre;
 * `out.depth` = ra + rb − |ca − cb| >= 0 (0 = touching); `out.point` = cb + normal·rb, the point of b's
 * surface toward a. Coincident centres: normal = +x (1, 0, 0), a documented fixed axis.
 * Swapping a and b negates the normal and keeps the depth. Returns false when separated.
 * No allocation.
 */
export function contactSphereSphere(a: SphereShape, b: SphereShape, out: ContactResult): boolean {
  V[0] = a.center.x - b.center.x;
  V[1] = a.center.y - b.center.y;
  V[2] = a.center.z - b.center.z;
  V[3] = a.radius + b.radius;
  if (!withinDistance()) return false;
  writeSphereSphereContact(b, out);
  out.depth = V[4];
  return true;
}
