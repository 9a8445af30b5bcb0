import { length3, withinDistance } from '../math/scalar.js';
import type { ContactResult, SphereShape, Vec3 } from './types.js';

/**
 * Writes the normal and point of sphere a against sphere b into `out` and returns the depth, given
 * a's centre relative to b's, (dx, dy, dz), and rsum = ra + rb. Shared by the static and swept
 * sphere–sphere queries. Coincident centres get the fixed normal +x.
 */
export function writeSphereSphereContact(
  dx: number, dy: number, dz: number, b: SphereShape, rsum: number,
  out: { normal: Vec3; point: Vec3 },
): number {
  const c = b.center;
  let nx = 1;
  let ny = 0;
  let nz = 0;
  let d = 0;
  if (dx !== 0 || dy !== 0 || dz !== 0) {
    d = length3(dx, dy, dz);
    nx = dx / d;
    ny = dy / d;
    nz = dz / d;
  }
  out.normal.x = nx;
  out.normal.y = ny;
  out.normal.z = nz;
  out.point.x = c.x + nx * b.radius;
  out.point.y = c.y + ny * b.radius;
  out.point.z = c.z + nz * b.radius;
  return rsum - d;
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
  const dx = a.center.x - b.center.x;
  const dy = a.center.y - b.center.y;
  const dz = a.center.z - b.center.z;
  const rsum = a.radius + b.radius;
  if (!withinDistance(dx, dy, dz, rsum)) return false;
  out.depth = writeSphereSphereContact(dx, dy, dz, b, rsum, out);
  return true;
}
