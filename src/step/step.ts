/**
 * One tick: gravity on dynamic bodies → broadphase → narrowphase (contact list; the response moves
 * dynamic bodies through their impacts; began/ended, Contact components) → integration of the others.
 * @module
 */
import { updateBroadphase } from './findPairs.js';
import { applyContactComponent, updateContactData } from '../contacts/contactComponent.js';
import { PhysicsInputError } from '../physics/errors.js';
import { clearPurged, updateNarrowphase } from './testPairs.js';
import { applyGravity, isDynamic } from '../response/resolve.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import { checkLive, internalsOf, setTick } from '../physics/internal.js';

const { SPHERE, BOX, MOVING } = BodyFlags;

function checkSwitch(name: 'continuous' | 'integrate' | 'validate' | 'contactComponent', v: unknown): void {
  if (typeof v !== 'boolean') throw new PhysicsInputError({ field: name, problem: `must be true or false, got ${String(v)}` });
}

/**
 * Checks the fields of the instance a user may write (`dt`, `continuous`, `integrate`, `validate`,
 * `contactComponent`) and that it was not destroyed; throws `PhysicsInputError` naming the field.
 * A few comparisons per phase; `dt` is read here, not passed (a passed double would be boxed).
 */
export function checkInstance(physics: Physics): void {
  checkLive(physics, undefined);
  const dt = physics.dt;
  if (!(typeof dt === 'number' && dt > 0 && dt !== Infinity)) {
    throw new PhysicsInputError({ field: 'dt', problem: `must be a finite number > 0 (seconds), got ${String(dt)}` });
  }
  if (typeof physics.continuous !== 'boolean') checkSwitch('continuous', physics.continuous);
  if (typeof physics.integrate !== 'boolean') checkSwitch('integrate', physics.integrate);
  if (typeof physics.validate !== 'boolean') checkSwitch('validate', physics.validate);
  if (typeof physics.contactComponent !== 'boolean') checkSwitch('contactComponent', physics.contactComponent);
}

/**
 * Applies gravity to the dynamic bodies (spheres with Response), then buckets bodies and lists
 * candidate pairs (see `updateBroadphase`).
 */
export function runBroadphase(physics: Physics): void {
  checkInstance(physics);
  applyGravity(physics);
  updateBroadphase(physics);
}

/**
 * Tests the candidate pairs, moves the dynamic bodies (spheres with Response) through their impacts
 * (src/response), fills `physics.contacts`, `began` and `ended`, updates the Contact
 * components (when `contactComponent` is on) and counts the tick.
 */
export function runNarrowphase(physics: Physics): void {
  checkInstance(physics);
  updateNarrowphase(physics);
  if (physics.contactComponent) {
    updateContactData(physics);
    applyContactComponent(physics);
  }
  clearPurged(physics);
  setTick(physics, physics.tick + 1);
}

/**
 * Moves every moving body (a sphere or box with Velocity) by velocity × dt, except dynamic bodies
 * (spheres with Response), which the narrowphase moved.
 */
export function runIntegrate(physics: Physics): void {
  checkInstance(physics);
  const { flags, maxEid } = internalsOf(physics);
  const { Position: p, Velocity: v } = physics.components;
  const dt = physics.dt;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & MOVING) === 0 || (f & (SPHERE | BOX)) === 0 || isDynamic(f)) continue;
    p.x[eid] += v.x[eid] * dt;
    p.y[eid] += v.y[eid] * dt;
    p.z[eid] += v.z[eid] * dt;
  }
}

/**
 * Advances the physics by one fixed step of `physics.dt` seconds: broadphase (after gravity on
 * dynamic bodies), narrowphase (with the response of dynamic bodies, which moves them), then (with
 * the `integrate` option, on by default) integration of the other moving bodies. Contacts describe the tick's motion from
 * the poses at its start. Throws `PhysicsInputError` for invalid bodies when `validate` is on, and
 * always for a bad instance field (`dt` not a finite number > 0, a switch not a boolean) or a
 * destroyed instance.
 */
export function step(physics: Physics): void {
  runBroadphase(physics);
  runNarrowphase(physics);
  if (physics.integrate) runIntegrate(physics);
}
