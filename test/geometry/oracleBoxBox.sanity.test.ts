/**
 * Sanity of the box–box oracle (test/oracle/boxBox.ts) against slower methods that share nothing
 * with it: the distance against alternating projections (von Neumann: the closest point on a box is
 * a clamp in its frame; the pair distance decreases to the distance of the sets), the penetration
 * depth against random directions and against the intersection test after pushing a out, and the
 * contact-event cast oracle against the convex search of the signed distance.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boxesDistance, boxesIntersect, candidateAxes, castBoxBoxOracle, castEvents, penetration, polyOf, pushOut } from '../oracle/boxBox.js';
import { type OBoxShape, OBox, norm3, scale3, toArr } from '../oracle/oracle.js';
import { unitDir } from './arbitraries.js';
import { bbCastArb, bbSceneArb } from './arbitrariesBoxBox.js';
import { bbScale } from './checksBoxBox.js';

/** Distance by alternating projections between the boxes, from a's centre, `iters` rounds. */
function alternatingDistance(a: OBoxShape, b: OBoxShape, iters: number): number {
  const A = new OBox(a);
  const B = new OBox(b);
  const p = [...A.c];
  const q = [0, 0, 0];
  /** to = the point of box X closest to `from` (a clamp in X's frame). */
  const project = (X: OBox, from: number[], to: number[]) => {
    const d0 = from[0] - X.c[0], d1 = from[1] - X.c[1], d2 = from[2] - X.c[2];
    for (let i = 0; i < 3; i++) to[i] = X.c[i];
    for (let k = 0; k < 3; k++) {
      const ax = X.axes[k];
      const l = Math.min(X.h[k], Math.max(-X.h[k], ax[0] * d0 + ax[1] * d1 + ax[2] * d2));
      for (let i = 0; i < 3; i++) to[i] += l * ax[i];
    }
  };
  project(B, p, q);
  for (let i = 0; i < iters; i++) {
    project(A, q, p);
    project(B, p, q);
  }
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

const scenes = (n: number, seed: number) => fc.sample(bbSceneArb, { seed, numRuns: n });

describe('box–box oracle sanity', () => {
  it('distance: between the best separation over the candidate axes and alternating projections, and their limit (2,000 scenes)', () => {
    let close = 0;
    let apart = 0;
    for (const sc of scenes(2000, 1)) {
      const s = bbScale(sc.a, sc.b);
      const A = polyOf(sc.a);
      const B = polyOf(sc.b);
      const d = boxesDistance(A, B);
      // A lower bound: the gap along any unit direction (pushOut < 0 is a gap).
      let gap = -Infinity;
      for (const u of candidateAxes(A, B)) gap = Math.max(gap, -pushOut(A, B, u), -pushOut(A, B, scale3(u, -1)));
      expect(d, JSON.stringify(sc)).toBeGreaterThanOrEqual(gap - 1e-12 * s);
      // An upper bound: alternating projections give a pair of points of the two boxes.
      const ap = alternatingDistance(sc.a, sc.b, 2000);
      expect(d, JSON.stringify(sc)).toBeLessThanOrEqual(ap + 1e-12 * s);
      if (d === 0) continue;
      apart++;
      // Alternating projections converge slowly where the boxes approach at a shallow angle; most
      // have reached the oracle's distance.
      if (ap - d <= 1e-9 * s) close++;
    }
    expect(close).toBeGreaterThan(0.9 * apart);
  });

  it('depth: the least push-out over 200 random directions too; pushing a out along the axis by depth ± 1e-9 separates / does not (3,000 scenes)', () => {
    const dirs = fc.sample(unitDir, { seed: 2, numRuns: 200 });
    let checked = 0;
    for (const sc of scenes(3000, 3)) {
      const A = polyOf(sc.a);
      const B = polyOf(sc.b);
      if (!boxesIntersect(A, B)) continue;
      checked++;
      const s = bbScale(sc.a, sc.b);
      const { depth, axis } = penetration(A, B);
      const least = Math.min(...dirs.map((u) => pushOut(A, B, u)));
      expect(least, JSON.stringify(sc)).toBeGreaterThanOrEqual(depth - 1e-12 * s);
      expect(boxesIntersect(polyOf(sc.a, scale3(axis, depth + 1e-9 * s)), B), JSON.stringify(sc)).toBe(false);
      if (depth > 1e-9 * s) expect(boxesIntersect(polyOf(sc.a, scale3(axis, depth - 1e-9 * s)), B), JSON.stringify(sc)).toBe(true);
    }
    expect(checked).toBeGreaterThan(400);
  });

  it('casts: the contact-event oracle agrees with the convex search of the signed distance (1,000 casts)', () => {
    for (const sc of fc.sample(bbCastArb, { seed: 4, numRuns: 1000 })) {
      const s = bbScale(sc.a, sc.b, sc.motion);
      const events = castEvents(sc.a, sc.motion, sc.b);
      const o = castBoxBoxOracle(sc.a, sc.motion, sc.b);
      const eps = 1e-9 * s;
      if (Math.abs(o.fmin) <= eps) continue; // grazing: either answer
      expect(events !== null, JSON.stringify(sc)).toBe(o.hit);
      if (events === null || !o.hit) continue;
      // equal as positions along the path
      expect(Math.abs(events - o.toi) * norm3(toArr(sc.motion)), JSON.stringify(sc)).toBeLessThanOrEqual(1e-6 * s);
      if (events > 0) expect(Math.abs(o.f(events)), JSON.stringify(sc)).toBeLessThanOrEqual(1e-6 * s);
    }
  });
});
