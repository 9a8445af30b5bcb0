/**
 * The query scene of the cross-engine tests: a fixed set of seeded ray, sphere-cast and overlap
 * queries on the pinned arena (PINNED[1]) at ticks 0, 100, 200 and 300, every result mixed into a
 * test-side FNV-1a hash. test/queries/queries.determinism.test.ts pins it in Node and runs the same
 * queries interleaved with the pinned scenes; the cross-engine tests run it in the other engines.
 */
import {
  castRay, castRayAll, castSphere, castSphereAll, createEntityList, createHitList, overlapBox, overlapSphere,
  type Physics, type QueryHit,
} from '../../src/index.js';
import { cubeRoot } from '../../src/scenes/arena.js';
import { createRng } from '../../src/scenes/prng.js';
import { PINNED } from './pinned.js';
import { arenaInOrder } from './scenes.js';

export const QUERY_SCENE = 'queries: 1,200 seeded queries on the sphere–sphere arena at ticks 0 … 300';
/** The hits hash of the query scene (test/queries: PINNED_QUERY_HASH). */
export const PINNED_QUERY_HASH = '599ce056';

/** FNV-1a over 32-bit words (test-side: independent of the library's hash). */
export class Hash {
  h = 0x811c9dc5;
  private words = new Float64Array(1);
  private bits = new Uint32Array(this.words.buffer);
  int(v: number): void {
    this.h = Math.imul(this.h ^ (v >>> 0), 0x01000193) >>> 0;
  }
  num(v: number): void {
    this.words[0] = v;
    this.int(this.bits[0]);
    this.int(this.bits[1]);
  }
  hex(): string {
    return this.h.toString(16).padStart(8, '0');
  }
}

/** The query outputs, shared by all the scene's queries (a miss leaves `hit` as it was: that is hashed too). */
export interface Outputs {
  hit: QueryHit;
  hits: ReturnType<typeof createHitList>;
  ents: ReturnType<typeof createEntityList>;
}

/** Runs `count` queries from seeded inputs over an arena of side `size`, mixing every result into `hash`. */
export function runQueries(physics: Physics, size: number, seed: number, count: number, hash: Hash, { hit, hits, ents }: Outputs): void {
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

/** Fresh query outputs. */
export function createOutputs(): Outputs {
  return {
    hit: { entity: 0, distance: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } },
    hits: createHitList(),
    ents: createEntityList(),
  };
}

/** The query scene's hits hash (8 hex digits). */
export function queryHitsHash(): string {
  const p = PINNED[1];
  const run = arenaInOrder(p.scene);
  const hash = new Hash();
  const size = 4 * cubeRoot(p.scene.spheres);
  const outputs = createOutputs();
  for (let t = 0; t <= 300; t++) {
    if (t % 100 === 0) runQueries(run.physics, size, 7 + t, 300, hash, outputs);
    run.tick();
  }
  return hash.hex();
}
