/**
 * Removal and id recycling: a removed entity never appears in a later contact nor in `ended` after
 * its removal; a recycled id (bitecs 0.4 recycles last-removed-first) is a new body.
 */
import { addComponent, addEntity, createWorld, removeComponent, removeEntity } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox,
  addSphere,
  ContactFlags,
  createBroadphaseSystem,
  createNarrowphaseSystem,
  createPhysics,
  removeBody,
  setPosition,
  step,
} from '../../src/index.js';
import { addSphereOnBox } from '../support/bodies.js';
import { readContacts, readPairs, startRun, applyOps, stepAndCheck, type Scenario } from './harness.js';

function setup(options = {}) {
  const world = createWorld();
  return { world, physics: createPhysics(world, { dt: 1, ...options }) };
}

const pairsOf = (physics: ReturnType<typeof setup>['physics']) => readContacts(physics).map((k) => [k.a, k.b]);

describe('removal', () => {
  it('bitecs 0.4 recycles ids last-removed-first, starting at 1 (the premise of the tests below)', () => {
    const world = createWorld();
    const ids = [addEntity(world), addEntity(world), addEntity(world), addEntity(world)];
    expect(ids).toEqual([1, 2, 3, 4]);
    removeEntity(world, 2);
    removeEntity(world, 4);
    expect(addEntity(world)).toBe(4);
    expect(addEntity(world)).toBe(2);
    expect(addEntity(world)).toBe(5);
  });

  it('a removed body is in no later contact and its pairs are not reported as ended', () => {
    const { physics } = setup();
    const { box, sphere: s1 } = addSphereOnBox(physics);
    const s2 = addSphere(physics, { position: [0, -1.5, 0], radius: 1 });
    step(physics);
    expect(pairsOf(physics)).toEqual([[s1, box], [s2, box]]);
    removeBody(physics, s1);
    step(physics);
    expect(pairsOf(physics)).toEqual([[s2, box]]);
    expect(physics.ended.count).toBe(0);
    expect(physics.began.count).toBe(0);
    step(physics);
    expect(physics.ended.count).toBe(0);
  });

  it('removing the box: its pairs vanish without ended entries, and the static grid forgets it', () => {
    const { physics } = setup();
    const { box } = addSphereOnBox(physics);
    addSphere(physics, { position: [0, -1.5, 0], radius: 1 });
    step(physics);
    removeBody(physics, box);
    step(physics);
    expect(physics.contacts.count).toBe(0);
    expect(physics.ended.count).toBe(0);
  });

  it('a recycled id is a new body: BEGAN (not persisting), and the old pair is not ended', () => {
    const { physics } = setup();
    const { box, sphere: s } = addSphereOnBox(physics);
    step(physics);
    removeBody(physics, s);
    const again = addSphere(physics, { position: [0, -1.5, 0], radius: 1 });
    expect(again).toBe(s);
    step(physics);
    expect(readContacts(physics)).toMatchObject([{ a: s, b: box, ny: -1, flags: ContactFlags.BEGAN }]);
    expect(readPairs(physics.began)).toEqual([[s, box]]);
    expect(readPairs(physics.ended)).toEqual([]);
  });

  it('a recycled id may come back as the other shape (sphere id reused by a box, and back)', () => {
    const { physics } = setup();
    const s0 = addSphere(physics, { position: [0, 0, 0], radius: 1 });
    const s = addSphere(physics, { position: [0, 1.5, 0], radius: 1 });
    step(physics);
    expect(pairsOf(physics)).toEqual([[s0, s]]);
    removeBody(physics, s);
    const b = addBox(physics, { position: [0, 1.5, 0], halfExtents: [1, 1, 1] });
    expect(b).toBe(s);
    step(physics);
    expect(readContacts(physics)).toMatchObject([{ a: s0, b, flags: ContactFlags.BEGAN, ny: -1 }]);
    removeBody(physics, b);
    const s3 = addSphere(physics, { position: [0, -1.5, 0], radius: 1 });
    step(physics);
    expect(readContacts(physics)).toMatchObject([{ a: s0, b: s3, ny: 1, flags: ContactFlags.BEGAN }]);
  });

  it('removed and recycled several times between two steps', () => {
    const { physics } = setup();
    const { box, sphere } = addSphereOnBox(physics);
    let s = sphere;
    step(physics);
    for (let i = 0; i < 5; i++) {
      removeBody(physics, s);
      s = addSphere(physics, { position: [0, 1.5, 0], radius: 1 });
    }
    step(physics);
    expect(readContacts(physics)).toMatchObject([{ a: s, b: box, flags: ContactFlags.BEGAN }]);
    expect(physics.ended.count).toBe(0);
  });

  it('losing the shape component (entity kept) ends being a body; its pairs are dropped, not ended', () => {
    const { world, physics } = setup();
    const { box, sphere: s } = addSphereOnBox(physics);
    step(physics);
    removeComponent(world, s, physics.components.Sphere);
    step(physics);
    expect(physics.contacts.count).toBe(0);
    expect(physics.ended.count).toBe(0);
    // It can become a body again.
    addComponent(world, s, physics.components.Sphere);
    step(physics);
    expect(readContacts(physics)).toMatchObject([{ a: s, b: box, flags: ContactFlags.BEGAN }]);
  });

  it('a body removed between the broadphase and narrowphase systems is skipped', () => {
    const { physics, world } = setup();
    const { sphere: s } = addSphereOnBox(physics);
    const keep = addSphere(physics, { position: [0, -1.5, 0], radius: 1 });
    createBroadphaseSystem(physics)(world);
    removeBody(physics, s);
    createNarrowphaseSystem(physics)(world);
    expect(pairsOf(physics)).toEqual([[keep, 1]]);
  });

  it('a removed static box moved away and recycled as a static box elsewhere is bucketed anew', () => {
    const { physics } = setup();
    const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    const s = addSphere(physics, { position: [100, 1.5, 0], radius: 1 });
    step(physics);
    expect(physics.contacts.count).toBe(0);
    removeBody(physics, box);
    const box2 = addBox(physics, { position: [100, 0, 0], halfExtents: [1, 1, 1] });
    expect(box2).toBe(box);
    step(physics);
    expect(pairsOf(physics)).toEqual([[s, box2]]);
    setPosition(physics, box2, [0, 0, 0]);
    step(physics);
    expect(physics.contacts.count).toBe(0);
  });

  it('churn: 300 ticks of random adds/removes with recycling match the oracle every tick', () => {
    // A deterministic stress run through the same checks as the property tests (contacts, began,
    // ended, Contact components and their structural changes, integration).
    let seed = 99;
    const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const body = () => ({
      shape: rnd() < 0.7 ? ('sphere' as const) : ('box' as const),
      position: [Math.floor(rnd() * 7) - 3, Math.floor(rnd() * 7) - 3, Math.floor(rnd() * 3) - 1] as [number, number, number],
      velocity: rnd() < 0.5 ? null : ([Math.floor(rnd() * 5) - 2, Math.floor(rnd() * 5) - 2, 0] as [number, number, number]),
      radius: [0, 0.5, 1][Math.floor(rnd() * 3)],
      halfExtents: [1, 0.5, 1] as [number, number, number],
      rotation: [0, 0, 0, 1] as [number, number, number, number],
      group: null, mask: null, sensor: rnd() < 0.1, raw: rnd() < 0.3,
    });
    const sc: Scenario = { continuous: true, dt: 1, cellSize: null, bodies: Array.from({ length: 20 }, body), ticks: [] };
    const run = startRun(sc);
    for (let t = 0; t < 300; t++) {
      const ops: Scenario['ticks'][number] = [];
      for (let k = 0; k < 3; k++) {
        const r = rnd();
        if (r < 0.35) ops.push({ t: 'remove', pick: Math.floor(rnd() * 1000) });
        else if (r < 0.7) ops.push({ t: 'add', body: body() });
        else ops.push({ t: 'pos', pick: Math.floor(rnd() * 1000), pos: [Math.floor(rnd() * 7) - 3, Math.floor(rnd() * 7) - 3, 0] });
      }
      applyOps(run, ops);
      stepAndCheck(run, `tick ${t}`);
    }
    expect(run.recycled).toBeGreaterThan(100);
  });
});
