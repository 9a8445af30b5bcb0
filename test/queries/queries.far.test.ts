/**
 * The world queries far from the origin (where a float32 ulp is larger than the bodies) and for
 * rays from far outside the bodies: every hit equals a brute-force loop over every body with the
 * geometry API's casts and overlaps.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, castRay, castRayAll, castSphere, createEntityList, createHitList,
  createPhysics, overlapSphere, overlapSphereBox, overlapSphereSphere, step, type Physics, type QueryHit,
} from '../../src/index.js';
import { createRng } from '../../src/scenes/prng.js';
import { bruteCast, near, unit, type BruteBody, type P3 } from '../support/bruteQueries.js';

interface Body extends BruteBody { c: P3 }

/** A cluster of small spheres and static boxes around `at`, stepped once (the static grid built). */
function cluster(at: P3, seed: number): { physics: Physics; bodies: Body[] } {
  const physics = createPhysics(createWorld());
  const rng = createRng(seed);
  const bodies: Body[] = [];
  for (let i = 0; i < 60; i++) {
    const c: P3 = [at[0] + rng.range(-0.3, 0.3), at[1] + rng.range(-0.3, 0.3), at[2] + rng.range(-0.3, 0.3)];
    if (i % 3 === 0) {
      const h: P3 = [rng.range(0.001, 0.02), rng.range(0.001, 0.02), rng.range(0.001, 0.02)];
      bodies.push({ eid: addBox(physics, { position: c, halfExtents: h }), sphere: false, c, r: 0, h });
    } else {
      const r = rng.range(0.001, 0.02);
      bodies.push({ eid: addSphere(physics, { position: c, radius: r, velocity: [0, 0, 0] }), sphere: true, c, r, h: [0, 0, 0] });
    }
  }
  step(physics);
  return { physics, bodies };
}

const P = (p: P3) => ({ x: p[0], y: p[1], z: p[2] });

/** Checks castRayAll, castRay and castSphere against the brute force for random rays through the cluster from `far` away. */
function checkCasts(at: P3, far: number, seed: number): void {
  const { physics, bodies } = cluster(at, seed);
  const rng = createRng(seed + 1);
  const list = createHitList();
  const hit: QueryHit = { entity: 0, distance: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
  let hits = 0;
  for (let k = 0; k < 300; k++) {
    const target = bodies[k % bodies.length];
    // Aim at a body, off by up to its size (grazing and missing rays), from `far` away.
    const aim: P3 = [target.c[0] + rng.range(-0.02, 0.02), target.c[1] + rng.range(-0.02, 0.02), target.c[2] + rng.range(-0.02, 0.02)];
    const d = unit([rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)]);
    const o: P3 = [aim[0] - d[0] * far, aim[1] - d[1] * far, aim[2] - d[2] * far];
    const L = far * (k % 2 === 0 ? 2 : 1);
    const ref = bruteCast(physics, bodies, o, d, L, 0);
    castRayAll(physics, o, d, L, list);
    expect([...list.entity.subarray(0, list.count)]).toEqual(ref.map((h) => h[0]));
    for (let i = 0; i < list.count; i++) near(list.distance[i], ref[i][1], L);
    expect(castRay(physics, o, d, L, hit)).toBe(ref.length > 0);
    if (ref.length > 0) {
      expect(hit.entity).toBe(ref[0][0]);
      near(hit.distance, ref[0][1], L);
    }
    const refSphere = bruteCast(physics, bodies, o, d, L, 0.005);
    expect(castSphere(physics, o, 0.005, d, L, hit)).toBe(refSphere.length > 0);
    if (refSphere.length > 0) {
      expect(hit.entity).toBe(refSphere[0][0]);
      near(hit.distance, refSphere[0][1], L);
    }
    hits += ref.length;
  }
  expect(hits).toBeGreaterThan(50);
}

describe('world queries far from the origin and from far outside', () => {
  it('bodies 1e7 from the origin, smaller than a float32 ulp there: every hit as the brute force', () => {
    checkCasts([1e7, -3e7, 2e7], 1, 3);
  });

  it('rays from far outside the bodies: every hit as the brute force', () => {
    checkCasts([5, -2, 1], 1000, 4);
    checkCasts([5, -2, 1], 1e6, 5);
  });

  it('overlapSphere 1e7 from the origin: every body as the brute force', () => {
    const at: P3 = [-1e7, 1e7, 3e6];
    const { physics, bodies } = cluster(at, 6);
    const rng = createRng(7);
    const ents = createEntityList();
    for (let k = 0; k < 200; k++) {
      const c: P3 = [at[0] + rng.range(-0.4, 0.4), at[1] + rng.range(-0.4, 0.4), at[2] + rng.range(-0.4, 0.4)];
      const r = rng.range(0, 0.1);
      const probe = { center: P(c), radius: r };
      const ref = bodies.filter((b) => (b.sphere
        ? overlapSphereSphere(probe, { center: P(b.c), radius: b.r })
        : overlapSphereBox(probe, { center: P(b.c), halfExtents: P(b.h), rotation: { x: 0, y: 0, z: 0, w: 1 } }))).map((b) => b.eid).sort((a, b) => a - b);
      overlapSphere(physics, c, r, ents);
      expect([...ents.ids.subarray(0, ents.count)]).toEqual(ref);
    }
  });
});
