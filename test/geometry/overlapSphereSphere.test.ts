import { describe, expect, it } from 'vitest';
import { contactSphereSphere, overlapSphereSphere } from '../../src/index.js';
import { norm3, sub3, toArr } from '../oracle/oracle.js';
import { forAllFrozen } from '../support/properties.js';
import { newContact, sphere } from '../support/shapes.js';
import { exactSSArb, nextDown, nextUp, ssSceneArb } from './arbitraries.js';
import { EPS_REL, assertOk, checkOverlapGap, ssScale } from './checks.js';

const RUNS = 100_000;
const EXACT_RUNS = 30_000;
describe('overlapSphereSphere', () => {
  it(`property: agrees with the oracle outside an eps band; symmetric; equals contactSphereSphere's return (${RUNS} cases)`, () => {
    forAllFrozen(ssSceneArb, { numRuns: RUNS, seed: 0x5501 }, (sc) => {
      const got = overlapSphereSphere(sc.a, sc.b);
      const gap = norm3(sub3(toArr(sc.a.center), toArr(sc.b.center))) - (sc.a.radius + sc.b.radius);
      assertOk(checkOverlapGap(got, gap, EPS_REL * ssScale(sc.a, sc.b)), sc);
      if (overlapSphereSphere(sc.b, sc.a) !== got) assertOk('not symmetric in its arguments', sc);
      if (contactSphereSphere(sc.a, sc.b, newContact()) !== got) assertOk('contactSphereSphere returned a different boolean', sc);
    });
  });

  it(`property: exact integer scenes (touching = true, one ulp apart = false) (${EXACT_RUNS} cases)`, () => {
    forAllFrozen(exactSSArb, { numRuns: EXACT_RUNS, seed: 0x5502 }, (sc) => {
      const got = overlapSphereSphere(sc.a, sc.b);
      if (got !== sc.expectOverlap) assertOk(`${sc.kind}: got ${got}, expected ${sc.expectOverlap}`, sc);
      if (overlapSphereSphere(sc.b, sc.a) !== got) assertOk('not symmetric', sc);
    });
  });

  it('touching along an axis and along a Pythagorean diagonal; one ulp apart', () => {
    expect(overlapSphereSphere(sphere(0, 0, 0, 1), sphere(3, 0, 0, 2))).toBe(true);
    expect(overlapSphereSphere(sphere(0, 0, 0, 1), sphere(nextUp(3), 0, 0, 2))).toBe(false);
    expect(overlapSphereSphere(sphere(1, 2, 3, 2), sphere(4, 6, 3, 3))).toBe(true); // |(3,4,0)| = 5
    // radii whose float64 sum is exactly nextDown(5) (nextDown(2) + 3 would round back to 5)
    expect(overlapSphereSphere(sphere(1, 2, 3, nextDown(5) - 3), sphere(4, 6, 3, 3))).toBe(false);
    expect(overlapSphereSphere(sphere(0, 0, 0, 3), sphere(2, 3, 6, 4))).toBe(true); // |(2,3,6)| = 7
    expect(overlapSphereSphere(sphere(0, 0, 0, 3), sphere(2, 3, 6, nextDown(7) - 3))).toBe(false);
  });

  it('zero radii: point-in-sphere and point-point', () => {
    expect(overlapSphereSphere(sphere(0, 0, 0, 0), sphere(0, 0, 0, 0))).toBe(true);
    expect(overlapSphereSphere(sphere(0, 3, 4, 0), sphere(0, 0, 0, 5))).toBe(true);
    expect(overlapSphereSphere(sphere(0, 3, 4, 0), sphere(0, 0, 0, nextDown(5)))).toBe(false);
  });

  it('regression: centres 5e-324 apart (squared distance underflows to 0) are reported overlapping with zero radii', () => {
    // exact answer: distance 4.9e-324 > 0 = ra + rb -> false; |d|^2 underflows to 0, so d^2 <= R^2 says true
    expect(overlapSphereSphere(sphere(0, 0, 0, 0), sphere(Number.MIN_VALUE, 0, 0, 0))).toBe(false);
    expect(overlapSphereSphere(sphere(0, 0, 0, 0), sphere(1e-200, 0, 0, 0))).toBe(false);
  });

  it('one sphere containing the other', () => {
    expect(overlapSphereSphere(sphere(0.1, 0, 0, 0.1), sphere(0, 0, 0, 10))).toBe(true);
    expect(overlapSphereSphere(sphere(0, 0, 0, 10), sphere(0.1, 0, 0, 0))).toBe(true);
  });
});
