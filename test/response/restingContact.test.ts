/**
 * A body at rest is in contact (docs/response.md, "Resting contact"): a dynamic sphere the response
 * keeps resting on a floor or pressed against a wall is in `physics.contacts` and holds its Contact
 * component every tick, PERSISTING after the first, with the surface normal, at any coordinates.
 * Touching means a gap within the rest skin at the start of the tick (REST_SKIN × radius plus
 * PUSH_EPS × the pose's scale, src/response/predict.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, ContactFlags, step, type Physics } from '../../src/index.js';
import { forAllFrozen } from '../support/properties.js';
import { freshPhysics, pos, vel } from '../support/response.js';

type Mode = 'stop' | 'slide' | 'bounce';

/** Steps `ticks` ticks; returns the ticks at rest (within `tol` of `rest` on `axis`, speed below `still`) and those of them without the expected contact. */
function watch(physics: Physics, s: number, axis: 0 | 1, rest: number, tol: number, still: number, ticks: number): { resting: number; missing: number; flicker: number } {
  let resting = 0, missing = 0, flicker = 0, before = false;
  const C = physics.components.Contact;
  for (let i = 0; i < ticks; i++) {
    step(physics);
    const p = pos(physics, s)[axis], v = Math.hypot(...vel(physics, s));
    const atRest = Math.abs(p - rest) <= tol && v <= still;
    if (!atRest) {
      before = false;
      continue;
    }
    resting++;
    const list = physics.contacts;
    let found = -1;
    for (let k = 0; k < list.count; k++) if (list.a[k] === s) found = k;
    const n = axis === 1 ? list.ny[found] : list.nx[found];
    const comp = axis === 1 ? C.ny[s] : C.nx[s];
    if (found < 0 || !(n > 0.999999) || !(comp > 0.999)) missing++;
    else if (before && list.flags[found] !== ContactFlags.PERSISTING) flicker++;
    before = true;
  }
  return { resting, missing, flicker };
}

/** A sphere dropped (or placed, `drop` 0) onto a floor whose top is at `top`. */
function floorCase(top: number, r: number, mode: Mode, drop: number, scale = 1): { resting: number; missing: number; flicker: number } {
  const g = 9.81 * scale;
  const physics = freshPhysics({ gravity: [0, -g, 0] });
  const h = 10 * scale;
  addBox(physics, { position: [0, top - h, 0], halfExtents: [100 * scale, h, 100 * scale] });
  const s = addSphere(physics, { position: [0, top + r + drop, 0], velocity: [0, 0, 0], radius: r, response: mode, ...(mode === 'bounce' ? { restitution: 0.5 } : {}) });
  return watch(physics, s, 1, top + r, 1e-6 * r, 1e-6 * g / 60, 180);
}

describe('regression: a body at rest is in contact, at any coordinates', () => {
  for (const [top, r, mode] of [[0.3, 0.37, 'slide'], [2.7, 0.33, 'stop'], [0.1, 0.2, 'slide'], [5.3, 0.29, 'bounce']] as const) {
    it(`floor top ${top}, radius ${r}, '${mode}': every resting tick has the contact (it had none in 119 of 119)`, () => {
      const { resting, missing, flicker } = floorCase(top, r, mode, 0.5);
      expect(resting).toBeGreaterThan(100);
      expect(missing).toBe(0);
      expect(flicker).toBe(0);
    });
  }

  it('a sphere pressed into a wall is in contact every tick while pressed (it was 2 ticks of 150)', () => {
    const physics = freshPhysics({ gravity: [-9.81, 0, 0] });
    addBox(physics, { position: [-1.3, 0, 0], halfExtents: [1, 10, 10] });
    const s = addSphere(physics, { position: [0.5, 0, 0], velocity: [0, 0, 0], radius: 0.37, response: 'slide' });
    const { resting, missing, flicker } = watch(physics, s, 0, -0.3 + 0.37, 1e-9, 1e-6, 150);
    expect(resting).toBeGreaterThan(120);
    expect(missing).toBe(0);
    expect(flicker).toBe(0);
  });
});

describe('property: 0 resting ticks without a contact', () => {
  it('random floor heights, radii, scales and modes, placed or dropped', () => {
    const arb = fc.record({
      scaleExp: fc.integer({ min: -3, max: 3 }),
      top: fc.double({ min: -1000, max: 1000, noNaN: true }),
      r: fc.double({ min: 0.01, max: 5, noNaN: true }),
      mode: fc.constantFrom<Mode>('stop', 'slide', 'bounce'),
      drop: fc.constantFrom(0, 0.25, 1),
    });
    forAllFrozen(arb, { numRuns: 60, seed: 24_6 }, ({ scaleExp, top, r, mode, drop }) => {
      const k = 10 ** scaleExp;
      const { resting, missing } = floorCase(top * k, r * k, mode, drop * k, k);
      expect(resting).toBeGreaterThan(0);
      expect(missing).toBe(0);
    });
  });
});
