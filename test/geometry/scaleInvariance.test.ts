/**
 * Rescaling is by powers of two only, so results are scale invariant to the last bit: a scene whose
 * lengths are all multiplied by 2^k gets the same booleans, toi and normals, and depths and points
 * multiplied by 2^k exactly, as long as its numbers stay normal (no subnormal input or intermediate)
 * and finite. General scenes (magnitudes from ~1e-20 to ~1e13) are scaled by 2^±200 and 2^±600,
 * grid scenes (2^-6 to 2^8) by 2^±1000.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { sbCastArb, ssCastArb } from './arbitraries.js';
import { gridSBCastArb, gridSSCastArb } from './gridArbitraries.js';
import { type AnyOut, GEOMETRY_QUERIES, type GeometryQuery, type GeometryScene, filledOut } from '../support/geometryQueries.js';

const RUNS = 1500;
const GENERAL_K = [-600, -200, 200, 600];
const GRID_K = [-1000, 1000];

const scaleV = (v: { x: number; y: number; z: number }, s: number) => ({ x: v.x * s, y: v.y * s, z: v.z * s });
const scaleSphere = (sp: { center: { x: number; y: number; z: number }; radius: number }, s: number) => ({ center: scaleV(sp.center, s), radius: sp.radius * s });

function scaleScene(sc: GeometryScene, s: number): GeometryScene {
  const out: GeometryScene = {};
  if (sc.sphere) out.sphere = scaleSphere(sc.sphere, s);
  if (sc.a) out.a = scaleSphere(sc.a, s);
  if (sc.b) out.b = scaleSphere(sc.b, s);
  if (sc.motion) out.motion = scaleV(sc.motion, s);
  if (sc.box) out.box = { ...sc.box, center: scaleV(sc.box.center, s), halfExtents: scaleV(sc.box.halfExtents, s) };
  return out;
}

/** The numbers of a result: [hit, toi or depth scaled back, normal, point scaled back]. */
function resultOf(query: GeometryQuery, sc: GeometryScene, s: number): number[] {
  const out = filledOut(query.out, 0.5);
  const hit = query.run(sc, out);
  if (!hit || out === undefined) return [hit ? 1 : 0];
  const o = out as AnyOut;
  const first = 'toi' in o ? o.toi : o.depth / s;
  return [1, first, o.normal.x, o.normal.y, o.normal.z, o.point.x / s, o.point.y / s, o.point.z / s];
}

const scenes = (pair: 'box' | 'sphere', grid: boolean): fc.Arbitrary<GeometryScene> =>
  pair === 'box'
    ? (grid ? gridSBCastArb : sbCastArb).map((sc) => ({ sphere: sc.sphere, box: sc.box, motion: sc.motion }))
    : (grid ? gridSSCastArb : ssCastArb).map((sc) => ({ a: sc.a, b: sc.b, motion: sc.motion }));

describe('scale invariance: results at 2^k times a scene are the scene\'s, to the bit', () => {
  for (const query of GEOMETRY_QUERIES)
    for (const grid of [false, true]) {
      const ks = grid ? GRID_K : GENERAL_K;
      it(`${query.name}, ${grid ? 'grid' : 'general'} scenes at 2^${ks.join(', 2^')} (${RUNS} scenes)`, () => {
        fc.assert(
          fc.property(scenes(query.uses.includes('box') ? 'box' : 'sphere', grid), (sc) => {
            const unit = resultOf(query, sc, 1);
            for (const k of ks) {
              const s = 2 ** k;
              const scaled = resultOf(query, scaleScene(sc, s), s);
              if (scaled.length !== unit.length || !scaled.every((x, i) => Object.is(x, unit[i])))
                throw new Error(`at 2^${k}: ${scaled.join(', ')}; unit scene: ${unit.join(', ')}`);
            }
          }),
          { numRuns: RUNS, seed: 0x5ca1e },
        );
      });
    }
});
