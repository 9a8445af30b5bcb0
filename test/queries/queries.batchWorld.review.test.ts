/**
 * castRays against castRay on worlds a game has changed since its last step: bodies removed and
 * teleported without a step (the queries' grid brought up to date by the batch), sleeping dynamic
 * bodies, sensors, collision groups, filters (mask, sensors off), in batches sparser than the dense
 * grid's cells (walked in the order given) and denser (sorted by start cell), and with the output's
 * distance column being the batch's own maxDistances (each ray reads its length before its slot is
 * written). Every ray: the same entity, distance and normal bit for bit.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, castRay, castRays, createBatchHits, createPhysics, removeBody, setPosition, step, type QueryFilter, type QueryHit,
} from '../../src/index.js';
import { queryState } from '../../src/queries/queryGrid.js';

/** A linear congruential generator (numerical recipes constants), in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('castRays on a world changed since its last step', () => {
  it('equals castRay on every ray (removals, teleports, sleepers, sensors, filters, sparse and sorted batches, distance column aliased)', () => {
    const r = lcg(7);
    let sorted = 0, given = 0, hits = 0;
    for (let trial = 0; trial < 24; trial++) {
      const p = createPhysics(createWorld(), { capacity: 256, gravity: [0, -9.81, 0], sleep: { time: 0.05 } });
      const ids: number[] = [];
      for (let i = 0; i < 60; i++) {
        const at: [number, number, number] = [r() * 20 - 10, r() * 20 - 10, r() * 20 - 10];
        if (r() < 0.5) {
          ids.push(addSphere(p, {
            position: at, velocity: [0, 0, 0], radius: 0.5 + 2 * r(), sensor: r() < 0.2, group: 1 + Math.floor(r() * 3),
            ...(r() < 0.3 ? { response: 'stop' as const } : {}),
          }));
        } else {
          ids.push(addBox(p, { position: at, halfExtents: [2 * r() + 0.3, 2 * r() + 0.3, 2 * r() + 0.3], rotation: [r(), r(), r(), r() + 0.1], sensor: r() < 0.2 }));
        }
      }
      for (let t = 0; t < 5; t++) step(p);
      // The queries' grid built before the changes below: the batch brings it up to date itself.
      const hit: QueryHit = { entity: 0, distance: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
      castRay(p, { x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, 1, hit);
      const s = queryState(p)!;
      const cells = s.dense.nx * s.dense.ny * s.dense.nz;
      for (let k = 0; k < 5; k++) {
        const e = ids.splice(Math.floor(r() * ids.length), 1)[0];
        removeBody(p, e);
      }
      for (let k = 0; k < 5; k++) setPosition(p, ids[Math.floor(r() * ids.length)], [r() * 20 - 10, r() * 20 - 10, r() * 20 - 10]);
      const n = trial % 2 === 0 ? cells - 1 : 16 * cells + 11;
      const o = new Float64Array(3 * n), d = new Float64Array(3 * n), L = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        for (let a = 0; a < 3; a++) {
          o[3 * i + a] = r() * 24 - 12;
          d[3 * i + a] = r() * 2 - 1;
        }
        L[i] = r() * 30;
      }
      const filter: QueryFilter | undefined = trial % 3 === 0 ? { mask: 2, group: 1 } : trial % 3 === 1 ? { sensors: false } : undefined;
      const lengths = Float64Array.from(L);
      const out = createBatchHits(n);
      if (trial % 4 === 3) out.distance = L;
      castRays(p, n, o, d, L, out, filter);
      if (n >= s.dense.nx * s.dense.ny * s.dense.nz) sorted++;
      else given++;
      const got: string[] = [], want: string[] = [];
      for (let i = 0; i < n; i++) {
        got.push(`${out.entity[i]} ${out.distance[i]} ${out.normal[3 * i]} ${out.normal[3 * i + 1]} ${out.normal[3 * i + 2]}`);
        const h = castRay(p, { x: o[3 * i], y: o[3 * i + 1], z: o[3 * i + 2] }, { x: d[3 * i], y: d[3 * i + 1], z: d[3 * i + 2] }, lengths[i], hit, filter);
        if (h) hits++;
        want.push(h ? `${hit.entity} ${hit.distance} ${hit.normal.x} ${hit.normal.y} ${hit.normal.z}` : '0 Infinity 0 0 0');
      }
      expect(got).toEqual(want);
    }
    expect(Math.min(sorted, given)).toBeGreaterThan(6);
    expect(hits).toBeGreaterThan(500);
  });
});

describe('castRays at extreme magnitudes', () => {
  it('equals castRay on every ray: scenes at 1e-300 to 1e290, origins at ±1e300, directions with subnormal and 1e300 components, lengths 0 to Number.MAX_VALUE', () => {
    const r = lcg(11);
    const pick = <T>(a: T[]): T => a[Math.floor(r() * a.length)];
    let hits = 0, rays = 0;
    for (let trial = 0; trial < 28; trial++) {
      const scale = pick([1e-300, 1e-150, 1e-20, 1, 1e20, 1e150, 1e290]);
      const p = createPhysics(createWorld(), { capacity: 256 });
      const bodies = 5 + Math.floor(r() * 40);
      for (let i = 0; i < bodies; i++) {
        const at: [number, number, number] = [Math.round(r() * 8 - 4) * scale, Math.round(r() * 8 - 4) * scale, Math.round(r() * 8 - 4) * scale];
        if (r() < 0.5) addSphere(p, { position: at, radius: pick([0, 0.5, 1]) * scale, ...(r() < 0.5 ? { velocity: [0, 0, 0] as [number, number, number] } : {}) });
        else addBox(p, { position: at, halfExtents: [pick([0, 0.5, 1]) * scale, pick([0.5, 1]) * scale, pick([0, 0.5]) * scale], rotation: r() < 0.5 ? [0, 0, 0, 1] : [r(), r(), r(), r()] });
      }
      if (r() < 0.5) step(p);
      const n = r() < 0.5 ? 40 : 1500;
      const o = new Float64Array(3 * n), d = new Float64Array(3 * n), L = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        for (let a = 0; a < 3; a++) {
          o[3 * i + a] = pick([Math.round(r() * 8 - 4) * scale, (Math.round(r() * 16 - 8) / 2) * scale, (r() * 10 - 5) * scale, 1e300, -1e300, 0, -0]);
          d[3 * i + a] = pick([0, -0, 1, -1, 5e-324, -5e-324, 1e-300, 1e300, r() * 2 - 1, 1e-17]);
        }
        if (d[3 * i] === 0 && d[3 * i + 1] === 0 && d[3 * i + 2] === 0) d[3 * i] = 1;
        L[i] = pick([0, 1e308, 10 * scale, 3 * scale, 1.5e300, Number.MAX_VALUE]);
      }
      const out = createBatchHits(n);
      castRays(p, n, o, d, L, out);
      const hit: QueryHit = { entity: 0, distance: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
      const got: string[] = [], want: string[] = [];
      for (let i = 0; i < n; i++) {
        rays++;
        got.push(`${out.entity[i]} ${out.distance[i]} ${Object.is(out.normal[3 * i], -0) ? '-0' : out.normal[3 * i]} ${out.normal[3 * i + 1]} ${out.normal[3 * i + 2]}`);
        const h = castRay(p, { x: o[3 * i], y: o[3 * i + 1], z: o[3 * i + 2] }, { x: d[3 * i], y: d[3 * i + 1], z: d[3 * i + 2] }, L[i], hit);
        if (h) hits++;
        want.push(h ? `${hit.entity} ${hit.distance} ${Object.is(hit.normal.x, -0) ? '-0' : hit.normal.x} ${hit.normal.y} ${hit.normal.z}` : '0 Infinity 0 0 0');
      }
      expect(got).toEqual(want);
    }
    expect(hits).toBeGreaterThan(rays / 20);
  });
});
