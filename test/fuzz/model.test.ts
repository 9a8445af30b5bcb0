/**
 * Model-based fuzzing of the world pipeline: random sequences of add sphere / add box, remove, move
 * (setPosition), resize, re-rotate, set velocity, drop Velocity, snapshot round trips and step,
 * checked after every step against a brute-force model that keeps its own copy of every body,
 * tests every pair with the public geometry functions and integrates itself.
 *
 * The model follows the library's documented semantics (src/step/testPairs.ts, contactComponent.ts):
 * - pairs (a, b): a is a sphere; b a box, or a sphere with a higher id; or a and b are boxes, a < b,
 *   at least one with Velocity (static–static never); filtered by
 *   (groupA & maskB) !== 0 && (groupB & maskA) !== 0 (defaults group 1, mask 0xffffffff);
 * - a pair touches when contactSphere* holds at the start of the tick (toi 0, depth from the
 *   contact), or else, with continuous contacts and non-zero relative motion
 *   (velocityA·dt − velocityB·dt), when castSphere* hits in [0, 1] (depth 0, point moved with b);
 *   box–box pairs likewise with contactBoxBox and castBoxBox;
 * - box rotations are stored normalised (q · 1/|q|) and normalised again at use unless |q|² === 1;
 * - flags: SENSOR when either body is a sensor; BEGAN / PERSISTING against the previous tick's pairs,
 *   from which pairs of bodies removed since the last step are taken out (reported as ended with
 *   the REMOVED flag, once; a recycled id's pairs begin afresh);
 * - Contact component: present exactly on touching bodies; data = the contact with the earliest toi,
 *   then the deepest (float64 comparisons), then the first in (a, b) order; count = contacts;
 * - integration: position += velocity × dt for bodies with Velocity, after detection.
 * Contacts, positions, began and ended are compared bit for bit.
 */
import { createWorld, removeComponent } from 'bitecs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createPhysics, removeBody, restoreSnapshot, saveSnapshot, setHalfExtents, setPosition,
  setRadius, setRotation, setVelocity, snapshotSize, step,
} from '../../src/index.js';
import { addBody, check, fail, libraryState, Model, storeQuat, type Q4, type Sut, type V3 } from './model.js';
import { setTick } from '../../src/physics/internal.js';
import { report } from '../support/report.js';

// ---- Commands ----------------------------------------------------------------------------------

const coord = fc.oneof(
  fc.double({ min: -4, max: 4, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -16, max: 16 }).map((i) => i / 4), // exact touching configurations
);
const vec3 = fc.tuple(coord, coord, coord);
const speed = fc.oneof(
  { weight: 3, arbitrary: fc.double({ min: -40, max: 40, noNaN: true, noDefaultInfinity: true }) },
  { weight: 3, arbitrary: fc.integer({ min: -240, max: 240 }) },
  { weight: 1, arbitrary: fc.double({ min: -900, max: 900, noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constant(0) },
);
const vel = fc.tuple(speed, speed, speed);
const size = fc.oneof(
  { weight: 5, arbitrary: fc.double({ min: 0.05, max: 2, noNaN: true }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 8 }).map((i) => i / 4) },
  { weight: 1, arbitrary: fc.constant(0) },
);
const quat = fc.tuple(
  fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }),
).filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 1e-6);
const filter = fc.option(fc.tuple(fc.constantFrom(1, 2, 3), fc.constantFrom(1, 2, 3, 0xffffffff)), { nil: undefined, freq: 3 });
const pickIndex = fc.nat({ max: 1000 });

type Cmd =
  | { t: 'sphere'; p: V3; v: V3 | null; r: number; sensor: boolean; filter?: [number, number] }
  | { t: 'box'; p: V3; v: V3 | null; h: V3; q: Q4 | null; sensor: boolean; filter?: [number, number] }
  | { t: 'remove'; i: number }
  | { t: 'move'; i: number; p: V3 }
  | { t: 'resize'; i: number; r: number; h: V3 }
  | { t: 'rotate'; i: number; q: Q4 }
  | { t: 'velocity'; i: number; v: V3 }
  | { t: 'stop'; i: number }
  | { t: 'snapshot' }
  | { t: 'step'; n: number };

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ t: fc.constant('sphere' as const), p: vec3, v: fc.option(vel, { nil: null, freq: 4 }), r: size, sensor: fc.boolean(), filter }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('box' as const), p: vec3, v: fc.option(vel, { nil: null, freq: 2 }), h: fc.tuple(size, size, size), q: fc.option(quat, { nil: null }), sensor: fc.boolean(), filter }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('remove' as const), i: pickIndex }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('move' as const), i: pickIndex, p: vec3 }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('resize' as const), i: pickIndex, r: size, h: fc.tuple(size, size, size) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('rotate' as const), i: pickIndex, q: quat }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('velocity' as const), i: pickIndex, v: vel }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('stop' as const), i: pickIndex }) },
  { weight: 1, arbitrary: fc.constant({ t: 'snapshot' as const }) },
  { weight: 8, arbitrary: fc.record({ t: fc.constant('step' as const), n: fc.integer({ min: 1, max: 4 }) }) },
);

/** Coverage counters (printed once at the end). */
export const stats = { steps: 0, contacts: 0, swept: 0, boxContacts: 0, boxBox: 0, boxBoxSwept: 0, began: 0, ended: 0 };

function pick(s: Sut, i: number): number | undefined {
  const ids = [...s.model.bodies.keys()].sort((a, b) => a - b);
  return ids.length === 0 ? undefined : ids[i % ids.length];
}

function run(s: Sut, c: Cmd): void {
  const { physics, model } = s;
  switch (c.t) {
    case 'sphere':
      addBody(s, { shape: 'sphere', position: c.p, velocity: c.v, radius: c.r, halfExtents: [0, 0, 0], rotation: null, sensor: c.sensor, filter: c.filter });
      return;
    case 'box':
      addBody(s, { shape: 'box', position: c.p, velocity: c.v, radius: 0, halfExtents: c.h, rotation: c.q, sensor: c.sensor, filter: c.filter });
      return;
    case 'snapshot':
      snapshotRoundTrip(s);
      return;
    case 'step':
      for (let k = 0; k < c.n; k++) stepAndCount(s);
      return;
  }
  // The commands on one body: picked among the live ones (nothing to do when there are none).
  const e = pick(s, c.i);
  if (e === undefined) return;
  const b = model.bodies.get(e)!;
  switch (c.t) {
    case 'remove':
      removeBody(physics, e);
      model.bodies.delete(e);
      model.removed.add(e);
      return;
    case 'move':
      setPosition(physics, e, c.p);
      b.position = [...c.p];
      return;
    case 'resize':
      if (b.shape === 'sphere') {
        setRadius(physics, e, c.r);
        b.radius = c.r;
      } else {
        setHalfExtents(physics, e, c.h);
        b.halfExtents = [...c.h];
      }
      return;
    case 'rotate':
      if (b.shape !== 'box') return;
      setRotation(physics, e, c.q);
      b.rotation = storeQuat(c.q);
      return;
    case 'stop':
      if (b.velocity === null) return;
      removeComponent(s.world, e, physics.components.Velocity);
      b.velocity = null;
      return;
    case 'velocity':
      setVelocity(physics, e, c.v);
      b.velocity = [...c.v];
  }
}

/** Round trip through a snapshot, with the live state scribbled over in between. */
function snapshotRoundTrip(s: Sut): void {
  const { physics, model } = s;
  const n = snapshotSize(physics);
  if (s.buffer.length < n) s.buffer = new Uint8Array(2 * n);
  const before = libraryState(s);
  saveSnapshot(physics, s.buffer);
  const P = physics.components.Position;
  for (const e of model.bodies.keys()) P.x[e] += 1000;
  setTick(physics, physics.tick + 5);
  restoreSnapshot(physics, s.buffer);
  const after = libraryState(s);
  if (after !== before) fail(`state after a snapshot round trip differs:\n${before}\n${after}`, s);
}

/** One step of the library and of the model, checked, and counted in `stats`. */
function stepAndCount(s: Sut): void {
  const { physics, model } = s;
  step(physics);
  model.step();
  check(s);
  stats.steps++;
  stats.contacts += model.contacts.length;
  stats.swept += model.contacts.filter((x) => x.toi > 0).length;
  const boxA = model.contacts.filter((x) => model.bodies.get(x.a)?.shape === 'box');
  stats.boxContacts += model.contacts.filter((x) => model.bodies.get(x.a)?.shape === 'sphere' && model.bodies.get(x.b)?.shape === 'box').length;
  stats.boxBox += boxA.length;
  stats.boxBoxSwept += boxA.filter((x) => x.toi > 0).length;
  stats.began += model.began.length;
  stats.ended += model.ended.length;
}

function runSequence(cmds: Cmd[], continuous: boolean, capacity: number): void {
  const world = createWorld();
  const physics = createPhysics(world, { capacity, continuous });
  const s: Sut = { world, physics, model: new Model(physics.dt, continuous), buffer: new Uint8Array(256) };
  for (const c of cmds) run(s, c);
  step(physics);
  s.model.step();
  check(s);
}

describe('model-based fuzzing of the world against a brute-force model', () => {
  afterAll(() => {
    report(`[fuzz/model] ${stats.steps} steps checked: ${stats.contacts} contacts (${stats.swept} swept, ${stats.boxContacts} sphere–box, ${stats.boxBox} box–box of which ${stats.boxBoxSwept} swept), ${stats.began} began, ${stats.ended} ended`);
  });

  it('continuous contacts', () => {
    fc.assert(fc.property(fc.array(cmd, { minLength: 1, maxLength: 80, size: 'medium' }), fc.constantFrom(2, 64), (cmds, cap) => runSequence(cmds, true, cap)), { numRuns: 1000, seed: 1234 });
  });

  it('discrete contacts', () => {
    fc.assert(fc.property(fc.array(cmd, { minLength: 1, maxLength: 80, size: 'medium' }), (cmds) => runSequence(cmds, false, 8)), { numRuns: 400, seed: 4321 });
  });

  it('random seeds (new cases each run)', () => {
    fc.assert(fc.property(fc.array(cmd, { minLength: 1, maxLength: 120, size: 'medium' }), fc.boolean(), (cmds, cont) => runSequence(cmds, cont, 16)), { numRuns: 400 });
  });

  it('dense scenes: many bodies in a small region', () => {
    const add = fc.oneof(
      fc.record({ t: fc.constant('sphere' as const), p: vec3, v: fc.option(vel, { nil: null, freq: 5 }), r: size, sensor: fc.constant(false), filter: fc.constant(undefined) }),
      fc.record({ t: fc.constant('box' as const), p: vec3, v: fc.option(vel, { nil: null, freq: 2 }), h: fc.tuple(size, size, size), q: fc.option(quat, { nil: null }), sensor: fc.constant(false), filter: fc.constant(undefined) }),
    );
    fc.assert(
      fc.property(fc.array(add, { minLength: 20, maxLength: 60 }), fc.array(cmd, { maxLength: 40, size: 'medium' }), (adds, cmds) => runSequence([...adds, ...cmds], true, 4)),
      { numRuns: 200, seed: 99 },
    );
  });

  it('dense boxes: moving boxes among static and moving boxes', () => {
    const before = stats.boxBox;
    const box = fc.record({ t: fc.constant('box' as const), p: vec3, v: fc.option(vel, { nil: null, freq: 2 }), h: fc.tuple(size, size, size), q: fc.option(quat, { nil: null }), sensor: fc.boolean(), filter });
    fc.assert(
      fc.property(fc.array(box, { minLength: 10, maxLength: 40 }), fc.array(cmd, { maxLength: 40, size: 'medium' }), fc.boolean(), (adds, cmds, cont) => runSequence([...adds, ...cmds], cont, 4)),
      { numRuns: 150, seed: 1313 },
    );
    expect(stats.boxBox - before).toBeGreaterThan(1000);
  });
});

