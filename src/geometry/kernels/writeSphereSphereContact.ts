import { length3, V } from '../../math/scalar.js';
import type { SphereShape, Vec3 } from '../types.js';

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
