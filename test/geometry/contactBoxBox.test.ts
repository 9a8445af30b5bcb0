import { afterAll, describe, expect, it } from 'vitest';
import { contactBoxBox, overlapBoxBox, type BoxShape, type ContactResult } from '../../src/index.js';
import { boxesIntersect, penetration, polyOf } from '../oracle/boxBox.js';
import { maxAbs3, toArr } from '../oracle/oracle.js';
import { Tally } from '../support/boxBoxReport.js';
import { expectContact, expectVec } from '../support/expectGeometry.js';
import { forAllFrozen } from '../support/properties.js';
import { box, contactWith, newContact, vec3 as v } from '../support/shapes.js';
import { axisAngleQuat } from './arbitraries.js';
import { bbSceneArb, exactBBArb } from './arbitrariesBoxBox.js';
import { EPS_REL, assertOk } from './checks.js';
import { bbScale, checkContactBB, checkContactGeometry, uniqueAxis } from './checksBoxBox.js';

const RUNS = 100_000;
const EXACT_RUNS = 30_000;

const contact = (a: BoxShape, b: BoxShape) => contactWith(contactBoxBox, a, b);

const tally = new Tally();

afterAll(() => tally.print('contactBoxBox cases by kind'));

describe('contactBoxBox', () => {
  it(`property: both argument orders agree with the oracle; the mirrored normal is the opposite one where the axis is unique (${RUNS} cases)`, () => {
    forAllFrozen(bbSceneArb, { numRuns: RUNS, seed: 0xc0b1 }, (sc) => {
      const out = newContact();
      const hit = contactBoxBox(sc.a, sc.b, out);
      if (hit !== overlapBoxBox(sc.a, sc.b)) assertOk('contactBoxBox and overlapBoxBox disagree', sc);
      assertOk(checkContactBB(sc.a, sc.b, hit, out), sc);
      const back = newContact();
      const hitBack = contactBoxBox(sc.b, sc.a, back);
      assertOk(checkContactBB(sc.b, sc.a, hitBack, back), { mirrored: true, ...sc });
      tally.count(`${sc.kind} ${hit ? 'hit' : 'miss'}`);
      if (!hit || !hitBack) return;
      const scale = bbScale(sc.a, sc.b);
      if (uniqueAxis(sc.a, sc.b, 1e-6 * scale) === undefined) return;
      tally.count('both orders, unique axis: normals compared');
      const n = toArr(out.normal);
      const m = toArr(back.normal);
      if (maxAbs3([n[0] + m[0], n[1] + m[1], n[2] + m[2]]) > 1e-6) assertOk(`mirrored normal ${m} is not −${n}`, sc);
    });
  });

  it(`property: exact integer scenes: exact hit, depth, axis normal; point exactly on b's surface and on a when touching (${EXACT_RUNS} cases)`, () => {
    forAllFrozen(exactBBArb, { numRuns: EXACT_RUNS, seed: 0xc0b2 }, (sc) => {
      for (const [a, b] of [[sc.a, sc.b], [sc.b, sc.a]]) {
        const out = newContact();
        const hit = contactBoxBox(a, b, out);
        const A = polyOf(a);
        const B = polyOf(b);
        const meet = boxesIntersect(A, B);
        if (hit !== meet) assertOk(`returned ${hit}, expected ${meet}`, { a, b });
        if (!hit) continue;
        const depth = Math.max(0, penetration(A, B).depth);
        tally.count(`exact ${depth === 0 ? 'touching' : 'overlapping'}`);
        if (out.depth !== depth) assertOk(`depth ${out.depth}, expected exactly ${depth}`, { a, b });
        const n = toArr(out.normal);
        if (n.filter((c) => c === 0).length !== 2) assertOk(`normal ${n} is not an axis`, { a, b });
        assertOk(checkContactGeometry(A, B, -depth, out, out.depth, 0), { a, b });
      }
    });
  });

  const unit = box(0, 0, 0, 1, 1, 1);

  it('face contact: normal from b toward a, depth, point in the middle of the overlap on b\'s face', () => {
    expectContact(contact(box(0.5, 1.75, -0.25, 1, 1, 1), unit), { hit: true, normal: v(0, 1, 0), depth: 0.25, point: v(0.25, 1, -0.125) });
    // a larger than b: the clipped region is b's whole face.
    expectContact(contact(box(0, -4, 0, 5, 3.5, 5), unit), { hit: true, normal: v(0, -1, 0), depth: 0.5, point: v(0, -1, 0) });
    // touching: depth 0 exactly, the point where they touch.
    expectContact(contact(box(0, 0, 2, 1, 1, 1), unit), { hit: true, normal: v(0, 0, 1), depth: 0, point: v(0, 0, 1) });
  });

  it('ties go to b\'s faces x, y, z, then a\'s; a centred on b gets the + direction', () => {
    expectContact(contact(box(0, 0, 0, 1, 1, 1), unit), { hit: true, normal: v(1, 0, 0), depth: 2 });
    expectContact(contact(box(0, 0, 0, 2, 1, 1), unit), { hit: true, normal: v(0, 1, 0), depth: 2 });
    expectContact(contact(box(-0.5, 0, 0, 1, 1, 1), unit), { hit: true, normal: v(-1, 0, 0), depth: 1.5 });
    // edge touching of axis-aligned boxes: x and y tie at 0, x first
    expectContact(contact(box(2, 2, 0, 1, 1, 1), unit), { hit: true, normal: v(1, 0, 0), depth: 0, point: v(1, 1, 0) });
  });

  it('edge–edge: crossed edges of boxes turned 45° about x and about z', () => {
    const b = box(0, 0, 0, 1, 1, 1, axisAngleQuat(0, Math.PI / 4)); // top edge along x at y = √2
    const cy = 2 * Math.SQRT2 - 0.1;
    const c = contact(box(0.3, cy, -0.2, 1, 1, 1, axisAngleQuat(2, Math.PI / 4)), b); // bottom edge along z
    expect(c.hit).toBe(true);
    expect(c.depth).toBeCloseTo(0.1, 14);
    expectVec(c.normal, v(0, 1, 0), 1e-15);
    expectVec(c.point, v(0.3, Math.SQRT2, 0), 1e-14);
  });

  it('edge onto a face: the point lies on the face under the edge', () => {
    const c = contact(box(0, 1 + Math.SQRT2 - 0.2, 0.1, 1, 1, 0.5, axisAngleQuat(2, Math.PI / 4)), unit);
    expect(c.hit).toBe(true);
    expect(c.depth).toBeCloseTo(0.2, 14);
    expectVec(c.normal, v(0, 1, 0), 0);
    expect(c.point.y).toBe(1);
    expect(Math.abs(c.point.x)).toBeLessThanOrEqual(0.2 + 1e-12);
    expect(c.point.z).toBeCloseTo(0.1, 14);
  });

  it('flat boxes: a point inside, a segment through a rectangle, crossing segments', () => {
    expectContact(contact(box(0.5, -0.25, 0, 0, 0, 0), unit), { hit: true, normal: v(1, 0, 0), depth: 0.5, point: v(1, -0.25, 0) });
    expectContact(contact(box(0.3, 0.2, 0, 0, 0, 5), box(0, 0, 0, 1, 1, 0)), { hit: true, normal: v(1, 0, 0), depth: 0.7, point: v(1, 0.2, 0) });
    expectContact(contact(box(0, 0, 0, 1, 0, 0), box(0.5, 0, 0, 0, 1, 0)), { hit: true, depth: 0, point: v(0.5, 0, 0) });
  });

  it('separated or non-finite: false, out untouched', () => {
    const out: ContactResult = { normal: v(7, 8, 9), depth: 6, point: v(5, 4, 3) };
    expect(contactBoxBox(box(3, 0, 0, 1, 1, 1), unit, out)).toBe(false);
    for (const bad of [NaN, Infinity]) {
      expect(contactBoxBox(box(0.5, 0, bad, 1, 1, 1), unit, out)).toBe(false);
      expect(contactBoxBox(unit, box(0, 0, 0, 1, 1, 1, { x: 0, y: bad, z: 0, w: 1 }), out)).toBe(false);
    }
    expect(out).toEqual({ normal: v(7, 8, 9), depth: 6, point: v(5, 4, 3) });
  });

  it('out may share objects with the inputs', () => {
    const expected = contact(box(0.5, 1.75, -0.25, 1, 1, 1), unit);
    const a = box(0.5, 1.75, -0.25, 1, 1, 1);
    const b = box(0, 0, 0, 1, 1, 1);
    expect(contactBoxBox(a, b, { normal: a.center, depth: 0, point: b.center })).toBe(true);
    expect(a.center).toEqual(expected.normal);
    expect(b.center).toEqual(expected.point);
    const c = box(0.5, 1.75, -0.25, 1, 1, 1);
    const d = box(0, 0, 0, 1, 1, 1);
    expect(contactBoxBox(c, d, { normal: d.halfExtents, depth: 0, point: c.halfExtents })).toBe(true);
    expect(d.halfExtents).toEqual(expected.normal);
    expect(c.halfExtents).toEqual(expected.point);
    // regression: the normal written into b's centre before the point was computed from it
    const e = box(0.5, 1.75, -0.25, 1, 1, 1);
    const f = box(0, 0, 0, 1, 1, 1);
    expect(contactBoxBox(e, f, { normal: f.center, depth: 0, point: e.center })).toBe(true);
    expect(f.center).toEqual(expected.normal);
    expect(e.center).toEqual(expected.point);
  });

  it('the mirrored order flips the normal; the point is then on a', () => {
    const a = box(0.5, 1.75, -0.25, 1, 1, 1);
    const back = contact(unit, a);
    expectContact(back, { hit: true, normal: v(0, -1, 0), depth: 0.25, point: v(0.25, 0.75, -0.125) });
    const eps = EPS_REL * 2;
    assertOk(checkContactGeometry(polyOf(unit), polyOf(a), -0.25, back, back.depth, eps), {});
  });
});
