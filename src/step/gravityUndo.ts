/**
 * The undo of a tick's gravity (step/gravity.ts keeps the velocities it replaced), for the
 * broadphase's contact budget (boxPairs.ts `budgetError`), which throws after gravity was applied:
 * so a step that throws leaves the world as it was. Not a stage.
 * @module
 */
import { internalsOf } from '../physics/internal.js';
import type { Physics } from '../physics/physicsTypes.js';
import { isDynamic } from '../response/isDynamic.js';

/**
 * Puts back the Velocity the dynamic bodies had before this tick's `applyGravity` (gravity and
 * damping), bit for bit: the
 * contact budget calls it before it throws (boxPairs.ts), so that a step that throws leaves the
 * world as it was.
 */
export function undoGravity(physics: Physics): void {
  const internal = internalsOf(physics);
  const undo = internal.gravityUndo;
  if (internal.responseCount === 0 || undo === undefined) return;
  const { flags, maxEid } = internal;
  const v = physics.components.Velocity;
  for (let eid = 1; eid <= maxEid; eid++) {
    if (!isDynamic(flags[eid])) continue;
    v.x[eid] = undo[3 * eid];
    v.y[eid] = undo[3 * eid + 1];
    v.z[eid] = undo[3 * eid + 2];
  }
}
