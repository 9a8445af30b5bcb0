/**
 * One tick, as its list of stages. This file is the only place that calls them, in this order; no
 * stage calls another. `step` runs them all; the three systems (systems/index.ts) run them in three
 * groups, `runBroadphase`, `runNarrowphase` and `runIntegrate`, each of which first checks the
 * instance's fields (`checkInstance`).
 *
 * | stage | file | reads | writes |
 * |---|---|---|---|
 * | applyGravity | step/gravity.ts | gravity, dt, body flags | Velocity of dynamic bodies |
 * | updateBroadphase | step/findPairs.ts | Position, Velocity, shapes, filters, dt | the grids, candidate pairs (`pairs`), work counters |
 * | testPairs | step/testPairs.ts | candidate pairs, Position, Velocity, shapes, removal marks | contacts of the pairs without a dynamic body: `physics.contacts`, or with dynamic bodies the response's `pairContacts` |
 * | respond | response/resolve.ts | the grids, `pairContacts`, Position, Velocity, shapes, Response, gravity | Position and Velocity of dynamic bodies, `physics.contacts` (`pairContacts` merged with their contacts) |
 * | diffContacts | step/contactDiff.ts | `physics.contacts`, previous pairs, removal marks | BEGAN / PERSISTING flags, `began`, `ended`, previous pairs |
 * | updateContactData, applyContactComponent | contacts/contactComponent.ts | `physics.contacts` (when `contactComponent` is on) | Contact component data, its holders |
 * | clearPurged | step/clearPurged.ts | removal marks | removal marks cleared, Contact taken off non-bodies |
 * | setTick | physics/internal.ts | `tick` | `tick` + 1 |
 * | integrate | step/integrate.ts | Velocity, dt (when `integrate` is on) | Position of moving bodies other than dynamic ones |
 *
 * Dynamic bodies are spheres with Response (response/isDynamic.ts); the response stage runs only
 * while some entity holds Response. Contacts describe the tick's motion from the poses at its start.
 * @module
 */
import { applyContactComponent, updateContactData } from '../contacts/contactComponent.js';
import { PhysicsInputError } from '../physics/errors.js';
import { checkLive, internalsOf, setTick } from '../physics/internal.js';
import type { Physics } from '../physics/physicsTypes.js';
import { respond, responseOf } from '../response/resolve.js';
import { clearPurged } from './clearPurged.js';
import { diffContacts } from './contactDiff.js';
import { updateBroadphase } from './findPairs.js';
import { applyGravity } from './gravity.js';
import { integrate } from './integrate.js';
import { testPairs } from './testPairs.js';

function checkSwitch(name: 'continuous' | 'integrate' | 'validate' | 'contactComponent', v: unknown): void {
  if (typeof v !== 'boolean') throw new PhysicsInputError({ field: name, problem: `must be true or false, got ${String(v)}` });
}

/**
 * Checks the fields of the instance a user may write (`dt`, `continuous`, `integrate`, `validate`,
 * `contactComponent`) and that it was not destroyed; throws `PhysicsInputError` naming the field.
 * A few comparisons per phase; `dt` is read here, not passed.
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
  if (internalsOf(physics).responseCount === 0) {
    testPairs(physics, physics.contacts);
  } else {
    testPairs(physics, responseOf(physics).pairContacts);
    respond(physics);
  }
  diffContacts(physics);
  if (physics.contactComponent) {
    updateContactData(physics);
    applyContactComponent(physics);
  }
  clearPurged(physics);
  setTick(physics, physics.tick + 1);
}

/**
 * Moves every moving body (a sphere or box with Velocity) by velocity × dt, except dynamic bodies
 * (spheres with Response), which the response moved.
 */
export function runIntegrate(physics: Physics): void {
  checkInstance(physics);
  integrate(physics);
}

/**
 * Advances the physics by one fixed step of `physics.dt` seconds: broadphase (after gravity on
 * dynamic bodies), narrowphase (with the response of dynamic bodies, which moves them), then (with
 * the `integrate` option, on by default) integration of the other moving bodies. Contacts describe
 * the tick's motion from the poses at its start. Throws `PhysicsInputError` for invalid bodies when
 * `validate` is on, and always for a bad instance field (`dt` not a finite number > 0, a switch not
 * a boolean) or a destroyed instance.
 */
export function step(physics: Physics): void {
  runBroadphase(physics);
  runNarrowphase(physics);
  if (physics.integrate) runIntegrate(physics);
}
