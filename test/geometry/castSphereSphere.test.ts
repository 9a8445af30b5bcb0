import { describe, expect, it } from 'vitest';
import { castSphereSphere, contactSphereSphere, overlapSphereSphere, type SphereShape, type Vec3 } from '../../src/index.js';
import { maxAbs3, norm3, sub3, toArr } from '../oracle/oracle.js';
import { expectHitAtStart, expectScaleInvariantHit, expectVec } from '../support/expectGeometry.js';
import { forAllFrozen } from '../support/properties.js';
import { castWith, newCast, newContact, sphere, vec3 as v } from '../support/shapes.js';
import { exactSSCastArb, nextDown, nextUp, ssCastArb } from './arbitraries.js';
import { EPS_REL, assertOk, checkSSCast, neg, normalTol, ssScale } from './checks.js';

const RUNS = 100_000;
const EXACT_RUNS = 30_000;
const cast = (a: SphereShape, m: Vec3, b: SphereShape) => castWith(castSphereSphere, a, m, b);

describe('castSphereSphere', () => {
  it(`property: agrees with the convex-search oracle; castSphereSphere(b, -m, a) has the same toi and the opposite normal (${RUNS} cases)`, () => {
    forAllFrozen(ssCastArb, { numRuns: RUNS, seed: 0x5ca1 }, (sc) => {
      const out = newCast();
      const hit = castSphereSphere(sc.a, sc.motion, sc.b, out);
      const overlapStart = overlapSphereSphere(sc.a, sc.b);
      assertOk(checkSSCast(sc.a, sc.motion, sc.b, hit, out, overlapStart), sc);
      const eps = EPS_REL * ssScale(sc.a, sc.b, sc.motion);
      if (hit && out.toi === 0 && overlapStart) {
        const c = newContact();
        contactSphereSphere(sc.a, sc.b, c);
        const D = norm3(sub3(toArr(sc.a.center), toArr(sc.b.center)));
        if (maxAbs3(sub3(toArr(c.point), toArr(out.point))) > eps || maxAbs3(sub3(toArr(c.normal), toArr(out.normal))) > (D > 0 ? normalTol(eps, D) : 0))
          assertOk(`toi 0 but ${JSON.stringify(out)} differs from the static contact ${JSON.stringify(c)}`, sc);
      }
      // swapped roles: b moves by -m relative to a
      const out2 = newCast();
      const mm = neg(sc.motion);
      const hit2 = castSphereSphere(sc.b, mm, sc.a, out2);
      assertOk(checkSSCast(sc.b, mm, sc.a, hit2, out2, overlapStart), { swapped: true, ...sc });
      if (hit && hit2 && out.toi > 0 && out2.toi > 0) {
        const R = sc.a.radius + sc.b.radius;
        if (R > 1e3 * eps) {
          const dn = maxAbs3(sub3(toArr(out2.normal), toArr(neg(out.normal))));
          if (dn > normalTol(eps, R)) assertOk(`swapped normal ${JSON.stringify(out2.normal)} is not -${JSON.stringify(out.normal)}`, sc);
        }
      }
    });
  });

  it(`property: exact axis-parallel integer casts (${EXACT_RUNS} cases)`, () => {
    forAllFrozen(exactSSCastArb, { numRuns: EXACT_RUNS, seed: 0x5ca2 }, (sc) => {
      const out = newCast();
      const hit = castSphereSphere(sc.a, sc.motion, sc.b, out);
      // (one ulp short of touching at the end of the step is a miss: the static test at the end pose decides)
      if (hit !== sc.expectHit) assertOk(`${sc.kind}: hit ${hit} (toi ${out.toi}), expected ${sc.expectHit} (toi ${sc.expectToi})`, sc);
      if (hit && sc.expectToi !== undefined && !(Math.abs(out.toi - sc.expectToi) <= 1e-12)) assertOk(`${sc.kind}: toi ${out.toi}, expected ${sc.expectToi}`, sc);
      if (sc.expectToi === 0 && hit && out.toi !== 0) assertOk(`${sc.kind}: toi ${out.toi}, expected exactly 0`, sc);
      assertOk(checkSSCast(sc.a, sc.motion, sc.b, hit, out, overlapSphereSphere(sc.a, sc.b)), sc);
      const out2 = newCast();
      const hit2 = castSphereSphere(sc.b, neg(sc.motion), sc.a, out2);
      if (hit2 !== sc.expectHit) assertOk(`${sc.kind} swapped: hit ${hit2}, expected ${sc.expectHit}`, sc);
      if (hit && hit2 && !(Math.abs(out2.toi - out.toi) <= 1e-12)) assertOk(`${sc.kind} swapped: toi ${out2.toi} vs ${out.toi}`, sc);
    });
  });

  it('regression: a ray (radius 0) aimed exactly at a point (radius 0) along an axis misses', () => {
    // |q|^2 - 0 and b^2 - a*c cancel exactly in theory; in float64 the discriminant comes out < 0
    const c = cast(sphere(-0.1, 0, 0, 0), v(0.3, 0, 0), sphere(0, 0, 0, 0));
    expect(c.hit).toBe(true);
    expect(c.toi).toBeCloseTo(1 / 3, 9);
  });

  it('regression: a ray aimed exactly at a point along a diagonal: toi off by ~1e-8 (sqrt of the rounding noise)', () => {
    const c = cast(sphere(-1.1, -1.1, -1.1, 0), v(1.7, 1.7, 1.7), sphere(0, 0, 0, 0));
    expect(c.hit).toBe(true);
    // brief-level tolerance: 1e-9 of the scene scale in position = ~6e-10 in toi; actual error ~7e-9
    expect(Math.abs(c.toi - 1.1 / 1.7)).toBeLessThan(5e-10);
  });

  it('regression: one ulp short of touching at the end of the step is reported as a hit (toi 1 - ulp)', () => {
    // a ends at x = -1.0000000000000009: distance 1 + 2^-50 > ra + rb = 1
    const a = sphere(nextDown(-4), 0, 0, 1);
    expect(overlapSphereSphere(sphere(nextDown(-4) + 3, 0, 0, 1), sphere(0, 0, 0, 0))).toBe(false); // static test: no contact
    expect(cast(a, v(3, 0, 0), sphere(0, 0, 0, 0)).hit).toBe(false);
  });

  it('head-on: analytic toi, normal and point; swapped order gives the same toi, opposite normal', () => {
    const c = cast(sphere(0, 3, -10, 2), v(0, 0, 20), sphere(0, 0, 0, 3));
    // |(0, 3, z)| = 5 at z = -4
    expect(c.hit).toBe(true);
    expect(c.toi).toBeCloseTo(0.3, 15);
    expectVec(c.normal, v(0, 0.6, -0.8));
    expectVec(c.point, v(0, 1.8, -2.4));
    const d = cast(sphere(0, 0, 0, 3), v(0, 0, -20), sphere(0, 3, -10, 2));
    expect(d.hit).toBe(true);
    expect(d.toi).toBeCloseTo(0.3, 15);
    expectVec(d.normal, v(0, -0.6, 0.8));
  });

  it('zero motion = static test; touching / overlapping at the start -> toi 0 with the static contact', () => {
    const still = cast(sphere(3, 0, 0, 1), v(0, 0, 0), sphere(0, 0, 0, 2));
    expect(still.hit).toBe(true);
    expect(still.toi === 0).toBe(true);
    expect(cast(sphere(nextUp(3), 0, 0, 1), v(0, 0, 0), sphere(0, 0, 0, 2)).hit).toBe(false);
    expectHitAtStart(cast(sphere(3, 0, 0, 1), v(10, 0, 0), sphere(0, 0, 0, 2)), v(1, 0, 0), v(2, 0, 0));
    expectHitAtStart(cast(sphere(1, 1, 1, 1), v(0, 5, 0), sphere(1, 1, 1, 1)), v(1, 0, 0), v(2, 1, 1));
  });

  it('touching exactly at the end of the step: toi 1; one ulp short: miss', () => {
    const c = cast(sphere(10, 0, 0, 1), v(-7, 0, 0), sphere(0, 0, 0, 2));
    expect(c.hit).toBe(true);
    expect(c.toi).toBe(1);
    expect(cast(sphere(nextUp(10), 0, 0, 1), v(-7, 0, 0), sphere(0, 0, 0, 2)).hit).toBe(false);
  });

  it('grazing: passing at exactly ra + rb touches; slightly further misses', () => {
    const g = cast(sphere(-5, 3, 0, 1), v(10, 0, 0), sphere(0, 0, 0, 2));
    expect(g.hit).toBe(true);
    expect(Math.abs(g.toi - 0.5)).toBeLessThan(1e-7);
    expectVec(g.normal, v(0, 1, 0), 1e-6);
    expectVec(g.point, v(0, 2, 0), 1e-6);
    // (one ulp further, nextUp(3), is inside the grazing band where either answer is accepted)
    expect(cast(sphere(-5, 3 + 1e-6, 0, 1), v(10, 0, 0), sphere(0, 0, 0, 2)).hit).toBe(false);
  });

  it('zero radii: ray against a sphere, and point against point', () => {
    const r = cast(sphere(-10, 0, 0, 0), v(20, 0, 0), sphere(0, 0, 0, 2));
    expect(r.hit).toBe(true);
    expect(r.toi).toBeCloseTo(0.4, 15);
    expectVec(r.normal, v(-1, 0, 0));
    expectVec(r.point, v(-2, 0, 0));
    const p = cast(sphere(-1, 0, 0, 0), v(2, 0, 0), sphere(0, 0, 0, 0));
    expect(p.hit).toBe(true);
    expect(p.toi).toBeCloseTo(0.5, 15);
    expectVec(p.point, v(0, 0, 0));
    expect(Math.hypot(p.normal.x, p.normal.y, p.normal.z)).toBeCloseTo(1, 12);
  });

  it('huge motion (1e6 times the radii)', () => {
    const c = cast(sphere(-1e6, 0.5, 0, 1), v(3e6, 0, 0), sphere(0, 0, 0, 1));
    expect(c.hit).toBe(true);
    // tolerance: 1e-9 of the scene scale (1e6) in position = 3e-10 in toi
    expect(c.toi).toBeCloseTo((1e6 - Math.sqrt(4 - 0.25)) / 3e6, 9);
    expectVec(c.normal, v(-Math.sqrt(3.75) / 2, 0.25, 0), 1e-6);
    expect(cast(sphere(-1e6, 2.001, 0, 1), v(3e6, 0, 0), sphere(0, 0, 0, 1)).hit).toBe(false);
  });

  it('2D (z = 0)', () => {
    const c = cast(sphere(-6, -8, 0, 2), v(12, 16, 0), sphere(0, 0, 0, 3));
    expect(c.hit).toBe(true);
    expect(c.toi).toBeCloseTo(0.25, 15);
    expectVec(c.normal, v(-0.6, -0.8, 0));
    expectVec(c.point, v(-1.8, -2.4, 0));
  });

  it('regression (issue 9): touching exactly at the end of the step hits at toi 1 (the probe: it was a miss while overlapSphereSphere at the end pose is true)', () => {
    const a = sphere(-1.75, -3, 4, 0.5);
    const b = sphere(-0.25, 1.125, 1.125, 1.125);
    // the end pose (−1.75, 0.625, 0.75) is (−1.5, −0.5, −0.375) from b: length 1.625 = ra + rb
    expect(overlapSphereSphere(sphere(-1.75, 0.625, 0.75, 0.5), b)).toBe(true);
    const c = cast(a, v(0, 3.625, -3.25), b);
    expect(c.hit).toBe(true);
    expect(c.toi).toBe(1);
    expectVec(c.normal, v(-1.5 / 1.625, -0.5 / 1.625, -0.375 / 1.625), 1e-15);
    expectVec(c.point, v(-0.25 - (1.5 / 1.625) * 1.125, 1.125 - (0.5 / 1.625) * 1.125, 1.125 - (0.375 / 1.625) * 1.125), 1e-15);
  });

  it('regression (issue 9): a head-on cast at subnormal scales (2^-1030 … 2^-1074) hits with the unit-scale toi and normal (the rescale factor overflowed: a miss)', () => {
    const at = (s: number) => cast(sphere(-4 * s, 0, 0, s), v(8 * s, 0, 0), sphere(0, 0, 0, s));
    expect(at(1).toi).toBe(0.25);
    expectScaleInvariantHit(at, [-1030, -1050, -1060, -1070, -1074]);
  });

  it('regression (issue 9): an exact grazing hit scaled by 2^200 … 2^1000 is still found (the rescale above 1e60 was not by a power of two: a miss at 2^200)', () => {
    // a's centre passes at distance |(4.375, 10.5)| = 11.375 = ra + rb from b's (x = 0 at t = 7/42.5)
    const at = (s: number) => cast(sphere(-7 * s, 4.375 * s, 10.5 * s, 2.84375 * s), v(42.5 * s, 0, 0), sphere(0, 0, 0, 8.53125 * s));
    expect(at(1).toi).toBeCloseTo(7 / 42.5, 7);
    expectVec(at(1).normal, v(0, 4.375 / 11.375, 10.5 / 11.375), 1e-7);
    expectScaleInvariantHit(at, [200, 210, 250, 500, 1000, -200, -1000]);
  });

  it('regression (issue 9): an infinite motion is no contact, out untouched (it was a toi-0 hit with a NaN normal between spheres 1e6 apart)', () => {
    const out = newCast();
    expect(castSphereSphere(sphere(1e6, 0, 0, 0.5), v(-Infinity, 0, 0), sphere(0, 0, 0, 0.5), out)).toBe(false);
    expect(out).toEqual(newCast());
  });
});
