/**
 * Bad `out` and `physics` arguments of the world queries: a PhysicsInputError naming the argument,
 * thrown before anything is written (the `out` object is left exactly as it was), never a TypeError
 * after a partial write.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, castRay, castRayAll, castSphere, castSphereAll, createEntityList, createHitList, createPhysics,
  overlapBox, overlapSphere, PhysicsInputError, type Physics,
} from '../../src/index.js';

/** Runs `fn`; expects a PhysicsInputError from `source` naming `field`. */
function throwsNaming(fn: () => unknown, field: string, source: string): PhysicsInputError {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(PhysicsInputError);
  const e = thrown as PhysicsInputError;
  expect({ field: e.field, source: e.source }).toEqual({ field, source });
  return e;
}

/** A world where every query below hits or finds both bodies. */
function world(): Physics {
  const physics = createPhysics(createWorld());
  addSphere(physics, { position: [0, 0, 0], radius: 1 });
  addBox(physics, { position: [5, 0, 0], halfExtents: [1, 1, 1] });
  return physics;
}

/** Calls `fn(out)` expecting the error, and checks `out` is exactly as it was (a deep copy compared). */
function untouched<T extends object>(out: T, fn: (out: T) => unknown, field: string, source: string): void {
  const before = structuredClone(out);
  throwsNaming(() => fn(out), field, source);
  expect(out).toEqual(before);
  expect(Object.keys(out)).toEqual(Object.keys(before));
}

describe('regressions (bad query arguments)', () => {
  it('regression: castRay / castSphere with an out lacking normal or point throw naming it and write nothing (entity and distance were written, then a TypeError)', () => {
    const physics = world();
    const ray = (o: object) => castRay(physics, [-5, 0, 0], [1, 0, 0], 100, o as never);
    const sph = (o: object) => castSphere(physics, [-5, 0, 0], 0.5, [1, 0, 0], 100, o as never);
    untouched({ entity: 7, distance: 7, point: { x: 7, y: 7, z: 7 } }, ray, 'out.normal', 'castRay');
    untouched({ entity: 7, distance: 7, normal: { x: 7, y: 7, z: 7 } }, ray, 'out.point', 'castRay');
    untouched({ entity: 7, distance: 7, normal: null, point: { x: 7, y: 7, z: 7 } }, ray, 'out.normal', 'castRay');
    untouched({ entity: 7, distance: 7, normal: { x: 7, y: 7, z: 7 }, point: 3 }, ray, 'out.point', 'castRay');
    untouched({ entity: 7, distance: 7, point: { x: 7, y: 7, z: 7 } }, sph, 'out.normal', 'castSphere');
    untouched({}, sph, 'out.normal', 'castSphere');
    // A whole out still works (the same world: the ray hits the sphere).
    const hit = { entity: -1, distance: -1, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
    expect(castRay(physics, [-5, 0, 0], [1, 0, 0], 100, hit)).toBe(true);
    expect(hit.distance).toBe(4);
  });

  it('regression: castRayAll / castSphereAll with out = {} (or a list missing a column) throw naming it and write nothing (a TypeError)', () => {
    const physics = world();
    const all = (o: object) => castRayAll(physics, [-5, 0, 0], [1, 0, 0], 100, o as never);
    const sphAll = (o: object) => castSphereAll(physics, [-5, 0, 0], 0.5, [1, 0, 0], 100, o as never);
    untouched({}, all, 'out.entity', 'castRayAll');
    untouched({}, sphAll, 'out.entity', 'castSphereAll');
    const { pz: _pz, ...noPz } = createHitList(1);
    untouched(noPz, all, 'out.pz', 'castRayAll');
    untouched({ ...createHitList(1), distance: [0] }, all, 'out.distance', 'castRayAll');
    untouched({ ...createHitList(1), entity: new Float64Array(1) }, sphAll, 'out.entity', 'castSphereAll');
    const list = createHitList(1);
    expect(castRayAll(physics, [-5, 0, 0], [1, 0, 0], 100, list)).toBe(2);
  });

  it('regression: overlapSphere / overlapBox with out = {} throw naming out.ids and write nothing (a TypeError)', () => {
    const physics = world();
    const sphere = (o: object) => overlapSphere(physics, [0, 0, 0], 10, o as never);
    const box = (o: object) => overlapBox(physics, [0, 0, 0], [10, 10, 10], undefined, o as never);
    untouched({}, sphere, 'out.ids', 'overlapSphere');
    untouched({ count: 3, ids: [1, 2, 3] }, sphere, 'out.ids', 'overlapSphere');
    untouched({}, box, 'out.ids', 'overlapBox');
    expect(overlapSphere(physics, [0, 0, 0], 10, createEntityList(1))).toBe(2);
  });

  it('regression: a query on an object that is not a physics instance throws naming physics (castRay({}, …) was a TypeError)', () => {
    const hit = { entity: 7, distance: 7, normal: { x: 7, y: 7, z: 7 }, point: { x: 7, y: 7, z: 7 } };
    const p = {} as Physics;
    untouched(hit, (o) => castRay(p, [0, 0, 0], [1, 0, 0], 1, o), 'physics', 'castRay');
    untouched(hit, (o) => castSphere(p, [0, 0, 0], 1, [1, 0, 0], 1, o), 'physics', 'castSphere');
    untouched(createHitList(1), (o) => castRayAll(p, [0, 0, 0], [1, 0, 0], 1, o), 'physics', 'castRayAll');
    untouched(createHitList(1), (o) => castSphereAll(p, [0, 0, 0], 1, [1, 0, 0], 1, o), 'physics', 'castSphereAll');
    untouched(createEntityList(1), (o) => overlapSphere(p, [0, 0, 0], 1, o), 'physics', 'overlapSphere');
    untouched(createEntityList(1), (o) => overlapBox(p, [0, 0, 0], [1, 1, 1], undefined, o), 'physics', 'overlapBox');
    for (const bad of [null, undefined, 3, 'physics']) {
      throwsNaming(() => castRay(bad as never, [0, 0, 0], [1, 0, 0], 1, hit), 'physics', 'castRay');
    }
  });
});
