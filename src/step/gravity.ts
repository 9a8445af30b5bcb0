/**
 * The first stage of a tick: gravity on the dynamic bodies (semi-implicit Euler: velocity first).
 * @module
 */
import { checkGravityStep } from '../physics/bodyReads.js';
import { internalsOf } from '../physics/internal.js';
import type { Physics } from '../physics/physicsTypes.js';
import { isDynamic } from '../response/isDynamic.js';
import { doubledLength, growArray as grow } from '../math/grow.js';

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
  let undo = internal.gravityUndo;
  if (undo === undefined || undo.length < 3 * (maxEid + 1)) {
    undo = internal.gravityUndo = grow(undo ?? new Float64Array(0), doubledLength(Math.max(48, undo === undefined ? 0 : undo.length), 3 * (maxEid + 1)));
  }
  for (let eid = 1; eid <= maxEid; eid++) {
    if (!isDynamic(flags[eid])) continue;
    undo[3 * eid] = v.x[eid];
    undo[3 * eid + 1] = v.y[eid];
    undo[3 * eid + 2] = v.z[eid];
    v.x[eid] += gx;
    v.y[eid] += gy;
    v.z[eid] += gz;
  }
}

