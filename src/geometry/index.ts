/**
 * The pure geometry of bitecs-collide (subpath `bitecs-collide/geometry`): no ECS, no allocation.
 *
 * Conventions: world frame, caller's units; `normal` is unit and points from the second shape toward
 * the first; `depth` >= 0 is the overlap (0 = touching, solids are closed); `point` lies on the second
 * shape's surface; `toi` is a fraction of the step's motion in [0, 1] (touching at the end of the step
 * hits, at toi 1).
 * Every query returns false and leaves `out` untouched when there is no contact, and when any input
 * is NaN or ±Infinity (or so large that a difference of coordinates overflows). `out` may share
 * vectors with the inputs (all inputs are read before it is written); `out.normal` and `out.point`
 * must be two objects. Magnitudes are rescaled by powers of two only, so results are scale invariant.
 * @module
 */
export type { Vec3, Quat, SphereShape, BoxShape, ContactResult, CastResult } from './types.js';
export { overlapSphereBox } from './overlapSphereBox.js';
export { contactSphereBox } from './contactSphereBox.js';
export { castSphereBox } from './castSphereBox.js';
export { overlapSphereSphere } from './overlapSphereSphere.js';
export { contactSphereSphere } from './contactSphereSphere.js';
export { castSphereSphere } from './castSphereSphere.js';
export { overlapBoxSphere } from './overlapBoxSphere.js';
export { contactBoxSphere } from './contactBoxSphere.js';
export { castBoxSphere } from './castBoxSphere.js';
export { overlapBoxBox } from './overlapBoxBox.js';
export { contactBoxBox } from './contactBoxBox.js';
export { castBoxBox } from './castBoxBox.js';
