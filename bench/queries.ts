/**
 * World queries against Rapier's scene queries, queries per second, on the arena scene (its start
 * pose: N spheres, N/10 boxes), side by side in one process with interleaved timing rounds:
 *
 * - short ray: length 5 from a random point in the arena, random direction — ours `castRay`,
 *   Rapier `world.castRay(ray, 5, solid)`;
 * - short sphere cast: radius 0.5, length 5 — ours `castSphere`, Rapier `world.castShape(ball,
 *   velocity = unit direction, maxToi 5, targetDistance 0, stopAtPenetration)`;
 * - overlap: radius 2 — ours `overlapSphere` (sorted ids), Rapier `world.intersectionsWithShape`;
 * - long ray: from a random point on one face of the arena cube to a random point on the opposite
 *   face (crossing the whole arena), closest hit;
 * - short rays in batches: the short rays, 256 per call of ours `castRays` (typed arrays in and out),
 *   Rapier `world.castRay` per ray as in the short-ray row (it has no batch call); per ray.
 *
 * Rapier holds every body as a fixed collider (spheres as balls, boxes as rotated cuboids) and is
 * stepped once so its query pipeline is built; ours is a physics instance before its first step.
 * Verification (outside the timing): a sample of each kind is compared with a brute-force loop
 * over every body using our geometry functions (distance and entity must match ours to 1e-12 of the
 * arena side: ours normalises the direction its own way);
 * Rapier's distances must match within float32 rounding (relative 1e-4 of the arena side, an entity
 * mismatch counted only when the two distances differ beyond that).
 */
import RAPIER from '@dimforge/rapier3d-compat';
import * as lib from '../src/index.js';
import type { QueryHit } from '../src/index.js';
import { buildArena } from '../src/scenes/buildArena.js';
import { createRng } from '../src/scenes/prng.js';
import { median, now } from './common.js';

// The library's functions copied once into constants, as an ES module build's direct bindings are:
// run through tsx, every call of a named import would go through a getter of the transpiled module.
const { castSphereBox, castSphereSphere, castRay, castRays, castSphere, createBatchHits, createEntityList, overlapSphere, overlapSphereBox, overlapSphereSphere } = lib;

export type QueryKind = 'short ray' | 'short sphere cast' | 'overlap r=2' | 'long ray' | 'short rays, batch';
const KINDS: QueryKind[] = ['short ray', 'short sphere cast', 'overlap r=2', 'long ray', 'short rays, batch'];
/** Rays per call of `castRays` in the batch row. */
const BATCH = 256;

export interface QueryRow {
  kind: QueryKind;
  queries: number;
  oursQps: number;
  rapierQps: number;
  ratio: number;
  /** Sample queries whose result differs from brute force (ours: exactly; Rapier: beyond float32 rounding). */
  oursMismatches: number;
  rapierMismatches: number;
  checked: number;
}

export interface QueriesResult {
  spheres: number;
  boxes: number;
  rows: QueryRow[];
}

export interface QuerySet {
  o: Float64Array;
  d: Float64Array;
  len: Float64Array;
  n: number;
}

/**
 * Random queries of one kind: origin, unit direction and length per query. `outside ray` (used by
 * bench/compareQueries.ts) is a long ray from twice the arena's side outside one face to as far
 * past the opposite face.
 */
export function makeQueries(kind: QueryKind | 'outside ray', size: number, n: number, seed: number): QuerySet {
  const rng = createRng(seed);
  const o = new Float64Array(3 * n), d = new Float64Array(3 * n), len = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let a: number[], b: number[];
    const long = kind === 'long ray' || kind === 'outside ray';
    if (long) {
      const axis = i % 3;
      a = [rng.range(0, size), rng.range(0, size), rng.range(0, size)];
      b = [rng.range(0, size), rng.range(0, size), rng.range(0, size)];
      a[axis] = kind === 'long ray' ? 0 : -2 * size;
      b[axis] = kind === 'long ray' ? size : 3 * size;
    } else {
      a = [rng.range(0, size), rng.range(0, size), rng.range(0, size)];
      b = [a[0] + rng.range(-1, 1), a[1] + rng.range(-1, 1), a[2] + rng.range(-1, 1)];
    }
    const dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
    const l = Math.hypot(dx, dy, dz) || 1;
    for (let k = 0; k < 3; k++) o[3 * i + k] = a[k];
    d[3 * i] = dx / l;
    d[3 * i + 1] = dy / l;
    d[3 * i + 2] = dz / l;
    len[i] = long ? l : 5;
  }
  return { o, d, len, n };
}

const SPHERE_RADIUS = 0.5;
const OVERLAP_RADIUS = 2;

export function runQueries(spheres: number, seed: number, rounds: number, log: (s: string) => void): QueriesResult {
  const arena = buildArena({ spheres, seed, physics: { contactComponent: false } });
  const spec = arena.spec;
  const physics = arena.physics;
  // One step: the cell size is chosen and the static boxes bucketed, as in a running game. Rapier
  // gets the bodies where they are after it.
  arena.tick();
  const P = physics.components.Position, S = physics.components.Sphere, B = physics.components.Box;
  const eidOfSphere = arena.sphereIds, eidOfBox = arena.boxIds;
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  const entityOfHandle = new Map<number, number>();
  spec.boxes.forEach((b, i) => {
    const [qx, qy, qz, qw] = b.rotation;
    const e = eidOfBox[i];
    const c = world.createCollider(RAPIER.ColliderDesc.cuboid(...b.halfExtents).setTranslation(P.x[e], P.y[e], P.z[e]).setRotation({ x: qx, y: qy, z: qz, w: qw }));
    entityOfHandle.set(c.handle, e);
  });
  spec.spheres.forEach((s, i) => {
    const e = eidOfSphere[i];
    const c = world.createCollider(RAPIER.ColliderDesc.ball(s.radius).setTranslation(P.x[e], P.y[e], P.z[e]));
    entityOfHandle.set(c.handle, e);
  });
  world.step();

  const size = spec.size;
  const hit: QueryHit = { entity: 0, distance: 0.5, normal: { x: 0.5, y: 0.5, z: 0.5 }, point: { x: 0.5, y: 0.5, z: 0.5 } };
  const ents = createEntityList(1024);
  const o = { x: 0, y: 0, z: 0 }, d = { x: 0, y: 0, z: 0 };
  const ray = new RAPIER.Ray(o, d);
  const ball = new RAPIER.Ball(SPHERE_RADIUS);
  const blast = new RAPIER.Ball(OVERLAP_RADIUS);
  const rot = { x: 0, y: 0, z: 0, w: 1 };
  let sink = 0;
  const load = (q: QuerySet, i: number) => {
    o.x = q.o[3 * i];
    o.y = q.o[3 * i + 1];
    o.z = q.o[3 * i + 2];
    d.x = q.d[3 * i];
    d.y = q.d[3 * i + 1];
    d.z = q.d[3 * i + 2];
  };
  /** One query by ours: distance (or −1) / count. */
  const ours = (kind: QueryKind, q: QuerySet, i: number): number => {
    load(q, i);
    if (kind === 'overlap r=2') return overlapSphere(physics, o, OVERLAP_RADIUS, ents);
    const found = kind === 'short sphere cast' ? castSphere(physics, o, SPHERE_RADIUS, d, q.len[i], hit) : castRay(physics, o, d, q.len[i], hit);
    return found ? hit.distance : -1;
  };
  let rapierEntity = 0;
  let rapierCount = 0;
  const countOne = () => {
    rapierCount++;
    return true;
  };
  const rapier = (kind: QueryKind, q: QuerySet, i: number): number => {
    load(q, i);
    if (kind === 'overlap r=2') {
      rapierCount = 0;
      world.intersectionsWithShape(o, rot, blast, countOne);
      return rapierCount;
    }
    if (kind === 'short sphere cast') {
      const h = world.castShape(o, rot, d, ball, 0, q.len[i], true);
      if (h === null) return -1;
      rapierEntity = entityOfHandle.get(h.collider.handle)!;
      return h.time_of_impact;
    }
    ray.origin = o;
    ray.dir = d;
    const h = world.castRay(ray, q.len[i], true);
    if (h === null) return -1;
    rapierEntity = entityOfHandle.get(h.collider.handle)!;
    return h.timeOfImpact;
  };

  // Brute force over every body with our geometry (distance, entity; or the overlap count).
  const probe = { center: { x: 0, y: 0, z: 0 }, radius: 0 };
  const body = { center: { x: 0, y: 0, z: 0 }, radius: 0 };
  const box = { center: { x: 0, y: 0, z: 0 }, halfExtents: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
  const cast = { toi: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
  const motion = { x: 0, y: 0, z: 0 };
  const all = [...eidOfSphere, ...eidOfBox];
  const isSphere = new Set<number>(eidOfSphere);
  const brute = (kind: QueryKind, q: QuerySet, i: number): { dist: number; entity: number } => {
    load(q, i);
    probe.center.x = o.x;
    probe.center.y = o.y;
    probe.center.z = o.z;
    probe.radius = kind === 'short sphere cast' ? SPHERE_RADIUS : kind === 'overlap r=2' ? OVERLAP_RADIUS : 0;
    motion.x = d.x * q.len[i];
    motion.y = d.y * q.len[i];
    motion.z = d.z * q.len[i];
    let best = Infinity, entity = 0, count = 0;
    for (const e of all) {
      const sphere = isSphere.has(e);
      if (sphere) {
        body.center.x = P.x[e];
        body.center.y = P.y[e];
        body.center.z = P.z[e];
        body.radius = S.radius[e];
      } else {
        box.center.x = P.x[e];
        box.center.y = P.y[e];
        box.center.z = P.z[e];
        box.halfExtents.x = B.hx[e];
        box.halfExtents.y = B.hy[e];
        box.halfExtents.z = B.hz[e];
        // normalised as the library does (q / |q|, as q · (1 / √|q|²), unless |q|² is exactly 1)
        const n2 = B.qx[e] * B.qx[e] + B.qy[e] * B.qy[e] + B.qz[e] * B.qz[e] + B.qw[e] * B.qw[e];
        const inv = n2 === 1 ? 1 : 1 / Math.sqrt(n2);
        box.rotation.x = B.qx[e] * inv;
        box.rotation.y = B.qy[e] * inv;
        box.rotation.z = B.qz[e] * inv;
        box.rotation.w = B.qw[e] * inv;
      }
      if (kind === 'overlap r=2') {
        if (sphere ? overlapSphereSphere(probe, body) : overlapSphereBox(probe, box)) count++;
        continue;
      }
      if (!(sphere ? castSphereSphere(probe, motion, body, cast) : castSphereBox(probe, motion, box, cast))) continue;
      const t = cast.toi * q.len[i];
      if (t < best || (t === best && e < entity)) {
        best = t;
        entity = e;
      }
    }
    return kind === 'overlap r=2' ? { dist: count, entity: 0 } : { dist: best === Infinity ? -1 : best, entity };
  };

  const batchOut = createBatchHits(BATCH);
  /** The batch row's calls: views of the query set, BATCH rays each (made once, outside the timing). */
  let chunks: Array<{ n: number; o: Float64Array; d: Float64Array; len: Float64Array }> = [];
  /** Each batched ray's distance (or −1), for the check. */
  let batchDist = new Float64Array(0);
  const oursBatch = (): number => {
    let hits = 0;
    for (const c of chunks) hits += castRays(physics, c.n, c.o, c.d, c.len, batchOut);
    return hits;
  };

  const rows: QueryRow[] = [];
  for (const kind of KINDS) {
    const n = kind === 'long ray' ? 4000 : 20000;
    const batch = kind === 'short rays, batch';
    // The batch row casts the short rays (same seed).
    const q = makeQueries(batch ? 'short ray' : kind, size, n, 11 + (batch ? 0 : KINDS.indexOf(kind)));
    if (batch) {
      chunks = [];
      for (let k = 0; k < n; k += BATCH) {
        const m = Math.min(BATCH, n - k);
        chunks.push({ n: m, o: q.o.subarray(3 * k, 3 * (k + m)), d: q.d.subarray(3 * k, 3 * (k + m)), len: q.len.subarray(k, k + m) });
      }
      batchDist = new Float64Array(BATCH);
      castRays(physics, chunks[0].n, chunks[0].o, chunks[0].d, chunks[0].len, batchOut);
      for (let i = 0; i < chunks[0].n; i++) batchDist[i] = batchOut.entity[i] === 0 ? -1 : batchOut.distance[i];
    }
    // Verification on a sample.
    const sample = Math.min(kind === 'long ray' ? 100 : batch ? BATCH : 300, n);
    const tol = 1e-4 * size;
    let oursBad = 0, rapierBad = 0;
    for (let i = 0; i < sample; i++) {
      const ref = brute(kind, q, i);
      const a = batch ? batchDist[i] : ours(kind, q, i);
      if (batch) hit.entity = batchOut.entity[i];
      // Ours normalises the direction its own way: distances may differ from the brute force's in the last bits.
      const ulps = 1e-12 * size;
      if (kind === 'overlap r=2' ? a !== ref.dist : (a < 0) !== (ref.dist < 0) || Math.abs(a - ref.dist) > ulps) oursBad++;
      else if (kind !== 'overlap r=2' && a >= 0 && hit.entity !== ref.entity && Math.abs(a - ref.dist) > ulps) oursBad++;
      const r = rapier(kind, q, i);
      if (kind === 'overlap r=2') {
        if (r !== ref.dist) rapierBad++;
      } else if ((r < 0) !== (ref.dist < 0) || (r >= 0 && Math.abs(r - ref.dist) > tol)) rapierBad++;
      else if (r >= 0 && rapierEntity !== ref.entity && Math.abs(r - ref.dist) > 1e-6 * size) rapierBad++;
    }
    for (let i = 0; i < Math.min(n, 2000); i++) sink += (batch ? 0 : ours(kind, q, i)) + rapier(kind, q, i);
    if (batch) sink += oursBatch();
    const oursQps: number[] = [], rapierQps: number[] = [];
    for (let r = 0; r < rounds; r++) {
      let t0 = now();
      if (batch) sink += oursBatch();
      else for (let i = 0; i < n; i++) sink += ours(kind, q, i);
      oursQps.push(n / ((now() - t0) / 1000));
      t0 = now();
      for (let i = 0; i < n; i++) sink += rapier(kind, q, i);
      rapierQps.push(n / ((now() - t0) / 1000));
    }
    const row: QueryRow = {
      kind, queries: n, oursQps: median(oursQps), rapierQps: median(rapierQps), ratio: median(oursQps) / median(rapierQps),
      oursMismatches: oursBad, rapierMismatches: rapierBad, checked: sample,
    };
    log(`    ${kind.padEnd(18)} ours ${fmt(row.oursQps)} q/s, Rapier ${fmt(row.rapierQps)} q/s: ${row.ratio.toFixed(1)}×  (brute-force check of ${sample}: ours ${oursBad} off, Rapier ${rapierBad} off)`);
    rows.push(row);
  }
  world.free();
  if (sink === 0.123) log('');
  return { spheres: spec.spheres.length, boxes: spec.boxes.length, rows };
}

const fmt = (v: number) => Math.round(v).toLocaleString('en-US');

/** The Markdown table of several sizes' results. */
export function queriesTable(results: QueriesResult[]): string[] {
  const lines = ['| N spheres | query | ours (queries/s) | Rapier (queries/s) | ours / Rapier | brute-force check (ours / Rapier off) |', '|---|---|---|---|---|---|'];
  for (const r of results) {
    for (const row of r.rows) {
      lines.push(`| ${r.spheres.toLocaleString('en-US')} | ${row.kind} | ${fmt(row.oursQps)} | ${fmt(row.rapierQps)} | ${row.ratio.toFixed(1)}× | ${row.oursMismatches} / ${row.rapierMismatches} of ${row.checked} |`);
    }
  }
  return lines;
}
