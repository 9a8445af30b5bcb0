/**
 * `out` may share vectors with the inputs: every query reads all of its inputs before it writes
 * `out`, so `out.normal` or `out.point` being one of the input vectors (a centre, the half extents,
 * the motion, even the rotation) gives the same result, bit for bit, as separate objects; on a miss
 * the shared vector is left as it was.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sbCastArb, ssCastArb } from './arbitraries.js';
import {
  type AnyOut,
  GEOMETRY_QUERIES,
  type GeometryQuery,
  type GeometryScene,
  cloneScene,
  filledOut,
  getPath,
  vectorPaths,
} from '../support/geometryQueries.js';
import { castBoxSphere, castSphereBox, castSphereSphere, contactSphereBox, contactSphereSphere } from '../../src/index.js';
import { box, newCast, newContact, sphere, vec3 as v } from '../support/shapes.js';

const RUNS = 1000;

/** The query on `sc` with out.normal or out.point being the input vector at `path`, against the unshared result. */
function checkAliased(query: GeometryQuery, sc: GeometryScene, path: string[], slot: 'normal' | 'point'): string | undefined {
  const reference = filledOut(query.out, 0.5)!;
  const hit = query.run(cloneScene(sc), reference);
  const shared = cloneScene(sc);
  const vec = getPath(shared, path);
  const before = { ...vec };
  const out = filledOut(query.out, 0.5)! as AnyOut & Record<string, unknown>;
  out[slot] = vec;
  const got = query.run(shared, out);
  const where = `${query.name} with out.${slot} = ${path.join('.')}`;
  if (got !== hit) return `${where}: returned ${got}, unshared ${hit}`;
  if (!hit) return Object.is(vec.x, before.x) && Object.is(vec.y, before.y) && Object.is(vec.z, before.z) ? undefined : `${where}: a miss changed the input`;
  // (a shared rotation keeps its w: only x, y and z are outputs)
  const numbers = (o: AnyOut) => ['toi' in o ? o.toi : o.depth, o.normal.x, o.normal.y, o.normal.z, o.point.x, o.point.y, o.point.z];
  const a = numbers(out);
  const b = numbers(reference);
  return a.every((x, i) => Object.is(x, b[i])) ? undefined : `${where}: ${a.join(', ')}, unshared ${b.join(', ')}`;
}

const sceneArb = (pair: 'sphereBox' | 'sphereSphere'): fc.Arbitrary<GeometryScene> =>
  pair === 'sphereBox'
    ? sbCastArb.map((sc) => ({ sphere: sc.sphere, box: sc.box, motion: sc.motion }))
    : ssCastArb.map((sc) => ({ a: sc.a, b: sc.b, motion: sc.motion }));

describe('out sharing vectors with the inputs', () => {
  for (const query of GEOMETRY_QUERIES.filter((g) => g.out !== 'none')) {
    const pair = query.uses.includes('box') ? 'sphereBox' : 'sphereSphere';
    it(`${query.name}: out.normal or out.point = any input vector gives the unshared result (${RUNS} scenes)`, () => {
      fc.assert(
        fc.property(sceneArb(pair), (sc) => {
          for (const path of vectorPaths(sc, query.uses))
            for (const slot of ['normal', 'point'] as const) {
              const err = checkAliased(query, sc, path, slot);
              if (err !== undefined) throw new Error(err);
            }
        }),
        { numRuns: RUNS, seed: 0xa115 },
      );
    });
  }

  it('regression (issue 9): out.normal === box.center (contactSphereBox, castSphereBox)', () => {
    const B = box(0, 0, 0, 1, 1, 1);
    const c = { normal: B.center, depth: 0, point: v(0, 0, 0) };
    expect(contactSphereBox(sphere(2, 0.5, 0, 1.5), B, c)).toBe(true);
    expect(c.point).toEqual(v(1, 0.5, 0)); // was (2, 0.5, 0): the point was added to the normal just written
    const B2 = box(0, 0, 0, 1, 1, 1);
    const k = { toi: 0, normal: B2.center, point: v(0, 0, 0) };
    expect(castSphereBox(sphere(-5, 0.5, 0, 1), v(10, 0, 0), B2, k)).toBe(true);
    expect(k.toi).toBeCloseTo(0.3, 15);
    expect(k.point).toEqual(v(-1, 0.5, 0));
  });

  it('regression (issue 9): out.normal === b.center (contactSphereSphere, castSphereSphere)', () => {
    const b = sphere(0, 0, 0, 1);
    const c = { normal: b.center, depth: 0, point: v(0, 0, 0) };
    expect(contactSphereSphere(sphere(1.5, 0, 0, 1), b, c)).toBe(true);
    expect(c.point).toEqual(v(1, 0, 0));
    const b2 = sphere(0, 0, 0, 1);
    const k = { toi: 0, normal: b2.center, point: v(0, 0, 0) };
    expect(castSphereSphere(sphere(-5, 0, 0, 1), v(10, 0, 0), b2, k)).toBe(true);
    expect(k.point).toEqual(v(-1, 0, 0));
  });

  it('regression (issue 9): out.point === motion (castBoxSphere)', () => {
    const m = v(10, 0, 0);
    const k = { toi: 0, normal: v(0, 0, 0), point: m };
    // box [-1, 1]^3 moving +x by 10 meets the sphere r 1 at x = 7 when its face reaches x = 6 (toi 0.5)
    expect(castBoxSphere(box(0, 0, 0, 1, 1, 1), m, sphere(7, 0.5, 0, 1), k)).toBe(true);
    expect(k.toi).toBeCloseTo(0.5, 15);
    expect(k.point).toEqual(v(6, 0.5, 0));
  });

  it('a miss leaves a shared vector as it was', () => {
    const b = sphere(0, 0, 0, 1);
    const out = newCast();
    out.normal = b.center;
    expect(castSphereSphere(sphere(-5, 5, 0, 1), v(10, 0, 0), b, out)).toBe(false);
    expect(b.center).toEqual(v(0, 0, 0));
    const c = newContact();
    const B = box(3, 0, 0, 1, 1, 1);
    c.point = B.halfExtents;
    expect(contactSphereBox(sphere(0, 0, 0, 1), B, c)).toBe(false);
    expect(B.halfExtents).toEqual(v(1, 1, 1));
  });
});
