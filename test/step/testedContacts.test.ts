/**
 * Contacts tested in the broadphase's queries (findPairs.ts, `BroadphaseState.tested`): the static
 * contacts are bit for bit those of the public `contactSphereBox` on each sphere and rotated box
 * (an independent oracle, including spheres within a few ulps of touching), the continuous ones
 * those of `contactSphereBox`, else `castSphereBox` along velocity × dt; a body removed between
 * the broadphase and the narrowphase is handled as the narrowphase's own tests handle it; a tick
 * over the contact budget leaves the previous contacts in place; a narrowphase run twice takes them
 * over once; and the path is taken exactly when nothing else is met later (no dynamic body, no
 * moving box, no removal).
 */
import { createWorld } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, createPhysics, removeBody, runBroadphase, runIntegrate, runNarrowphase, step,
  type Physics,
} from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import { loadBox } from '../../src/physics/bodyReads.js';
import { ScratchBox } from '../../src/geometry/scratch.js';
import { addSpecBoxes, rows, staticOracle, sweptOracle } from '../support/contactOracles.js';

const unit = fc.double({ min: -1, max: 1, noNaN: true });

describe('static contacts tested in the queries', () => {
  it('equal contactSphereBox bit for bit, spheres near and at touching, boxes rotated by unnormalised quaternions', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.tuple(unit, unit, unit), fc.tuple(fc.double({ min: 0.3, max: 2, noNaN: true }), fc.double({ min: 0.3, max: 2, noNaN: true }), fc.double({ min: 0.3, max: 2, noNaN: true })), fc.tuple(unit, unit, unit, unit)), { minLength: 1, maxLength: 4 }),
      fc.array(fc.tuple(fc.nat(3), fc.tuple(unit, unit, unit), fc.double({ min: 0.1, max: 1, noNaN: true }), fc.integer({ min: -3, max: 3 })), { minLength: 1, maxLength: 30 }),
      (boxSpecs, sphereSpecs) => {
        const physics = createPhysics(createWorld(), { integrate: false, continuous: false });
        const boxes = addSpecBoxes(physics, boxSpecs);
        const box = new ScratchBox();
        const spheres = sphereSpecs.map(([k, d, r, ulps]) => {
          // A point on the surface of box k's bounding sphere direction, then pushed to distance r ± ulps.
          loadBox(physics, boxes[k % boxes.length], box);
          const len = Math.hypot(d[0], d[1], d[2]) || 1;
          const h = box.halfExtents;
          const reach = Math.min(h.x, h.y, h.z) + r * (1 + ulps * Number.EPSILON);
          return addSphere(physics, {
            position: [box.center.x + (d[0] / len) * reach, box.center.y + (d[1] / len) * reach, box.center.z + (d[2] / len) * reach],
            radius: r, group: 2, mask: 1,
          });
        });
        step(physics);
        expect(internalsOf(physics).broadphase.tested).toBe(2);
        expect(rows(physics)).toEqual(staticOracle(physics, spheres, boxes));
      },
    ), { numRuns: 150 });
  });

  it('continuous: equal contactSphereBox, else castSphereBox, bit for bit, paths ending near and at touching', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.tuple(unit, unit, unit), fc.tuple(fc.double({ min: 0.3, max: 2, noNaN: true }), fc.double({ min: 0.3, max: 2, noNaN: true }), fc.double({ min: 0.3, max: 2, noNaN: true })), fc.tuple(unit, unit, unit, unit)), { minLength: 1, maxLength: 4 }),
      fc.array(fc.tuple(fc.nat(3), fc.tuple(unit, unit, unit), fc.double({ min: 0.1, max: 1, noNaN: true }), fc.integer({ min: -3, max: 3 }), fc.tuple(unit, unit, unit), fc.boolean()), { minLength: 1, maxLength: 30 }),
      (boxSpecs, sphereSpecs) => {
        const physics = createPhysics(createWorld(), { integrate: false, continuous: true });
        const boxes = addSpecBoxes(physics, boxSpecs);
        const box = new ScratchBox();
        const dt = physics.dt;
        const spheres = sphereSpecs.map(([k, d, r, ulps, v, atEnd]) => {
          // A pose at distance r ± ulps from box k's bounding sphere direction, where the path ends
          // (`atEnd`) or passes through its middle; the motion is velocity × dt.
          loadBox(physics, boxes[k % boxes.length], box);
          const len = Math.hypot(d[0], d[1], d[2]) || 1;
          const h = box.halfExtents;
          const reach = Math.min(h.x, h.y, h.z) + r * (1 + ulps * Number.EPSILON);
          const velocity: [number, number, number] = [v[0] * 0.5 / dt, v[1] * 0.5 / dt, v[2] * 0.5 / dt];
          const back = atEnd ? 1 : 0.5;
          return addSphere(physics, {
            position: [
              box.center.x + (d[0] / len) * reach - back * velocity[0] * dt,
              box.center.y + (d[1] / len) * reach - back * velocity[1] * dt,
              box.center.z + (d[2] / len) * reach - back * velocity[2] * dt,
            ],
            radius: r, group: 2, mask: 1, velocity,
          });
        });
        step(physics);
        expect(internalsOf(physics).broadphase.tested).toBe(2);
        expect(rows(physics)).toEqual(sweptOracle(physics, spheres, boxes));
      },
    ), { numRuns: 150 });
  });

  it('is taken without dynamic bodies, moving boxes or removals (static or continuous contacts), and not otherwise', () => {
    const make = (more: (p: Physics) => void, options = {}) => {
      const physics = createPhysics(createWorld(), { continuous: false, ...options });
      addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
      addSphere(physics, { position: [1.5, 0, 0], radius: 1, velocity: [1, 0, 0] });
      more(physics);
      step(physics);
      return internalsOf(physics).broadphase.tested !== 0 ? 1 : 0;
    };
    expect(make(() => {})).toBe(1);
    expect(make(() => {}, { continuous: true })).toBe(1);
    expect(make((p) => addBox(p, { position: [5, 0, 0], halfExtents: [1, 1, 1], velocity: [1, 0, 0] }))).toBe(0);
    expect(make((p) => addSphere(p, { position: [9, 9, 9], radius: 1, velocity: [1, 0, 0], response: 'bounce' }))).toBe(0);
  });

  it('regression: a sphere removed between the broadphase and the narrowphase has no contact and ends REMOVED', () => {
    const physics = createPhysics(createWorld(), { continuous: false });
    addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    const s1 = addSphere(physics, { position: [1.5, 0, 0], radius: 1 });
    const s2 = addSphere(physics, { position: [-1.5, 0, 0], radius: 1 });
    step(physics);
    expect(physics.contacts.count).toBe(2);
    runBroadphase(physics);
    expect(internalsOf(physics).broadphase.tested).toBe(1);
    removeBody(physics, s1);
    runNarrowphase(physics);
    runIntegrate(physics);
    expect(rows(physics).map((r) => r.a)).toEqual([s2]);
    expect(physics.ended.count).toBe(1);
    expect(physics.ended.a[0]).toBe(s1);
  });

  it('regression: a narrowphase run again on the same broadphase gives the same contacts (the takeover happens once)', () => {
    for (const continuous of [false, true]) {
      const physics = createPhysics(createWorld(), { continuous });
      addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
      const s = addSphere(physics, { position: [1.5, 0, 0], radius: 1, velocity: [1, 0, 0] });
      step(physics);
      physics.components.Position.x[s] = 5;
      step(physics);
      expect(physics.contacts.count).toBe(0);
      physics.components.Position.x[s] = 1.5;
      runBroadphase(physics);
      runNarrowphase(physics);
      const once = rows(physics);
      expect(once.map((r) => r.a)).toEqual([s]);
      runNarrowphase(physics);
      expect(rows(physics)).toEqual(once);
      expect(physics.began.count + physics.ended.count).toBe(0);
    }
  });

  it('regression: a tick over the contact budget throws and leaves the previous contacts as they were', () => {
    const physics = createPhysics(createWorld(), { contactBudget: 3, continuous: false });
    for (let i = 0; i < 3; i++) addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    const s = addSphere(physics, { position: [5, 0, 0], radius: 1, group: 2, mask: 1 });
    step(physics);
    expect(physics.contacts.count).toBe(0);
    addSphere(physics, { position: [1.5, 0, 0], radius: 1, group: 2, mask: 1 });
    step(physics);
    const before = rows(physics);
    expect(before.length).toBe(3);
    physics.components.Position.x[s] = 1.5; // 6 candidate pairs: over the budget
    expect(() => step(physics)).toThrow(/contactBudget/);
    expect(rows(physics)).toEqual(before);
  });
});
