/**
 * The ray batch's own exact casts (src/queries/candidate.ts `raySphere`, `rayBox`: copies of
 * `castSphereSphere` / `castSphereBox` for a ray, with the geometry API taking every case they do
 * not decide) against `castRay`, bit for bit, where they are most likely to part: rays grazing a
 * sphere (aimed at a point of its surface along a tangent), aimed at a box's edges and corners, ending
 * exactly on a surface (the end-pose check), starting on a surface or inside, of length 0; spheres of
 * radius 0 and boxes with zero half extents; boxes rotated, with the quaternion stored unit or not
 * (written straight into `Box.qx..qw`, so that the cast normalises it); scenes at scales from 1e-70
 * (radii below the copies' range: the geometry API's rescaled path) to 1e65 (differences beyond it).
 * Each batch is cast again repeated until it has more rays than the dense grid has cells, which
 * batch.ts walks in the order of their start cells instead of the order given.
 */
import fc from 'fast-check';
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, castRay, castRays, createBatchHits, createPhysics, markStaticDirty, type Physics, type QueryHit } from '../../src/index.js';
import { queryState } from '../../src/queries/queryGrid.js';
import type { P3 } from '../oracle/ray.js';

const RUNS = Number(process.env.QUERY_RUNS ?? 150);

interface BodySpec { kind: 'sphere' | 'box'; c: P3; size: P3; q: [number, number, number, number] }
interface Scene { scale: number; bodies: BodySpec[] }

const unit = fc.double({ min: -1, max: 1, noNaN: true });
const quatArb = fc.oneof(
  fc.constant<[number, number, number, number]>([0, 0, 0, 1]),
  fc.constant<[number, number, number, number]>([0, 0, Math.SQRT1_2, Math.SQRT1_2]),
  // Not unit: the cast divides by its length (bodyReads.ts `boxRotation`).
  fc.tuple(unit, unit, unit, unit).filter((q) => Math.hypot(...q) > 0.1),
  fc.constant<[number, number, number, number]>([0.5, 0.5, 0.5, 0.5]),
  fc.constant<[number, number, number, number]>([0, 3, 0, 4]),
);
const bodyArb: fc.Arbitrary<BodySpec> = fc.record({
  kind: fc.constantFrom('sphere' as const, 'box' as const),
  c: fc.tuple(fc.integer({ min: -6, max: 6 }), fc.integer({ min: -6, max: 6 }), fc.integer({ min: -6, max: 6 })).map((c) => c.map((x) => x / 2) as P3),
  size: fc.tuple(fc.constantFrom(0, 0.25, 0.5, 1, 1.5), fc.constantFrom(0, 0.25, 0.5, 1), fc.constantFrom(0.25, 0.5, 2)) as fc.Arbitrary<P3>,
  q: quatArb,
});
const sceneArb: fc.Arbitrary<Scene> = fc.record({
  scale: fc.constantFrom(1e-70, 1e-3, 1, 1e3, 1e65),
  bodies: fc.array(bodyArb, { minLength: 1, maxLength: 6 }),
});

function build(sc: Scene): Physics {
  const physics = createPhysics(createWorld(), { contactComponent: false });
  const B = physics.components.Box;
  for (const b of sc.bodies) {
    const at: P3 = [b.c[0] * sc.scale, b.c[1] * sc.scale, b.c[2] * sc.scale];
    if (b.kind === 'sphere') addSphere(physics, { position: at, radius: b.size[0] * sc.scale });
    else {
      const eid = addBox(physics, { position: at, halfExtents: [b.size[0] * sc.scale, b.size[1] * sc.scale, b.size[2] * sc.scale] });
      [B.qx[eid], B.qy[eid], B.qz[eid], B.qw[eid]] = b.q;
    }
  }
  markStaticDirty(physics);
  return physics;
}

/** Rotates v by the unit quaternion of q (q normalised here, in plain float64: only aims the rays). */
function rotate(q: [number, number, number, number], v: P3): P3 {
  const l = Math.hypot(...q), x = q[0] / l, y = q[1] / l, z = q[2] / l, w = q[3] / l;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

const cross = (a: P3, b: P3): P3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: P3): P3 => {
  const l = Math.hypot(...a) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** A ray aimed at body `b`: [how, a direction, a point pick, a length pick]. */
const rayArb = fc.tuple(
  fc.constantFrom('graze', 'centre', 'endOnSurface', 'fromSurface', 'inside', 'edge', 'corner', 'zero', 'free'),
  fc.tuple(unit, unit, unit).filter((d) => Math.hypot(...d) > 0.05) as fc.Arbitrary<P3>,
  fc.tuple(fc.constantFrom(-1, 1), fc.constantFrom(-1, 1), fc.constantFrom(-1, 1)) as fc.Arbitrary<P3>,
  fc.nat(),
  fc.constantFrom(0.5, 1, 3, 9),
);

/** Origin, direction and length of a ray of kind `how` at body `b` of scene `sc`. */
function aim(sc: Scene, b: BodySpec, how: string, dir: P3, signs: P3, back: number): { o: P3; d: P3; L: number } {
  const s = sc.scale;
  const c: P3 = [b.c[0] * s, b.c[1] * s, b.c[2] * s];
  const d = norm(dir);
  const R = b.size[0] * s;
  // A point on the surface, and the outward direction there.
  let p: P3, out: P3;
  if (b.kind === 'sphere') {
    out = norm(signs.map((x, i) => x * (1 + i)) as P3);
    p = [c[0] + R * out[0], c[1] + R * out[1], c[2] + R * out[2]];
  } else {
    const h: P3 = [b.size[0] * s, b.size[1] * s, b.size[2] * s];
    const local: P3 = how === 'corner' ? [signs[0] * h[0], signs[1] * h[1], signs[2] * h[2]]
      : how === 'edge' ? [signs[0] * h[0], signs[1] * h[1], 0] : [signs[0] * h[0], 0, 0];
    const w = rotate(b.q, local);
    p = [c[0] + w[0], c[1] + w[1], c[2] + w[2]];
    out = rotate(b.q, [signs[0], 0, 0]);
  }
  const L = back * s;
  switch (how) {
    case 'graze': {
      // Along a tangent at p (perpendicular to the outward direction), from `back` before it.
      const t = norm(cross(out, d));
      const g: P3 = Math.hypot(...t) > 0 ? t : [out[1], -out[0], 0];
      return { o: [p[0] - g[0] * L, p[1] - g[1] * L, p[2] - g[2] * L], d: g, L: 2 * L };
    }
    case 'centre':
      return { o: [c[0] - d[0] * (L + R), c[1] - d[1] * (L + R), c[2] - d[2] * (L + R)], d, L: 3 * (L + R) };
    case 'endOnSurface':
    case 'edge':
    case 'corner': {
      // Toward p from outside, ending exactly at its distance (endOnSurface) or past it.
      const o: P3 = [p[0] + out[0] * L + d[0] * 0.1 * L, p[1] + out[1] * L, p[2] + out[2] * L];
      const v: P3 = [p[0] - o[0], p[1] - o[1], p[2] - o[2]];
      const l = Math.hypot(...v);
      return { o, d: v, L: how === 'endOnSurface' ? l : 2 * l };
    }
    case 'fromSurface':
      return { o: p, d, L };
    case 'inside':
      return { o: c, d, L };
    case 'zero':
      return { o: p, d, L: 0 };
    default:
      return { o: [c[0] + d[1] * L, c[1] - d[0] * L, c[2] + R], d, L: 4 * L };
  }
}

const hit: QueryHit = { entity: 0, distance: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };

describe("castRays' exact casts against castRay", () => {
  it('every ray grazing, ending on or starting at a sphere or a rotated box equals castRay bit for bit', () => {
    fc.assert(
      fc.property(sceneArb, fc.array(rayArb, { minLength: 1, maxLength: 40 }), (sc, rays) => {
        const physics = build(sc);
        const n = rays.length;
        const O = new Float64Array(3 * n), D = new Float64Array(3 * n), L = new Float64Array(n);
        rays.forEach(([how, dir, signs, pick, back], i) => {
          const r = aim(sc, sc.bodies[pick % sc.bodies.length], how, dir, signs, back);
          O.set(r.o, 3 * i);
          D.set(Math.hypot(...r.d) > 0 ? r.d : [1, 0, 0], 3 * i);
          L[i] = Number.isFinite(r.L) ? r.L : 0;
        });
        const out = createBatchHits(1);
        const count = castRays(physics, n, O, D, L, out);
        let hits = 0;
        for (let i = 0; i < n; i++) {
          hit.entity = 0;
          const found = castRay(physics, [O[3 * i], O[3 * i + 1], O[3 * i + 2]], [D[3 * i], D[3 * i + 1], D[3 * i + 2]], L[i], hit);
          const want = found ? [hit.entity, hit.distance, hit.normal.x, hit.normal.y, hit.normal.z] : [0, Infinity, 0, 0, 0];
          expect([out.entity[i], out.distance[i], out.normal[3 * i], out.normal[3 * i + 1], out.normal[3 * i + 2]], `ray ${i}`).toEqual(want);
          if (found) hits++;
        }
        expect(count).toBe(hits);
        // The same rays repeated until the batch has more rays than the dense grid has cells: walked
        // in the order of their start cells (batch.ts), every answer the same.
        const g = queryState(physics).dense;
        const times = Math.ceil((g.nx * g.ny * g.nz + 1) / n);
        const O2 = new Float64Array(3 * n * times), D2 = new Float64Array(3 * n * times), L2 = new Float64Array(n * times);
        for (let k = 0; k < times; k++) {
          O2.set(O, 3 * n * k);
          D2.set(D, 3 * n * k);
          L2.set(L, n * k);
        }
        const out2 = createBatchHits(1);
        expect(castRays(physics, n * times, O2, D2, L2, out2)).toBe(hits * times);
        for (let j = 0; j < n * times; j++) {
          const i = j % n;
          expect([out2.entity[j], out2.distance[j], out2.normal[3 * j], out2.normal[3 * j + 1], out2.normal[3 * j + 2]], `ray ${j}`)
            .toEqual([out.entity[i], out.distance[i], out.normal[3 * i], out.normal[3 * i + 1], out.normal[3 * i + 2]]);
        }
      }),
      { seed: Number(process.env.SEED ?? 2511), numRuns: RUNS },
    );
  });
});
