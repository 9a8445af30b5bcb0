/**
 * The pure geometry of bitecs-collide (subpath `bitecs-collide/geometry`): no ECS, no allocation.
 *
 * Conventions: world frame, caller's units; `normal` is unit and points from the second shape toward
 * the first; `depth` >= 0 is the overlap (0 = touching, solids are closed); `point` lies on the second
 * shape's surface; `toi` is a fraction of the step's motion in [0, 1].
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
