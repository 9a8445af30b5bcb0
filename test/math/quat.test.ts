/**
 * quatToMatrix and rotatedHalfExtents (src/math/quat.ts): the matrix rotates vectors as q v q* does
 * (Hamilton product, computed independently), is orthonormal, is row-major with the local axes as its
 * columns; the half extents are those of the rotated box's eight corners.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quatToMatrix, rotatedHalfExtents } from '../../src/math/quat.js';

type Q = [number, number, number, number];
type V = [number, number, number];

/** Hamilton product a·b of quaternions (x, y, z, w). */
function mul(a: Q, b: Q): Q {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

function rotate(q: Q, v: V): V {
  const r = mul(mul(q, [v[0], v[1], v[2], 0]), [-q[0], -q[1], -q[2], q[3]]);
  return [r[0], r[1], r[2]];
}

const unitQuat = fc
  .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter((q) => Math.hypot(...q) > 1e-3)
  .map((q): Q => {
    const m = Math.hypot(...q);
    return [q[0] / m, q[1] / m, q[2] / m, q[3] / m];
  });
const vec = fc.tuple(fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true }));

describe('quatToMatrix', () => {
  it('identity and a quarter turn about z, row-major', () => {
    const out = new Float64Array(9);
    quatToMatrix(Float64Array.of(0, 0, 0, 1), 0, out, 0);
    expect(Array.from(out)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    const s = Math.SQRT1_2;
    // x → y, y → −x: R = [[0, −1, 0], [1, 0, 0], [0, 0, 1]] (column 0 is the rotated x axis).
    quatToMatrix(Float64Array.of(0, 0, s, s), 0, out, 0);
    expect(Array.from(out, (v) => Math.round(v * 1e12) / 1e12 + 0)).toEqual([0, -1, 0, 1, 0, 0, 0, 0, 1]);
  });

  it('property: R·v equals q v q*, R is orthonormal, offsets are honoured', () => {
    fc.assert(
      fc.property(unitQuat, vec, (q, v) => {
        const m = new Float64Array(12);
        quatToMatrix(Float64Array.of(9, ...q), 1, m, 2);
        const R = (i: number, j: number) => m[2 + 3 * i + j];
        const want = rotate(q, v);
        for (let i = 0; i < 3; i++) {
          const got = R(i, 0) * v[0] + R(i, 1) * v[1] + R(i, 2) * v[2];
          expect(Math.abs(got - want[i])).toBeLessThan(1e-12 * (1 + Math.hypot(...v)));
          for (let j = 0; j < 3; j++) {
            const dot = R(0, i) * R(0, j) + R(1, i) * R(1, j) + R(2, i) * R(2, j);
            expect(Math.abs(dot - (i === j ? 1 : 0))).toBeLessThan(1e-12);
          }
        }
        expect(m[0] + m[1] + m[11]).toBe(0);
      }),
    );
  });
});

describe('rotatedHalfExtents', () => {
  it('property: the half size per world axis of the rotated box equals that of its corners; in place allowed', () => {
    fc.assert(
      fc.property(unitQuat, vec.map((h): V => [Math.abs(h[0]), Math.abs(h[1]), Math.abs(h[2])]), (q, h) => {
        const out = new Float64Array(3);
        rotatedHalfExtents(Float64Array.from(q), 0, Float64Array.from(h), 0, out, 0);
        const max: V = [0, 0, 0];
        for (let k = 0; k < 8; k++) {
          const c = rotate(q, [(k & 1 ? 1 : -1) * h[0], (k & 2 ? 1 : -1) * h[1], (k & 4 ? 1 : -1) * h[2]]);
          for (let i = 0; i < 3; i++) max[i] = Math.max(max[i], Math.abs(c[i]));
        }
        for (let i = 0; i < 3; i++) expect(Math.abs(out[i] - max[i])).toBeLessThan(1e-12 * (1 + h[0] + h[1] + h[2]));
        const shared = Float64Array.of(...h, ...q);
        rotatedHalfExtents(shared, 3, shared, 0, shared, 0);
        expect(Array.from(shared.subarray(0, 3))).toEqual(Array.from(out));
      }),
    );
  });
});
