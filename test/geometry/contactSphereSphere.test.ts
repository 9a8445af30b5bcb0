import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contactSphereSphere, overlapSphereSphere } from '../../src/index.js';
import { contactSphereSphereOracle, toArr } from '../oracle/oracle.js';
import { exactSSArb, ssSceneArb } from './arbitraries.js';
import { EPS_REL, assertOk, checkSSContact, deepFreeze, newContact, normalTol, ssScale } from './checks.js';

const RUNS = 100_000;
const EXACT_RUNS = 30_000;
const sphere = (x: number, y: number, z: number, radius: number) => ({ center: { x, y, z }, radius });
const v = (x: number, y: number, z: number) => ({ x, y, z });

function contact(a: ReturnType<typeof sphere>, b: ReturnType<typeof sphere>) {
  const out = newContact();
  const hit = contactSphereSphere(a, b, out);
  return { hit, ...out };
}
function expectVec(actual: { x: number; y: number; z: number }, expected: { x: number; y: number; z: number }, tol = 0) {
  const msg = `${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`;
  expect(Math.abs(actual.x - expected.x), msg).toBeLessThanOrEqual(tol);
  expect(Math.abs(actual.y - expected.y), msg).toBeLessThanOrEqual(tol);
  expect(Math.abs(actual.z - expected.z), msg).toBeLessThanOrEqual(tol);
}

describe('contactSphereSphere', () => {
  it(`property: normal / depth / point agree with the oracle; swapping the arguments flips the normal (${RUNS} cases)`, () => {
    fc.assert(
      fc.property(ssSceneArb, (sc) => {
        deepFreeze(sc);
        const out = newContact();
        const hit = contactSphereSphere(sc.a, sc.b, out);
        const eps = EPS_REL * ssScale(sc.a, sc.b);
        const o = contactSphereSphereOracle(sc.a, sc.b);
        const gap = -o.depth;
        if (hit !== overlapSphereSphere(sc.a, sc.b)) assertOk('contact and overlap disagree', sc);
        if (!hit) {
          if (gap < -eps) assertOk(`false, but gap = ${gap}`, sc);
          return;
        }
        if (gap > eps) assertOk(`true, but gap = ${gap}`, sc);
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
      }),
      { numRuns: RUNS, seed: 0x5c01 },
    );
  });

  it(`property: exact integer scenes: exact depth when touching / overlapping by an integer (${EXACT_RUNS} cases)`, () => {
    fc.assert(
      fc.property(exactSSArb, (sc) => {
        deepFreeze(sc);
        const out = newContact();
        const hit = contactSphereSphere(sc.a, sc.b, out);
        if (hit !== sc.expectOverlap) assertOk(`${sc.kind}: returned ${hit}, expected ${sc.expectOverlap}`, sc);
        if (!hit) return;
        if (sc.expectDepth !== undefined && out.depth !== sc.expectDepth) assertOk(`${sc.kind}: depth ${out.depth}, expected exactly ${sc.expectDepth}`, sc);
        const o = contactSphereSphereOracle(sc.a, sc.b);
        const S = ssScale(sc.a, sc.b);
        if (Math.abs(out.normal.x - o.normal[0]) > 1e-15 || Math.abs(out.normal.y - o.normal[1]) > 1e-15 || Math.abs(out.normal.z - o.normal[2]) > 1e-15)
          assertOk(`normal ${JSON.stringify(out.normal)}, expected ${o.normal}`, sc);
        if (Math.abs(out.point.x - o.point[0]) > 4e-16 * S || Math.abs(out.point.y - o.point[1]) > 4e-16 * S || Math.abs(out.point.z - o.point[2]) > 4e-16 * S)
          assertOk(`point ${JSON.stringify(out.point)}, expected ${o.point}`, sc);
      }),
      { numRuns: EXACT_RUNS, seed: 0x5c02 },
    );
  });

  it('separated along an axis / diagonal: normal from b to a, point on b', () => {
    const c = contact(sphere(3, 0, 0, 2), sphere(0, 0, 0, 1.5));
    expect(c.hit).toBe(true);
    expectVec(c.normal, v(1, 0, 0));
    expect(c.depth).toBe(0.5);
    expectVec(c.point, v(1.5, 0, 0));
    const d = contact(sphere(4, 6, 3, 3), sphere(1, 2, 3, 2)); // offset (3,4,0): touching
    expect(d.hit).toBe(true);
    expect(d.depth).toBe(0);
    expectVec(d.normal, v(0.6, 0.8, 0), 1e-15);
    expectVec(d.point, v(1 + 1.2, 2 + 1.6, 3), 1e-15);
  });

  it('coincident centres: normal +x, depth ra + rb, point cb + rb * x', () => {
    const c = contact(sphere(1, 2, 3, 0.5), sphere(1, 2, 3, 2));
    expect(c.hit).toBe(true);
    expectVec(c.normal, v(1, 0, 0));
    expect(c.depth).toBe(2.5);
    expectVec(c.point, v(3, 2, 3));
    const z = contact(sphere(1, 2, 3, 0), sphere(1, 2, 3, 0));
    expect(z.hit).toBe(true);
    expectVec(z.normal, v(1, 0, 0));
    expect(z.depth).toBe(0);
    expectVec(z.point, v(1, 2, 3));
  });

  it('tiny but nonzero separation along +x: unit normal, no NaN', () => {
    const c = contact(sphere(1e-200, 0, 0, 1), sphere(0, 0, 0, 1));
    expect(c.hit).toBe(true);
    expectVec(c.normal, v(1, 0, 0));
    expect(c.depth).toBe(2);
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
    expectVec(d.point, v(0, 3, 4));
  });
});
