/**
 * The world's broadphase pass (src/step/findPairs.ts) beyond the grid: static boxes written
 * directly are noticed and validated at every step (no `markStaticDirty` needed), a motion v·dt
 * that overflows is caught, bad bodies with validation off change nothing for valid ones, and the
 * cell size follows the scene when it drifts.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, createPhysics, markStaticDirty, PhysicsInputError, step, type Physics } from '../../src/index.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { internalsOf } from '../../src/physics/internal.js';
import { WORK_ITEMS_VISITED } from '../../src/step/broadphaseState.js';
import { bruteForceContacts } from '../oracle/bruteForce.js';
import { readContacts } from '../support/harness.js';

function thrown(fn: () => unknown): PhysicsInputError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PhysicsInputError);
    return e as PhysicsInputError;
  }
  throw new Error('expected a PhysicsInputError');
}

/** A static box with a sphere resting on it, stepped once (the static grid is built). */
function boxScene(options = {}): { physics: Physics; box: number; sphere: number } {
  const physics = createPhysics(createWorld(), { dt: 1 / 60, ...options });
  const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
  const sphere = addSphere(physics, { position: [0, 1.5, 0], velocity: [0, 0, 0], radius: 0.5 });
  step(physics);
  return { physics, box, sphere };
}

describe('static boxes written directly are checked at every step (validate on)', () => {
  const cases: [string, string, (p: Physics, e: number) => void][] = [
    ['NaN position', 'Position.y', (p, e) => { p.components.Position.y[e] = NaN; }],
    ['infinite position', 'Position.z', (p, e) => { p.components.Position.z[e] = -Infinity; }],
    ['negative half extent', 'Box.hx', (p, e) => { p.components.Box.hx[e] = -1; }],
    ['NaN half extent', 'Box.hz', (p, e) => { p.components.Box.hz[e] = NaN; }],
    ['infinite quaternion', 'Box.qw', (p, e) => { p.components.Box.qw[e] = Infinity; }],
    // The bounds do not change (a zero quaternion reads as the identity), the field check still fires.
    ['zero quaternion', 'Box.rotation', (p, e) => { p.components.Box.qw[e] = 0; }],
  ];
  for (const [what, field, spoil] of cases) {
    it(`regression: ${what} without markStaticDirty → PhysicsInputError naming ${field}`, () => {
      const { physics, box } = boxScene();
      spoil(physics, box);
      const e = thrown(() => step(physics));
      expect({ eid: e.eid, field: e.field }).toEqual({ eid: box, field });
    });
  }

  it('a static box moved by a direct write is re-bucketed by itself; markStaticDirty stays a harmless hint', () => {
    const { physics, box, sphere } = boxScene();
    expect(readContacts(physics).map((k) => [k.a, k.b])).toEqual([[sphere, box]]);
    physics.components.Position.x[box] = 50;
    step(physics);
    expect(physics.contacts.count).toBe(0);
    physics.components.Position.x[box] = 0.25;
    physics.components.Box.hy[box] = 1.2;
    const expected = bruteForceContacts(physics);
    step(physics);
    expect(readContacts(physics).map((k) => [k.a, k.b])).toEqual(expected.map((k) => [k.a, k.b]));
    markStaticDirty(physics);
    step(physics);
    expect(physics.contacts.count).toBe(1);
  });
});

describe('motion overflow', () => {
  it('regression: a finite velocity × a finite dt that overflows (1e300 × 1e10) is caught, naming the velocity', () => {
    for (const shape of ['sphere', 'box'] as const) {
      const physics = createPhysics(createWorld(), { dt: 1e10 });
      const e0 = shape === 'sphere'
        ? addSphere(physics, { position: [0, 0, 0], velocity: [0, 1e300, 0], radius: 1 })
        : addBox(physics, { position: [0, 0, 0], velocity: [0, 1e300, 0], halfExtents: [1, 1, 1] });
      addSphere(physics, { position: [1e6, 0, 0], radius: 1 });
      const e = thrown(() => step(physics));
      expect({ eid: e.eid, field: e.field }).toEqual({ eid: e0, field: 'Velocity.y' });
      expect(e.problem).toMatch(/velocity × dt/);
    }
  });
});

describe('validate: false — a bad body never changes the results of valid bodies', () => {
  /**
   * Contacts between the valid bodies of issue 9's scene (400 unit spheres on a 20 × 20 lattice of
   * spacing 1.5: 760 contacts), with a bad body added last, over three ticks.
   */
  function validContacts(bad: ((p: Physics) => void) | null): string[] {
    const physics = createPhysics(createWorld(), { validate: false });
    for (let i = 0; i < 400; i++) addSphere(physics, { position: [(i % 20) * 1.5, Math.floor(i / 20) * 1.5, 0], velocity: [0.5, 0, 0], radius: 1 });
    if (bad) bad(physics);
    const out: string[] = [];
    for (let t = 0; t < 3; t++) {
      step(physics);
      for (const k of readContacts(physics)) if (k.a <= 400 && k.b <= 400) out.push(JSON.stringify(k));
    }
    return out;
  }

  const clean = validContacts(null);
  const bad: [string, (p: Physics) => void][] = [
    // Issue 9: radius −1e6 removed 686 of 760 contacts between other, valid bodies.
    ['radius −1e6', (p) => { p.components.Sphere.radius[addSphere(p, { position: [5, 5, 5], radius: 1 })] = -1e6; }],
    ['radius NaN', (p) => { p.components.Sphere.radius[addSphere(p, { position: [5, 5, 5], radius: 1 })] = NaN; }],
    ['radius 1e300', (p) => { addSphere(p, { position: [5, 5, 5], radius: 1e300 }); }],
    ['position NaN, velocity Infinity', (p) => { const e = addSphere(p, { position: [5, 5, 5], velocity: [1, 1, 1], radius: 1 }); p.components.Position.x[e] = NaN; p.components.Velocity.y[e] = Infinity; }],
    ['box with half extent −1e6', (p) => { const e = addBox(p, { position: [5, 5, 5], halfExtents: [1, 1, 1] }); p.components.Box.hx[e] = -1e6; }],
    ['moving box with NaN rotation', (p) => { const e = addBox(p, { position: [5, 5, 5], velocity: [1, 0, 0], halfExtents: [1, 1, 1] }); p.components.Box.qx[e] = NaN; }],
  ];
  for (const [what, add] of bad) {
    it(`regression: ${what}`, () => {
      expect(clean.length).toBe(3 * 760);
      expect(validContacts(add)).toEqual(clean);
    });
  }
});

describe('cell size follows the scene', () => {
  it('spheres shrinking 100× get a cell 100× smaller, and the work per query stays the same', () => {
    const arena = buildArena({ spheres: 2000, seed: 4, sphereSphere: true });
    const physics = arena.physics;
    arena.tick();
    const cell = internalsOf(physics).broadphase.cellSize;
    arena.tick();
    const items = internalsOf(physics).broadphase.work[WORK_ITEMS_VISITED];
    const r = physics.components.Sphere.radius;
    const P = physics.components.Position, V = physics.components.Velocity;
    // Shrink the whole scene 100× about the origin (radii, positions, speeds): the same scene, smaller.
    for (const e of arena.sphereIds) {
      r[e] /= 100;
      P.x[e] /= 100; P.y[e] /= 100; P.z[e] /= 100;
      V.x[e] /= 100; V.y[e] /= 100; V.z[e] /= 100;
    }
    for (const e of arena.boxIds) {
      P.x[e] /= 100; P.y[e] /= 100; P.z[e] /= 100;
      physics.components.Box.hx[e] /= 100; physics.components.Box.hy[e] /= 100; physics.components.Box.hz[e] /= 100;
    }
    step(physics);
    step(physics);
    const small = internalsOf(physics).broadphase.cellSize;
    expect(small).toBeLessThan(cell / 50);
    expect(small).toBeGreaterThan(cell / 200);
    expect(internalsOf(physics).broadphase.work[WORK_ITEMS_VISITED]).toBeLessThan(2 * items);
  });

  it('an empty first step chooses nothing; the cell is chosen at the first step with bodies', () => {
    const physics = createPhysics(createWorld());
    step(physics);
    expect(internalsOf(physics).broadphase.cellSize).toBe(0);
    for (let i = 0; i < 100; i++) addSphere(physics, { position: [i * 3, 0, 0], radius: 1 });
    step(physics);
    expect(internalsOf(physics).broadphase.cellSize).toBeGreaterThan(1);
    expect(internalsOf(physics).broadphase.cellSize).toBeLessThan(8);
  });

  it('a fixed cellSize option is never re-chosen', () => {
    const physics = createPhysics(createWorld(), { cellSize: 0.5 });
    for (let i = 0; i < 100; i++) addSphere(physics, { position: [i * 300, 0, 0], radius: 100 });
    step(physics);
    expect(internalsOf(physics).broadphase.cellSize).toBe(0.5);
  });
});

describe('two instances', () => {
  /** The candidate pairs and work counters of each tick, as text. */
  function record(arena: ReturnType<typeof buildArena>, log: string[]): void {
    const internal = internalsOf(arena.physics);
    const { a, b, count } = internal.broadphase.pairs;
    log.push(`${Array.from(a.subarray(0, count)).join()}|${Array.from(b.subarray(0, count)).join()}|${Array.from(internal.broadphase.work).join()}`);
  }
  const scenes = [
    () => buildArena({ spheres: 1200, movingBoxes: 20, seed: 4, sphereSphere: true, physics: { continuous: true } }),
    () => buildArena({ spheres: 600, size: 12, seed: 9 }),
  ];

  it('stepped interleaved, each finds the pairs it finds alone (no broadphase state is shared)', () => {
    const alone = scenes.map((make) => {
      const arena = make();
      const log: string[] = [];
      for (let t = 0; t < 8; t++) {
        arena.tick();
        record(arena, log);
      }
      return log;
    });
    const arenas = scenes.map((make) => make());
    const logs: string[][] = [[], []];
    for (let t = 0; t < 8; t++) {
      for (let k = 0; k < 2; k++) {
        arenas[k].tick();
        record(arenas[k], logs[k]);
      }
    }
    expect(alone[0][7].length).toBeGreaterThan(100);
    expect(logs).toEqual(alone);
  });
});

describe('size statistics with static contacts', () => {
  it('regression: a sphere counts its diameter whatever its velocity (validate off, an infinite velocity)', () => {
    // Static contacts sweep nothing, so the scan no longer multiplies the largest motion component by
    // 0: a non-finite velocity used to make the extent NaN and drop the sphere from the statistics.
    const physics = createPhysics(createWorld(), { validate: false, continuous: false });
    for (let i = 0; i < 3; i++) addSphere(physics, { position: [3 * i, 0, 0], velocity: [1, 0, 0], radius: 1 });
    physics.components.Velocity.y[3] = Infinity;
    step(physics);
    expect(internalsOf(physics).broadphase.sizes.total).toBe(3);
  });
});
