import { normalize3, V, V_SLOTS } from './scalar.js';
import type { SphereShape, Vec3 } from '../types.js';

const { V_LENGTH, V_R, V_X, V_Y, V_Z } = V_SLOTS;

/**
 * Writes the normal and point of sphere a against sphere b into `out`, given a's centre relative to
 * b's in V[V_X], V[V_Y], V[V_Z] and ra + rb in V[V_R]; leaves the depth ra + rb − |ca − cb| in
 * V[V_LENGTH]. Shared by the static and swept sphere–sphere queries. Coincident centres get the
 * fixed normal +x. Reads all of b before writing, so `out.normal` or `out.point` may be b's centre.
 */
export function writeSphereSphereContact(b: SphereShape, out: { normal: Vec3; point: Vec3 }): void {
  const dx = V[V_X], dy = V[V_Y], dz = V[V_Z], rsum = V[V_R];
  const c = b.center;
  const cx = c.x, cy = c.y, cz = c.z, rb = b.radius;
  let nx = 1;
  let ny = 0;
  let nz = 0;
  let d = 0;
  if (dx !== 0 || dy !== 0 || dz !== 0) {
    normalize3();
    nx = V[V_X];
    ny = V[V_Y];
    nz = V[V_Z];
    d = V[V_LENGTH];
  }
  out.normal.x = nx;
  out.normal.y = ny;
  out.normal.z = nz;
  out.point.x = cx + nx * rb;
  out.point.y = cy + ny * rb;
  out.point.z = cz + nz * rb;
  V[V_LENGTH] = rsum - d;
}
