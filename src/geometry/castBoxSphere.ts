import { castSphereBox } from './castSphereBox.js';
import { ScratchVec3 } from './scratch.js';
import type { BoxShape, CastResult, SphereShape, Vec3 } from './types.js';

const negMotion = new ScratchVec3();

/**
 * Mirror of {@link castSphereBox}: the box moves by `motion` over the step and the sphere is at
 * rest. Same `toi`; `out.normal` points from the sphere toward the box; `out.point` is the contact
 * point on the box surface in the world at impact (the box moved by toi·motion). Returns false,
 * leaving `out` untouched, on a miss and on non-finite input, as castSphereBox does; `out` may share
 * vectors with the inputs. No allocation.
 */
export function castBoxSphere(box: BoxShape, motion: Vec3, sphere: SphereShape, out: CastResult): boolean {
  const mx = motion.x, my = motion.y, mz = motion.z;
  negMotion.x = -mx;
  negMotion.y = -my;
  negMotion.z = -mz;
  if (!castSphereBox(sphere, negMotion, box, out)) return false;
  const t = out.toi;
  out.normal.x = -out.normal.x;
  out.normal.y = -out.normal.y;
  out.normal.z = -out.normal.z;
  out.point.x += t * mx;
  out.point.y += t * my;
  out.point.z += t * mz;
  return true;
}
