/**
 * The scan's size statistics with continuous contacts (src/step/scanBodies.ts): each sphere's
 * extent is 2·radius plus its largest motion component over the tick, taken there without a branch
 * on which component is largest (a select through a two-slot table); here against an independent
 * oracle that files the extents of the nested selects, ax > ay ? (ax > az ? ax : az) : (ay > az ? ay : az),
 * bit for bit, for every motion: ±0, subnormal, huge, infinite and NaN components (validation off,
 * so that a bad one reaches the statistics rather than throwing).
 */
import fc from 'fast-check';
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addSphere, createPhysics } from '../../src/index.js';
import { createSizeStats, sizeStatsAdd, sizeStatsAddFast, sizeStatsClear, type SizeStats } from '../../src/grid/policy.js';
import { BOUNDS_PAD } from '../../src/physics/bodyReads.js';
import { internalsOf } from '../../src/physics/internal.js';
import { scanBodies } from '../../src/step/scanBodies.js';

const component = fc.oneof(
  fc.double({ min: -50, max: 50, noNaN: true }),
  fc.constantFrom(0, -0, 1, -1, 2.5, -2.5, Number.MIN_VALUE, -Number.MIN_VALUE, 1e300, -1e300, Infinity, -Infinity, NaN),
);
const sphere = fc.record({
  r: fc.oneof(fc.double({ min: 0, max: 4, noNaN: true }), fc.constantFrom(0, 0.5, 1)),
  v: fc.tuple(component, component, component),
  p: fc.tuple(fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true })),
});

/** The oracle: the statistics of the nested selects' extents, filed as the scan files them. */
function oracle(spheres: { r: number; v: number[]; p: number[] }[], dt: number, cell: number): SizeStats {
  const s = createSizeStats();
  sizeStatsClear(s);
  for (const { r, v, p } of spheres) {
    const ax = Math.abs(v[0] * dt), ay = Math.abs(v[1] * dt), az = Math.abs(v[2] * dt);
    let e = 2 * r + (ax > ay ? (ax > az ? ax : az) : ay > az ? ay : az);
    if (e === 0) e = 2 * BOUNDS_PAD * (1 + Math.abs(p[0]) + Math.abs(p[1]) + Math.abs(p[2]));
    s.input[0] = e;
    if (cell > 0 && !(ax <= cell && ay <= cell && az <= cell)) sizeStatsAddFast(s);
    else sizeStatsAdd(s);
  }
  return s;
}

describe('scan: the continuous extent without a branch on the largest motion component', () => {
  it('files the extents of the nested selects, bit for bit, for every motion', () => {
    fc.assert(fc.property(fc.array(sphere, { minLength: 1, maxLength: 40 }), fc.constantFrom(0, 0.5, 3), (spheres, cell) => {
      const physics = createPhysics(createWorld(), { capacity: 64, continuous: true, validate: false });
      for (const { r, p } of spheres) addSphere(physics, { position: p, radius: r, velocity: [0, 0, 0] });
      // The velocities written directly (the helpers check them): NaN and ±∞ included.
      const V = physics.components.Velocity;
      spheres.forEach(({ v }, i) => {
        V.x[i + 1] = v[0];
        V.y[i + 1] = v[1];
        V.z[i + 1] = v[2];
      });
      const bp = internalsOf(physics).broadphase;
      bp.cellSize = cell;
      scanBodies(physics);
      const want = oracle(spheres, physics.dt, cell);
      expect(Array.from(bp.sizes.count)).toEqual(Array.from(want.count));
      expect(Array.from(bp.sizes.fast)).toEqual(Array.from(want.fast));
      expect(Array.from(bp.sizes.max).map((x) => Object.is(x, -0) ? '-0' : x)).toEqual(Array.from(want.max).map((x) => Object.is(x, -0) ? '-0' : x));
    }), { numRuns: 400 });
  });
});
