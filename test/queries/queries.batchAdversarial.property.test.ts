/**
 * Review of the ray batch (src/queries/batchRays.ts) and the branch-free slab test it shares with
 * single casts (sweepDense.ts): adversarial rays on grid-aligned scenes at scales from 1e-4 to 1e6.
 * Boxes and spheres sit on a lattice of the queries' dense-grid cells; rays start exactly on cell
 * faces, edges and corners (read from the grid's own frame), on the table's faces, on a body's face,
 * inside bodies, just outside the table, far outside it, and at the origin distance where the
 * single query switches from the cell walk to the thick walk (and a rounding either side); directions are axis-aligned (with −0
 * components), diagonal through cell corners, or carry tiny (1e-300, subnormal) and huge (1e300)
 * components; lengths are 0, a whole number of cells, or long. Every ray of the batch must equal
 * `castRay` bit for bit, and `castRay` must agree with the independent oracle (test/oracle/ray.ts:
 * a clear hit with the shapes shrunk by a tolerance is a hit at a distance between the grown and
 * shrunk entries; a clear miss with them grown is a miss).
 */
import fc from 'fast-check';
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, castRay, castRays, createBatchHits, createPhysics, type Physics, type QueryHit } from '../../src/index.js';
import { queryState } from '../../src/queries/queryGrid.js';
import { DG_PAD, DG_SIDE, DG_X0 } from '../../src/grid/dense.js';
import { rayBox, raySphere, type OracleBody, type P3 } from '../oracle/ray.js';

const RUNS = Number(process.env.QUERY_RUNS ?? 150);

interface Scene { scale: number; cells: Array<{ at: P3; kind: 'sphere' | 'box'; size: P3 }> }

const cellArb = fc.record({
  at: fc.tuple(fc.integer({ min: -4, max: 4 }), fc.integer({ min: -4, max: 4 }), fc.integer({ min: -4, max: 4 })) as fc.Arbitrary<P3>,
  kind: fc.constantFrom('sphere' as const, 'box' as const),
  size: fc.tuple(fc.constantFrom(0, 0.25, 0.5, 1, 1.5, 6), fc.constantFrom(0, 0.25, 0.5, 1, 5), fc.constantFrom(0.25, 0.5, 2, 6)) as fc.Arbitrary<P3>,
});
const sceneArb: fc.Arbitrary<Scene> = fc.record({
  scale: fc.constantFrom(1e-4, 1e-2, 1, 1e3, 1e6),
  cells: fc.array(cellArb, { minLength: 1, maxLength: 24 }),
});

function build(sc: Scene): { physics: Physics; bodies: OracleBody[] } {
  const physics = createPhysics(createWorld(), { contactComponent: false });
  const bodies: OracleBody[] = [];
  for (const c of sc.cells) {
    const at: P3 = [c.at[0] * sc.scale, c.at[1] * sc.scale, c.at[2] * sc.scale];
    const h: P3 = [c.size[0] * sc.scale, c.size[1] * sc.scale, c.size[2] * sc.scale];
    const eid = c.kind === 'sphere' ? addSphere(physics, { position: at, radius: h[0] }) : addBox(physics, { position: at, halfExtents: h });
    bodies.push({ eid, kind: c.kind, c: at, radius: h[0], h, q: [0, 0, 0, 1], group: 1, mask: 0xffffffff, sensor: false });
  }
  return { physics, bodies };
}

const dirArb = fc.oneof(
  fc.constantFrom<P3>([1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1], [-1, -0, -0], [-0, -1, 0], [0, -0, 1]),
  fc.constantFrom<P3>([1, 1, 0], [1, -1, 0], [-1, 0, -1], [1, 1, 1], [-1, 1, -1], [1, 2, 0], [2, -1, 1]),
  fc.constantFrom<P3>([1, 1e-300, 0], [1, -5e-324, 0], [1e-300, 1e-300, -1e-300], [1e300, 1, 0], [-1e300, 1e300, 0], [1, 1e-17, -1e-17], [5e-324, 0, 0]),
  fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 })).filter((d) => d.some((x) => x !== 0)) as fc.Arbitrary<P3>,
);

/** Where a ray starts: [kind, lattice point, fraction, body index]. */
const originArb = fc.tuple(
  fc.constantFrom('cell', 'body', 'face', 'outside', 'far', 'edge'),
  fc.tuple(fc.integer({ min: -6, max: 6 }), fc.integer({ min: -6, max: 6 }), fc.integer({ min: -6, max: 6 })),
  fc.constantFrom(0, 0.5, 0.25),
  fc.nat(),
);

const hit: QueryHit = { entity: 0, distance: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };

describe('castRays against castRay and the oracle: adversarial rays on grid-aligned scenes', () => {
  it('every ray of a batch equals castRay bit for bit, and castRay agrees with the oracle', () => {
    fc.assert(
      fc.property(sceneArb, fc.array(fc.tuple(originArb, dirArb, fc.constantFrom(0, 1, 2, 3.5, 12, 40)), { minLength: 8, maxLength: 40 }), (sc, rays) => {
        const { physics, bodies } = build(sc);
        const s = queryState(physics);
        const f = s.dense.frame;
        const side = s.useDense ? f[DG_SIDE] : sc.scale;
        const x0: P3 = s.useDense ? [f[DG_X0], f[DG_X0 + 1], f[DG_X0 + 2]] : [0, 0, 0];
        const n = rays.length;
        const O = new Float64Array(3 * n), D = new Float64Array(3 * n), L = new Float64Array(n);
        rays.forEach(([[kind, k, frac, bi], d, len], i) => {
          const b = bodies[bi % bodies.length];
          let o: P3;
          if (kind === 'cell') o = [x0[0] + (k[0] + frac) * side, x0[1] + k[1] * side, x0[2] + (k[2] - frac) * side];
          else if (kind === 'body') o = [b.c[0], b.c[1], b.c[2]];
          else if (kind === 'face') o = [b.c[0] + (b.kind === 'box' ? b.h[0] : b.radius), b.c[1], b.c[2] + frac * sc.scale];
          else if (kind === 'outside') o = [x0[0] - (k[0] + 7) * side, x0[1] + k[1] * side, x0[2] - 0.5 * side];
          else if (kind === 'far') o = [1e9 * sc.scale, k[1] * sc.scale, -1e9 * sc.scale];
          // Where the single query switches from the DDA to the thick walk (1e-12 × the origin's largest
          // coordinate against the grid's padding): on it, or a rounding either side.
          else o = [-(s.useDense ? f[DG_PAD] * 1e12 : 1e3 * sc.scale) * (1 + frac * 4e-16 * Math.sign(k[0])), k[1] * side, k[2] * side];
          O.set(o, 3 * i);
          D.set(kind === 'edge' ? [Math.abs(d[0]) + 1e-3, d[1] * 1e-3, d[2] * 1e-3] : d, 3 * i);
          L[i] = kind === 'far' ? len * sc.scale + 2e9 * sc.scale : kind === 'edge' ? 2 * Math.abs(o[0]) + len * side : len * side;
        });
        const out = createBatchHits(1);
        const count = castRays(physics, n, O, D, L, out);
        let hits = 0;
        for (let i = 0; i < n; i++) {
          const o: P3 = [O[3 * i], O[3 * i + 1], O[3 * i + 2]], d: P3 = [D[3 * i], D[3 * i + 1], D[3 * i + 2]];
          hit.entity = 0;
          const found = castRay(physics, o, d, L[i], hit);
          const want = found ? [hit.entity, hit.distance, hit.normal.x, hit.normal.y, hit.normal.z] : [0, Infinity, 0, 0, 0];
          expect([out.entity[i], out.distance[i], out.normal[3 * i], out.normal[3 * i + 1], out.normal[3 * i + 2]], `ray ${i}`).toEqual(want);
          if (found) hits++;
          // The oracle: unit direction in plain float64 (scaled first so that tiny and huge components normalise).
          const m = Math.max(Math.abs(d[0]), Math.abs(d[1]), Math.abs(d[2]));
          const u: P3 = [d[0] / m, d[1] / m, d[2] / m];
          const l = Math.hypot(u[0], u[1], u[2]);
          const du: P3 = [u[0] / l, u[1] / l, u[2] / l];
          const reach = Math.max(Math.abs(o[0]), Math.abs(o[1]), Math.abs(o[2]), L[i], sc.scale);
          const tol = 1e-9 * reach;
          let shrunk = Infinity, grown = Infinity;
          for (const b of bodies) {
            const ts = b.kind === 'sphere' ? raySphere(o, du, L[i], b.c, b.radius - tol) : rayBox(o, du, L[i], b, -tol);
            const tg = b.kind === 'sphere' ? raySphere(o, du, L[i] + tol, b.c, b.radius + tol) : rayBox(o, du, L[i] + tol, b, tol);
            if (ts < shrunk) shrunk = ts;
            if (tg < grown) grown = tg;
          }
          if (shrunk !== Infinity) {
            expect(found, `ray ${i}: the oracle hits at ${shrunk}`).toBe(true);
            expect(hit.distance, `ray ${i}`).toBeLessThanOrEqual(shrunk + tol);
          }
          if (grown === Infinity) expect(found, `ray ${i}: the oracle misses`).toBe(false);
          if (found) expect(hit.distance, `ray ${i}`).toBeGreaterThanOrEqual(grown - tol);
        }
        expect(count).toBe(hits);
      }),
      { seed: Number(process.env.SEED ?? 2411), numRuns: RUNS },
    );
  });
});
