/**
 * Options of createPhysics: a game's own Position/Velocity stores, capacity growth by doubling,
 * continuous on/off, integrate on/off, cellSize, and destroyPhysics.
 */
import { addComponent, addEntity, createWorld, hasComponent } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox,
  addSphere,
  createPhysics,
  destroyPhysics,
  setPosition,
  setVelocity,
  step,
  type Vec3Store,
} from '../../src/index.js';
import { bruteForceContacts, createBruteForceTracker } from '../oracle/bruteForce.js';
import { assertContactComponents, assertTick, readContacts } from '../support/harness.js';

describe('a game’s own Position / Velocity stores', () => {
  it('keep the data the game wrote before adding Velocity, on any entity (the physics resets only a new Response)', () => {
    // A review of b6d44a0, which also zeroed a new Velocity: a particle entity (no shape) and a body
    // whose velocity the game wrote before the add lost it.
    const n = 16;
    const Velocity: Vec3Store = { x: new Float64Array(n), y: new Float64Array(n), z: new Float64Array(n) };
    const world = createWorld();
    const physics = createPhysics(world, { velocity: Velocity, capacity: n });
    const particle = addEntity(world);
    Velocity.x[particle] = 3;
    Velocity.y[particle] = 4;
    addComponent(world, particle, Velocity);
    expect([Velocity.x[particle], Velocity.y[particle]]).toEqual([3, 4]);
    const s = addSphere(physics, { position: [0, 0, 0], radius: 1 });
    Velocity.x[s] = 5;
    addComponent(world, s, Velocity);
    step(physics);
    expect([Velocity.x[s], physics.components.Position.x[s]]).toEqual([5, 5 / 60]);
  });

  for (const kind of ['Float64Array', 'Float32Array', 'plain arrays'] as const) {
    it(`are used for detection and integration (${kind})`, () => {
      const n = 64;
      const mk = (): Vec3Store =>
        kind === 'Float64Array' ? { x: new Float64Array(n), y: new Float64Array(n), z: new Float64Array(n) }
          : kind === 'Float32Array' ? { x: new Float32Array(n), y: new Float32Array(n), z: new Float32Array(n) }
            : { x: new Array(n).fill(0), y: new Array(n).fill(0), z: new Array(n).fill(0) };
      const Position = mk();
      const Velocity = mk();
      const world = createWorld();
      const physics = createPhysics(world, { dt: 0.5, position: Position, velocity: Velocity });
      expect(physics.components.Position).toBe(Position);
      expect(physics.components.Velocity).toBe(Velocity);
      const tracker = createBruteForceTracker(physics);
      // Helpers write into the game's stores.
      const s = addSphere(physics, { position: [-6, 0, 0], velocity: [4, 0, 0], radius: 1 });
      expect([Position.x[s], Velocity.x[s]]).toEqual([-6, 4]);
      const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
      // So do raw bitecs calls with the game's components.
      const e = addEntity(world);
      addComponent(world, e, Position);
      addComponent(world, e, physics.components.Sphere);
      addComponent(world, e, Velocity);
      Position.x[e] = 0;
      Position.y[e] = 5;
      Velocity.y[e] = -2;
      physics.components.Sphere.radius[e] = 1;
      for (let t = 0; t < 8; t++) {
        const expected = tracker.next();
        const x0 = Position.x[s];
        step(physics);
        assertTick(physics, expected, `tick ${t}`);
        assertContactComponents(physics, [s, box, e], expected.contacts, `tick ${t}`);
        expect(Position.x[s]).toBe(kind === 'Float32Array' ? Math.fround(x0 + 4 * 0.5) : x0 + 2);
      }
      expect(hasComponent(world, e, physics.components.Contact) || Position.y[e] < 5).toBe(true);
      expect(Position.y[e]).toBe(5 - 8);
      setPosition(physics, s, [1, 2, 3]);
      setVelocity(physics, s, [0, 0, 0]);
      expect([Position.x[s], Position.y[s], Position.z[s], Velocity.x[s]]).toEqual([1, 2, 3, 0]);
    });
  }
});

describe('capacity', () => {
  it('grows by doubling past the initial capacity, keeping data and component identity', () => {
    const world = createWorld();
    const physics = createPhysics(world, { capacity: 3, dt: 1 });
    const c = physics.components;
    const comps = { ...c };
    expect(c.Position.x.length).toBe(3);
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) {
      ids.push(i % 4 === 3
        ? addBox(physics, { position: [i, 0, 0], halfExtents: [0.5, 0.5, 0.5], rotation: [0, 0, 1, 1], group: 1, mask: 3 })
        : addSphere(physics, { position: [i, 0.9, 0], velocity: [0, -1, 0], radius: 0.7, sensor: i % 5 === 0, group: 2, mask: 1 }));
    }
    expect(Math.max(...ids)).toBe(40);
    // 3 → 6 → 12 → 24 → 48: doubling, every array of every physics-owned store.
    for (const [name, store] of Object.entries(c)) {
      for (const [k, arr] of Object.entries(store as object)) expect((arr as ArrayLike<number>).length, `${name}.${k}`).toBe(48);
    }
    // Components keep their identity (bitecs knows them), their arrays are new; data survived.
    for (const k of Object.keys(comps) as (keyof typeof c)[]) expect(c[k]).toBe(comps[k]);
    expect(ids.map((e) => c.Position.x[e])).toEqual(ids.map((_, i) => i));
    expect(c.Box.qz[ids[3]]).toBe(1); // stored as given; normalised where used
    expect(c.CollisionFilter.mask[ids[3]]).toBe(3);
    const expected = bruteForceContacts(physics);
    step(physics);
    expect(expected.length).toBeGreaterThan(5);
    expect(readContacts(physics)).toEqual(expected.map((k) => ({ ...k, flags: k.flags | 1 })));
    assertContactComponents(physics, ids, expected, 'grown');
  });

  it('grows on raw bitecs adds too, before the new id is written', () => {
    const world = createWorld();
    const physics = createPhysics(world, { capacity: 1 });
    const c = physics.components;
    for (let i = 0; i < 100; i++) addEntity(world); // ids 1..100, not bodies
    const e = addEntity(world);
    addComponent(world, e, c.Position);
    c.Position.x[e] = 7;
    expect(c.Position.x[e]).toBe(7);
    expect(c.Position.x.length).toBe(128);
    addComponent(world, e, c.Sphere);
    c.Sphere.radius[e] = 1;
    addBox(physics, { position: [8, 0, 0], halfExtents: [1, 1, 1] });
    step(physics);
    expect(readContacts(physics).map((k) => [k.a, k.b])).toEqual([[e, e + 1]]);
  });
});

describe('continuous and integrate', () => {
  it('continuous: false reports only overlaps at the current pose (a fast mover tunnels, by choice)', () => {
    for (const continuous of [true, false]) {
      const physics = createPhysics(createWorld(), { dt: 1, continuous });
      expect(physics.continuous).toBe(continuous);
      addSphere(physics, { position: [-10, 0, 0], velocity: [20, 0, 0], radius: 1 });
      addBox(physics, { position: [0, 0, 0], halfExtents: [0.1, 5, 5] });
      step(physics);
      expect(physics.contacts.count).toBe(continuous ? 1 : 0);
      step(physics);
      expect(physics.contacts.count).toBe(0);
    }
  });

  it('no tunnelling from 1 to 1e12 units per tick: point spheres through flat plates, moving plates over still points, sphere through sphere', () => {
    for (let e = 0; e <= 12; e++) {
      const v = 10 ** e;
      const physics = createPhysics(createWorld(), { dt: 1 / 60 });
      const dtv = v * 60; // velocity giving v units per tick
      // A point sphere starting just before a zero-thickness plate at x = 0.5, crossing it this tick.
      const p = addSphere(physics, { position: [0.5 - v / 3, 0.25, 0], velocity: [dtv, 0, 0], radius: 0 });
      const plate = addBox(physics, { position: [0.5, 0, 0], halfExtents: [0, 1, 1] });
      // A plate rotated 45° about z, moving down through a still point sphere.
      const still = addSphere(physics, { position: [10, 0, 0], radius: 0 });
      const moving = addBox(physics, { position: [10, v / 2, 0], velocity: [0, -dtv, 0], halfExtents: [1, 0, 1], rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] });
      // Two tiny spheres crossing head-on.
      const s1 = addSphere(physics, { position: [20 - v / 2, 0, 0], velocity: [dtv, 0, 0], radius: 1e-6 });
      const s2 = addSphere(physics, { position: [20 + v / 4, 0, 0], velocity: [-dtv, 0, 0], radius: 1e-6 });
      const expected = bruteForceContacts(physics);
      step(physics);
      const pairs = readContacts(physics).map((k) => `${k.a}-${k.b}`);
      expect(pairs, `v = 1e${e}`).toEqual(expect.arrayContaining([`${p}-${plate}`, `${still}-${moving}`, `${s1}-${s2}`]));
      expect(readContacts(physics).map((k) => ({ ...k, flags: 0 }))).toEqual(expected);
    }
  });

  it('continuous can be switched at run time', () => {
    const physics = createPhysics(createWorld(), { dt: 1 });
    addSphere(physics, { position: [-10, 0, 0], velocity: [20, 0, 0], radius: 1 });
    addBox(physics, { position: [0, 0, 0], halfExtents: [0.1, 5, 5] });
    physics.continuous = false;
    step(physics);
    expect(physics.contacts.count).toBe(0);
    setPosition(physics, 1, [-10, 0, 0]);
    physics.continuous = true;
    step(physics);
    expect(physics.contacts.count).toBe(1);
  });

  it('integrate: false leaves positions alone; detection is unchanged', () => {
    const physics = createPhysics(createWorld(), { dt: 1, integrate: false });
    const s = addSphere(physics, { position: [-3, 0, 0], velocity: [1, 0, 0], radius: 1 });
    addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    for (let t = 0; t < 3; t++) {
      step(physics);
      expect(physics.components.Position.x[s]).toBe(-3);
      expect(readContacts(physics)).toMatchObject([{ toi: 1 }]);
    }
  });

  it('integration moves spheres and boxes with Velocity by v·dt, never static boxes', () => {
    const physics = createPhysics(createWorld(), { dt: 0.25 });
    const P = physics.components.Position;
    const s = addSphere(physics, { position: [1, 2, 3], velocity: [4, -8, 0.5], radius: 0 });
    const mb = addBox(physics, { position: [0, 0, 0], velocity: [1, 1, 1], halfExtents: [1, 1, 1] });
    const sb = addBox(physics, { position: [9, 9, 9], halfExtents: [1, 1, 1] });
    const still = addSphere(physics, { position: [5, 5, 5], radius: 1 });
    step(physics);
    expect([P.x[s], P.y[s], P.z[s]]).toEqual([2, 0, 3.125]);
    expect([P.x[mb], P.y[mb], P.z[mb]]).toEqual([0.25, 0.25, 0.25]);
    expect([P.x[sb], P.x[still]]).toEqual([9, 5]);
    expect(physics.tick).toBe(1);
  });

  for (const cellSize of [0.01, 0.3, 1, 1000, undefined]) {
    it(`cellSize ${cellSize ?? '(chosen)'}: the same contacts as the brute force, each pair once`, () => {
      const physics = createPhysics(createWorld(), { dt: 1 / 60, ...(cellSize ? { cellSize } : {}) });
      const tracker = createBruteForceTracker(physics);
      let seed = 5;
      const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
      for (let i = 0; i < 120; i++) addSphere(physics, { position: [rnd() * 10, rnd() * 10, rnd() * 10], velocity: [rnd() * 900, 0, -rnd() * 900], radius: rnd() });
      for (let i = 0; i < 30; i++) addBox(physics, { position: [rnd() * 10, rnd() * 10, rnd() * 10], halfExtents: [rnd() * 3, rnd(), 0], rotation: [rnd(), rnd(), rnd(), 1] });
      let total = 0;
      for (let t = 0; t < 5; t++) {
        const expected = tracker.next();
        step(physics);
        assertTick(physics, expected, `tick ${t}`);
        total += expected.contacts.length;
      }
      expect(total).toBeGreaterThan(200);
    });
  }

  it('destroyPhysics detaches the observers: bodies added by raw bitecs calls are not picked up; helpers and step throw', () => {
    const world = createWorld();
    const physics = createPhysics(world, { dt: 1 });
    addSphere(physics, { position: [0, 0, 0], radius: 1 });
    destroyPhysics(physics);
    const c = physics.components;
    const e = addEntity(world);
    addComponent(world, e, c.Position);
    addComponent(world, e, c.Box);
    expect(() => addBox(physics, { position: [1, 0, 0], halfExtents: [1, 1, 1] })).toThrow(/destroyed/);
    expect(() => step(physics)).toThrow(/destroyed/);
    expect(() => destroyPhysics(physics)).not.toThrow();
  });
});
