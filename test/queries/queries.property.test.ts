/**
 * World queries against a brute-force loop over every body with the independent oracle of
 * test/oracle/ray.ts: 200 random scenes × 100 random queries = 20,000 queries per function (axis-aligned,
 * rotated and flat boxes, spheres of radius 0, bodies larger than a cell, origins inside bodies,
 * grazing rays and rays along faces, origins on cell boundaries, filters, sensors, an excluded
 * entity, bodies moved since the last step, empty worlds), on the queries' dense grid; then half as
 * many scenes on the hashed grids (src/queries/queryGrid.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  castRay, castRayAll, castSphere, castSphereAll, createEntityList, createHitList, overlapBox, overlapSphere,
  type EntityList, type HitList, type Physics, type QueryHit,
} from '../../src/index.js';
import { setDenseQueries } from '../../src/queries/queryGrid.js';
import { polyOf, signedDistance } from '../oracle/boxBox.js';
import { admits, castBounds, pointBodyDistance, pointBoxDistance, type OracleBody, type P3 } from '../oracle/ray.js';
import { aimQuery, buildScene, oracleBodies, queryArb, sceneArb, type QuerySpec } from '../oracle/rayScene.js';

const TOL = 1e-7;
const EPS = 1e-6;
const QUERIES = 100;
const RUNS = Number(process.env.QUERY_RUNS ?? 200);

function unit(d: P3): P3 {
  const l = Math.hypot(...d);
  return [d[0] / l, d[1] / l, d[2] / l];
}

/** Checks a closest-hit result (or none) against the oracle. */
function checkClosest(q: QuerySpec, bodies: OracleBody[], r: number, found: boolean, hit: QueryHit): void {
  const d = unit(q.d);
  const admitted = bodies.filter((b) => admits(b, q.filter));
  const bounds = new Map(admitted.map((b) => [b.eid, castBounds(q.o, d, q.L, r, b, TOL)]));
  const minLate = Math.min(...[...bounds.values()].map((x) => x.late));
  if (!found) {
    expect(minLate, 'a body is clearly hit but castRay/castSphere found none').toBe(Infinity);
    return;
  }
  const b = bodies.find((x) => x.eid === hit.entity);
  expect(b, 'hit entity is a body').toBeDefined();
  const bb = bounds.get(hit.entity);
  expect(bb, 'hit entity passes the filter').toBeDefined();
  expect(hit.distance).toBeGreaterThanOrEqual(0);
  expect(hit.distance).toBeLessThanOrEqual(q.L);
  expect(bb!.early, 'hit no earlier than the grown body is reached').toBeLessThanOrEqual(hit.distance + EPS);
  expect(hit.distance, 'no body clearly hit earlier').toBeLessThanOrEqual(minLate + EPS);
  checkGeometry(q, d, r, b!, hit.distance, [hit.normal.x, hit.normal.y, hit.normal.z], [hit.point.x, hit.point.y, hit.point.z]);
}

function checkGeometry(q: QuerySpec, d: P3, r: number, b: OracleBody, dist: number, n: P3, p: P3): void {
  expect(Math.abs(Math.hypot(...n) - 1), 'unit normal').toBeLessThan(1e-9);
  expect(pointBodyDistance(p, b), 'point on the body').toBeLessThan(1e-6);
  // At distance 0 (starting inside or touching) the point is the static contact's, on the surface.
  if (dist === 0) return;
  const c: P3 = [q.o[0] + d[0] * dist, q.o[1] + d[1] * dist, q.o[2] + d[2] * dist];
  expect(Math.hypot(p[0] - c[0], p[1] - c[1], p[2] - c[2]), 'point within the radius of the centre at impact').toBeLessThan(r + 1e-6);
}

function checkAll(q: QuerySpec, bodies: OracleBody[], r: number, list: ReturnType<typeof createHitList>, n: number): void {
  const d = unit(q.d);
  expect(n).toBe(list.count);
  const seen = new Set<number>();
  for (let i = 0; i < n; i++) {
    const eid = list.entity[i];
    expect(seen.has(eid), 'each body once').toBe(false);
    seen.add(eid);
    if (i > 0) {
      const prev = list.distance[i - 1];
      expect(prev < list.distance[i] || (prev === list.distance[i] && list.entity[i - 1] < eid), 'sorted by distance, then id').toBe(true);
    }
    const b = bodies.find((x) => x.eid === eid);
    expect(b !== undefined && admits(b, q.filter), 'listed entity is an admitted body').toBe(true);
    const bb = castBounds(q.o, d, q.L, r, b!, TOL);
    expect(bb.early).toBeLessThanOrEqual(list.distance[i] + EPS);
    expect(list.distance[i]).toBeLessThanOrEqual(Math.min(bb.late, q.L) + EPS);
    checkGeometry(q, d, r, b!, list.distance[i], [list.nx[i], list.ny[i], list.nz[i]], [list.px[i], list.py[i], list.pz[i]]);
  }
  for (const b of bodies) {
    if (!admits(b, q.filter) || seen.has(b.eid)) continue;
    expect(castBounds(q.o, d, q.L, r, b, TOL).late, `body ${b.eid} clearly hit but not listed`).toBe(Infinity);
  }
}

/** Signed gap between the query shape and body b (negative: overlapping). */
function overlapGap(q: QuerySpec, b: OracleBody, box: boolean): number {
  if (!box) {
    const dist = b.kind === 'sphere' ? Math.hypot(q.o[0] - b.c[0], q.o[1] - b.c[1], q.o[2] - b.c[2]) - b.radius : pointBoxDistance(q.o, b);
    return dist - q.r;
  }
  const qq = q.q ? unitQuat(q.q) : ([0, 0, 0, 1] as [number, number, number, number]);
  const qb: OracleBody = { ...b, kind: 'box', c: q.o, h: q.h, q: qq };
  if (b.kind === 'sphere') return pointBoxDistance(b.c, qb) - b.radius;
  const reach = Math.hypot(...q.h) + Math.hypot(...b.h);
  if (Math.hypot(q.o[0] - b.c[0], q.o[1] - b.c[1], q.o[2] - b.c[2]) > reach + 1) return 1;
  const shape = (x: OracleBody) => ({ center: { x: x.c[0], y: x.c[1], z: x.c[2] }, halfExtents: { x: x.h[0], y: x.h[1], z: x.h[2] }, rotation: { x: x.q[0], y: x.q[1], z: x.q[2], w: x.q[3] } });
  return signedDistance(polyOf(shape(qb)), polyOf(shape(b)));
}

function unitQuat(q: [number, number, number, number]): [number, number, number, number] {
  const l = Math.hypot(...q);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

function checkOverlap(q: QuerySpec, bodies: OracleBody[], list: ReturnType<typeof createEntityList>, n: number, box: boolean): void {
  expect(n).toBe(list.count);
  const ids = [...list.ids.subarray(0, n)];
  for (let i = 1; i < n; i++) expect(ids[i - 1] < ids[i], 'ascending ids').toBe(true);
  const set = new Set(ids);
  for (const b of bodies) {
    const gap = admits(b, q.filter) ? overlapGap(q, b, box) : Infinity;
    if (gap < -TOL) expect(set.has(b.eid), `body ${b.eid} clearly overlaps (gap ${gap})`).toBe(true);
    if (gap > TOL) expect(set.has(b.eid), `body ${b.eid} clearly apart (gap ${gap})`).toBe(false);
  }
}

/** Runs `runs` scenes × QUERIES queries of every function; `hashed`: on the hashed grids instead of the dense grid. */
function runOracle(runs: number, seed: number, hashed: boolean): void {
  const hit: QueryHit = { entity: 0, distance: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
  const hits = createHitList(2);
  const ents = createEntityList(2);
  let counted = 0;
  fc.assert(
    fc.property(sceneArb, fc.array(queryArb(30), { minLength: QUERIES, maxLength: QUERIES }), (scene, queries) => {
      const physics = buildScene(scene);
      if (hashed) setDenseQueries(physics, false);
      const bodies = oracleBodies(physics, scene.bodies.length + 1);
      for (const { spec, aim, mode } of queries) {
        const q = aimQuery(spec, bodies, aim, mode);
        const f = q.filter;
        try {
          checkQuery(physics, q, bodies, f, hit, hits, ents);
        } catch (e) {
          throw new Error(`${(e as Error).message}\nquery ${JSON.stringify(q)}\nbodies ${JSON.stringify(bodies)}`);
        }
        counted++;
      }
    }),
    { seed, numRuns: runs, endOnFailure: true },
  );
  expect(counted).toBeGreaterThanOrEqual(runs * QUERIES);
}

describe('world queries against the brute-force oracle', () => {
  it(`${RUNS} scenes × ${QUERIES} queries for each of castRay, castSphere, castRayAll, castSphereAll, overlapSphere, overlapBox`, () => {
    runOracle(RUNS, 12, false);
  }, 300_000);

  it(`the same on the hashed grids: ${Math.ceil(RUNS / 2)} scenes × ${QUERIES} queries each`, () => {
    runOracle(Math.ceil(RUNS / 2), 13, true);
  }, 300_000);
});

function checkQuery(physics: Physics, q: QuerySpec, bodies: OracleBody[], f: QuerySpec['filter'], hit: QueryHit, hits: HitList, ents: EntityList): void {
  checkClosest(q, bodies, 0, castRay(physics, q.o, q.d, q.L, hit, f), hit);
  checkClosest(q, bodies, q.r, castSphere(physics, q.o, q.r, q.d, q.L, hit, f), hit);
  checkAll(q, bodies, 0, hits, castRayAll(physics, q.o, q.d, q.L, hits, f));
  checkAll(q, bodies, q.r, hits, castSphereAll(physics, q.o, q.r, q.d, q.L, hits, f));
  checkOverlap(q, bodies, ents, overlapSphere(physics, q.o, q.r, ents, f), false);
  checkOverlap(q, bodies, ents, overlapBox(physics, q.o, q.h, q.q, ents, f), true);
}
