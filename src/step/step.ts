/**
 * One tick, as its list of stages. This file is the only place that calls them, in this order; no
 * stage calls another. `step` runs them all; the three systems (systems/index.ts) run them in three
 * groups, `runBroadphase`, `runNarrowphase` and `runIntegrate`, each of which first checks the
 * instance's fields (`checkInstance`).
 *
 * 1. `checkStatic` (step/checkStatic.ts) compares the static boxes' Position and Box with those
 *    they were bucketed from; writes only `staticDirty` (they are re-bucketed this tick).
 * 2. `scanBodies` (step/scanBodies.ts) reads every sphere and moving box, their filters, Response,
 *    gravity and dt; with `validate` it checks them (and every static box when they are
 *    re-bucketed, or were by a snapshot restore) and throws `PhysicsInputError` for bad input before
 *    any stage has written, so a tick that throws has changed nothing; writes only the tick's size
 *    statistics, `sliceCap`, `movingBoxes` and `sphereSphere` (for `findPairs`), and clears
 *    `staticUnchecked` once the static boxes passed.
 * 3. `applyGravity` (step/gravity.ts) reads gravity, dt, the body flags, Response gravityScale and
 *    damping and the sleepers; adds gravityScale × gravity × dt to the Velocity of the awake
 *    dynamic bodies and damps it (throwing first, with nothing written, when gravity × dt is not
 *    finite), keeping the velocities it replaced: when `findPairs` throws (the contact
 *    budget), `undoGravity` (step/gravityUndo.ts) puts them back before it throws, so a step
 *    that throws has changed nothing.
 * 4. `findPairs` (step/findPairs.ts) reads Position, Velocity, the shapes, the filters, dt and the
 *    scan's counts; writes the static and dynamic grids, the candidate pairs (`pairs`) and the work
 *    counters; with nothing met later (no dynamic body, character, moving box or removal:
 *    `tested`), also the pairs' contacts, into the broadphase's `testedContacts`.
 * 5. `testPairs` (step/testPairs.ts) reads the candidate pairs, Position, Velocity, the shapes and
 *    the removal marks; writes the contacts of the pairs without a dynamic body into
 *    `physics.contacts` (those `findPairs` tested, copied over, unless since then a body was removed,
 *    written through the helpers or `set()`, or given a Response or a Character: `writes`).
 * 6. `respond` (response/resolve.ts), only when some entity holds Response, reads the grids,
 *    Position, Velocity, the shapes, Response, Material, gravity and the sleep state; writes Position
 *    and Velocity of the awake dynamic bodies (moved to the end of the tick through their impacts),
 *    merges the contacts of the paths taken (and the sleepers' held ones) into `physics.contacts`
 *    (in place: the list is built once) and updates the sleep state (response/sleep.ts).
 * 6b. `moveCharacters` (character/moveCharacters.ts), only when some entity holds Character, reads
 *    the grids, Position, Velocity, the shapes, Character, the filters and gravity; writes the
 *    characters' Position, Velocity and Character outputs (collide-and-slide against the obstacles'
 *    end-of-tick poses), the Velocity of dynamic spheres they push, and merges their contacts into
 *    `physics.contacts`.
 * 7. `diffContacts` (contacts/contactDiff.ts) reads `physics.contacts`, the previous tick's pairs and
 *    the removal marks; writes the BEGAN / PERSISTING flags, `began`, `ended` and the previous pairs.
 * 8. `updateContactData`, `applyContactComponent` (contacts/contactComponent.ts), with the
 *    `contactComponent` option, read the contacts and the ended pairs; write the Contact component
 *    and its holders.
 * 9. `clearPurged` (step/clearPurged.ts) clears the removal marks and takes Contact off entities
 *    that are no longer bodies.
 * 10. `setTick` (physics/internal.ts) counts the tick.
 * 11. `integrate` (step/integrate.ts), with the `integrate` option, reads Velocity and dt; writes
 *    the Position of the moving bodies other than dynamic ones and characters.
 * 12. `keepPoses` (debug/interpolation.ts), while render interpolation is enabled, reads the moving
 *    bodies' Position and Box rotation and the tick; writes the interpolation's pose buffer of this tick.
 *
 * Dynamic bodies are spheres with Response (response/isDynamic.ts). Contacts describe the tick's
 * motion from the poses at its start. `runBroadphase` is stages 1–4, `runNarrowphase`
 * 5–10, `runIntegrate` 11–12 (`step` runs 12 without 11 when `integrate` is off).
 * @module
 */
import { applyContactComponent, updateContactData } from '../contacts/contactComponent.js';
import { PhysicsInputError } from '../physics/errors.js';
import { checkLive, internalsOf, setTick } from '../physics/internal.js';
import type { Physics } from '../physics/physicsTypes.js';
import { respond } from '../response/resolve.js';
import { moveCharacters } from '../character/moveCharacters.js';
import { clearPurged } from './clearPurged.js';
import { diffContacts } from '../contacts/contactDiff.js';
import { findPairs } from './findPairs.js';
import { applyGravity } from './gravity.js';
import { checkStatic } from './checkStatic.js';
import { scanBodies } from './scanBodies.js';
import { integrate } from './integrate.js';
import { keepPoses } from '../debug/interpolation.js';
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
 * Notices written static boxes, scans the bodies (with `validate`, checking them: nothing is
 * written when it throws), applies gravity to the dynamic bodies (spheres with Response), then buckets
 * bodies and lists candidate pairs (see `findPairs`).
 */
export function runBroadphase(physics: Physics): void {
  checkInstance(physics);
  checkStatic(physics);
  scanBodies(physics);
  applyGravity(physics);
  findPairs(physics);
}

/**
 * Tests the candidate pairs, moves the dynamic bodies (spheres with Response) through their impacts
 * (src/response), fills `physics.contacts`, `began` and `ended`, updates the Contact
 * components (when `contactComponent` is on) and counts the tick.
 */
export function runNarrowphase(physics: Physics): void {
  checkInstance(physics);
  testPairs(physics);
  if (internalsOf(physics).responseCount !== 0) respond(physics);
  if (internalsOf(physics).characterCount !== 0) moveCharacters(physics);
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
 * (spheres with Response), which the response moved; then, while render interpolation is enabled,
 * keeps the moving bodies' poses of this tick.
 */
export function runIntegrate(physics: Physics): void {
  checkInstance(physics);
  integrate(physics);
  if (internalsOf(physics).interpolation !== null) keepPoses(physics);
}

/**
 * Advances the physics by one fixed step of `physics.dt` seconds: broadphase (after gravity on
 * dynamic bodies), narrowphase (with the response of dynamic bodies, which moves them), then (with
 * the `integrate` option, on by default) integration of the other moving bodies. Contacts describe
 * the tick's motion from the poses at its start. Throws `PhysicsInputError` for invalid bodies when
 * `validate` is on (before anything is written: fix the field and step again), and always for a
 * bad instance field (`dt` not a finite number > 0, a switch not
 * a boolean) or a destroyed instance.
 */
export function step(physics: Physics): void {
  runBroadphase(physics);
  runNarrowphase(physics);
  if (physics.integrate) runIntegrate(physics);
  else if (internalsOf(physics).interpolation !== null) keepPoses(physics);
}
