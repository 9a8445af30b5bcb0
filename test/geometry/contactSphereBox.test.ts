import { describe, expect, it } from 'vitest';
import { contactSphereBox, overlapSphereBox, type BoxShape, type SphereShape } from '../../src/index.js';
import { contactSphereBoxOracle, toArr } from '../oracle/oracle.js';
import { expectContact, expectVec } from '../support/expectGeometry.js';
import { deepFreeze, forAllFrozen } from '../support/properties.js';
import { box, contactWith, newContact, sphere, vec3 as v } from '../support/shapes.js';
import { axisAngleQuat, exactSBArb, sbSceneArb } from './arbitraries.js';
import { EPS_REL, assertOk, checkExactContact, checkOverlapGap, checkSBContact, checkVecNear, sbScale } from './checks.js';

const RUNS = 100_000;
const EXACT_RUNS = 30_000;

const contact = (s: SphereShape, b: BoxShape) => contactWith(contactSphereBox, s, b);

describe('contactSphereBox', () => {
  it(`property: normal / depth / point agree with the oracle and the contact invariants (${RUNS} cases)`, () => {
    forAllFrozen(sbSceneArb, { numRuns: RUNS, seed: 0x0c01 }, (sc) => {
      const out = newContact();
      const hit = contactSphereBox(sc.sphere, sc.box, out);
      const eps = EPS_REL * sbScale(sc.sphere, sc.box);
      if (hit !== overlapSphereBox(sc.sphere, sc.box)) assertOk(`contact returned ${hit}, overlap disagrees`, sc);
      assertOk(checkOverlapGap(hit, contactSphereBoxOracle(sc.sphere, sc.box).dist - sc.sphere.radius, eps), sc);
      if (!hit) return;
      if (!(out.depth >= 0)) assertOk(`depth ${out.depth} < 0 on a true return`, sc);
      assertOk(checkSBContact(toArr(sc.sphere.center), sc.sphere.radius, sc.box, out.normal, out.point, out.depth, eps), sc);
    });
  });

  it(`property: exact integer scenes: exact depth 0 when touching, exact tie-breaks inside (${EXACT_RUNS} cases)`, () => {
    forAllFrozen(exactSBArb, { numRuns: EXACT_RUNS, seed: 0x0c02 }, (sc) => {
      const out = contact(sc.sphere, sc.box);
      assertOk(checkExactContact(sc, out.hit, out.depth), sc);
      if (!out.hit) return;
      const o = contactSphereBoxOracle(sc.sphere, sc.box);
      // centre inside / on the surface: everything is exact (integer projections, unit axis normals,
      // tie-breaks); outside: the closest point and normal may be off by a few ulps depending on how
      // they are formed
      assertOk(checkVecNear(`${sc.kind}: point`, out.point, o.point, o.inside ? 0 : 2e-15 * sbScale(sc.sphere, sc.box)), sc);
      assertOk(checkVecNear(`${sc.kind}: normal`, out.normal, o.normal, o.inside ? 0 : 1e-15), sc);
      const eps = EPS_REL * sbScale(sc.sphere, sc.box);
      assertOk(checkSBContact(toArr(sc.sphere.center), sc.sphere.radius, sc.box, out.normal, out.point, out.depth, eps), sc);
    });
  });

  const cube = box(0, 0, 0, 1, 1, 1);

  it('centre exactly at the centre of a cube: tie-break picks +x', () => {
    const c = contact(sphere(0, 0, 0, 0.5), cube);
    expect(c.hit).toBe(true);
    expectContact(c, { normal: v(1, 0, 0) });
    expect(c.depth).toBe(1.5);
    expectContact(c, { point: v(1, 0, 0) });
    // translated cube, zero radius
    const c2 = contact(sphere(5, -3, 2, 0), box(5, -3, 2, 1, 1, 1));
    expectContact(c2, { normal: v(1, 0, 0) });
    expect(c2.depth).toBe(1);
    expectContact(c2, { point: v(6, -3, 2) });
  });

  it('tie-breaks: lowest axis first, + face before - face', () => {
    expectContact(contact(sphere(0, 0, 0, 1), box(0, 0, 0, 2, 1, 1)), { normal: v(0, 1, 0) }); // y and z tie
    expectContact(contact(sphere(0, 0, 0, 1), box(0, 0, 0, 2, 2, 1)), { normal: v(0, 0, 1) });
    expectContact(contact(sphere(-0.5, 0, 0, 1), cube), { normal: v(-1, 0, 0) });
    expectContact(contact(sphere(0, -0.5, 0, 1), cube), { normal: v(0, -1, 0) });
    expectContact(contact(sphere(0.25, -0.25, 0, 1), cube), { normal: v(1, 0, 0) }); // +x vs -y tie
    expectContact(contact(sphere(0, 0.25, -0.25, 1), cube), { normal: v(0, 1, 0) }); // +y vs -z tie
    const c = contact(sphere(0, 0, -0.5, 1), cube);
    expectContact(c, { normal: v(0, 0, -1) });
    expect(c.depth).toBe(1.5);
    expectContact(c, { point: v(0, 0, -1) });
  });

  it('centre on a face / edge / vertex: depth = r, point = centre', () => {
    const f = contact(sphere(1, 0.3, -0.2, 0.5), cube);
    expectContact(f, { hit: true, normal: v(1, 0, 0), depth: 0.5, point: v(1, 0.3, -0.2) });
    const mf = contact(sphere(0.3, 0.2, -1, 0.5), cube);
    expectContact(mf, { hit: true, normal: v(0, 0, -1), depth: 0.5, point: v(0.3, 0.2, -1) });
    const e = contact(sphere(-1, 1, 0, 2), cube); // -x and +y tie -> -x (x axis first)
    expectContact(e, { hit: true, normal: v(-1, 0, 0), depth: 2, point: v(-1, 1, 0) });
    const vx = contact(sphere(-1, -1, -1, 0), cube);
    expectContact(vx, { hit: true, normal: v(-1, 0, 0), depth: 0, point: v(-1, -1, -1) });
  });

  it('outside a face, an edge and a vertex', () => {
    const B = box(0, 0, 0, 1, 2, 3);
    expectContact(contact(sphere(3, 0.5, 0.5, 2.5), B), { hit: true, normal: v(1, 0, 0), depth: 0.5, point: v(1, 0.5, 0.5) });
    const e = contact(sphere(4, 6, 0.5, 6), B); // edge (1, 2, z): offset (3, 4, 0)
    expect(e.hit).toBe(true);
    expect(e.depth).toBe(1);
    expectContact(e, { point: v(1, 2, 0.5) });
    expectVec(e.normal, v(0.6, 0.8, 0), 1e-15);
    const x = contact(sphere(-2, 4, -5, 3), B); // vertex (-1, 2, -3): offset (-1, 2, -2), touching
    expect(x.hit).toBe(true);
    expect(x.depth).toBe(0);
    expectContact(x, { point: v(-1, 2, -3) });
    expectVec(x.normal, v(-1 / 3, 2 / 3, -2 / 3), 1e-15);
  });

  it('zero radius inside: depth = distance to the nearest face', () => {
    expectContact(contact(sphere(0.5, 1.5, -2, 0), box(0, 0, 0, 1, 2, 3)), { hit: true, normal: v(1, 0, 0), depth: 0.5, point: v(1, 1.5, -2) });
    expectContact(contact(sphere(0.75, 1.5, -2, 0), box(0, 0, 0, 1, 2, 3)), { hit: true, normal: v(1, 0, 0), depth: 0.25 });
    expectContact(contact(sphere(0.5, 1.75, -2, 0), box(0, 0, 0, 1, 2, 3)), { hit: true, normal: v(0, 1, 0), depth: 0.25, point: v(0.5, 2, -2) });
  });

  it('point box (zero extents): sphere - point test; coincident centre -> +x', () => {
    const P = box(1, 2, 3, 0, 0, 0);
    const c = contact(sphere(4, 6, 3, 6), P);
    expect(c.hit).toBe(true);
    expect(c.depth).toBe(1);
    expectContact(c, { point: v(1, 2, 3) });
    expectVec(c.normal, v(0.6, 0.8, 0), 1e-15);
    expectContact(contact(sphere(1, 2, 3, 2), P), { hit: true, normal: v(1, 0, 0), depth: 2, point: v(1, 2, 3) });
    expectContact(contact(sphere(1, 2, 3, 0), P), { hit: true, normal: v(1, 0, 0), depth: 0, point: v(1, 2, 3) });
  });

  it('flat box (half extent z = 0): centre in its plane -> +z face, depth r', () => {
    const R = box(0, 0, 0, 2, 3, 0);
    expectContact(contact(sphere(0.5, -1, 0, 1), R), { hit: true, normal: v(0, 0, 1), depth: 1, point: v(0.5, -1, 0) });
    expectContact(contact(sphere(0.5, -1, -0.5, 1), R), { hit: true, normal: v(0, 0, -1), depth: 0.5, point: v(0.5, -1, 0) });
    // segment along y
    const S = box(0, 0, 0, 0, 3, 0);
    expectContact(contact(sphere(0, 1, 0, 1), S), { hit: true, normal: v(1, 0, 0), depth: 1, point: v(0, 1, 0) });
  });

  it('rotated box: face chosen in the box frame, normal in world', () => {
    // local x -> world y, local y -> world -x
    const q = axisAngleQuat(2, Math.PI / 2);
    const c = contact(sphere(0, 0, 0, 1), box(0, 0, 0, 2, 1, 3, q)); // local pens: x 2, y 1, z 3 -> +y local
    expect(c.hit).toBe(true);
    expectVec(c.normal, v(-1, 0, 0));
    expect(c.depth).toBeCloseTo(2, 14);
    expectVec(c.point, v(-1, 0, 0));
    // outside a rotated face
    const d = contact(sphere(0, 2.5, 0, 1), box(0, 0, 0, 2, 1, 3, q));
    expectVec(d.normal, v(0, 1, 0));
    expect(d.depth).toBeCloseTo(0.5, 14);
    expectVec(d.point, v(0, 2, 0));
    // 45deg cube, vertex-on edge: the edge through (sqrt2, 0, z)
    const e = contact(sphere(2, 0, 0.5, 1), box(0, 0, 0, 1, 1, 1, axisAngleQuat(2, Math.PI / 4)));
    expect(e.hit).toBe(true);
    expectVec(e.normal, v(1, 0, 0));
    expect(e.depth).toBeCloseTo(1 - (2 - Math.SQRT2), 14);
    expectVec(e.point, v(Math.SQRT2, 0, 0.5));
  });

  it('2D: z = 0 everywhere, rotation about z, any half extent z', () => {
    const q = axisAngleQuat(2, Math.PI / 6);
    for (const hz of [0, 0.25, 4]) {
      const B = box(1, -1, 0, 2, 1, hz, q);
      // outside the rotated +x face: centre at centre + 3 * axisX
      const ax = v(Math.cos(Math.PI / 6), Math.sin(Math.PI / 6), 0);
      const c = contact(sphere(1 + 3 * ax.x, -1 + 3 * ax.y, 0, 1.5), B);
      expect(c.hit).toBe(true);
      expectVec(c.normal, ax);
      expect(c.depth).toBeCloseTo(0.5, 13);
      expectVec(c.point, v(1 + 2 * ax.x, -1 + 2 * ax.y, 0), 1e-13);
      // centre at the box centre: local pens x 2, y 1, z hz -> +z if hz < 1 (hz = 0: +z), else +y local
      const d = contact(sphere(1, -1, 0, 1), B);
      if (hz < 1) expectVec(d.normal, v(0, 0, 1));
      else expectVec(d.normal, v(-Math.sin(Math.PI / 6), Math.cos(Math.PI / 6), 0));
    }
  });

  it('out: plain object literals; inputs are not mutated', () => {
    const s = deepFreeze(sphere(3, 0.5, 0.5, 2.5));
    const b = deepFreeze(box(0, 0, 0, 1, 2, 3, { x: 0, y: 0, z: 0, w: 1 }));
    const out = { normal: { x: 0, y: 0, z: 0 }, depth: 0, point: { x: 0, y: 0, z: 0 } };
    expect(contactSphereBox(s, b, out)).toBe(true);
    expectContact({ hit: true, ...out }, { normal: v(1, 0, 0), depth: 0.5, point: v(1, 0.5, 0.5) });
  });

  it('regression (issue 9): NaN in the sphere centre is no contact (false, out untouched; it was true with NaN normals)', () => {
    const out = newContact();
    expect(contactSphereBox(sphere(NaN, 0, 0, 1), box(0, 0, 0, 1, 1, 1), out)).toBe(false);
    expect(out).toEqual(newContact());
  });

  it('regression (issue 9): a centre one subnormal step off a point box per axis: a unit normal (it was (0.5, 0.5, 0.5))', () => {
    const u = Number.MIN_VALUE;
    const c = contact(sphere(u, u, u, 2 * u), box(0, 0, 0, 0, 0, 0));
    expect(c.hit).toBe(true);
    expectVec(c.normal, v(Math.sqrt(1 / 3), Math.sqrt(1 / 3), Math.sqrt(1 / 3)), 1e-15);
  });
});
