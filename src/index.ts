/**
 * bitecs-collide: exact, deterministic sphere and box collision for bitecs 0.4.
 * The one public barrel: explicit named exports only.
 * @module
 */
export type { Vec3, Quat, SphereShape, BoxShape, ContactResult, CastResult } from './geometry/types.js';
export {
  overlapSphereBox,
  contactSphereBox,
  castSphereBox,
  overlapSphereSphere,
  contactSphereSphere,
  castSphereSphere,
  overlapBoxSphere,
  contactBoxSphere,
  castBoxSphere,
} from './geometry/index.js';
