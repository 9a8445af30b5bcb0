/**
 * Self-checks of the exact oracle (test/oracle/exact.ts) and of the grid generators, with no
 * implementation involved: if these fail, the exact property tests cannot be trusted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  D0,
  T0,
  T1,
  add,
  approx,
  cmp,
  contactAt,
  dist2At,
  dy,
  exponentOf,
  firstContactApprox,
  frameOf,
  minDist2,
  mul,
  sphereBoxSweep,
  sphereSphereSweep,
  timeOf,
  within,
} from '../oracle/exact.js';
import { boxDistance, OBox, castSphereBoxOracle, toArr } from '../oracle/oracle.js';
import { boxArb, nextUp, randomQuat, sbCastArb, vecIn } from './arbitraries.js';
import { AXIS_QUATS, gridSBCastArb, gridSBSceneArb, gridSSCastArb, gridSSSceneArb } from './gridArbitraries.js';

/** any double: normal, subnormal, huge, of either sign */
const anyDouble = fc.double({ noNaN: true, noDefaultInfinity: true });

describe('exact oracle self-checks', () => {
  it('dy is exact: approx(dy(x)) = x for every finite double; sums and products agree with float64 where it is exact', () => {
    fc.assert(
      fc.property(anyDouble, (x) => {
        expect(Object.is(approx(dy(x)), x === 0 ? 0 : x)).toBe(true);
      }),
      { numRuns: 20000, seed: 21 },
    );
    // integers of at most 26 bits times powers of two: their sums and products are exact doubles
    const scaled = fc.tuple(fc.integer({ min: -(2 ** 26), max: 2 ** 26 }), fc.integer({ min: -400, max: 400 })).map(([m, e]) => m * 2 ** e);
    fc.assert(
      fc.property(scaled, scaled, (x, y) => {
        expect(cmp(mul(dy(x), dy(y)), dy(x * y))).toBe(0);
        const ex = exponentOf(dy(x));
        const ey = exponentOf(dy(y));
        if (x === 0 || y === 0 || Math.abs(ex - ey) < 20) expect(cmp(add(dy(x), dy(y)), dy(x + y))).toBe(0);
      }),
      { numRuns: 20000, seed: 28 },
    );
    expect(approx(dy(Number.MIN_VALUE), -1074)).toBe(1);
    expect(exponentOf(dy(Number.MAX_VALUE))).toBe(1023);
    expect(cmp(add(dy(0.1), dy(0.2)), dy(0.3))).toBe(1); // 0.1 + 0.2 > 0.3 for the doubles, exactly
  });

  it('rotations: M(q)ᵀ·M(q) = N²·I exactly, for any (non-unit) float quaternion', () => {
    fc.assert(
      fc.property(randomQuat, fc.double({ min: 0.5, max: 2, noNaN: true }), (q, k) => {
        const f = frameOf({ x: q.x * k, y: q.y * k, z: q.z * k, w: q.w * k });
        if (f.identity) return;
        const N2 = mul(f.N, f.N);
        for (let i = 0; i < 3; i++)
          for (let j = 0; j < 3; j++) {
            const d = add(add(mul(f.M[i], f.M[j]), mul(f.M[3 + i], f.M[3 + j])), mul(f.M[6 + i], f.M[6 + j]));
            expect(cmp(d, i === j ? N2 : D0)).toBe(0);
          }
      }),
      { numRuns: 2000, seed: 22 },
    );
  });

  it('the squared distance agrees with the float oracle, and the exact minimum over the step is below every sample and near the best', () => {
    fc.assert(
      fc.property(sbCastArb, (sc) => {
        const sw = sphereBoxSweep(sc.sphere, sc.box, sc.motion);
        const ob = new OBox(sc.box);
        const scale = approx(sw.scale);
        const d0 = Math.sqrt(approx(dist2At(sw, T0).num)) / scale;
        const f0 = boxDistance(ob, toArr(sc.sphere.center));
        const size = Math.max(1, ...toArr(sc.sphere.center).map(Math.abs), ...toArr(sc.box.center).map(Math.abs), ...toArr(sc.motion).map(Math.abs));
        expect(Math.abs(d0 - f0)).toBeLessThanOrEqual(1e-12 * size);
        const m = minDist2(sw, T0, T1);
        let best = Infinity;
        for (let i = 0; i <= 32; i++) {
          const t = timeOf(i / 32);
          const d2 = dist2At(sw, t);
          expect(cmp(mul(m.d2.num, d2.den), mul(d2.num, m.d2.den))).toBeLessThanOrEqual(0);
          best = Math.min(best, Math.sqrt(approx(d2.num) / approx(d2.den)) / scale);
        }
        const min = Math.sqrt(approx(m.d2.num) / approx(m.d2.den)) / scale;
        const o = castSphereBoxOracle({ center: sc.sphere.center, radius: 0 }, sc.motion, sc.box);
        expect(min).toBeLessThanOrEqual(best + 1e-12 * size);
        expect(Math.abs(min - Math.max(0, o.fmin))).toBeLessThanOrEqual(1e-9 * size);
      }),
      { numRuns: 500, seed: 23 },
    );
  });

  it('first contact: analytic times of impact', () => {
    const head = sphereSphereSweep({ center: { x: 0, y: 3, z: -10 }, radius: 2 }, { center: { x: 0, y: 0, z: 0 }, radius: 3 }, { x: 0, y: 0, z: 20 });
    expect(firstContactApprox(head)).toBeCloseTo(0.3, 15);
    const face = sphereBoxSweep({ center: { x: 0.2, y: 0.3, z: 500 }, radius: 1 }, { center: { x: 0, y: 0, z: 0 }, halfExtents: { x: 1, y: 1, z: 0 } }, { x: 0, y: 0, z: -1000 });
    expect(firstContactApprox(face)).toBeCloseTo(0.499, 15);
    const miss = sphereSphereSweep({ center: { x: 0, y: 6, z: -10 }, radius: 2 }, { center: { x: 0, y: 0, z: 0 }, radius: 3 }, { x: 0, y: 0, z: 20 });
    expect(firstContactApprox(miss)).toBeNaN();
    // touching exactly at the end of the step, and one ulp short
    const end = sphereSphereSweep({ center: { x: 10, y: 0, z: 0 }, radius: 1 }, { center: { x: 0, y: 0, z: 0 }, radius: 2 }, { x: -7, y: 0, z: 0 });
    expect(within(minDist2(end, T0, T1).d2, end.r)).toBe(true);
    const short = sphereSphereSweep({ center: { x: nextUp(10), y: 0, z: 0 }, radius: 1 }, { center: { x: 0, y: 0, z: 0 }, radius: 2 }, { x: -7, y: 0, z: 0 });
    expect(within(minDist2(short, T0, T1).d2, short.r)).toBe(false);
  });

  it('inside a box: penetrations in the tie-break order, the first smallest one is the face', () => {
    const c = contactAt(sphereBoxSweep({ center: { x: 0, y: 0, z: 0 }, radius: 1 }, { center: { x: 0, y: 0, z: 0 }, halfExtents: { x: 1, y: 1, z: 1 } }), T0);
    expect(c.inside).toBe(true);
    expect(c.pens!.map((p) => approx(p))).toEqual([1, 1, 1, 1, 1, 1]);
  });
});

describe('grid generators', () => {
  const onGrid = (x: number) => Number.isInteger(x * 64) && Math.abs(x) < 256;
  const gridValues = (o: unknown): number[] => {
    const out: number[] = [];
    const walk = (v: unknown) => {
      if (typeof v === 'number') out.push(v);
      else if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) if (k !== 'rotation') walk(c);
    };
    walk(o);
    return out;
  };

  it('every length is a multiple of 2^-6 below 2^8, and every rotation maps the axes onto the axes', () => {
    for (const arb of [gridSBSceneArb, gridSBCastArb, gridSSSceneArb, gridSSCastArb] as fc.Arbitrary<unknown>[])
      for (const sc of fc.sample(arb, { numRuns: 1000, seed: 24 })) {
        for (const v of gridValues(sc)) expect(onGrid(v), JSON.stringify(sc)).toBe(true);
        const q = (sc as { box?: { rotation?: { x: number; y: number; z: number; w: number } } }).box?.rotation;
        if (q !== undefined && !(q.x === 0 && q.y === 0 && q.z === 0 && q.w === 1)) expect(AXIS_QUATS).toContainEqual(q);
      }
  });

  it('touching scenes touch exactly, one step over overlaps, one step short is separated; "end" casts touch at toi 1', () => {
    for (const sc of fc.sample(gridSBSceneArb, { numRuns: 3000, seed: 25 })) {
      const sw = sphereBoxSweep(sc.sphere, sc.box);
      const d2 = dist2At(sw, T0);
      if (sc.kind.startsWith('grid-touch')) expect(within(d2, sw.r) && !within(d2, sw.r, { m: -1n, e: -60 }), sc.kind).toBe(true);
      if (sc.kind.startsWith('grid-over')) expect(within(d2, sw.r, { m: -1n, e: -4 }), sc.kind).toBe(true);
      if (sc.kind.startsWith('grid-short') && sc.sphere.radius > 0) expect(within(d2, sw.r), sc.kind).toBe(false);
    }
    for (const sc of fc.sample(gridSSCastArb, { numRuns: 3000, seed: 26 })) {
      if (!sc.kind.startsWith('grid-touch') || !sc.kind.endsWith('-end')) continue;
      const sw = sphereSphereSweep(sc.a, sc.b, sc.motion);
      const end = dist2At(sw, T1);
      expect(within(end, sw.r) && !within(end, sw.r, { m: -1n, e: -60 }), sc.kind).toBe(true);
    }
  });

  it('the float oracle agrees with the exact one on general scenes away from touching', () => {
    fc.assert(
      fc.property(boxArb, vecIn(-15, 15), fc.double({ min: 0, max: 5, noNaN: true }), (box, c, r) => {
        const sw = sphereBoxSweep({ center: c, radius: r }, box);
        const f = boxDistance(new OBox(box), toArr(c)) - r;
        if (Math.abs(f) > 1e-9) expect(within(dist2At(sw, T0), sw.r)).toBe(f < 0);
      }),
      { numRuns: 5000, seed: 27 },
    );
  });
});
