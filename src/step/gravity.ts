/**
 * The first stage of a tick: gravity on the dynamic bodies (semi-implicit Euler: velocity first).
 * @module
 */
import { checkGravityStep } from '../physics/bodyReads.js';
import { internalsOf } from '../physics/internal.js';
import type { Physics } from '../physics/physicsTypes.js';
import { isDynamic } from '../response/isDynamic.js';

/**
 * Adds gravity × dt (length units per second) to the Velocity of every dynamic body (a sphere with
 * Response). Runs before the broadphase, so that swept bounds cover the accelerated motion. Throws
 * `PhysicsInputError` naming gravity before writing anything when gravity × dt is not finite (the
 * scan before it has checked each body's velocity after gravity, with `validate`).
 */
export function applyGravity(physics: Physics): void {
  const internal = internalsOf(physics);
  // Integer tests only: once-per-tick code (docs/internals.md, the idiom's third rule).
  if (internal.responseCount === 0 || internal.gravityOn === 0) return;
  checkGravityStep(physics);
  const g = internal.gravity;
  const { flags, maxEid } = internal;
  const v = physics.components.Velocity;
  const dt = physics.dt;
  const gx = g[0] * dt, gy = g[1] * dt, gz = g[2] * dt;
  for (let eid = 1; eid <= maxEid; eid++) {
    if (!isDynamic(flags[eid])) continue;
    v.x[eid] += gx;
    v.y[eid] += gy;
    v.z[eid] += gz;
  }
}
