/**
 * cosine / sine (src/math/trig.ts): the engine-independent cosine and sine against Math.cos and
 * Math.sin (independent, engine-approximated oracles) in absolute error, exactly at 0, and NaN for
 * non-finite angles. They replace Math.cos / Math.sin wherever a result can reach the simulation
 * (the character controller's slope limit), so that every engine computes the same bits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cosine, sine } from '../../src/math/trig.js';

describe('cosine and sine', () => {
  it('are within 1.5e-15 of Math.cos / Math.sin for |x| ≤ 20', () => {
    fc.assert(
      fc.property(fc.double({ min: -20, max: 20, noNaN: true }), (x) => {
        expect(Math.abs(cosine(x) - Math.cos(x))).toBeLessThan(1.5e-15);
        expect(Math.abs(sine(x) - Math.sin(x))).toBeLessThan(1.5e-15);
      }),
      { numRuns: 20_000 },
    );
  });

  it('are exact at 0 and on the slope limit default (45°) agree with Math.cos to the last bit or one ulp', () => {
    expect(cosine(0)).toBe(1);
    expect(sine(0)).toBe(0);
    expect(Object.is(sine(-0), -0)).toBe(true);
    expect(Math.abs(cosine(Math.PI / 4) - Math.SQRT1_2)).toBeLessThanOrEqual(2 ** -53);
  });

  it('give NaN for NaN and ±Infinity', () => {
    for (const x of [NaN, Infinity, -Infinity]) {
      expect(cosine(x)).toBeNaN();
      expect(sine(x)).toBeNaN();
    }
  });
});
