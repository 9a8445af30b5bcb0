/**
 * Determinism of the world queries: the hits of a fixed query set on the pinned arena hash to a
 * checked-in value, and stepping with queries interleaved gives the pinned state hashes (queries
 * never change simulation state or results).
 */
import { describe, expect, it } from 'vitest';
import {
  castRay, castRayAll, castSphere, castSphereAll, createEntityList, createHitList, hashPhysicsState, overlapBox, overlapSphere,
  type Physics, type QueryHit,
} from '../../src/index.js';
import { cubeRoot } from '../../src/scenes/arena.js';
import { createRng } from '../../src/scenes/prng.js';
import { PINNED } from '../determinism/pinned.js';
import { arenaInOrder } from '../determinism/scenes.js';

/** Hits of the fixed query set (checked in: a change means the queries' results changed). */
const PINNED_QUERY_HASH = '599ce056';

const words = new Float64Array(1);
const bits = new Uint32Array(words.buffer);

/** FNV-1a over 32-bit words (test-side: independent of the library's hash). */
class Hash {
  h = 0x811c9dc5;
  int(v: number): void {
    this.h = Math.imul(this.h ^ (v >>> 0), 0x01000193) >>> 0;
  }
  num(v: number): void {
    words[0] = v;
    this.int(bits[0]);
    this.int(bits[1]);
  }
  hex(): string {
    return this.h.toString(16).padStart(8, '0');
  }
}

const hit: QueryHit = { entity: 0, distance: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
const hits = createHitList();
const ents = createEntityList();

/** Runs `count` queries from seeded random inputs over an arena of side `size`, mixing every result into `hash`. */
function runQueries(physics: Physics, size: number, seed: number, count: number, hash: Hash): void {
  const rng = createRng(seed);
  const at = () => [rng.range(0, size), rng.range(0, size), rng.range(0, size)] as [number, number, number];
  const dir = () => [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)] as [number, number, number];
  const mixHit = () => {
    hash.int(hit.entity);
    for (const v of [hit.distance, hit.normal.x, hit.normal.y, hit.normal.z, hit.point.x, hit.point.y, hit.point.z]) hash.num(v);
  };
  const mixList = (n: number) => {
    hash.int(n);
    for (let i = 0; i < n; i++) {
      hash.int(hits.entity[i]);
      for (const a of [hits.distance, hits.nx, hits.ny, hits.nz, hits.px, hits.py, hits.pz]) hash.num(a[i]);
    }
  };
  for (let k = 0; k < count; k++) {
    const o = at();
    const d = dir();
    const far = rng.range(0, size * 2);
    const r = rng.range(0, 2);
    hash.int(castRay(physics, o, d, far, hit) ? 1 : 0);
    mixHit();
    hash.int(castSphere(physics, o, r, d, far, hit, { sensors: true }) ? 1 : 0);
    mixHit();
    mixList(castRayAll(physics, o, d, far, hits));
    mixList(castSphereAll(physics, o, r, d, 5, hits));
    const n = overlapSphere(physics, o, 2 * r, ents);
    hash.int(n);
    for (let i = 0; i < n; i++) hash.int(ents.ids[i]);
    const m = overlapBox(physics, o, [r, 2 * r, 0.5], [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1), 1], ents);
    hash.int(m);
    for (let i = 0; i < m; i++) hash.int(ents.ids[i]);
  }
}

describe('world queries determinism', () => {
  it('the hits of a fixed query set on the pinned arena hash to the checked-in value', () => {
    const p = PINNED[1];
    const run = arenaInOrder(p.scene);
    const hash = new Hash();
    const size = 4 * cubeRoot(p.scene.spheres);
    for (let t = 0; t <= 300; t++) {
      if (t % 100 === 0) runQueries(run.physics, size, 7 + t, 300, hash);
      run.tick();
    }
    expect(hash.hex()).toBe(PINNED_QUERY_HASH);
  });

  for (const p of PINNED) {
    it(`stepping with queries interleaved keeps the pinned state hash: ${p.name}`, () => {
      const run = arenaInOrder(p.scene);
      const size = 4 * cubeRoot(p.scene.spheres);
      const hash = new Hash();
      for (let t = 0; t < p.ticks; t++) {
        if (t % 5 === 0) runQueries(run.physics, size, t, 4, hash);
        run.tick();
      }
      expect(hashPhysicsState(run.physics)).toBe(p.hash);
    });
  }
});
