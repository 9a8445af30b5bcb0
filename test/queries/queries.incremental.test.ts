/**
 * The first query after a tick updates the queries' dense grid in place (src/queries/queryGrid.ts,
 * `denseUpdate` of src/grid/dense.ts) rather than rebuilding it: the work counts (`QueryState.work`)
 * show that it re-buckets only bodies that moved across cells, so it scales with the bodies that
 * moved, not with all bodies; and answers after many in-place updates equal those of a fresh build.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, castRay, castSphere, createEntityList, createPhysics, overlapSphere, step, type Physics, type QueryHit,
} from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import { queryStateOf } from '../../src/queries/queryGrid.js';
import { QW_BUILDS, QW_CHECKED, QW_REBUCKETED, QW_UPDATES } from '../../src/queries/queryState.js';
import { buildArena } from '../../src/scenes/buildArena.js';

/** A deterministic generator in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

/**
 * 2,000 spheres on a jittered lattice, `moving` of them (spread through it) with a velocity of up to
 * 3 length units per second per axis, the rest still; two static boxes at opposite corners, a few
 * units out, keep the bodies inside the grid's table (a body leaving it makes the next query build
 * afresh).
 */
function lattice(moving: number): Physics {
  const physics = createPhysics(createWorld(), { capacity: 2048 });
  const r = rng(7);
  addBox(physics, { position: [-4, -4, -4], halfExtents: [0.5, 0.5, 0.5] });
  addBox(physics, { position: [64, 34, 34], halfExtents: [0.5, 0.5, 0.5] });
  for (let i = 0; i < 2000; i++) {
    const x = (i % 20) * 3 + r(), y = ((i / 20 | 0) % 10) * 3 + r(), z = (i / 200 | 0) * 3 + r();
    const v: [number, number, number] = moving > 0 && i % (2000 / moving) === 0 ? [(r() - 0.5) * 6, (r() - 0.5) * 6, (r() - 0.5) * 6] : [0, 0, 0];
    addSphere(physics, { position: [x, y, z], radius: 0.5, velocity: v });
  }
  return physics;
}

const hit: QueryHit = { entity: 0, distance: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };

/** Work of the first query after each of `ticks` ticks (after one tick and query to warm up). */
function firstQueryWork(physics: Physics, ticks: number): { builds: number; updates: number; checked: number; rebucketed: number } {
  step(physics);
  castRay(physics, [1, 1, 1], [1, 0, 0], 5, hit);
  const w = queryStateOf(physics).work;
  const w0 = Float64Array.from(w);
  for (let t = 0; t < ticks; t++) {
    step(physics);
    castRay(physics, [1, 1, 1], [1, 0, 0], 5, hit);
    castRay(physics, [2, 1, 1], [0, 1, 0], 5, hit); // the second query after a tick does no work
  }
  return { builds: w[QW_BUILDS] - w0[QW_BUILDS], updates: w[QW_UPDATES] - w0[QW_UPDATES], checked: w[QW_CHECKED] - w0[QW_CHECKED], rebucketed: w[QW_REBUCKETED] - w0[QW_REBUCKETED] };
}

describe('the first query after a tick', () => {
  it('re-buckets only bodies that moved across cells: its work scales with the moving bodies, not with all', () => {
    const counts = [0, 20, 200, 2000].map((moving) => ({ moving, ...firstQueryWork(lattice(moving), 10) }));
    for (const c of counts) {
      expect(c.builds, `${c.moving} moving: no rebuild`).toBe(0);
      expect(c.updates, `${c.moving} moving: one update per tick`).toBe(10);
      expect(c.rebucketed, `${c.moving} moving: at most each moving body per tick`).toBeLessThanOrEqual(10 * c.moving);
    }
    expect(counts[0].rebucketed, 'nothing moved: nothing re-bucketed').toBe(0);
    // In proportion to the moving bodies (100× more of them: many times the re-bucketing).
    expect(counts[3].rebucketed).toBeGreaterThan(20);
    expect(counts[3].rebucketed).toBeGreaterThan(10 * counts[1].rebucketed);
    expect(counts[3].rebucketed).toBeGreaterThan(counts[2].rebucketed);
    // Every sphere's bounds are recomputed (a few operations each; static boxes are not); none is
    // re-bucketed unless it moved.
    for (const c of counts) expect(c.checked).toBe(10 * 2000);
  });

  it.each([0, 60])('answers after many in-place updates equal those of a fresh build at every tick (arena, %i moving boxes, 120 ticks)', (movingBoxes) => {
    const a = buildArena({ spheres: 1500, movingBoxes, seed: 3, physics: { contactComponent: false } });
    const b = buildArena({ spheres: 1500, movingBoxes, seed: 3, physics: { contactComponent: false } });
    const r = rng(11);
    const size = a.spec.size;
    const list = createEntityList();
    const answer = (physics: Physics, q: number[]): string => {
      const [ox, oy, oz, dx, dy, dz, L, kind] = q;
      if (kind < 0.3) {
        const n = overlapSphere(physics, [ox, oy, oz], 2, list);
        return Array.from(list.ids.subarray(0, n)).join(',');
      }
      const found = kind < 0.6 ? castSphere(physics, [ox, oy, oz], 0.4, [dx, dy, dz], L, hit) : castRay(physics, [ox, oy, oz], [dx, dy, dz], L, hit);
      return found ? `${hit.entity} ${hit.distance} ${hit.normal.x} ${hit.point.z}` : 'none';
    };
    let compared = 0;
    for (let t = 0; t < 120; t++) {
      a.tick();
      b.tick();
      internalsOf(b.physics).queryDirty = true; // b builds afresh at its first query of each tick
      for (let k = 0; k < 40; k++) {
        const q = [r() * size, r() * size, r() * size, r() - 0.5, r() - 0.5, r() - 0.5 + 1e-3, r() < 0.8 ? 6 : size, r()];
        expect(answer(a.physics, q), `tick ${t}, query ${k}`).toBe(answer(b.physics, q));
        compared++;
      }
    }
    const w = queryStateOf(a.physics).work;
    expect(compared).toBe(4800);
    expect(w[QW_UPDATES], 'most ticks updated in place').toBeGreaterThan(80);
    expect(queryStateOf(b.physics).work[QW_UPDATES]).toBe(0);
  });
});
