/**
 * Removal and id recycling: a removed entity never appears in a later contact; the pairs it touched
 * with are reported once in `ended` with `EndedFlags.REMOVED` at the next narrowphase; a recycled id
 * (bitecs 0.4 recycles last-removed-first) is a new body whose pairs begin afresh.
 */
import { addComponent, addEntity, createWorld, removeComponent, removeEntity } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox,
  addSphere,
  ContactFlags,
  EndedFlags,
  createBroadphaseSystem,
  createNarrowphaseSystem,
  createPhysics,
  removeBody,
  setPosition,
  step,
} from '../../src/index.js';
import { addSphereOnBox } from '../support/bodies.js';
import { readContacts, readPairs, startRun, applyOps, stepAndCheck, type Scenario } from '../support/harness.js';

function setup(options = {}) {
  const world = createWorld();
  return { world, physics: createPhysics(world, { dt: 1, ...options }) };
}

const pairsOf = (physics: ReturnType<typeof setup>['physics']) => readContacts(physics).map((k) => [k.a, k.b]);
/** `ended` as [a, b, flags] triples. */
const endedOf = (physics: ReturnType<typeof setup>['physics']) => readPairs(physics.ended).map(([a, b], i) => [a, b, physics.ended.flags[i]]);
const { REMOVED } = EndedFlags;

/** A sphere touching a box for one step, then losing `component` (entity kept) for the next: the pair ends with REMOVED. */
function touchingThenLose(component: 'Sphere' | 'Position') {
  const { world, physics } = setup();
  const { box, sphere: s } = addSphereOnBox(physics);
  step(physics);
  removeComponent(world, s, physics.components[component]);
  step(physics);
  expect(endedOf(physics)).toEqual([[s, box, REMOVED]]);
  return { world, physics, box, s };
}

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

  it('a removed body is in no later contact; its pairs are reported ended once, with REMOVED', () => {
    const { physics } = setup();
    const { box, sphere: s1 } = addSphereOnBox(physics);
    const s2 = addSphere(physics, { position: [0, -1.5, 0], radius: 1 });
    const far = addSphere(physics, { position: [50, 0, 0], radius: 1 });
    step(physics);
    expect(pairsOf(physics)).toEqual([[s1, box], [s2, box]]);
    removeBody(physics, s1);
    removeBody(physics, far); // touched nothing: nothing to report
    step(physics);
    expect(pairsOf(physics)).toEqual([[s2, box]]);
    expect(endedOf(physics)).toEqual([[s1, box, REMOVED]]);
    expect(physics.began.count).toBe(0);
    step(physics);
    expect(physics.ended.count).toBe(0);
  });

  it('removing the box: each of its pairs is ended with REMOVED, and the static grid forgets it', () => {
    const { physics } = setup();
    const { box, sphere: s1 } = addSphereOnBox(physics);
    const s2 = addSphere(physics, { position: [0, -1.5, 0], radius: 1 });
    step(physics);
    removeBody(physics, box);
    step(physics);
    expect(physics.contacts.count).toBe(0);
    expect(endedOf(physics)).toEqual([[s1, box, REMOVED], [s2, box, REMOVED]]);
  });

  it('both bodies of a pair removed: the pair is ended once', () => {
    const { physics } = setup();
    const { box, sphere } = addSphereOnBox(physics);
    step(physics);
    removeBody(physics, sphere);
    removeBody(physics, box);
    step(physics);
    expect(endedOf(physics)).toEqual([[sphere, box, REMOVED]]);
  });

  it('a pair that ends by moving apart has no flag; a pair ended by removal has REMOVED, sorted together', () => {
    const { physics } = setup();
    const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    const s1 = addSphere(physics, { position: [0, 1.5, 0], radius: 1 });
    const s2 = addSphere(physics, { position: [0, -1.5, 0], radius: 1 });
    const s3 = addSphere(physics, { position: [1.5, 0, 0], radius: 1 });
    step(physics);
    expect(pairsOf(physics)).toEqual([[s1, box], [s2, box], [s3, box]]);
    setPosition(physics, s1, [0, 9, 0]);
    removeBody(physics, s2);
    setPosition(physics, s3, [9, 0, 0]);
    step(physics);
    expect(endedOf(physics)).toEqual([[s1, box, 0], [s2, box, REMOVED], [s3, box, 0]]);
  });

  it('a recycled id touching the same partner: the old pair ends (REMOVED), the new one begins', () => {
    const { physics } = setup();
    const { box, sphere: s } = addSphereOnBox(physics);
    step(physics);
    removeBody(physics, s);
    const again = addSphere(physics, { position: [0, -1.5, 0], radius: 1 });
    expect(again).toBe(s);
    step(physics);
    expect(readContacts(physics)).toMatchObject([{ a: s, b: box, ny: -1, flags: ContactFlags.BEGAN }]);
    expect(readPairs(physics.began)).toEqual([[s, box]]);
    expect(endedOf(physics)).toEqual([[s, box, REMOVED]]);
    step(physics);
    expect(readContacts(physics)).toMatchObject([{ a: s, b: box, flags: ContactFlags.PERSISTING }]);
    expect(physics.ended.count).toBe(0);
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
    expect(endedOf(physics)).toEqual([[s0, s, REMOVED]]);
    removeBody(physics, b);
    const s3 = addSphere(physics, { position: [0, -1.5, 0], radius: 1 });
    step(physics);
    expect(readContacts(physics)).toMatchObject([{ a: s0, b: s3, ny: 1, flags: ContactFlags.BEGAN }]);
    expect(endedOf(physics)).toEqual([[s0, b, REMOVED]]);
  });

  it('removed and recycled several times between two steps: the old pair is ended once', () => {
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
    expect(endedOf(physics)).toEqual([[sphere, box, REMOVED]]);
  });

  it('losing the shape component (entity kept) ends being a body: its pairs end with REMOVED', () => {
    const { world, physics, box, s } = touchingThenLose('Sphere');
    expect(physics.contacts.count).toBe(0);
    // It can become a body again: a new contact.
    addComponent(world, s, physics.components.Sphere);
    step(physics);
    expect(readContacts(physics)).toMatchObject([{ a: s, b: box, flags: ContactFlags.BEGAN }]);
    expect(physics.ended.count).toBe(0);
  });

  it('losing Position (a pooled despawn) ends the pairs with REMOVED; Position back (respawn) begins anew', () => {
    const { world, physics, box, s } = touchingThenLose('Position');
    addComponent(world, s, physics.components.Position);
    setPosition(physics, s, [0, 1.5, 0]);
    removeComponent(world, box, physics.components.Position);
    addComponent(world, box, physics.components.Position); // despawned and respawned between two steps
    step(physics);
    expect(readContacts(physics)).toMatchObject([{ a: s, b: box, flags: ContactFlags.BEGAN }]);
    expect(physics.ended.count).toBe(0);
  });

  it('removed while touching, with the Contact component off: still ended with REMOVED', () => {
    const { physics } = setup({ contactComponent: false });
    const { box, sphere } = addSphereOnBox(physics);
    step(physics);
    removeBody(physics, sphere);
    step(physics);
    expect(endedOf(physics)).toEqual([[sphere, box, REMOVED]]);
  });

  it('trigger-zone counting (enter +1, exit −1) balances with removals and recycling', () => {
    const { physics } = setup();
    const zone = addBox(physics, { position: [0, 0, 0], halfExtents: [5, 5, 5], sensor: true });
    let inside = 0;
    const count = () => {
      for (let i = 0; i < physics.began.count; i++) if (physics.began.b[i] === zone) inside++;
      for (let i = 0; i < physics.ended.count; i++) if (physics.ended.b[i] === zone) inside--;
    };
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(addSphere(physics, { position: [i - 3, 0, 0], radius: 0.5 }));
    step(physics);
    count();
    expect(inside).toBe(6);
    removeBody(physics, ids[1]);
    removeBody(physics, ids[4]);
    ids.push(addSphere(physics, { position: [0, 1, 1], radius: 0.5 })); // recycles ids[4]
    step(physics);
    count();
    expect(inside).toBe(5);
    for (const e of [ids[0], ids[2], ids[3], ids[5], ids[6]]) removeBody(physics, e);
    step(physics);
    count();
    expect(inside).toBe(0);
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

  it('regression: a box id removed mid-tick and recycled as a sphere gives no sphere pair with a > b, nor a spurious ended + began next tick', () => {
    // Issue: the broadphase's pair (sphere 2, box 1) was tested after box 1 came back as a sphere,
    // giving the sphere–sphere contact 2-1 (out of order), then at the next tick 1-2 began and 2-1 ended.
    const { physics, world } = setup();
    const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    const s = addSphere(physics, { position: [0, 1.5, 0], radius: 1 });
    expect([box, s]).toEqual([1, 2]);
    step(physics);
    expect(pairsOf(physics)).toEqual([[s, box]]);
    createBroadphaseSystem(physics)(world);
    removeBody(physics, box);
    const again = addSphere(physics, { position: [0, 0, 0], radius: 1 });
    expect(again).toBe(box);
    createNarrowphaseSystem(physics)(world);
    for (let i = 0; i < physics.contacts.count; i++) expect(physics.contacts.a[i]).toBeLessThan(physics.contacts.b[i]);
    expect(endedOf(physics)).toEqual([[s, box, REMOVED]]);
    physics.integrate = false;
    step(physics);
    expect(readContacts(physics)).toMatchObject([{ a: again, b: s }]);
    expect(readPairs(physics.began)).toEqual([[again, s]]);
    expect(physics.ended.count).toBe(0);
    step(physics);
    expect(readContacts(physics)).toMatchObject([{ a: again, b: s, flags: ContactFlags.PERSISTING }]);
    expect(physics.began.count + physics.ended.count).toBe(0);
  });

  it('an id removed mid-tick and recycled with a filter that excludes its partner gives no contact', () => {
    const { physics, world } = setup();
    const a = addSphere(physics, { position: [0, 0, 0], radius: 1 });
    const b = addSphere(physics, { position: [1.5, 0, 0], radius: 1 });
    createBroadphaseSystem(physics)(world);
    removeBody(physics, b);
    expect(addSphere(physics, { position: [1.5, 0, 0], radius: 1, group: 2, mask: 2 })).toBe(b);
    createNarrowphaseSystem(physics)(world);
    expect(pairsOf(physics)).toEqual([]);
    step(physics);
    expect(pairsOf(physics)).toEqual([]);
    expect(a).toBeLessThan(b);
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
