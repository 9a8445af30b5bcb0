/**
 * Self-checks of the oracle and the exact generators (no implementation involved): if these fail,
 * the other geometry tests cannot be trusted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  OBox,
  type Arr3,
  boxDistance,
  castSphereBoxOracle,
  castSphereSphereOracle,
  contactSphereBoxOracle,
  contactSphereSphereOracle,
  norm3,
  overlapSphereBoxOracle,
  rotationMatrix,
  sub3,
  toArr,
} from '../oracle/oracle.js';
import { axisAngleQuat, boxArb, exactSBArb, exactSBCastArb, exactSSArb, exactSSCastArb, randomQuat, u01, vecIn } from './arbitraries.js';

describe('oracle self-checks', () => {
  it('rotation matrix is orthonormal, right-handed and rotates +x toward +y for a +90deg z rotation', () => {
    const m = rotationMatrix(axisAngleQuat(2, Math.PI / 2));
    expect(m[0]).toBeCloseTo(0, 15); // x axis -> (0, 1, 0)
    expect(m[3]).toBeCloseTo(1, 15);
    fc.assert(
      fc.property(randomQuat, (q) => {
        const r = rotationMatrix(q);
        const cols: Arr3[] = [0, 1, 2].map((j) => [r[j], r[3 + j], r[6 + j]] as Arr3);
        for (let i = 0; i < 3; i++)
          for (let j = 0; j < 3; j++) {
            const d = cols[i][0] * cols[j][0] + cols[i][1] * cols[j][1] + cols[i][2] * cols[j][2];
            if (Math.abs(d - (i === j ? 1 : 0)) > 1e-14) return false;
          }
        const [a, b, c] = cols;
        const det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
        return Math.abs(det - 1) < 1e-14;
      }),
      { numRuns: 2000, seed: 11 },
    );
  });

  it('box distance equals the distance to the reported closest point and is <= distance to sampled box points', () => {
    fc.assert(
      fc.property(boxArb, vecIn(-20, 20), fc.array(fc.tuple(u01, u01, u01), { minLength: 20, maxLength: 20 }), (box, p, samples) => {
        const b = new OBox(box);
        const pa = toArr(p);
        const o = contactSphereBoxOracle({ center: p, radius: 0 }, b);
        const d = boxDistance(b, pa);
        if (d > 0 && Math.abs(norm3(sub3(pa, o.point)) - d) > 1e-12 * 30) return false;
        for (const [u, v, w] of samples) {
          const q = b.toWorld([(2 * u - 1) * b.h[0], (2 * v - 1) * b.h[1], (2 * w - 1) * b.h[2]]);
          if (norm3(sub3(pa, q)) < d - 1e-12 * 30) return false;
        }
        return true;
      }),
      { numRuns: 3000, seed: 12 },
    );
  });

  it('cast oracle matches analytic times of impact', () => {
    const box = { center: { x: 0, y: 0, z: 0 }, halfExtents: { x: 1, y: 1, z: 0 } };
    const o = castSphereBoxOracle({ center: { x: 0.2, y: 0.3, z: 500 }, radius: 1 }, { x: 0, y: 0, z: -1000 }, box);
    expect(o.hit).toBe(true);
    expect(o.toi).toBeCloseTo(0.499, 14);
    // vertex of a 45deg-rotated cube
    const rb = { center: { x: 0, y: 0, z: 0 }, halfExtents: { x: 1, y: 1, z: 1 }, rotation: axisAngleQuat(2, Math.PI / 4) };
    const o2 = castSphereBoxOracle({ center: { x: -10, y: 0, z: 0 }, radius: 0.5 }, { x: 20, y: 0, z: 0 }, rb);
    expect(o2.toi).toBeCloseTo((10 - Math.SQRT2 - 0.5) / 20, 14);
    const o3 = castSphereSphereOracle({ center: { x: 0, y: 3, z: -10 }, radius: 2 }, { x: 0, y: 0, z: 20 }, { center: { x: 0, y: 0, z: 0 }, radius: 3 });
    expect(o3.toi).toBeCloseTo((10 - 4) / 20, 14);
    const o4 = castSphereSphereOracle({ center: { x: 0, y: 6, z: -10 }, radius: 2 }, { x: 0, y: 0, z: 20 }, { center: { x: 0, y: 0, z: 0 }, radius: 3 });
    expect(o4.hit).toBe(false);
  });

  it('tie-break: lowest axis, + before -', () => {
    const c = contactSphereBoxOracle({ center: { x: 0, y: 0, z: 0 }, radius: 1 }, { center: { x: 0, y: 0, z: 0 }, halfExtents: { x: 1, y: 1, z: 1 } });
    expect(c.normal).toEqual([1, 0, 0]);
    const d = contactSphereBoxOracle({ center: { x: 0, y: 0, z: 0 }, radius: 1 }, { center: { x: 0, y: 0, z: 0 }, halfExtents: { x: 2, y: 1, z: 1 } });
    expect(d.normal).toEqual([0, 1, 0]);
    const s = contactSphereSphereOracle({ center: { x: 1, y: 1, z: 1 }, radius: 1 }, { center: { x: 1, y: 1, z: 1 }, radius: 2 });
    expect(s.normal).toEqual([1, 0, 0]);
  });

  it('exact generators agree with the oracle', () => {
    fc.assert(
      fc.property(exactSBArb, (sc) => {
        const o = contactSphereBoxOracle(sc.sphere, sc.box);
        if (overlapSphereBoxOracle(sc.sphere, sc.box) !== sc.expectOverlap) return false;
        if (sc.expectDepth !== undefined && o.depth !== sc.expectDepth) return false;
        return true;
      }),
      { numRuns: 20000, seed: 13 },
    );
    fc.assert(
      fc.property(exactSSArb, (sc) => {
        const o = contactSphereSphereOracle(sc.a, sc.b);
        if (o.overlap !== sc.expectOverlap) return false;
        if (sc.expectDepth !== undefined && o.depth !== sc.expectDepth) return false;
        return true;
      }),
      { numRuns: 20000, seed: 14 },
    );
    fc.assert(
      fc.property(exactSBCastArb, (sc) => {
        const o = castSphereBoxOracle(sc.sphere, sc.motion, sc.box);
        // grazing 'parallel' cases touch only in exact arithmetic: the float oracle may miss by ~1 ulp
        if (sc.kind === 'xcast-parallel' && sc.expectHit && !o.hit) return o.fmin <= 1e-14 * 40;
        if (o.hit !== sc.expectHit) return false;
        if (sc.expectToi !== undefined && Math.abs(o.toi - sc.expectToi) > Math.max(sc.toiTol, 1e-13)) return false;
        return true;
      }),
      { numRuns: 20000, seed: 15 },
    );
    fc.assert(
      fc.property(exactSSCastArb, (sc) => {
        const o = castSphereSphereOracle(sc.a, sc.motion, sc.b);
        if (o.hit !== sc.expectHit) return false;
        if (sc.expectToi !== undefined && Math.abs(o.toi - sc.expectToi) > 1e-13) return false;
        return true;
      }),
      { numRuns: 20000, seed: 16 },
    );
  });
});
