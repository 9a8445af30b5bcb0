/**
 * One tick: broadphase → narrowphase (contact list, began/ended, Contact components) → integration.
 * @module
 */
import { updateBroadphase } from './broadphase.js';
import { applyContactComponent, updateContactData } from './contactComponent.js';
import { clearPurged, updateNarrowphase } from './narrowphase.js';
import { BodyFlags, type Physics } from './types.js';
import { internalsOf, setTick } from './internal.js';

const { SPHERE, BOX, MOVING } = BodyFlags;

/** Buckets bodies and lists candidate pairs (see `updateBroadphase`). */
export function runBroadphase(physics: Physics): void {
  updateBroadphase(physics);
}

/**
 * Tests the candidate pairs, fills `physics.contacts`, `began` and `ended`, updates the Contact
 * components (when `contactComponent` is on) and counts the tick.
 */
export function runNarrowphase(physics: Physics): void {
  updateNarrowphase(physics);
  if (physics.contactComponent) {
    updateContactData(physics);
    applyContactComponent(physics);
  }
  clearPurged(physics);
  setTick(physics, physics.tick + 1);
}

/** Moves every moving body (a sphere or box with Velocity) by velocity × dt. */
export function runIntegrate(physics: Physics): void {
  const { flags, maxEid } = internalsOf(physics);
  const { Position: p, Velocity: v } = physics.components;
  const dt = physics.dt;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & MOVING) === 0 || (f & (SPHERE | BOX)) === 0) continue;
    p.x[eid] += v.x[eid] * dt;
    p.y[eid] += v.y[eid] * dt;
    p.z[eid] += v.z[eid] * dt;
  }
}

/**
 * Advances the physics by one fixed step of `physics.dt` seconds: broadphase, narrowphase, then
 * (with the `integrate` option, on by default) integration. Contacts describe the tick's motion from
 * the poses at its start. Throws `PhysicsInputError` for invalid bodies when `validate` is on.
 */
export function step(physics: Physics): void {
  runBroadphase(physics);
  runNarrowphase(physics);
  if (physics.integrate) runIntegrate(physics);
}
