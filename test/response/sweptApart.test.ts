import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { castSphereSphere } from '../../src/index.js';
import { APART_SLACK, sweptSpheresApart } from '../../src/response/sweptApart.js';
import { forAllFrozen } from '../support/properties.js';
import { newCast } from '../support/shapes.js';
import { exactSSCastArb, ssCastArb } from '../geometry/arbitraries.js';

/**
 * The response's reject before a sphere–sphere cast (src/response/sweptApart.ts) against the exact
 * cast it skips: it must never be true for a pair the cast reports touching (so skipping the cast
 * changes no result), and it must reject clear misses (so it saves work).
 */
describe('sweptSpheresApart', () => {
  it('property: never rejects a pair castSphereSphere reports touching (the geometry suite\'s random, aimed, huge, grazing and scaled casts, 60,000 cases)', () => {
    let misses = 0, rejected = 0;
    forAllFrozen(ssCastArb, { numRuns: 60_000, seed: 0x5a9a }, (sc) => {
      const apart = sweptSpheresApart(sc.a, sc.motion, sc.b);
      const hit = castSphereSphere(sc.a, sc.motion, sc.b, newCast());
      if (apart && hit) throw new Error('rejected a touching pair');
      if (!hit) misses++;
      if (apart) rejected++;
    });
    // Not vacuous: most misses are rejected without the cast.
    expect(rejected).toBeGreaterThan(0.5 * misses);
  });

  it('property: never rejects a pair of the exact axis-parallel casts that touches (hits to the last ulp, 20,000 cases)', () => {
    forAllFrozen(exactSSCastArb, { numRuns: 20_000, seed: 0x5a9b }, (sc) => {
      if (sweptSpheresApart(sc.a, sc.motion, sc.b) && castSphereSphere(sc.a, sc.motion, sc.b, newCast())) throw new Error('rejected a touching pair');
    });
  });

  // Closest distance of the paths set to R (1 + k) for k around the slack: below the slack the pair
  // is kept whatever the cast says; well above it the pair is rejected and the cast misses.
  const band = fc.tuple(
    fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })),
    fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })),
    fc.double({ min: 0.01, max: 2, noNaN: true }),
    fc.double({ min: 0.01, max: 2, noNaN: true }),
    fc.double({ min: 0, max: 1, noNaN: true }),
    fc.double({ min: 0.1, max: 30, noNaN: true }),
    fc.integer({ min: -16, max: -2 }),
    fc.constantFrom(1, -1),
    fc.integer({ min: -40, max: 40 }),
  ).filter(([d, n]) => Math.hypot(...d) > 0.1 && Math.hypot(...n) > 0.1);

  it('property: closest distances within the slack of the radii sum are kept; 1e-4 beyond it are rejected and miss (20,000 cases at scales 2^-40 to 2^40)', () => {
    forAllFrozen(band, { numRuns: 20_000, seed: 0x5a9c }, ([d, n, ra, rb, frac, len, e, sign, p2]) => {
      const s = 2 ** p2;
      // Unit motion direction u and a unit normal w perpendicular to it.
      const dl = Math.hypot(...d);
      const u = d.map((x) => x / dl);
      const dot = n[0] * u[0] + n[1] * u[1] + n[2] * u[2];
      const w0 = n.map((x, i) => x - dot * u[i]);
      const wl = Math.hypot(...w0);
      if (wl < 1e-3) return;
      const w = w0.map((x) => x / wl);
      const R = ra + rb;
      const k = sign * 10 ** e;
      // b at the origin; a's path passes at distance R (1 + k) from it, closest at fraction frac.
      const gap = R * (1 + k);
      const start = [0, 1, 2].map((i) => s * (w[i] * gap - u[i] * len * frac));
      const motion = { x: s * u[0] * len, y: s * u[1] * len, z: s * u[2] * len };
      const a = { center: { x: start[0], y: start[1], z: start[2] }, radius: s * ra };
      const b = { center: { x: 0, y: 0, z: 0 }, radius: s * rb };
      const apart = sweptSpheresApart(a, motion, b);
      const hit = castSphereSphere(a, motion, b, newCast());
      if (apart && hit) throw new Error('rejected a touching pair');
      // (the slack, 1e-9 of |ca|₁ + |cb|₁ + |m|₁ + R, is at most about 1e-6 of R here: b is at the origin)
      if (k >= 1e-4) expect(apart).toBe(true);
      if (k > 0 && k < 0.5 * APART_SLACK) expect(apart).toBe(false);
    });
  });

  it('keeps pairs with non-finite inputs (the cast decides them)', () => {
    const b = { center: { x: 0, y: 0, z: 0 }, radius: 1 };
    for (const bad of [NaN, Infinity, -Infinity]) {
      expect(sweptSpheresApart({ center: { x: bad, y: 5, z: 0 }, radius: 1 }, { x: 1, y: 0, z: 0 }, b)).toBe(false);
      expect(sweptSpheresApart({ center: { x: 5, y: 5, z: 0 }, radius: 1 }, { x: bad, y: 0, z: 0 }, b)).toBe(false);
      expect(sweptSpheresApart({ center: { x: 5, y: 5, z: 0 }, radius: bad }, { x: 1, y: 0, z: 0 }, b)).toBe(false);
    }
    expect(sweptSpheresApart({ center: { x: 5, y: 5, z: 0 }, radius: 1 }, { x: 1, y: 0, z: 0 }, b)).toBe(true);
  });
});
