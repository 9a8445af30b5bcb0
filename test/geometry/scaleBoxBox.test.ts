/**
 * Scale invariance of the box–box queries: scaling a whole scene by a power of two scales every
 * intermediate exactly (no rounding changes) as long as nothing overflows or underflows, so the
 * booleans, toi and normals must be bit-identical and depths and points scaled exactly. Scenes of
 * magnitudes up to ~1e4 are scaled by 2^±300 … 2^800 and 2^-700 (magnitudes ~1e-230 … ~1e245).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { castBoxBox, contactBoxBox, overlapBoxBox, type BoxShape, type Vec3 } from '../../src/index.js';
import { newCast, newContact } from '../support/shapes.js';
import { bbCastArb } from './arbitrariesBoxBox.js';

const CASES = 10_000;
const EXPONENTS = [300, 600, 800, -300, -600, -700];

const sv = (v: Vec3, k: number): Vec3 => ({ x: v.x * k, y: v.y * k, z: v.z * k });
const scaled = (b: BoxShape, k: number): BoxShape => ({ ...b, center: sv(b.center, k), halfExtents: sv(b.halfExtents, k) });
const sameScaled = (u: Vec3, v: Vec3, k: number) => u.x * k === v.x && u.y * k === v.y && u.z * k === v.z;
const same = (u: Vec3, v: Vec3) => u.x === v.x && u.y === v.y && u.z === v.z;

describe('box–box queries under power-of-two scaling', () => {
  it(`overlap, contact and cast results are exactly scaled (${CASES} scenes × ${EXPONENTS.length} scales)`, () => {
    const wrong: string[] = [];
    for (const sc of fc.sample(bbCastArb, { seed: 0x5ca1e, numRuns: CASES })) {
      const c1 = newContact();
      const h1 = contactBoxBox(sc.a, sc.b, c1);
      const k1 = newCast();
      const t1 = castBoxBox(sc.a, sc.motion, sc.b, k1);
      for (const e of EXPONENTS) {
        const k = 2 ** e;
        const a = scaled(sc.a, k);
        const b = scaled(sc.b, k);
        const c2 = newContact();
        const k2 = newCast();
        const ok =
          overlapBoxBox(a, b) === h1 &&
          contactBoxBox(a, b, c2) === h1 &&
          (!h1 || (c2.depth === c1.depth * k && same(c1.normal, c2.normal) && sameScaled(c1.point, c2.point, k))) &&
          castBoxBox(a, sv(sc.motion, k), b, k2) === t1 &&
          (!t1 || (k2.toi === k1.toi && same(k1.normal, k2.normal) && sameScaled(k1.point, k2.point, k)));
        if (!ok && wrong.length < 3) wrong.push(`2^${e}: ${JSON.stringify(sc)}`);
      }
    }
    expect(wrong, wrong.join('\n')).toEqual([]);
  });
});
