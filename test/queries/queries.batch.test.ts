/**
 * Batches of casts (`castRays`, `castSpheres`, src/queries/batch.ts): every cast of a batch answers
 * exactly what the single query with the same numbers answers (entity, distance and normal bit for
 * bit, misses as misses), on random scenes of test/oracle/rayScene.ts (fast-check: 150 scenes × a
 * batch of up to 60 rays and one of up to 60 sphere casts, on the dense grid and on the hashed
 * grids); bad input throws `PhysicsInputError` naming the argument and leaves `out` untouched.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  castRay, castRays, castSphere, castSpheres, createBatchHits, type BatchHits, type Physics, type QueryFilter, type QueryHit,
} from '../../src/index.js';
import { setDenseQueries } from '../../src/queries/queryGrid.js';
import { aimQuery, buildScene, oracleBodies, queryArb, sceneArb } from '../oracle/rayScene.js';
import type { P3 } from '../oracle/ray.js';
import { expectError } from '../support/inputError.js';
import { buildArena } from '../../src/scenes/buildArena.js';

const RUNS = Number(process.env.QUERY_RUNS ?? 150);

interface Batch { n: number; o: Float64Array; d: Float64Array; L: Float64Array; r: Float64Array }

function toBatch(specs: Array<{ o: number[]; d: number[]; L: number; r: number }>): Batch {
  const n = specs.length;
  const b: Batch = { n, o: new Float64Array(3 * n), d: new Float64Array(3 * n), L: new Float64Array(n), r: new Float64Array(n) };
  specs.forEach((q, i) => {
    b.o.set(q.o, 3 * i);
    b.d.set(q.d, 3 * i);
    b.L[i] = q.L;
    b.r[i] = q.r;
  });
  return b;
}

const hit: QueryHit = { entity: 0, distance: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };

/** Expects slot i of `out` to equal the single query's answer for cast i. */
function expectSame(physics: Physics, b: Batch, out: BatchHits, spheres: boolean, filter: QueryFilter | undefined): void {
  for (let i = 0; i < b.n; i++) {
    const o: [number, number, number] = [b.o[3 * i], b.o[3 * i + 1], b.o[3 * i + 2]];
    const d: [number, number, number] = [b.d[3 * i], b.d[3 * i + 1], b.d[3 * i + 2]];
    hit.entity = 0;
    const found = spheres ? castSphere(physics, o, b.r[i], d, b.L[i], hit, filter) : castRay(physics, o, d, b.L[i], hit, filter);
    const got = [out.entity[i], out.distance[i], out.normal[3 * i], out.normal[3 * i + 1], out.normal[3 * i + 2]];
    const want = found ? [hit.entity, hit.distance, hit.normal.x, hit.normal.y, hit.normal.z] : [0, Infinity, 0, 0, 0];
    expect(got, `cast ${i}`).toEqual(want);
  }
}

function agreeOnScenes(dense: boolean, runs: number, seed: number): void {
  fc.assert(
    fc.property(sceneArb, fc.array(queryArb(30), { minLength: 0, maxLength: 60 }), fc.option(queryArb(30), { nil: undefined }), (scene, queries, withFilter) => {
      const physics = buildScene(scene);
      if (!dense) setDenseQueries(physics, false);
      const bodies = oracleBodies(physics, 64);
      const specs = queries.map((q) => aimQuery(q.spec, bodies, q.aim, q.mode));
      const filter = withFilter?.spec.filter;
      const b = toBatch(specs);
      const out = createBatchHits(1); // grows
      const rays = castRays(physics, b.n, b.o, b.d, b.L, out, filter);
      expectSame(physics, b, out, false, filter);
      expect(rays).toBe(Array.from(out.distance.subarray(0, b.n)).filter((x) => x !== Infinity).length);
      castSpheres(physics, b.n, b.o, b.r, b.d, b.L, out, filter);
      expectSame(physics, b, out, true, filter);
    }),
    { seed, numRuns: runs },
  );
}

/** A random unit-free direction: one of dirArb's or a random vector. */
const dirArb = queryArb(1).map((q) => q.spec.d);
const lengthArb = fc.oneof(fc.double({ min: 0, max: 12, noNaN: true }), fc.constant(0), fc.constant(40));

/**
 * Fans and clusters: every ray of a fan from one origin (a free point, a body's centre, or a point
 * far outside the scene: the single query's thick walk), and of a cluster of rays whose origins lie
 * within a cell's width of one point (rays sorted into the same start cells, repeated rays among
 * them), and of rays from that origin ending at a body's centre or just past its near surface,
 * equals `castRay`.
 */
function agreeOnFans(runs: number, seed: number): void {
  fc.assert(
    fc.property(
      sceneArb, queryArb(30), fc.array(fc.tuple(dirArb, lengthArb), { minLength: 1, maxLength: 40 }),
      fc.array(fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })), { maxLength: 40 }),
      fc.constantFrom(0, 1, 2), fc.option(queryArb(30), { nil: undefined }),
      (scene, at, fan, jitter, where, withFilter) => {
        const physics = buildScene(scene);
        const bodies = oracleBodies(physics, 64);
        const aimed = aimQuery(at.spec, bodies, at.aim, at.mode);
        const o: P3 = where === 2 ? [1e7 + aimed.o[0], 1e7 + aimed.o[1], 1e7 + aimed.o[2]] : aimed.o;
        const specs = fan.map(([d, L]) => ({ o, d, L: where === 2 ? L + 1e7 : L, r: 0 }));
        // The cluster: origins within about a cell of the fan's, each with a direction of the fan (repeats).
        jitter.forEach((j, k) => specs.push({ o: [o[0] + 2 * j[0], o[1] + 2 * j[1], o[2] + 2 * j[2]], d: fan[k % fan.length][0], L: fan[k % fan.length][1], r: 0 }));
        // Rays from the fan's origin that end at a body's centre or just past its near surface (its
        // last cells matter).
        for (const body of bodies.slice(0, 12)) {
          const d: P3 = [body.c[0] - o[0], body.c[1] - o[1], body.c[2] - o[2]];
          const len = Math.hypot(d[0], d[1], d[2]);
          if (!(len > 1e-9)) continue;
          const reach = body.kind === 'sphere' ? body.radius : Math.min(...body.h);
          specs.push({ o, d, L: len, r: 0 }, { o, d, L: Math.max(0, len - 0.99 * reach), r: 0 });
        }
        specs.push(...specs.slice(0, 3));
        const filter = withFilter?.spec.filter;
        const b = toBatch(specs);
        const out = createBatchHits(1);
        const hits = castRays(physics, b.n, b.o, b.d, b.L, out, filter);
        expectSame(physics, b, out, false, filter);
        expect(hits).toBe(Array.from(out.distance.subarray(0, b.n)).filter((x) => x !== Infinity).length);
      },
    ),
    { seed, numRuns: runs },
  );
}

describe('castRays / castSpheres', () => {
  it('every ray of a fan from one origin and of a cluster sharing start cells equals castRay (random scenes)', () => agreeOnFans(RUNS, 43));

  it('every cast of a batch equals the single query (random scenes, dense grid)', () => agreeOnScenes(true, RUNS, 41));
  it('every cast of a batch equals the single query (random scenes, hashed grids)', () => agreeOnScenes(false, Math.ceil(RUNS / 2), 42));

  it('a line-of-sight fan and a batch of sensors on the arena after ticks equal the single queries', () => {
    const arena = buildArena({ spheres: 2000, seed: 5, physics: { contactComponent: false } });
    for (let t = 0; t < 5; t++) arena.tick();
    const L = arena.spec.size;
    const n = 124;
    const fan = toBatch(Array.from({ length: n }, (_, i) => {
      const a = (2 * Math.PI * i) / n;
      return { o: [L / 2, L / 2, L / 2], d: [Math.cos(a), Math.sin(a), 0.1 * Math.sin(3 * a)], L: L / 2, r: 0.25 };
    }));
    const out = createBatchHits(n);
    castRays(arena.physics, n, fan.o, fan.d, fan.L, out);
    expectSame(arena.physics, fan, out, false, undefined);
    castSpheres(arena.physics, n, fan.o, fan.r, fan.d, fan.L, out, { exclude: 1 });
    expectSame(arena.physics, fan, out, true, { exclude: 1 });
    expect(out.entity.subarray(0, n).some((e) => e !== 0)).toBe(true);
  });

  it('bad input throws PhysicsInputError naming the argument and writes nothing', () => {
    const arena = buildArena({ spheres: 50, seed: 5, physics: { contactComponent: false } });
    const p = arena.physics;
    const o = new Float64Array([1, 1, 1, 2, 2, 2]), d = new Float64Array([1, 0, 0, 0, 1, 0]), L = new Float64Array([5, 5]), r = new Float64Array([0.5, 0.5]);
    const out = createBatchHits(2);
    out.entity.fill(7);
    out.distance.fill(7);
    out.normal.fill(7);
    const bad = (i: number, v: number, a: Float64Array) => { const c = Float64Array.from(a); c[i] = v; return c; };
    expectError(() => castRays(p, 2, bad(4, NaN, o), d, L, out), -1, 'castRays: origins[4]', /finite/);
    expectError(() => castRays(p, 2, o, bad(2, Infinity, d), L, out), -1, 'castRays: directions[2]', /finite/);
    expectError(() => castRays(p, 2, o, new Float64Array([1, 0, 0, 0, 0, 0]), L, out), -1, 'castRays: directions[3..5]', /non-zero/);
    expectError(() => castRays(p, 2, o, d, bad(1, -1, L), out), -1, 'castRays: maxDistances[1]', />= 0/);
    expectError(() => castRays(p, 3, o, d, L, out), -1, 'castRays: origins', /at least 9/);
    expectError(() => castRays(p, 1.5, o, d, L, out), -1, 'castRays: count', /integer/);
    expectError(() => castRays(p, 2, [1, 1, 1, 2, 2, 2] as unknown as Float64Array, d, L, out), -1, 'castRays: origins', /Float64Array/);
    expectError(() => castRays(p, 2, o, d, L, { entity: new Uint32Array(2), distance: new Float64Array(2) } as unknown as BatchHits), -1, 'castRays: out.normal');
    expectError(() => castRays(p, 2, o, d, L, out, { mask: 1.5 }), -1, 'castRays: filter.mask');
    expectError(() => castSpheres(p, 2, o, bad(0, -0.5, r), d, L, out), -1, 'castSpheres: radii[0]', />= 0/);
    expectError(() => castSpheres(p, 2, bad(0, NaN, o), r, d, L, out), -1, 'castSpheres: centers[0]', /finite/);
    expectError(() => castRays({} as Physics, 2, o, d, L, out), -1, 'castRays: physics');
    expect([...out.entity, ...out.distance, ...out.normal].every((x) => x === 7), 'nothing written').toBe(true);
    expect(castRays(p, 0, o, d, L, out), 'an empty batch').toBe(0);
  });
});
