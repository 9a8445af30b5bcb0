/**
 * The branch-free forms in `querySpheres` (src/step/findPairs.ts) give the numbers of the selects
 * they replace: the swept sphere bounds (min(m, 0) and max(m, 0) as (m ∓ |m|) / 2, for a motion
 * component |m| no longer than a cell), bit for bit, and the inline rejection of a static
 * sphere–box candidate (the distance outside the box per axis as sums of products by 0 and 1): the
 * same squared distance where the numbers and their sums are finite, and never a rejection the
 * selects did not make.
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

const SQ_MIN = 1e-280;
const SQ_MAX = 1e280;

/** The rejection's test on d2 (findPairs.ts): true when the candidate is dropped without the full test. */
function rejects(d2: number, rad: number): boolean {
  const rr = rad * rad;
  return d2 < SQ_MAX && (d2 > SQ_MIN || rr > 2 * SQ_MIN) && !(d2 <= rr && rad - rad === 0);
}

function outsideSelect(l: number, h: number): number {
  return l < -h ? l + h : l > h ? l - h : (l - l) * h;
}

function outsideBranchFree(l: number, h: number): number {
  const s0 = +(l < -h), s1 = +(l > h);
  return s0 * (l + h) + s1 * (l - h);
}

describe('branch-free inline rejection (findPairs querySpheres, static contacts)', () => {
  const local = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.double({ noNaN: true, min: -4, max: 4 }),
    fc.constantFrom(0, -0, Infinity, -Infinity, 1e-300, -1e-300, 1e200, -1e200),
  );
  const half = fc.oneof(fc.double({ noNaN: true, min: 0, max: 1e300 }), fc.double({ noNaN: true, min: 0, max: 4 }), fc.constantFrom(0, Infinity));
  const rad = fc.oneof(fc.double({ noNaN: true, min: 0, max: 1e300 }), fc.double({ noNaN: true, min: 0, max: 4 }), fc.constantFrom(0, 1e-145, Infinity));

  it('gives the same squared distance for finite numbers, and rejects only what the selects rejected', () => {
    fc.assert(fc.property(local, local, local, half, half, half, rad, (lx, ly, lz, hx, hy, hz, r) => {
      const a = outsideSelect(lx, hx), b = outsideSelect(ly, hy), c = outsideSelect(lz, hz);
      const x = outsideBranchFree(lx, hx), y = outsideBranchFree(ly, hy), z = outsideBranchFree(lz, hz);
      const d2Select = a * a + b * b + c * c;
      const d2 = x * x + y * y + z * z;
      // Where l ± h overflows (|l| near the largest double), 0 × ∞ makes d2 NaN: the full test, as the
      // selects' infinite d2 gave.
      if ([lx, ly, lz, hx, hy, hz, lx + hx, lx - hx, ly + hy, ly - hy, lz + hz, lz - hz].every(Number.isFinite)) {
        expect(Object.is(d2, d2Select)).toBe(true);
        expect(rejects(d2, r)).toBe(rejects(d2Select, r));
      } else if (rejects(d2, r)) {
        expect(rejects(d2Select, r)).toBe(true);
      }
    }), { numRuns: 50_000 });
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
      const h = `h${c}`, l = `l${c}`;
      expect(pairs).toContain(`const d${c} = s${c}0 * (${l} + ${h}) + s${c}1 * (${l} - ${h});`);
      expect(pairs).toContain(`s${c}0 = +(${l} < -${h}), s${c}1 = +(${l} > ${h})`);
    }
  });
  it('in its inline rejection, with the test on d2 above', async () => {
    const { readFileSync } = await import('node:fs');
    const pairs = readFileSync(new URL('../../src/step/findPairs.ts', import.meta.url), 'utf8');
    expect(pairs).toContain('if (d2 < SQ_MAX && (d2 > SQ_MIN || rr > 2 * SQ_MIN) && !(d2 <= rr && rad - rad === 0)) continue;');
    expect(pairs).toContain('const SQ_MIN = 1e-280;');
    expect(pairs).toContain('const SQ_MAX = 1e280;');
  });
});
