import { describe, expect, it } from 'vitest';
import { contactSphereBox, overlapSphereBox } from '../../src/index.js';
import { OBox, boxDistance, toArr } from '../oracle/oracle.js';
import { forAllFrozen } from '../support/properties.js';
import { box, newContact, sphere } from '../support/shapes.js';
import { axisAngleQuat, exactSBArb, nextDown, nextUp, sbSceneArb } from './arbitraries.js';
import { EPS_REL, assertOk, checkOverlapGap, sbScale } from './checks.js';

const RUNS = 100_000;
const EXACT_RUNS = 30_000;

describe('overlapSphereBox', () => {
  it(`property: agrees with the oracle outside an eps band, and with contactSphereBox's return value (${RUNS} cases)`, () => {
    forAllFrozen(sbSceneArb, { numRuns: RUNS, seed: 0x0b01 }, (sc) => {
      const got = overlapSphereBox(sc.sphere, sc.box);
      const gap = boxDistance(new OBox(sc.box), toArr(sc.sphere.center)) - sc.sphere.radius;
      assertOk(checkOverlapGap(got, gap, EPS_REL * sbScale(sc.sphere, sc.box)), sc);
      const c = contactSphereBox(sc.sphere, sc.box, newContact());
      if (c !== got) assertOk(`overlapSphereBox = ${got} but contactSphereBox returned ${c}`, sc);
    });
  });

  it(`property: exact integer scenes (touching face/edge/vertex = true, one ulp away = false) (${EXACT_RUNS} cases)`, () => {
    forAllFrozen(exactSBArb, { numRuns: EXACT_RUNS, seed: 0x0b02 }, (sc) => {
      const got = overlapSphereBox(sc.sphere, sc.box);
      if (got !== sc.expectOverlap) assertOk(`${sc.kind}: got ${got}, expected ${sc.expectOverlap}`, sc);
    });
  });

  const B = box(0, 0, 0, 1, 2, 3);
  it('touching a face, an edge and a vertex is an overlap; one ulp further is not', () => {
    expect(overlapSphereBox(sphere(3, 0, 0, 2), B)).toBe(true);
    expect(overlapSphereBox(sphere(nextUp(3), 0, 0, 2), B)).toBe(false);
    expect(overlapSphereBox(sphere(3, 0, 0, nextDown(2)), B)).toBe(false);
    expect(overlapSphereBox(sphere(0, 0, -7, 4), B)).toBe(true);
    expect(overlapSphereBox(sphere(0, 0, nextDown(-7), 4), B)).toBe(false);
    // edge x = 1, y = 2: offset (3, 4) -> distance 5
    expect(overlapSphereBox(sphere(4, 6, 0.5, 5), B)).toBe(true);
    expect(overlapSphereBox(sphere(4, 6, 0.5, nextDown(5)), B)).toBe(false);
    // vertex (-1, 2, -3): offset (-1, 2, -2) -> distance 3
    expect(overlapSphereBox(sphere(-2, 4, -5, 3), B)).toBe(true);
    expect(overlapSphereBox(sphere(-2, 4, -5, nextDown(3)), B)).toBe(false);
  });

  it('zero radius: a point test (closed box)', () => {
    expect(overlapSphereBox(sphere(1, 2, 3, 0), B)).toBe(true); // vertex
    expect(overlapSphereBox(sphere(0, 0, 0, 0), B)).toBe(true);
    expect(overlapSphereBox(sphere(nextUp(1), 0, 0, 0), B)).toBe(false);
    expect(overlapSphereBox(sphere(1, 0, 0, 0), B)).toBe(true);
  });

  it('zero half extents: point, segment and rectangle boxes', () => {
    const P = box(1, 1, 1, 0, 0, 0);
    expect(overlapSphereBox(sphere(1, 4, 5, 5), P)).toBe(true); // |(0,3,4)| = 5
    expect(overlapSphereBox(sphere(1, 4, 5, nextDown(5)), P)).toBe(false);
    expect(overlapSphereBox(sphere(1, 1, 1, 0), P)).toBe(true); // point on point
    const Seg = box(0, 0, 0, 2, 0, 0);
    expect(overlapSphereBox(sphere(2, 0, 0, 0), Seg)).toBe(true);
    expect(overlapSphereBox(sphere(0, 0.5, 0, 0.5), Seg)).toBe(true);
    expect(overlapSphereBox(sphere(0, 0.5, 0, 0.49), Seg)).toBe(false);
    const Rect = box(0, 0, 0, 1, 1, 0);
    expect(overlapSphereBox(sphere(0.5, 0.5, 0, 0), Rect)).toBe(true);
    expect(overlapSphereBox(sphere(0.5, 0.5, 2, 2), Rect)).toBe(true);
  });

  it('regression: a point 1e-300 off a flat rectangle (squared distance underflows to 0) is reported overlapping', () => {
    // exact answer: distance 1e-300 > 0 = r -> false
    expect(overlapSphereBox(sphere(0.5, 0.5, 1e-300, 0), box(0, 0, 0, 1, 1, 0))).toBe(false);
    // (1 + 1e-200 === 1 in float64, so the underflow case is a point 1e-200 from a point box)
    expect(overlapSphereBox(sphere(1e-200, 0, 0, 0), box(0, 0, 0, 0, 0, 0))).toBe(false);
  });

  it('rotation maps box-local to world (sense of rotation matters)', () => {
    // long box along local x, rotated +30deg about z: its long axis points to (cos30, sin30)
    const q = axisAngleQuat(2, Math.PI / 6);
    const R = box(0, 0, 0, 2, 0.25, 0.25, q);
    const c = Math.cos(Math.PI / 6);
    const s = Math.sin(Math.PI / 6);
    expect(overlapSphereBox(sphere(1.9 * c, 1.9 * s, 0, 0), R)).toBe(true);
    expect(overlapSphereBox(sphere(1.9 * c, -1.9 * s, 0, 0), R)).toBe(false);
    // 45deg cube: corner at x = sqrt 2
    const C = box(0, 0, 0, 1, 1, 1, axisAngleQuat(2, Math.PI / 4));
    expect(overlapSphereBox(sphere(1.5, 0, 0, 0.05), C)).toBe(false);
    expect(overlapSphereBox(sphere(1.5, 0, 0, 0.1), C)).toBe(true);
    // identity quaternion behaves like no rotation; explicit rotation: undefined is accepted
    expect(overlapSphereBox(sphere(3, 0, 0, 2), box(0, 0, 0, 1, 2, 3, { x: 0, y: 0, z: 0, w: 1 }))).toBe(true);
    expect(overlapSphereBox(sphere(3, 0, 0, 2), { center: { x: 0, y: 0, z: 0 }, halfExtents: { x: 1, y: 2, z: 3 }, rotation: undefined })).toBe(true);
  });

  it('2D: z = 0 everywhere, rotation about z, any half extent z', () => {
    const q = axisAngleQuat(2, Math.PI / 2); // local x -> world y
    for (const hz of [0, 0.5, 10]) {
      const R = box(1, 1, 0, 3, 1, hz, q);
      expect(overlapSphereBox(sphere(1, 3.9, 0, 0), R)).toBe(true);
      expect(overlapSphereBox(sphere(2.9, 1, 0, 0), R)).toBe(false);
      expect(overlapSphereBox(sphere(2.9, 1, 0, 1), R)).toBe(true);
    }
  });

  it('regression (issue 9): NaN in any input is no overlap (it was true)', () => {
    expect(overlapSphereBox(sphere(NaN, 0, 0, 1), box(0, 0, 0, 1, 1, 1))).toBe(false);
    expect(overlapSphereBox(sphere(0, 0, 0, 1), box(0, 0, 0, NaN, 1, 1))).toBe(false);
  });
});
