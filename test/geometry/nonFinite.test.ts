/**
 * The non-finite contract of every geometry query: NaN or ±Infinity in any input number (or finite
 * coordinates whose difference overflows) gives false and leaves `out` untouched, also where the
 * same scene with finite numbers is a hit (at toi 0 and at toi > 0).
 */
import { describe, expect, it } from 'vitest';
import { axisAngleQuat } from './arbitraries.js';
import { GEOMETRY_QUERIES, type GeometryScene, cloneScene, filledOut, numberPaths, setPath } from '../support/geometryQueries.js';

const rotated = axisAngleQuat(2, 0.3);
const box = (rotation?: { x: number; y: number; z: number; w: number }) =>
  rotation === undefined
    ? { center: { x: 0.2, y: -0.1, z: 0.05 }, halfExtents: { x: 1, y: 0.5, z: 0.75 } }
    : { center: { x: 0.2, y: -0.1, z: 0.05 }, halfExtents: { x: 1, y: 0.5, z: 0.75 }, rotation };

/** Scenes that hit: overlapping at the start, or (casts) entering during the step. */
const HITS: Array<[string, GeometryScene]> = [];
for (const [label, rotation] of [['no rotation', undefined], ['identity rotation', { x: 0, y: 0, z: 0, w: 1 }], ['rotated', rotated]] as const) {
  HITS.push([`overlapping, ${label}`, { sphere: { center: { x: 0.5, y: 0.25, z: 0.1 }, radius: 1 }, box: box(rotation), motion: { x: 3, y: 0, z: 0 } }]);
  HITS.push([`entering at toi > 0, ${label}`, { sphere: { center: { x: -5, y: 0.2, z: 0.1 }, radius: 0.5 }, box: box(rotation), motion: { x: 10, y: 0.5, z: 0 } }]);
  HITS.push([`the box entering the sphere at toi > 0, ${label}`, { sphere: { center: { x: 5, y: 0.2, z: 0.1 }, radius: 0.5 }, box: box(rotation), motion: { x: 10, y: 0.5, z: 0 } }]);
}
HITS.push(['overlapping spheres', { a: { center: { x: 0.5, y: 0, z: 0 }, radius: 1 }, b: { center: { x: 0, y: 0.25, z: 0 }, radius: 1 }, motion: { x: 3, y: 0, z: 0 } }]);
HITS.push(['spheres meeting at toi > 0', { a: { center: { x: -5, y: 0.1, z: 0 }, radius: 0.5 }, b: { center: { x: 0, y: 0, z: 0 }, radius: 1 }, motion: { x: 10, y: 0, z: 0 } }]);

const BAD = [NaN, Infinity, -Infinity];
const SENTINEL = 7.25;

describe('non-finite input: false, out untouched', () => {
  for (const query of GEOMETRY_QUERIES) {
    // the scenes this query hits (the mirrored cast moves the box: it hits the scenes whose spheres meet at the start)
    const scenes = HITS.filter(([, sc]) => query.uses.every((f) => sc[f] !== undefined) && query.run(cloneScene(sc), filledOut(query.out, SENTINEL)));
    it(`${query.name}: NaN, +Infinity or -Infinity in any input number (${scenes.length} scenes that hit)`, () => {
      expect(scenes.length).toBeGreaterThan(0);
      for (const [label, sc] of scenes) {
        for (const path of numberPaths(sc, query.uses))
          for (const bad of BAD) {
            const spoilt = cloneScene(sc);
            setPath(spoilt, path, bad);
            const out = filledOut(query.out, SENTINEL);
            const hit = query.run(spoilt, out);
            const what = `${label}: ${path.join('.')} = ${bad}`;
            expect(hit, what).toBe(false);
            expect(out, what).toEqual(filledOut(query.out, SENTINEL));
          }
      }
    });
  }

  it('finite coordinates whose difference overflows count as non-finite (false, out untouched)', () => {
    for (const query of GEOMETRY_QUERIES) {
      const far: GeometryScene = {
        sphere: { center: { x: 1.5e308, y: 0, z: 0 }, radius: 1e308 },
        box: { center: { x: -1.5e308, y: 0, z: 0 }, halfExtents: { x: 1e308, y: 1, z: 1 } },
        a: { center: { x: 1.5e308, y: 0, z: 0 }, radius: 1e308 },
        b: { center: { x: -1.5e308, y: 0, z: 0 }, radius: 1e308 },
        motion: { x: -1e308, y: 0, z: 0 },
      };
      const out = filledOut(query.out, SENTINEL);
      expect(query.run(far, out), query.name).toBe(false);
      expect(out, query.name).toEqual(filledOut(query.out, SENTINEL));
    }
  });

  it('a rotation (0, 0, 0, NaN) or (0, 0, 0, Infinity) is not taken for the identity', () => {
    for (const w of BAD)
      for (const query of GEOMETRY_QUERIES.filter((g) => g.uses.includes('box'))) {
        const sc = cloneScene(HITS[0][1]);
        sc.box!.rotation = { x: 0, y: 0, z: 0, w };
        expect(query.run(sc, filledOut(query.out, SENTINEL)), `${query.name}, w = ${w}`).toBe(false);
      }
  });
});
