/**
 * World queries see bitecs `set()` writes at once, as they see the helpers' (`setPosition`,
 * `setRadius`, `setHalfExtents`, `setRotation`): a `setComponent` on Position, Sphere or Box marks
 * the queries' structure stale, like a helper edit.
 */
import { createWorld, setComponent } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, castRay, createEntityList, createPhysics, overlapSphere, step, type Physics } from '../../src/index.js';

function setup() {
  const world = createWorld();
  const physics = createPhysics(world, { dt: 1 / 60 });
  return { world, physics };
}

/** The entities whose bodies overlap a probe sphere of radius `r` at `c`. */
function near(physics: Physics, c: [number, number, number], r = 0.1): number[] {
  const out = createEntityList();
  const n = overlapSphere(physics, c, r, out);
  return [...out.ids.subarray(0, n)].sort((x, y) => x - y);
}

describe('regressions (queries after set())', () => {
  it('regression: setComponent(Position) on a sphere: overlapSphere finds it at its new place, not its old one, before any step', () => {
    const { world, physics } = setup();
    const ball = addSphere(physics, { position: [0, 0, 0], radius: 0.5 });
    step(physics);
    expect(near(physics, [0, 0, 0])).toEqual([ball]); // the query structure is built here
    setComponent(world, ball, physics.components.Position, { x: 10, y: 0, z: 0 });
    expect(near(physics, [10, 0, 0])).toEqual([ball]); // failed: []
    expect(near(physics, [0, 0, 0])).toEqual([]);
  });

  it('regression: setComponent(Sphere) radius: overlapSphere sees the new radius before any step', () => {
    const { world, physics } = setup();
    const ball = addSphere(physics, { position: [0, 0, 0], radius: 0.5 });
    step(physics);
    expect(near(physics, [2, 0, 0])).toEqual([]);
    setComponent(world, ball, physics.components.Sphere, { radius: 3 });
    expect(near(physics, [2, 0, 0])).toEqual([ball]); // failed: []
    setComponent(world, ball, physics.components.Sphere, { radius: 0.25 });
    expect(near(physics, [0.5, 0, 0])).toEqual([]);
  });

  it('regression: setComponent(Position) on a static box: overlapSphere and castRay find it at its new place before any step', () => {
    const { world, physics } = setup();
    const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    step(physics);
    expect(near(physics, [0, 0, 0])).toEqual([box]);
    setComponent(world, box, physics.components.Position, [20, 0, 0]);
    expect(near(physics, [20, 0, 0])).toEqual([box]); // failed: []
    expect(near(physics, [0, 0, 0])).toEqual([]);
    const hit = { entity: -1, distance: 0, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 0, z: 0 } };
    expect(castRay(physics, [10, 0, 0], [1, 0, 0], 100, hit)).toBe(true);
    expect(hit.entity).toBe(box);
    expect(hit.distance).toBeCloseTo(9, 12);
  });

  it('regression: setComponent(Box) half extents and rotation: overlapSphere sees the new shape before any step', () => {
    const { world, physics } = setup();
    const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
    step(physics);
    expect(near(physics, [3, 0, 0])).toEqual([]);
    setComponent(world, box, physics.components.Box, { hx: 4 });
    expect(near(physics, [3, 0, 0])).toEqual([box]); // failed: []
    // A quarter turn about z: the long axis now along y.
    setComponent(world, box, physics.components.Box, { rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] });
    expect(near(physics, [3, 0, 0])).toEqual([]);
    expect(near(physics, [0, 3, 0])).toEqual([box]);
  });
});
