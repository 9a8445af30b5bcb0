import { describe, expect, it } from 'vitest';
import {
  castBoxSphere,
  castSphereBox,
  contactBoxSphere,
  contactSphereBox,
  overlapBoxSphere,
  overlapSphereBox,
} from '../../src/index.js';
import { maxAbs3, positionAt, sub3, toArr } from '../oracle/oracle.js';
import { expectVec } from '../support/expectGeometry.js';
import { forAllFrozen } from '../support/properties.js';
import { box, newCast, newContact, sphere, vec3 as v } from '../support/shapes.js';
import { axisAngleQuat, sbCastArb, sbSceneArb } from './arbitraries.js';
import { EPS_REL, assertOk, checkSBContact, neg, same3, sbScale, translateBox } from './checks.js';

const RUNS = 100_000;

describe('overlapBoxSphere', () => {
  it(`property: equals overlapSphereBox with the arguments swapped (${RUNS} cases)`, () => {
    forAllFrozen(sbSceneArb, { numRuns: RUNS, seed: 0x3101 }, (sc) => {
      const a = overlapBoxSphere(sc.box, sc.sphere);
      if (a !== overlapSphereBox(sc.sphere, sc.box)) assertOk(`overlapBoxSphere ${a} != overlapSphereBox`, sc);
    });
  });
  it('touching counts', () => {
    expect(overlapBoxSphere(box(0, 0, 0, 1, 1, 1), sphere(3, 0, 0, 2))).toBe(true);
    expect(overlapBoxSphere(box(0, 0, 0, 1, 1, 1), sphere(3, 0, 0, 1.5))).toBe(false);
  });
});

describe('contactBoxSphere', () => {
  it(`property: same depth and point as contactSphereBox, normal negated (points from the sphere toward the box) (${RUNS} cases)`, () => {
    forAllFrozen(sbSceneArb, { numRuns: RUNS, seed: 0x3102 }, (sc) => {
      const o1 = newContact();
      const o2 = newContact();
      const h1 = contactSphereBox(sc.sphere, sc.box, o1);
      const h2 = contactBoxSphere(sc.box, sc.sphere, o2);
      if (h1 !== h2) assertOk(`contactBoxSphere ${h2} != contactSphereBox ${h1}`, sc);
      if (!h2) return;
      if (o2.depth !== o1.depth || !same3(o2.point, o1.point) || !same3(o2.normal, neg(o1.normal)))
        assertOk(`mirror ${JSON.stringify(o2)} vs contactSphereBox ${JSON.stringify(o1)}`, sc);
      const eps = EPS_REL * sbScale(sc.sphere, sc.box);
      assertOk(checkSBContact(toArr(sc.sphere.center), sc.sphere.radius, sc.box, neg(o2.normal), o2.point, o2.depth, eps), sc);
    });
  });
  it('normal points from the sphere toward the box', () => {
    const out = newContact();
    expect(contactBoxSphere(box(0, 0, 0, 1, 2, 3), sphere(3, 0.5, 0.5, 2.5), out)).toBe(true);
    expectVec(out.normal, v(-1, 0, 0), 0);
    expect(out.depth).toBe(0.5);
    expectVec(out.point, v(1, 0.5, 0.5), 0);
    expect(contactBoxSphere(box(0, 0, 0, 1, 1, 1), sphere(0, 0, 0, 1), out)).toBe(true);
    expectVec(out.normal, v(-1, 0, 0), 0); // tie-break +x, negated
    expect(out.depth).toBe(2);
  });
});

describe('castBoxSphere', () => {
  it(`property: toi of castSphereBox(sphere, -motion, box), normal negated, point moved with the box (${RUNS} cases)`, () => {
    forAllFrozen(sbCastArb, { numRuns: RUNS, seed: 0x3103 }, (sc) => {
      const mNeg = neg(sc.motion);
      const o1 = newCast();
      const o2 = newCast();
      const h1 = castSphereBox(sc.sphere, mNeg, sc.box, o1);
      const h2 = castBoxSphere(sc.box, sc.motion, sc.sphere, o2);
      if (h1 !== h2) assertOk(`castBoxSphere ${h2} != castSphereBox(sphere, -motion, box) ${h1}`, sc);
      if (!h2) return;
      if (o2.toi !== o1.toi || !same3(o2.normal, neg(o1.normal))) assertOk(`mirror ${JSON.stringify(o2)} vs castSphereBox ${JSON.stringify(o1)}`, sc);
      const eps = EPS_REL * sbScale(sc.sphere, sc.box, sc.motion);
      const expectedPoint = positionAt(toArr(o1.point), toArr(sc.motion), o1.toi);
      if (maxAbs3(sub3(toArr(o2.point), expectedPoint)) > eps)
        assertOk(`point ${JSON.stringify(o2.point)} != castSphereBox point + toi*motion = ${expectedPoint}`, sc);
      // oracle: in the world at impact, the box has moved by toi * motion; point on its surface,
      // normal (negated) from the moved box toward the fixed sphere centre
      const moved = translateBox(sc.box, positionAt([0, 0, 0], toArr(sc.motion), o2.toi));
      assertOk(checkSBContact(toArr(sc.sphere.center), sc.sphere.radius, moved, neg(o2.normal), o2.point, undefined, eps), sc);
    });
  });

  it('a box moving into a fixed sphere: world contact point at impact', () => {
    const out = newCast();
    // box [-1,1]^3 moves +x by 10; sphere r 1 at x = 7: touch when the box face reaches x = 6
    expect(castBoxSphere(box(0, 0, 0, 1, 1, 1), v(10, 0, 0), sphere(7, 0.5, 0, 1), out)).toBe(true);
    expect(out.toi).toBeCloseTo(0.5, 15);
    expectVec(out.normal, v(-1, 0, 0));
    expectVec(out.point, v(6, 0.5, 0));
    // thin rotated box swept through a sphere
    const B = box(0, 0, 0, 2, 2, 0, axisAngleQuat(2, 0.3));
    expect(castBoxSphere(B, v(0, 0, 100), sphere(0.1, 0.2, 50, 2), out)).toBe(true);
    expect(out.toi).toBeCloseTo(0.48, 13);
    expectVec(out.normal, v(0, 0, -1));
    expectVec(out.point, v(0.1, 0.2, 48), 1e-11);
  });
});
