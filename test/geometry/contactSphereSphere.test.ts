import { describe, expect, it } from 'vitest';
import { contactSphereSphere, overlapSphereSphere, type SphereShape } from '../../src/index.js';
import { contactSphereSphereOracle, toArr } from '../oracle/oracle.js';
import { expectContact, expectVec } from '../support/expectGeometry.js';
import { forAllFrozen } from '../support/properties.js';
import { contactWith, newContact, sphere, vec3 as v } from '../support/shapes.js';
import { exactSSArb, ssSceneArb } from './arbitraries.js';
import { EPS_REL, assertOk, checkExactContact, checkOverlapGap, checkSSContact, checkVecNear, normalTol, ssScale } from './checks.js';

const RUNS = 100_000;
const EXACT_RUNS = 30_000;
const contact = (a: SphereShape, b: SphereShape) => contactWith(contactSphereSphere, a, b);

describe('contactSphereSphere', () => {
  it(`property: normal / depth / point agree with the oracle; swapping the arguments flips the normal (${RUNS} cases)`, () => {
    forAllFrozen(ssSceneArb, { numRuns: RUNS, seed: 0x5c01 }, (sc) => {
      const out = newContact();
      const hit = contactSphereSphere(sc.a, sc.b, out);
      const eps = EPS_REL * ssScale(sc.a, sc.b);
      const o = contactSphereSphereOracle(sc.a, sc.b);
      if (hit !== overlapSphereSphere(sc.a, sc.b)) assertOk('contact and overlap disagree', sc);
      assertOk(checkOverlapGap(hit, -o.depth, eps), sc);
      if (!hit) return;
      if (!(out.depth >= 0)) assertOk(`depth ${out.depth} < 0 on a true return`, sc);
      const ca = toArr(sc.a.center);
      const cb = toArr(sc.b.center);
      assertOk(checkSSContact(ca, sc.a.radius, cb, sc.b.radius, out.normal, out.point, out.depth, eps), sc);
      // swapped
      const out2 = newContact();
      if (!contactSphereSphere(sc.b, sc.a, out2)) assertOk('swapped arguments: no contact', sc);
      assertOk(checkSSContact(cb, sc.b.radius, ca, sc.a.radius, out2.normal, out2.point, out2.depth, eps), { swapped: true, ...sc });
      if (!(Math.abs(out2.depth - out.depth) <= eps)) assertOk(`swapped depth ${out2.depth} != ${out.depth}`, sc);
      const coincident = ca[0] === cb[0] && ca[1] === cb[1] && ca[2] === cb[2];
      const tol = coincident ? 0 : o.dist > 0 ? normalTol(eps, o.dist) : 2;
      const flip = coincident ? out.normal : { x: -out.normal.x, y: -out.normal.y, z: -out.normal.z };
      if (Math.abs(out2.normal.x - flip.x) > tol || Math.abs(out2.normal.y - flip.y) > tol || Math.abs(out2.normal.z - flip.z) > tol)
        assertOk(`swapped normal ${JSON.stringify(out2.normal)}, expected ${JSON.stringify(flip)}`, sc);
    });
  });

  it(`property: exact integer scenes: exact depth when touching / overlapping by an integer (${EXACT_RUNS} cases)`, () => {
    forAllFrozen(exactSSArb, { numRuns: EXACT_RUNS, seed: 0x5c02 }, (sc) => {
      const out = contact(sc.a, sc.b);
      assertOk(checkExactContact(sc, out.hit, out.depth), sc);
      if (!out.hit) return;
      const o = contactSphereSphereOracle(sc.a, sc.b);
      assertOk(checkVecNear(`${sc.kind}: normal`, out.normal, o.normal, 1e-15), sc);
      assertOk(checkVecNear(`${sc.kind}: point`, out.point, o.point, 4e-16 * ssScale(sc.a, sc.b)), sc);
    });
  });

  it('separated along an axis / diagonal: normal from b to a, point on b', () => {
    expectContact(contact(sphere(3, 0, 0, 2), sphere(0, 0, 0, 1.5)), { hit: true, normal: v(1, 0, 0), depth: 0.5, point: v(1.5, 0, 0) });
    const d = contact(sphere(4, 6, 3, 3), sphere(1, 2, 3, 2)); // offset (3,4,0): touching
    expect(d.hit).toBe(true);
    expect(d.depth).toBe(0);
    expectVec(d.normal, v(0.6, 0.8, 0), 1e-15);
    expectVec(d.point, v(1 + 1.2, 2 + 1.6, 3), 1e-15);
  });

  it('coincident centres: normal +x, depth ra + rb, point cb + rb * x', () => {
    expectContact(contact(sphere(1, 2, 3, 0.5), sphere(1, 2, 3, 2)), { hit: true, normal: v(1, 0, 0), depth: 2.5, point: v(3, 2, 3) });
    expectContact(contact(sphere(1, 2, 3, 0), sphere(1, 2, 3, 0)), { hit: true, normal: v(1, 0, 0), depth: 0, point: v(1, 2, 3) });
  });

  it('tiny but nonzero separation along +x: unit normal, no NaN', () => {
    expectContact(contact(sphere(1e-200, 0, 0, 1), sphere(0, 0, 0, 1)), { hit: true, normal: v(1, 0, 0), depth: 2 });
  });

  it('regression: centres 5e-170 apart (squared distance underflows) get the coincident-centre normal +x instead of (ca - cb)/|ca - cb|', () => {
    const d = contact(sphere(0, -3e-170, 4e-170, 1), sphere(0, 0, 0, 1));
    expect(d.hit).toBe(true);
    expectVec(d.normal, v(0, -0.6, 0.8), 1e-15);
  });

  it('zero radii', () => {
    const c = contact(sphere(0, 3, 4, 0), sphere(0, 0, 0, 6));
    expect(c.hit).toBe(true);
    expect(c.depth).toBe(1);
    expectVec(c.normal, v(0, 0.6, 0.8), 1e-15);
    expectVec(c.point, v(0, 3.6, 4.8), 1e-15);
    const d = contact(sphere(0, 0, 0, 6), sphere(0, 3, 4, 0));
    expect(d.depth).toBe(1);
    expectVec(d.normal, v(0, -0.6, -0.8), 1e-15);
    expectVec(d.point, v(0, 3, 4), 0);
  });

  it('regression (issue 9): centres one subnormal step apart per axis: a unit normal (it was (0.5, 0.5, 0.5), |n| = 0.87)', () => {
    const u = Number.MIN_VALUE;
    const c = contact(sphere(u, u, u, u), sphere(0, 0, 0, u));
    expect(c.hit).toBe(true);
    expectVec(c.normal, v(Math.sqrt(1 / 3), Math.sqrt(1 / 3), Math.sqrt(1 / 3)), 1e-15);
  });
});
