/**
 * The Contact component: added when an entity's first contact begins, removed when its last ends,
 * data-only updates while contacts persist (checked with bitecs onAdd/onRemove observers), and the
 * primary contact's data (other, normal toward this entity, depth, point, toi, count).
 */
import { createWorld, hasComponent, removeComponent } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, createPhysics, removeBody, restoreSnapshot, saveSnapshot, setPosition, setVelocity, snapshotSize, step, type Physics,
} from '../../src/index.js';
import { bruteForceContacts } from '../oracle/bruteForce.js';
import { addRawBody } from '../support/bodies.js';
import { assertContactComponents, readContacts, watchContactEvents } from '../support/harness.js';

function setup(options = {}) {
  const world = createWorld();
  const physics = createPhysics(world, { dt: 1, ...options });
  return { world, physics, events: watchContactEvents(physics) };
}

function contactOf(physics: Physics, eid: number) {
  const C = physics.components.Contact;
  return {
    // `+ 0` turns −0 into +0 (toEqual tells them apart; the sign of a zero component is irrelevant).
    other: C.other[eid], n: [C.nx[eid] + 0, C.ny[eid] + 0, C.nz[eid] + 0], depth: C.depth[eid],
    p: [C.px[eid] + 0, C.py[eid] + 0, C.pz[eid] + 0], toi: C.toi[eid], count: C.count[eid],
  };
}

describe('Contact component lifecycle', () => {
  it('is added at the first contact, only updated while it persists, removed when the last contact ends', () => {
    const { world, physics, events } = setup();
    const C = physics.components.Contact;
    // A static box [-1, 1]^3 and a sphere (r = 0.5) sliding in +x through it, one unit per tick.
    const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    const s = addSphere(physics, { position: [-4, 0, 0], velocity: [1, 0, 0], radius: 0.5 });
    const log: { tick: number; s: boolean; box: boolean; added: number[]; removed: number[]; depth: number }[] = [];
    for (let t = 0; t < 9; t++) {
      events.reset();
      step(physics);
      log.push({
        tick: t, s: hasComponent(world, s, C), box: hasComponent(world, box, C),
        added: [...events.added].sort(), removed: [...events.removed].sort(), depth: C.depth[s],
      });
    }
    // Sphere x over tick t: from -4 + t to -3 + t. It touches the box while x is in [-1.5, 1.5]:
    // swept in tick 2 (-2 → -1, toi 0.5), at the start of ticks 3, 4, 5 (x = -1, 0, 1), not in 6 (2 → 3).
    const touching = log.map((l) => l.s);
    expect(touching).toEqual([false, false, true, true, true, true, false, false, false]);
    expect(log.map((l) => l.box)).toEqual(touching);
    // Exactly one add per entity when it begins and one remove when it ends; none in between.
    expect(log[2].added).toEqual([box, s].sort());
    expect(log[6].removed).toEqual([box, s].sort());
    for (const t of [0, 1, 3, 4, 5, 7, 8]) {
      expect(log[t].added, `tick ${t}`).toEqual([]);
      expect(log[t].removed, `tick ${t}`).toEqual([]);
    }
    // …while the data did change as the contact persisted.
    expect(new Set(log.slice(2, 6).map((l) => l.depth)).size).toBeGreaterThan(1);
  });

  it('holds the primary contact: normal toward this entity (negated for b), depth, point, toi, count', () => {
    const { physics } = setup();
    // Sphere 1 (r = 1) overlaps box 2 by 0.5 through its +x face and moves -x at 4 units per tick.
    const s = addSphere(physics, { position: [1.5, 0, 0], velocity: [-4, 0, 0], radius: 1 });
    const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    step(physics);
    expect(readContacts(physics)).toHaveLength(1);
    expect(contactOf(physics, s)).toEqual({ other: box, n: [1, 0, 0], depth: 0.5, p: [1, 0, 0], toi: 0, count: 1 });
    expect(contactOf(physics, box)).toEqual({ other: s, n: [-1, 0, 0], depth: 0.5, p: [1, 0, 0], toi: 0, count: 1 });
  });

  it('a swept contact has toi > 0, depth 0 and the point where it is at the time of impact (moving box)', () => {
    const { physics } = setup();
    // Sphere r = 1 at x = -10 moving +8/tick; box [-1, 1] at x = 10 moving -8/tick. Gap 18 closes at
    // 16/tick relative: first touch at toi = 18/16 > 1 — no contact; one tick later gap 2 → toi 0.125.
    const s = addSphere(physics, { position: [-10, 0, 0], velocity: [8, 0, 0], radius: 1 });
    const box = addBox(physics, { position: [10, 0, 0], velocity: [-8, 0, 0], halfExtents: [1, 1, 1] });
    step(physics);
    expect(physics.contacts.count).toBe(0);
    step(physics);
    // Start: sphere at -2, box at 2 (face at 1). Touch when -2 + 1 + 8t = 1 - 8t → t = 0.125;
    // the point is on the box face at that time: x = 1 - 8·0.125 = 0.
    expect(readContacts(physics)).toEqual([
      { a: s, b: box, nx: -1, ny: 0, nz: 0, depth: 0, px: 0, py: 0, pz: 0, toi: 0.125, flags: 1 },
    ]);
    expect(contactOf(physics, s)).toEqual({ other: box, n: [-1, 0, 0], depth: 0, p: [0, 0, 0], toi: 0.125, count: 1 });
    expect(contactOf(physics, box)).toEqual({ other: s, n: [1, 0, 0], depth: 0, p: [0, 0, 0], toi: 0.125, count: 1 });
  });

  it('with several contacts: count is their number and the primary is the earliest toi, then the deepest', () => {
    const { physics } = setup();
    const s = addSphere(physics, { position: [0, 0, 0], velocity: [10, 0, 0], radius: 1 });
    const late = addBox(physics, { position: [8, 0, 0], halfExtents: [1, 1, 1] }); // toi 0.6
    const early = addBox(physics, { position: [5, 0, 0], halfExtents: [1, 1, 1] }); // toi 0.3
    const shallow = addBox(physics, { position: [0, 1.9, 0], halfExtents: [1, 1, 1] }); // toi 0, depth 0.1
    step(physics);
    expect(contactOf(physics, s)).toMatchObject({ other: shallow, toi: 0, count: 3 });
    const deep = addBox(physics, { position: [0, -1.5, 0], halfExtents: [1, 1, 1] }); // toi 0, depth 0.5
    // Put the sphere back so that all four are in reach again.
    physics.components.Position.x[s] = 0;
    step(physics);
    expect(contactOf(physics, s)).toMatchObject({ other: deep, toi: 0, depth: 0.5, count: 4 });
    // Without the overlapping boxes, the earliest swept contact is primary.
    removeBody(physics, shallow);
    removeBody(physics, deep);
    physics.components.Position.x[s] = 0;
    step(physics);
    expect(contactOf(physics, s)).toMatchObject({ other: early, toi: Math.fround(0.3), count: 2 });
    expect(contactOf(physics, late)).toMatchObject({ other: s, toi: Math.fround(0.6), count: 1 });
  });

  it('Contact fields nx, ny, nz, depth, toi are float32; the point is float64; other uint32; count uint32', () => {
    const { physics } = setup();
    const C = physics.components.Contact;
    for (const k of ['nx', 'ny', 'nz', 'depth', 'toi'] as const) expect(C[k]).toBeInstanceOf(Float32Array);
    for (const k of ['px', 'py', 'pz'] as const) expect(C[k]).toBeInstanceOf(Float64Array);
    expect(C.other).toBeInstanceOf(Uint32Array);
    expect(C.count).toBeInstanceOf(Uint32Array);
    // A value that float32 cannot hold is rounded in the component and exact in the list.
    const s = addSphere(physics, { position: [0.1, 0, 2.1], radius: 1.3 });
    addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    step(physics);
    expect(physics.contacts.depth[0]).toBe(1.3 - (2.1 - 1));
    expect(C.depth[s]).toBe(Math.fround(1.3 - (2.1 - 1)));
    expect(C.pz[s]).toBe(physics.contacts.pz[0]);
  });

  it('a sphere–sphere contact gives both entities the Contact component, normals opposite', () => {
    const { physics } = setup();
    const a = addSphere(physics, { position: [0, 0, 0], radius: 1 });
    const b = addSphere(physics, { position: [0, 1.5, 0], radius: 1 });
    step(physics);
    expect(contactOf(physics, a)).toEqual({ other: b, n: [0, -1, 0], depth: 0.5, p: [0, 0.5, 0], toi: 0, count: 1 });
    expect(contactOf(physics, b)).toEqual({ other: a, n: [0, 1, 0], depth: 0.5, p: [0, 0.5, 0], toi: 0, count: 1 });
  });

  it('matches the oracle on a crowded static pile (every entity, every field)', () => {
    const { physics } = setup();
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) ids.push(addSphere(physics, { position: [i * 1.5, j * 1.5, (i * j) % 2], radius: 1 }));
    ids.push(addBox(physics, { position: [4, 4, -1], halfExtents: [5, 5, 0.5] }));
    const expected = bruteForceContacts(physics);
    step(physics);
    expect(expected.length).toBeGreaterThan(50);
    assertContactComponents(physics, ids, expected, 'pile');
  });

  it('contactComponent: false never adds the component but still fills the contact list', () => {
    const { world, physics, events } = setup({ contactComponent: false });
    const s = addSphere(physics, { position: [0, 0, 0], radius: 1 });
    addBox(physics, { position: [1, 0, 0], halfExtents: [1, 1, 1] });
    step(physics);
    expect(physics.contacts.count).toBe(1);
    expect(hasComponent(world, s, physics.components.Contact)).toBe(false);
    expect(events.added).toEqual([]);
  });

  it('a user removing the component by hand gets it back at the next tick while still touching', () => {
    const { world, physics, events } = setup();
    const s = addSphere(physics, { position: [0, 0, 0], radius: 1 });
    addBox(physics, { position: [1, 0, 0], halfExtents: [1, 1, 1] });
    step(physics);
    removeComponent(world, s, physics.components.Contact);
    events.reset();
    step(physics);
    expect(hasComponent(world, s, physics.components.Contact)).toBe(true);
    expect(events.added).toEqual([s]);
  });

  it('the component leaves both partners when one body is removed, and a new partner re-adds it', () => {
    const { world, physics, events } = setup();
    const C = physics.components.Contact;
    const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    const s = addSphere(physics, { position: [1, 0, 0], radius: 1 });
    step(physics);
    removeBody(physics, s);
    events.reset();
    step(physics);
    expect(hasComponent(world, box, C)).toBe(false);
    expect(events.removed).toEqual([box]);
    const s2 = addSphere(physics, { position: [-1, 0, 0], radius: 1 });
    expect(s2).toBe(s); // recycled id
    events.reset();
    step(physics);
    expect(events.added.sort()).toEqual([box, s2].sort());
    expect(contactOf(physics, box)).toMatchObject({ other: s2, n: [1, 0, 0] });
  });

  it('velocity changes that keep a pair touching cause no structural change', () => {
    const { physics, events } = setup();
    const s = addSphere(physics, { position: [0, 0, 0], velocity: [0, 0, 0], radius: 1 });
    addBox(physics, { position: [0, -1.5, 0], halfExtents: [3, 1, 3] });
    step(physics);
    for (let t = 0; t < 20; t++) {
      setVelocity(physics, s, [Math.sin(t) * 0.1, 0, Math.cos(t) * 0.1]);
      events.reset();
      step(physics);
      expect(events.added.length + events.removed.length).toBe(0);
    }
  });

  it('an entity given Position + Sphere by raw bitecs calls gets the component like a helper-made one', () => {
    const { world, physics } = setup();
    const c = physics.components;
    const e = addRawBody(physics, { shape: 'sphere', radius: 1 });
    addBox(physics, { position: [0, 1.5, 0], halfExtents: [1, 1, 1] });
    step(physics);
    expect(hasComponent(world, e, c.Contact)).toBe(true);
    expect(contactOf(physics, e).n).toEqual([0, -1, 0]);
  });
});

describe('Contact component: the ended pairs drive the removals only while the lists agree', () => {
  it('switched off for the tick a contact ends: the next tick with it on takes Contact off', () => {
    const { world, physics, events } = setup();
    const C = physics.components.Contact;
    const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    const s = addSphere(physics, { position: [1.5, 0, 0], radius: 1 });
    step(physics);
    expect([hasComponent(world, s, C), hasComponent(world, box, C)]).toEqual([true, true]);
    physics.contactComponent = false;
    setPosition(physics, s, [10, 0, 0]);
    step(physics);
    expect(physics.ended.count).toBe(1);
    expect(hasComponent(world, s, C)).toBe(true); // off: nothing changes
    physics.contactComponent = true;
    events.reset();
    step(physics);
    expect(physics.ended.count).toBe(0); // the pair ended in the tick that was off
    expect([hasComponent(world, s, C), hasComponent(world, box, C)]).toEqual([false, false]);
    expect(events.removed.sort()).toEqual([box, s].sort());
  });

  it('a restore of a snapshot saved after a tick with it off: the next step takes Contact off the entities that stopped touching', () => {
    const { world, physics, events } = setup();
    const C = physics.components.Contact;
    const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    const s = addSphere(physics, { position: [1.5, 0, 0], radius: 1 });
    step(physics);
    physics.contactComponent = false;
    setPosition(physics, s, [10, 0, 0]);
    step(physics);
    const saved = new Uint8Array(snapshotSize(physics));
    saveSnapshot(physics, saved);
    physics.contactComponent = true;
    step(physics);
    step(physics);
    restoreSnapshot(physics, saved);
    // As saved: the component still on both (the tick that ended their pair had it off).
    expect([hasComponent(world, s, C), hasComponent(world, box, C)]).toEqual([true, true]);
    events.reset();
    step(physics);
    expect([hasComponent(world, s, C), hasComponent(world, box, C)]).toEqual([false, false]);
    expect(events.removed.sort()).toEqual([box, s].sort());
  });
});

describe('regressions (Contact component)', () => {
  it('regression: Contact primary is chosen by float32-rounded toi/depth, not the earliest/deepest contact', () => {
    // One sphere sweeps through two overlapping boxes. Box `first` (lower id, earlier in the list) is
    // hit at toi 0.49 + 1e-9, box `earliest` at toi 0.49: distinct in float64 (the world contact list
    // has them), equal once rounded to float32. The spec: primary = earliest toi, then deepest.
    const { physics } = setup({ dt: 1 });
    const s = addSphere(physics, { position: [0, 0, 0], velocity: [100, 0, 0], radius: 1 });
    const first = addBox(physics, { position: [51 + 1e-7, 0, 0], halfExtents: [1, 1, 1] });
    const earliest = addBox(physics, { position: [51, 0, 0], halfExtents: [1, 1, 1] });
    step(physics);
    const l = physics.contacts;
    expect(l.count).toBe(2);
    const toiFirst = l.toi[0];
    const toiEarliest = l.toi[1];
    expect([l.b[0], l.b[1]]).toEqual([first, earliest]);
    expect(toiEarliest).toBeLessThan(toiFirst); // float64: `earliest` is first in time
    expect(Math.fround(toiEarliest)).toBe(Math.fround(toiFirst)); // float32: a tie
    expect(physics.components.Contact.other[s]).toBe(earliest); // fails: pipeline keeps `first`
  });

  it('regression: Contact primary depth ties in float32 pick the first listed contact, not the deepest', () => {
    // Found by the oracle property test (seed 7): a sphere overlapping two bodies whose depths are
    // 2 and 2 − 2^-52·… (equal in float32). Minimal version: depths 0.5 and 0.5 + 1e-12.
    const { physics } = setup();
    const s = addSphere(physics, { position: [0, 0, 0], radius: 1 });
    const shallower = addBox(physics, { position: [0, 1.5, 0], halfExtents: [1, 1, 1] }); // depth 0.5
    const deeper = addBox(physics, { position: [0, -1.5 + 1e-12, 0], halfExtents: [1, 1, 1] }); // depth 0.5 + 1e-12
    step(physics);
    expect(physics.contacts.depth[1]).toBeGreaterThan(physics.contacts.depth[0]);
    expect([physics.contacts.b[0], physics.contacts.b[1]]).toEqual([shallower, deeper]);
    expect(physics.components.Contact.other[s]).toBe(deeper); // fails: pipeline keeps `shallower`
  });

  it('regression: Contact.count counts past 65,535 (70,000 spheres touching one box; it saturated at 65,535)', () => {
    const { physics } = setup({ capacity: 1 << 17 });
    const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1000, 1, 1000] });
    for (let i = 0; i < 70_000; i++) addSphere(physics, { position: [(i % 280) * 7 - 980, 1.5, Math.floor(i / 280) * 7 - 980], radius: 0.5 });
    step(physics);
    expect(physics.contacts.count).toBe(70_000);
    expect(physics.components.Contact.count[box]).toBe(70_000);
  });
});
