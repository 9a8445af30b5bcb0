/**
 * World queries: bad input (PhysicsInputError naming the argument, `out` untouched), empty worlds,
 * queries before the first step, lists growing by doubling, and bodies seen where they are now.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, castRay, castRayAll, castSphere, castSphereAll, createEntityList, createHitList, createPhysics, destroyPhysics,
  markStaticDirty, overlapBox, overlapSphere, PhysicsInputError, removeBody, restoreSnapshot, saveSnapshot, setPosition, snapshotSize, step,
  type QueryHit,
} from '../../src/index.js';

const newHit = (): QueryHit => ({ entity: 7, distance: 7, normal: { x: 7, y: 7, z: 7 }, point: { x: 7, y: 7, z: 7 } });

function throwsNaming(fn: () => unknown, field: string, source: string): void {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PhysicsInputError);
    expect((e as PhysicsInputError).field).toBe(field);
    expect((e as PhysicsInputError).source).toBe(source);
    return;
  }
  throw new Error(`expected ${source} to throw for ${field}`);
}

describe('world queries', () => {
  it('bad input throws PhysicsInputError naming the argument, and leaves out as it was', () => {
    const physics = createPhysics(createWorld());
    addSphere(physics, { position: [0, 0, 0], radius: 1 });
    const hit = newHit();
    const list = createHitList(2);
    const ents = createEntityList(2);
    throwsNaming(() => castRay(physics, [NaN, 0, 0], [1, 0, 0], 5, hit), 'origin.x', 'castRay');
    throwsNaming(() => castRay(physics, [-5, 0, 0], [0, 0, 0], 5, hit), 'direction', 'castRay');
    throwsNaming(() => castRay(physics, [-5, 0, 0], [1, Infinity, 0], 5, hit), 'direction.y', 'castRay');
    throwsNaming(() => castRay(physics, [-5, 0, 0], [1, 0, 0], -1, hit), 'maxDistance', 'castRay');
    throwsNaming(() => castRay(physics, [-5, 0, 0], [1, 0, 0], Infinity, hit), 'maxDistance', 'castRay');
    throwsNaming(() => castSphere(physics, [-5, 0, 0], -1, [1, 0, 0], 5, hit), 'radius', 'castSphere');
    throwsNaming(() => castRayAll(physics, [-5, 0, 0], [1, 0, 0], 5, list, { group: 0.5 }), 'filter.group', 'castRayAll');
    throwsNaming(() => castSphereAll(physics, { x: 0, y: 0 } as never, 1, [1, 0, 0], 5, list), 'center.z', 'castSphereAll');
    throwsNaming(() => overlapSphere(physics, [0, 0, 0], NaN, ents), 'radius', 'overlapSphere');
    throwsNaming(() => overlapBox(physics, [0, 0, 0], [1, -1, 1], undefined, ents), 'halfExtents.y', 'overlapBox');
    throwsNaming(() => overlapBox(physics, [0, 0, 0], [1, 1, 1], [0, 0, 0, 0], ents), 'rotation', 'overlapBox');
    throwsNaming(() => overlapSphere(physics, [0, 0, 0], 1, ents, { exclude: -1 }), 'filter.exclude', 'overlapSphere');
    throwsNaming(() => overlapSphere(physics, [0, 0, 0], 1, ents, { sensors: 1 as never }), 'filter.sensors', 'overlapSphere');
    // Regression: a misspelt filter key was ignored (the query then filtered nothing).
    throwsNaming(() => overlapSphere(physics, [0, 0, 0], 1, ents, { msk: 1 } as never), 'filter.msk', 'overlapSphere');
    throwsNaming(() => castRay(physics, [-5, 0, 0], [1, 0, 0], 5, hit, { group: 1, exlude: 3 } as never), 'filter.exlude', 'castRay');
    // Regression: a collection given as the filter has no keys of its own and filtered nothing.
    throwsNaming(() => overlapSphere(physics, [0, 0, 0], 1, ents, [1, 2] as never), 'filter', 'overlapSphere');
    throwsNaming(() => castRay(physics, [-5, 0, 0], [1, 0, 0], 5, hit, new Map([['mask', 1]]) as never), 'filter', 'castRay');
    throwsNaming(() => castRayAll(physics, [-5, 0, 0], [1, 0, 0], 5, list, new Set() as never), 'filter', 'castRayAll');
    throwsNaming(() => overlapBox(physics, [0, 0, 0], [1, 1, 1], undefined, ents, new Uint32Array(2) as never), 'filter', 'overlapBox');
    expect(hit).toEqual(newHit());
    expect(list.count).toBe(0);
    expect(ents.count).toBe(0);
    destroyPhysics(physics);
    throwsNaming(() => castRay(physics, [-5, 0, 0], [1, 0, 0], 5, hit), 'physics', 'castRay');
  });

  it('an empty world, and a world before its first step', () => {
    const physics = createPhysics(createWorld());
    const hit = newHit();
    expect(castRay(physics, [0, 0, 0], [1, 0, 0], 100, hit)).toBe(false);
    expect(overlapSphere(physics, [0, 0, 0], 100, createEntityList())).toBe(0);
    const s = addSphere(physics, { position: [10, 0, 0], radius: 1 });
    const b = addBox(physics, { position: [20, 0, 0], halfExtents: [1, 1, 1] });
    expect(castRay(physics, [0, 0, 0], [2, 0, 0], 100, hit)).toBe(true);
    expect(hit).toEqual({ entity: s, distance: 9, normal: { x: -1, y: 0, z: 0 }, point: { x: 9, y: 0, z: 0 } });
    const all = createHitList(1);
    expect(castRayAll(physics, [0, 0, 0], [1, 0, 0], 100, all)).toBe(2);
    expect([...all.entity.subarray(0, 2)]).toEqual([s, b]);
    expect([...all.distance.subarray(0, 2)]).toEqual([9, 19]);
  });

  it('sees bodies where they are now: moved by helpers or written directly (after markStaticDirty), removed, stepped', () => {
    const physics = createPhysics(createWorld());
    const s = addSphere(physics, { position: [10, 0, 0], radius: 1, velocity: [0, 60, 0] });
    const b = addBox(physics, { position: [20, 0, 0], halfExtents: [1, 1, 1] });
    const hit = newHit();
    expect(castRay(physics, [0, 0, 0], [1, 0, 0], 100, hit) && hit.entity).toBe(s);
    step(physics); // the sphere moves 1 up: the ray at y = 0 still touches it (closed solids)
    expect(castRay(physics, [0, 0, 0], [1, 0, 0], 100, hit) && hit.entity).toBe(s);
    step(physics);
    expect(castRay(physics, [0, 0, 0], [1, 0, 0], 100, hit) && hit.entity).toBe(b);
    setPosition(physics, s, [5, 0, 0]);
    expect(castRay(physics, [0, 0, 0], [1, 0, 0], 100, hit) && hit.distance).toBe(4);
    physics.components.Position.x[b] = 2;
    markStaticDirty(physics);
    expect(castRay(physics, [0, 0, 0], [1, 0, 0], 100, hit) && hit.entity).toBe(b);
    expect(overlapBox(physics, [2, 0, 0], [0.5, 0.5, 0.5], undefined, createEntityList())).toBe(1);
    removeBody(physics, b);
    expect(castRay(physics, [0, 0, 0], [1, 0, 0], 100, hit) && hit.entity).toBe(s);
  });

  it('casts see static boxes where the last re-bucketing put them: markStaticDirty, a direct write, a snapshot restore', () => {
    const physics = createPhysics(createWorld());
    const b = addBox(physics, { position: [20, 0, 0], halfExtents: [1, 1, 1] });
    addSphere(physics, { position: [0, 50, 0], radius: 1 });
    const hit = newHit();
    const distance = (y: number): number => (castRay(physics, [0, y, 0], [1, 0, 0], 100, hit) && hit.entity === b ? hit.distance : -1);
    step(physics);
    expect(distance(0)).toBe(19);
    const saved = new Uint8Array(snapshotSize(physics));
    saveSnapshot(physics, saved);
    physics.components.Position.x[b] = 10;
    physics.components.Position.y[b] = 10;
    markStaticDirty(physics);
    step(physics);
    expect([distance(10), distance(0)]).toEqual([9, -1]);
    physics.components.Position.x[b] = 5; // noticed by the step without markStaticDirty
    physics.components.Position.y[b] = -10;
    step(physics);
    expect([distance(-10), distance(10)]).toEqual([4, -1]);
    restoreSnapshot(physics, saved);
    expect([distance(0), distance(-10)]).toEqual([19, -1]);
    step(physics);
    expect([distance(0), distance(-10)]).toEqual([19, -1]);
    expect(castSphere(physics, [0, 0, 0], 0.5, [1, 0, 0], 100, hit) && hit.distance).toBe(18.5);
  });

  it('lists grow by doubling; filters, sensors and the excluded entity', () => {
    const physics = createPhysics(createWorld());
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) ids.push(addSphere(physics, { position: [i, 0, 0], radius: 0.5, group: i % 2 ? 2 : 1, sensor: i === 3 }));
    const ents = createEntityList(1);
    expect(overlapSphere(physics, [20, 0, 0], 100, ents)).toBe(39);
    expect(ents.ids.length).toBeGreaterThanOrEqual(39);
    expect(overlapSphere(physics, [20, 0, 0], 100, ents, { sensors: true })).toBe(40);
    expect(overlapSphere(physics, [20, 0, 0], 100, ents, { mask: 2, sensors: true })).toBe(20);
    const hit = newHit();
    expect(castSphere(physics, [-5, 0, 0], 0.25, [1, 0, 0], 100, hit, { exclude: ids[0] }) && hit.entity).toBe(ids[1]);
    const all = createHitList(1);
    expect(castSphereAll(physics, [-5, 0, 0], 0.25, [1, 0, 0], 100, all, { group: 2 })).toBe(39);
    expect(castSphereAll(physics, [-5, 0, 0], 0.25, [1, 0, 0], 100, all, { mask: 1 })).toBe(20);
  });
});
