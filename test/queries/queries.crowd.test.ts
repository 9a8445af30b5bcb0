/**
 * The world queries in crowded scenes (hundreds of bodies, about one per cell, a few much larger than
 * a cell, rotated boxes, spheres moved after the step) against a brute-force loop over every body
 * with the geometry API: the same entities, the same distances but for the last bits. Each scene is
 * asked on both query structures: the dense grid and the hashed grids (src/queries/queryGrid.ts).
 * Regressions: a sphere cast whose radius spans thousands of cells scans the cells it covers instead
 * of walking them one by one (it took minutes when first written); a ray along a cell face whose
 * direction has a component of 1e-320 (its inverse overflowed: the walk stopped after one cell).
 */
import { createWorld } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, castRay, castRayAll, castSphere, castSphereAll, createEntityList, createHitList, createPhysics,
  overlapSphere, step, type Physics, type QueryHit,
} from '../../src/index.js';
import { queryState, setDenseQueries } from '../../src/queries/queryGrid.js';
import { DG_SIDE, DG_X0 } from '../../src/grid/dense.js';
import { createRng, type Rng } from '../../src/scenes/prng.js';
import { bruteCast, bruteOverlapSphere, near, unit, type BruteBody, type P3 } from '../support/bruteQueries.js';

const SIDE = 20;

/** A crowded scene: `n` bodies in a cube of side SIDE, stepped once, then a few spheres moved. */
function crowd(seed: number, n: number): { physics: Physics; bodies: BruteBody[] } {
  const rng = createRng(seed);
  const physics = createPhysics(createWorld());
  const bodies: BruteBody[] = [];
  const at = (): P3 => [rng.range(0, SIDE), rng.range(0, SIDE), rng.range(0, SIDE)];
  for (let i = 0; i < n; i++) {
    if (i % 4 === 0) {
      const big = i % 40 === 0;
      const h: P3 = big ? [rng.range(3, 8), rng.range(0.1, 1), rng.range(3, 8)] : [rng.range(0.05, 1), rng.range(0.05, 1), rng.range(0.05, 1)];
      const rotation = i % 8 === 0 ? unitQuat(rng) : undefined;
      bodies.push({ eid: addBox(physics, { position: at(), halfExtents: h, rotation }), sphere: false, r: 0, h });
    } else {
      const r = i % 17 === 0 ? 0 : rng.range(0.05, 1);
      bodies.push({ eid: addSphere(physics, { position: at(), radius: r, velocity: [rng.range(-1, 1), 0, 0] }), sphere: true, r, h: [0, 0, 0] });
    }
  }
  step(physics);
  const pos = physics.components.Position;
  for (const b of bodies.slice(0, 20)) if (b.sphere) pos.y[b.eid] += rng.range(-3, 3);
  return { physics, bodies };
}

function unitQuat(rng: Rng): [number, number, number, number] {
  const q = [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)];
  const l = Math.hypot(...q);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

/** Whether hit lists agree: entities in order (but for near-ties), distances to the last bits. */
function sameHits(ids: ArrayLike<number>, dist: ArrayLike<number>, n: number, ref: Array<[number, number]>, L: number): void {
  expect(n).toBe(ref.length);
  for (let i = 0; i < n; i++) {
    near(dist[i], ref[i][1], L);
    const tie = (i > 0 && ref[i][1] - ref[i - 1][1] < 1e-9) || (i + 1 < n && ref[i + 1][1] - ref[i][1] < 1e-9);
    if (!tie) expect(ids[i]).toBe(ref[i][0]);
  }
}

function checkScene(physics: Physics, bodies: BruteBody[], rng: Rng): number {
  const hit: QueryHit = { entity: 0, distance: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
  const list = createHitList(2);
  const ents = createEntityList(2);
  let hits = 0;
  for (let k = 0; k < 60; k++) {
    const o: P3 = [rng.range(-2, SIDE + 2), rng.range(-2, SIDE + 2), rng.range(-2, SIDE + 2)];
    const d: P3 = k % 10 === 0 ? [0, -1, 0] : unit([rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)]);
    const L = k % 3 === 0 ? rng.range(10, 40) : rng.range(0, 6);
    const r = k % 2 === 0 ? 0 : rng.range(0, 2);
    const ref = bruteCast(physics, bodies, o, d, L, r);
    const found = r === 0 ? castRay(physics, o, d, L, hit) : castSphere(physics, o, r, d, L, hit);
    expect(found).toBe(ref.length > 0);
    if (found) sameHits([hit.entity], [hit.distance], 1, ref.slice(0, 1), L);
    const n = r === 0 ? castRayAll(physics, o, d, L, list) : castSphereAll(physics, o, r, d, L, list);
    sameHits(list.entity, list.distance, n, ref, L);
    const ro = rng.range(0, 3);
    overlapSphere(physics, o, ro, ents);
    expect([...ents.ids.subarray(0, ents.count)]).toEqual(bruteOverlapSphere(physics, bodies, o, ro));
    hits += ref.length;
  }
  return hits;
}

describe('world queries in crowded scenes, dense and hashed grids', () => {
  it('every cast and overlap equals the brute force (40 scenes × 60 queries × 2 structures)', () => {
    let hits = 0, dense = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 50, max: 400 }), (seed, n) => {
        const { physics, bodies } = crowd(seed, n);
        hits += checkScene(physics, bodies, createRng(seed + 1));
        if (queryState(physics).useDense) dense++;
        setDenseQueries(physics, false);
        hits += checkScene(physics, bodies, createRng(seed + 1));
        expect(queryState(physics).useDense).toBe(false);
      }),
      { seed: 41, numRuns: 40 },
    );
    expect(dense, 'the dense grid serves most scenes').toBeGreaterThanOrEqual(30);
    expect(hits).toBeGreaterThan(2000);
  }, 120_000);

  it('regression: a sphere cast whose radius spans thousands of cells scans them (as the brute force)', () => {
    const physics = createPhysics(createWorld());
    const rng = createRng(5);
    const bodies: BruteBody[] = [];
    for (let i = 0; i < 200; i++) {
      const r = rng.range(0.001, 0.004);
      bodies.push({ eid: addSphere(physics, { position: [rng.range(0, 0.5), rng.range(0, 0.5), rng.range(0, 0.5)], radius: r }), sphere: true, r, h: [0, 0, 0] });
    }
    step(physics);
    const list = createHitList();
    const o: P3 = [-30, 0.2, 0.3], d: P3 = [1, 0, 0];
    const n = castSphereAll(physics, o, 30, d, 60, list);
    expect(queryState(physics).useDense).toBe(true);
    sameHits(list.entity, list.distance, n, bruteCast(physics, bodies, o, d, 60, 30), 60);
    expect(n).toBe(200);
  });

  it('regression: a ray along a cell face with a direction component of 1e-320 walks every cell (as the brute force)', () => {
    const physics = createPhysics(createWorld());
    const bodies: BruteBody[] = [];
    for (let i = 0; i < 20; i++) {
      for (let j = 0; j < 5; j++) {
        const h: P3 = [0.3, 0.3, 0.3];
        bodies.push({ eid: addBox(physics, { position: [i, j, 0], halfExtents: h }), sphere: false, r: 0, h });
      }
    }
    step(physics);
    const list = createHitList();
    const s = queryState(physics);
    const f = s.dense.frame;
    expect(s.useDense).toBe(true);
    for (let c = 1; c < s.dense.ny; c++) {
      const o: P3 = [-2, f[DG_X0 + 1] + c * f[DG_SIDE], 0];
      for (const dy of [-1e-320, 1e-320]) {
        const d: P3 = [1, dy, 0];
        const n = castRayAll(physics, o, d, 30, list);
        sameHits(list.entity, list.distance, n, bruteCast(physics, bodies, o, d, 30, 0), 30);
      }
    }
  });
});
