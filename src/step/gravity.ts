/**
 * The first stage of a tick: gravity and damping on the dynamic bodies (semi-implicit Euler:
 * velocity first). Per body, as Box2D v2.4's `b2Island::Solve` (gravity, then the damping factor
 * 1 / (1 + h·c), a Padé approximation of exp(−c·h), which Rapier uses too): v ← (v + s·g·dt) / (1 + dt·c), with s = `Response.gravityScale` (default 1; 0 floats, negative
 * rises) and c = `Response.damping` (linear damping per second, >= 0, default 0: velocity kept).
 * @module
 */
import { checkGravityStep } from '../physics/bodyReads.js';
import { internalsOf } from '../physics/internal.js';
import type { Physics } from '../physics/physicsTypes.js';
import { isDynamic } from '../response/isDynamic.js';
import { doubledLength, growArray as grow } from '../math/grow.js';

/**
 * Adds gravityScale × gravity × dt (length units per second) to the Velocity of every dynamic body
 * (a sphere with Response), then divides it by 1 + dt × damping. Runs before the broadphase, so that
 * swept bounds cover the accelerated motion. Throws `PhysicsInputError` naming gravity before writing
 * anything when gravity × dt is not finite (the scan before it has checked each body's velocity after
 * gravity, scale and damping, and the two fields, with `validate`). With scale 1 and damping 0 the
 * sums are bit for bit those of plain gravity (g·dt·1 is g·dt; no division).
 */
export function applyGravity(physics: Physics): void {
  const internal = internalsOf(physics);
  // Integer tests only: once-per-tick code (docs/internals.md, the idiom's third rule).
  if (internal.responseCount === 0) return;
  if (internal.gravityOn !== 0) checkGravityStep(physics);
  gravityLoop(physics, internal.gravityOn);
}

/**
 * The per-body loop of `applyGravity` (a long loop stands alone: docs/internals.md); `on` 0: no
 * gravity (nothing added: −0 + 0 would turn a velocity of −0 into +0).
 */
function gravityLoop(physics: Physics, on: number): void {
  const internal = internalsOf(physics);
  const g = internal.gravity;
  const { flags, maxEid } = internal;
  const v = physics.components.Velocity;
  const { damping, gravityScale } = physics.components.Response;
  const dt = physics.dt;
  const gx = g[0] * dt, gy = g[1] * dt, gz = g[2] * dt;
  let undo = internal.gravityUndo;
  if (undo === undefined || undo.length < 3 * (maxEid + 1)) {
    undo = internal.gravityUndo = grow(undo ?? new Float64Array(0), doubledLength(Math.max(48, undo === undefined ? 0 : undo.length), 3 * (maxEid + 1)));
  }
  // Sleepers get neither (src/response/sleep.ts).
  const asleep = internal.sleep === null ? null : internal.sleep.asleep;
  for (let eid = 1; eid <= maxEid; eid++) {
    if (!isDynamic(flags[eid])) continue;
    undo[3 * eid] = v.x[eid];
    undo[3 * eid + 1] = v.y[eid];
    undo[3 * eid + 2] = v.z[eid];
    if (asleep !== null && asleep[eid] === 1) continue;
    if (on !== 0) {
      const s = gravityScale[eid];
      v.x[eid] += gx * s;
      v.y[eid] += gy * s;
      v.z[eid] += gz * s;
    }
    const c = damping[eid];
    if (c === 0) continue;
    const k = 1 / (1 + dt * c);
    v.x[eid] *= k;
    v.y[eid] *= k;
    v.z[eid] *= k;
  }
}

