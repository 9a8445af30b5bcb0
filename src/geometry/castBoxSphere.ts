import { castSphereBox } from './castSphereBox.js';
import { ScratchVec3 } from '../math/scratch.js';
import type { BoxShape, CastResult, SphereShape, Vec3 } from './types.js';

const negMotion = new ScratchVec3();

/**
 * Mirror of {@link castSphereBox}: the box moves by `motion` over the step and the sphere is at
 * rest. Same `toi`; `out.normal` points from the sphere toward the box; `out.point` is the contact
 * point on the box surface in the world at impact (the box moved by toi·motion). No allocation.
 */
export function castBoxSphere(box: BoxShape, motion: Vec3, sphere: SphereShape, out: CastResult): boolean {
  negMotion.x = -motion.x;
  negMotion.y = -motion.y;
  negMotion.z = -motion.z;
  if (!castSphereBox(sphere, negMotion, box, out)) return false;
  const t = out.toi;
  out.normal.x = -out.normal.x;
  out.normal.y = -out.normal.y;
  out.normal.z = -out.normal.z;
  out.point.x += t * motion.x;
  out.point.y += t * motion.y;
  out.point.z += t * motion.z;
  return true;
}
