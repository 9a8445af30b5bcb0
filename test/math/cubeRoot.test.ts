/**
 * cubeRoot (src/math/cubeRoot.ts): the engine-independent cube root against Math.cbrt (an
 * independent, engine-approximated oracle) over the whole positive double range, and exactly on
 * perfect cubes and the special values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cubeRoot } from '../../src/math/cubeRoot.js';

describe('cubeRoot', () => {
  it('is within 4e-16 relative of Math.cbrt for every positive finite double', () => {
    fc.assert(
      fc.property(fc.double({ min: Number.MIN_VALUE, max: Number.MAX_VALUE, noNaN: true }), (x) => {
        const want = Math.cbrt(x);
        expect(Math.abs(cubeRoot(x) - want) / want).toBeLessThan(4e-16);
      }),
      { numRuns: 20_000 },
    );
  });

  it('is exact on perfect cubes and scaled perfect cubes', () => {
    for (let k = 1; k <= 1000; k++) {
      expect(cubeRoot(k * k * k)).toBe(k);
      expect(cubeRoot(k * k * k * 2 ** -90)).toBe(k * 2 ** -30);
    }
  });

  it('maps 0, +Infinity, negatives and NaN as documented', () => {
    expect(cubeRoot(0)).toBe(0);
    expect(cubeRoot(Infinity)).toBe(Infinity);
    expect(cubeRoot(-8)).toBeNaN();
    expect(cubeRoot(NaN)).toBeNaN();
  });
});
