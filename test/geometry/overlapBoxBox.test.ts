import { afterAll, describe, expect, it } from 'vitest';
import { castBoxBox, contactBoxBox, overlapBoxBox, type BoxShape } from '../../src/index.js';
import { boxesIntersect, polyOf } from '../oracle/boxBox.js';
import { Tally } from '../support/boxBoxReport.js';
import { forAllFrozen } from '../support/properties.js';
import { box, newCast, newContact } from '../support/shapes.js';
import { axisAngleQuat, randomQuat } from './arbitraries.js';
import { bbSceneArb, exactBBArb, quatMul } from './arbitrariesBoxBox.js';
import { assertOk } from './checks.js';
import { checkOverlapBB } from './checksBoxBox.js';
import fc from 'fast-check';

const RUNS = 100_000;
const EXACT_RUNS = 30_000;
const ZERO = { x: 0, y: 0, z: 0 };

const tally = new Tally();

afterAll(() => tally.print('overlapBoxBox cases by kind'));

describe('overlapBoxBox', () => {
  it(`property: agrees with the oracle in both argument orders, with contactBoxBox and with a zero-motion cast (${RUNS} cases)`, () => {
    forAllFrozen(bbSceneArb, { numRuns: RUNS, seed: 0xb0b1 }, (sc) => {
      const got = overlapBoxBox(sc.a, sc.b);
      tally.count(`${sc.kind} ${got ? 'overlap' : 'apart'}`);
      assertOk(checkOverlapBB(sc.a, sc.b, got, overlapBoxBox(sc.b, sc.a)), sc);
      if (contactBoxBox(sc.a, sc.b, newContact()) !== got) assertOk('contactBoxBox disagrees', sc);
      if (castBoxBox(sc.a, ZERO, sc.b, newCast()) !== got) assertOk('castBoxBox with zero motion disagrees', sc);
    });
  });

  it(`property: exact integer scenes (face, edge, vertex touching, 2^-20 apart or inside) equal the oracle exactly (${EXACT_RUNS} cases)`, () => {
    forAllFrozen(exactBBArb, { numRuns: EXACT_RUNS, seed: 0xb0b2 }, (sc) => {
      const expected = boxesIntersect(polyOf(sc.a), polyOf(sc.b));
      tally.count(`exact ${expected ? 'meet' : 'apart'}`);
      if (overlapBoxBox(sc.a, sc.b) !== expected) assertOk(`expected ${expected}`, sc);
      if (overlapBoxBox(sc.b, sc.a) !== expected) assertOk(`mirrored: expected ${expected}`, sc);
    });
  });

  const unit = box(0, 0, 0, 1, 1, 1);

  it('touching counts (face, edge, vertex); any gap is apart', () => {
    expect(overlapBoxBox(box(2, 0, 0, 1, 1, 1), unit)).toBe(true);
    expect(overlapBoxBox(box(2, 2, 0, 1, 1, 1), unit)).toBe(true);
    expect(overlapBoxBox(box(2, -2, 2, 1, 1, 1), unit)).toBe(true);
    expect(overlapBoxBox(box(2 + 2 ** -40, 0, 0, 1, 1, 1), unit)).toBe(false);
    expect(overlapBoxBox(box(2, 2 + 2 ** -40, 0, 1, 1, 1), unit)).toBe(false);
    expect(overlapBoxBox(box(0.25, 0.5, -0.5, 0.1, 0.2, 0.3), unit)).toBe(true); // inside
    expect(overlapBoxBox(unit, box(0, 0, 0, 3, 3, 3))).toBe(true); // contains
  });

  it('flat boxes: segments, points and rectangles', () => {
    // Two segments crossing at one point, in planes 0 apart (touching) and 2^-30 apart.
    expect(overlapBoxBox(box(0, 0, 0, 1, 0, 0), box(0.5, 0, 0, 0, 1, 0))).toBe(true);
    expect(overlapBoxBox(box(0, 0, 2 ** -30, 1, 0, 0), box(0.5, 0, 0, 0, 1, 0))).toBe(false);
    // Collinear segments meeting end to end, and one ulp-scale short.
    expect(overlapBoxBox(box(2, 0, 0, 1, 0, 0), box(0, 0, 0, 1, 0, 0))).toBe(true);
    expect(overlapBoxBox(box(2 + 2 ** -40, 0, 0, 1, 0, 0), box(0, 0, 0, 1, 0, 0))).toBe(false);
    // Points on a face, an edge and a vertex of the unit box; just off it.
    for (const [x, y, z] of [[1, 0.5, -0.5], [1, 1, 0.25], [-1, 1, -1]]) {
      expect(overlapBoxBox(box(x, y, z, 0, 0, 0), unit)).toBe(true);
      expect(overlapBoxBox(box(x * (1 + 2 ** -40), y, z, 0, 0, 0), unit)).toBe(false);
    }
    // Coplanar rectangles (2D boxes with hz = 0), rotated about z.
    const q = axisAngleQuat(2, 0.3);
    expect(overlapBoxBox(box(2.5, 0, 0, 1, 1, 0, q), box(0, 0, 0, 1.5, 1, 0))).toBe(true);
    expect(overlapBoxBox(box(3.5, 0, 0, 1, 1, 0, q), box(0, 0, 0, 1.5, 1, 0))).toBe(false);
    // A segment through the middle of a rectangle, perpendicular to it.
    expect(overlapBoxBox(box(0.3, 0.2, 0, 0, 0, 5), box(0, 0, 0, 1, 1, 0))).toBe(true);
  });

  it('parallel edges: equal or nearly equal rotations never report a false separation', () => {
    const quats = fc.sample(randomQuat, { seed: 42, numRuns: 500 });
    for (const q of quats) {
      for (const tilt of [0, 1e-15, 1e-12, 1e-9]) {
        const qa = quatMul(q, axisAngleQuat(1, tilt));
        const b: BoxShape = { center: { x: 0, y: 0, z: 0 }, halfExtents: { x: 1, y: 2, z: 0.5 }, rotation: q };
        // a overlaps b by 0.1 along b's local x axis (world direction of that axis).
        const ax = polyOf(b).box.axes[0];
        const a: BoxShape = { center: { x: 1.9 * ax[0], y: 1.9 * ax[1], z: 1.9 * ax[2] }, halfExtents: { x: 1, y: 2, z: 0.5 }, rotation: qa };
        expect(overlapBoxBox(a, b)).toBe(true);
        expect(overlapBoxBox(b, a)).toBe(true);
      }
    }
  });

  it('non-finite input: false', () => {
    for (const bad of [NaN, Infinity, -Infinity]) {
      expect(overlapBoxBox(box(bad, 0, 0, 1, 1, 1), unit)).toBe(false);
      expect(overlapBoxBox(box(0, 0, 0, 1, bad, 1), unit)).toBe(false);
      expect(overlapBoxBox(unit, box(0, 0, bad, 1, 1, 1))).toBe(false);
      expect(overlapBoxBox(box(0, 0, 0, 1, 1, 1, { x: 0, y: 0, z: 0, w: bad }), unit)).toBe(false);
      expect(overlapBoxBox(unit, box(0, 0, 0, 1, 1, 1, { x: bad, y: 0, z: 0, w: 1 }))).toBe(false);
    }
  });
});
