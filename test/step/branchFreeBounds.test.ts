/**
 * The branch-free swept sphere bounds of `querySpheres` (src/step/findPairs.ts: min(m, 0) and
 * max(m, 0) as (m ∓ |m|) / 2, for a motion component |m| no longer than a cell) give the bounds of
 * the selects they replace, bit for bit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
/** A motion component no longer than a cell side (the loop takes longer ones slice by slice). */
const motion = fc.double({ noNaN: true, min: -1e300, max: 1e300 });
const positive = fc.double({ noNaN: true, min: Number.MIN_VALUE, max: 1e300 });
const radius = fc.double({ noNaN: true, min: 0, max: 1e300 });

describe('branch-free swept bounds (findPairs querySpheres)', () => {
  it('gives the bounds of the selects, bit for bit', () => {
    fc.assert(fc.property(finite, radius, motion, positive, (x, r, m, pad) => {
      const a = Math.abs(m);
      expect(Object.is(x - r + (m - a) * 0.5 - pad, x - r + (m < 0 ? m : 0) - pad)).toBe(true);
      expect(Object.is(x + r + (m + a) * 0.5 + pad, x + r + (m > 0 ? m : 0) + pad)).toBe(true);
    }), { numRuns: 20_000 });
  });

  it('keeps the edge values: ±0, the smallest and the largest motions', () => {
    for (const m of [0, -0, Number.MIN_VALUE, -Number.MIN_VALUE, 1e300, -1e300, 1, -1]) {
      const a = Math.abs(m);
      // The terms are equal as numbers (a -0 term where the select gives +0 ...)
      expect((m - a) * 0.5 === (m < 0 ? m : 0)).toBe(true);
      expect((m + a) * 0.5 === (m > 0 ? m : 0)).toBe(true);
      // ... which vanishes in the bounds, pad > 0, bit for bit.
      for (const x of [0, -0, 1, -1]) {
        for (const r of [0, 0.5]) {
          expect(Object.is(x - r + (m - a) * 0.5 - 1e-300, x - r + (m < 0 ? m : 0) - 1e-300)).toBe(true);
          expect(Object.is(x + r + (m + a) * 0.5 + 1e-300, x + r + (m > 0 ? m : 0) + 1e-300)).toBe(true);
        }
      }
    }
  });
});

describe('the broadphase uses that form', () => {
  it('in its swept sphere bounds', async () => {
    const { readFileSync } = await import('node:fs');
    const pairs = readFileSync(new URL('../../src/step/findPairs.ts', import.meta.url), 'utf8');
    for (const axis of [['x', 'mx', 'ax'], ['y', 'my', 'ay'], ['z', 'mz', 'az']]) {
      const [c, m, a] = axis;
      expect(pairs).toContain(`const ${c}0 = ${c} - r + (${m} - ${a}) * 0.5 - pad;`);
      expect(pairs).toContain(`const ${c}1 = ${c} + r + (${m} + ${a}) * 0.5 + pad;`);
    }
  });
});
