import { describe, expect, it } from 'vitest';
import { castSphereBox, contactSphereBox, overlapSphereBox, type BoxShape, type SphereShape, type Vec3 } from '../../src/index.js';
import { maxAbs3, sub3, toArr } from '../oracle/oracle.js';
import { expectHitAtStart, expectScaleInvariantHit, expectVec } from '../support/expectGeometry.js';
import { forAllFrozen } from '../support/properties.js';
import { box, castWith, newCast, newContact, sphere, vec3 as v } from '../support/shapes.js';
import { axisAngleQuat, exactSBCastArb, nextDown, nextUp, sbCastArb } from './arbitraries.js';
import { EPS_REL, assertOk, checkSBCast, sbContactNormalTol, sbScale } from './checks.js';

const RUNS = 100_000;
const EXACT_RUNS = 30_000;

const cast = (s: SphereShape, m: Vec3, b: BoxShape) => castWith(castSphereBox, s, m, b);

describe('castSphereBox', () => {
  it(`property: hit / toi / normal / point agree with the convex-search oracle (${RUNS} cases)`, () => {
    forAllFrozen(sbCastArb, { numRuns: RUNS, seed: 0xca01 }, (sc) => {
      const out = newCast();
      const hit = castSphereBox(sc.sphere, sc.motion, sc.box, out);
      const overlapStart = overlapSphereBox(sc.sphere, sc.box);
      assertOk(checkSBCast(sc.sphere, sc.motion, sc.box, hit, out, overlapStart), sc);
      if (hit && out.toi === 0 && overlapStart) {
        // the static contact at the start pose
        const c = newContact();
        contactSphereBox(sc.sphere, sc.box, c);
        const eps = EPS_REL * sbScale(sc.sphere, sc.box, sc.motion);
        const dn = maxAbs3(sub3(toArr(c.normal), toArr(out.normal)));
        const dp = maxAbs3(sub3(toArr(c.point), toArr(out.point)));
        if (dp > eps || dn > sbContactNormalTol(toArr(sc.sphere.center), sc.sphere.radius, sc.box, eps))
          assertOk(`toi 0 but normal/point ${JSON.stringify(out)} differ from contactSphereBox ${JSON.stringify(c)}`, sc);
      }
    });
  });

  it(`property: exact axis-aligned integer casts (touch at the end of the step hits, one ulp short misses) (${EXACT_RUNS} cases)`, () => {
    forAllFrozen(exactSBCastArb, { numRuns: EXACT_RUNS, seed: 0xca02 }, (sc) => {
      const out = newCast();
      const hit = castSphereBox(sc.sphere, sc.motion, sc.box, out);
      // (one ulp short of touching at the end of the step is a miss: the static test at the end pose decides)
      if (hit !== sc.expectHit) assertOk(`${sc.kind}: hit ${hit} (toi ${out.toi}), expected ${sc.expectHit} (toi ${sc.expectToi})`, sc);
      if (hit && sc.expectToi !== undefined && !(Math.abs(out.toi - sc.expectToi) <= sc.toiTol))
        assertOk(`${sc.kind}: toi ${out.toi}, expected ${sc.expectToi} (tol ${sc.toiTol})`, sc);
      assertOk(checkSBCast(sc.sphere, sc.motion, sc.box, hit, out, overlapSphereBox(sc.sphere, sc.box)), sc);
    });
  });

  it('regression: a small sphere (r = 1e-9) moving straight at a point box misses (entry-time quadratic cancels)', () => {
    // centre path passes exactly through the point box; first touch at t = (0.1*sqrt3 - 1e-9) / (0.3*sqrt3)
    const c = cast(sphere(-0.1, -0.1, -0.1, 1e-9), v(0.3, 0.3, 0.3), box(0, 0, 0, 0, 0, 0));
    expect(c.hit).toBe(true);
    expect(c.toi).toBeCloseTo((0.1 * Math.sqrt(3) - 1e-9) / (0.3 * Math.sqrt(3)), 9);
  });

  it('regression: a small sphere (r = 1e-9) crossing a segment box (edge capsule) misses', () => {
    // the centre path crosses the segment {x = y = 0, |z| <= 1} at z = 0.25, t = 1/3
    const c = cast(sphere(-0.1, -0.1, 0.25, 1e-9), v(0.3, 0.3, 0), box(0, 0, 0, 0, 0, 1));
    expect(c.hit).toBe(true);
    expect(c.toi).toBeCloseTo((0.1 * Math.SQRT2 - 1e-9) / (0.3 * Math.SQRT2), 9);
  });

  it('regression: one ulp short of touching a vertex at the end of the step is reported as a hit at toi 1', () => {
    // end pose (-1, -2, -2) is at distance exactly 3 from the point box; the radius is nextDown(3)
    const s = sphere(-5, -2, -2, nextDown(3));
    const B = box(0, 0, 0, 0, 0, 0);
    expect(overlapSphereBox(sphere(-1, -2, -2, nextDown(3)), B)).toBe(false); // the static test agrees: no contact
    expect(cast(s, v(4, 0, 0), B).hit).toBe(false);
  });

  it('sphere moving straight through a thin box (half extent z = 0) within one step hits', () => {
    const B = box(0, 0, 0, 1, 1, 0);
    const c = cast(sphere(0.2, 0.3, 500, 1), v(0, 0, -1000), B);
    expect(c.hit).toBe(true);
    expect(c.toi).toBeCloseTo(0.499, 14);
    expectVec(c.normal, v(0, 0, 1));
    expectVec(c.point, v(0.2, 0.3, 0), 1e-10);
    // from below, huge step
    const d = cast(sphere(-0.5, 0.5, -1e6, 0.25), v(0, 0, 4e6), B);
    expect(d.hit).toBe(true);
    expect(d.toi).toBeCloseTo((1e6 - 0.25) / 4e6, 14);
    expectVec(d.normal, v(0, 0, -1));
  });

  it('a ray (radius 0) through a flat rectangle, a segment and a point box hits', () => {
    const r = cast(sphere(0.5, 0.25, 10, 0), v(0, 0, -20), box(0, 0, 0, 1, 1, 0));
    expect(r.hit).toBe(true);
    expect(r.toi).toBeCloseTo(0.5, 15);
    expectVec(r.normal, v(0, 0, 1));
    expectVec(r.point, v(0.5, 0.25, 0));
    const s = cast(sphere(0.5, 0, -3, 0), v(0, 0, 4), box(0, 0, 0, 1, 0, 0));
    expect(s.hit).toBe(true);
    expect(s.toi).toBeCloseTo(0.75, 15);
    expectVec(s.point, v(0.5, 0, 0));
    const p = cast(sphere(-1, 0, 0, 0), v(2, 0, 0), box(0, 0, 0, 0, 0, 0));
    expect(p.hit).toBe(true);
    expect(p.toi).toBeCloseTo(0.5, 15);
    expectVec(p.point, v(0, 0, 0));
    expect(Math.hypot(p.normal.x, p.normal.y, p.normal.z)).toBeCloseTo(1, 12);
  });

  it('zero motion is the static test (toi 0, static contact)', () => {
    const B = box(0, 0, 0, 1, 2, 3);
    expectHitAtStart(cast(sphere(3, 0.5, 0.5, 2.5), v(0, 0, 0), B), v(1, 0, 0), v(1, 0.5, 0.5));
    expect(cast(sphere(3, 0.5, 0.5, 2), v(0, 0, 0), B).hit).toBe(true); // touching
    expect(cast(sphere(nextUp(3), 0.5, 0.5, 2), v(0, 0, 0), B).hit).toBe(false);
    expectHitAtStart(cast(sphere(0, 0, 0, 0.5), v(0, 0, 0), box(0, 0, 0, 1, 1, 1)), v(1, 0, 0), v(1, 0, 0));
  });

  it('overlapping or touching at the start: toi 0 whatever the motion', () => {
    const B = box(0, 0, 0, 1, 1, 1);
    expectHitAtStart(cast(sphere(0, 0, 2, 1), v(0, 0, 5), B), v(0, 0, 1), v(0, 0, 1));
    expectHitAtStart(cast(sphere(0.5, 0, 0, 0.1), v(-10, 3, 1), B), v(1, 0, 0), v(1, 0, 0));
  });

  it('motion parallel to a face at exactly touching distance', () => {
    const B = box(0, 0, 0, 1, 1, 1);
    // touching from the start: toi 0
    const t0 = cast(sphere(0, 0, 2, 1), v(5, 0, 0), B);
    expect(t0.hit).toBe(true);
    expect(t0.toi).toBe(0);
    // sliding in from beyond the edge x = -1: the gap is 0 for x in [-1, 1], first touch at x = -1
    const s = cast(sphere(-5, 0.5, 2, 1), v(10, 0, 0), B);
    expect(s.hit).toBe(true);
    expect(Math.abs(s.toi - 0.4)).toBeLessThan(1e-6); // grazing: toi is ill-conditioned (sqrt eps)
    expectVec(s.normal, v(0, 0, 1), 1e-6);
    expectVec(s.point, v(-1, 0.5, 1), 1e-6);
    // the same line one ulp further away misses
    expect(cast(sphere(-5, 0.5, nextUp(2), 1), v(10, 0, 0), B).hit).toBe(false);
  });

  it('touching exactly at the end of the step hits with toi 1; one ulp short misses', () => {
    const B = box(0, 0, 0, 1, 1, 1);
    const c = cast(sphere(5, 0.5, 0, 1), v(-3, 0, 0), B);
    expect(c.hit).toBe(true);
    expect(c.toi).toBe(1);
    expectVec(c.normal, v(1, 0, 0));
    expectVec(c.point, v(1, 0.5, 0));
    expect(cast(sphere(nextUp(5), 0.5, 0, 1), v(-3, 0, 0), B).hit).toBe(false);
  });

  it('huge motion (1e6 times the shapes) through and past the box', () => {
    const B = box(0, 0, 0, 1, 1, 1);
    const c = cast(sphere(-1e6, 0.25, -0.5, 1), v(2e6, 0, 0), B);
    expect(c.hit).toBe(true);
    expect(c.toi).toBeCloseTo((1e6 - 2) / 2e6, 9);
    expectVec(c.normal, v(-1, 0, 0), 1e-9);
    expectVec(c.point, v(-1, 0.25, -0.5), 1e-6);
    // misses by 0.5
    expect(cast(sphere(-1e6, 2.5, 0, 1), v(2e6, 0, 0), B).hit).toBe(false);
    // first touch at the vertex (-1, 1, 1), centre at x = -1 - sqrt(1/2)
    const e = cast(sphere(-1e6, 1.5, 1.5, 1), v(2e6, 0, 0), B);
    expect(e.hit).toBe(true);
    // tolerance: 1e-9 of the scene scale (1e6) in position = 5e-10 in toi
    expect(e.toi).toBeCloseTo((1e6 - 1 - Math.SQRT1_2) / 2e6, 9);
    // brief-level tolerances: position 1e-9 * scene scale (2e6) = 2e-3, normal 4 * 2e-3 / r
    // (the implementation is at ~1.4e-5 on the normal here: the vertex-ball quadratic loses ~eps*|q|^2/r)
    expectVec(e.normal, v(-Math.SQRT1_2, 0.5, 0.5), 8e-3);
    expectVec(e.point, v(-1, 1, 1), 2e-3);
  });

  it('rotated box: hit on a vertical edge of a 45deg cube', () => {
    const B = box(0, 0, 0, 1, 1, 1, axisAngleQuat(2, Math.PI / 4));
    const c = cast(sphere(-10, 0, 0.3, 0.5), v(20, 0, 0), B);
    expect(c.hit).toBe(true);
    expect(c.toi).toBeCloseTo((10 - Math.SQRT2 - 0.5) / 20, 13);
    expectVec(c.normal, v(-1, 0, 0), 1e-12);
    expectVec(c.point, v(-Math.SQRT2, 0, 0.3), 1e-12);
    // axis-aligned it would be hit earlier (at x = -1.5)
    expect(cast(sphere(-10, 0, 0.3, 0.5), v(20, 0, 0), box(0, 0, 0, 1, 1, 1)).toi).toBeCloseTo(8.5 / 20, 14);
  });

  it('2D: rotation about z, everything in the z = 0 plane', () => {
    for (const hz of [0, 0.5, 7]) {
      const B = box(2, 1, 0, 1, 1, hz, axisAngleQuat(2, Math.PI / 4));
      // diamond with vertices at distance sqrt 2 from (2, 1) along the axes
      const c = cast(sphere(2, 10, 0, 0.5), v(0, -20, 0), B);
      expect(c.hit).toBe(true);
      expect(c.toi).toBeCloseTo((9 - Math.SQRT2 - 0.5) / 20, 13);
      expectVec(c.normal, v(0, 1, 0), 1e-12);
      expectVec(c.point, v(2, 1 + Math.SQRT2, 0), 1e-12);
    }
  });

  it('miss cases: passing beside, moving away, stopping short', () => {
    const B = box(0, 0, 0, 1, 1, 1);
    expect(cast(sphere(-5, 2.01, 0, 1), v(10, 0, 0), B).hit).toBe(false);
    expect(cast(sphere(-5, 0, 0, 1), v(-10, 0, 0), B).hit).toBe(false);
    expect(cast(sphere(-5, 0, 0, 1), v(2.99, 0, 0), B).hit).toBe(false);
    // corner region: passes the vertex (1, 1, 1) at distance sqrt(3)*(...) > r
    expect(cast(sphere(3, 3, 3, 0.5), v(-1, -1, -1), B).hit).toBe(false);
  });

  it('regression (issue 9): touching an edge exactly at the end of the step hits at toi 1 (it was a miss while overlapSphereBox at the end pose is true)', () => {
    const B = box(-0.75, -8, -0.75, 3.5, 2.375, 0.625);
    // end pose (3.375, −11.875, −1): (0.625, −1.5, 0) from the edge x = 2.75, y = −10.375: length 1.625 = r
    expect(overlapSphereBox(sphere(3.375, -11.875, -1, 1.625), B)).toBe(true);
    const c = cast(sphere(1.25, -13, -13, 1.625), v(2.125, 1.125, 12), B);
    expect(c.hit).toBe(true);
    expect(c.toi).toBe(1);
    expectVec(c.normal, v(0.625 / 1.625, -1.5 / 1.625, 0), 1e-15);
    expectVec(c.point, v(2.75, -10.375, -1), 0);
  });

  it('regression (issue 9): a head-on cast at a vertex at subnormal scales (2^-1030 … 2^-1072) hits with the unit-scale toi and normal (the rescale factor overflowed: a miss)', () => {
    const at = (s: number) => cast(sphere(-3 * s, -3 * s, -3 * s, 0.75 * s), v(6 * s, 6 * s, 6 * s), box(0, 0, 0, s, s, s));
    const unit = at(1);
    expectVec(unit.normal, v(-Math.sqrt(1 / 3), -Math.sqrt(1 / 3), -Math.sqrt(1 / 3)), 1e-15);
    // (the point at impact, c + t·m, is subnormal here and rounds more coarsely: the normal may differ by an ulp)
    for (const k of [-1030, -1050, -1060, -1070, -1072]) {
      const c = at(2 ** k);
      expect(c.hit, `2^${k}`).toBe(true);
      expect(c.toi, `2^${k}`).toBe(unit.toi);
      expectVec(c.normal, unit.normal, 1e-15);
    }
  });

  it('regression (issue 9): an exact grazing hit along an edge scaled by 2^200 … 2^1000 is still found (the rescale above 1e60 was not by a power of two: a miss at 2^200)', () => {
    // the centre passes at |(4.375, 10.5)| = 11.375 = r from the edge y = z = 1; it reaches x = −1 at t = 6/42.5
    const at = (s: number) => cast(sphere(-7 * s, 5.375 * s, 11.5 * s, 11.375 * s), v(42.5 * s, 0, 0), box(0, 0, 0, s, s, s));
    expect(at(1).toi).toBeCloseTo(6 / 42.5, 7);
    expectVec(at(1).normal, v(0, 4.375 / 11.375, 10.5 / 11.375), 1e-7);
    expectScaleInvariantHit(at, [200, 210, 250, 500, 1000, -200, -1000]);
  });

  it('NaN or infinite motion is no contact, out untouched (the non-finite contract)', () => {
    for (const m of [v(-Infinity, 0, 0), v(NaN, 0, 0)]) {
      const out = newCast();
      expect(castSphereBox(sphere(1e6, 0, 0, 0.5), m, box(0, 0, 0, 1, 1, 1), out)).toBe(false);
      expect(out).toEqual(newCast());
    }
  });
});
