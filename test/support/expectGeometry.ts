/**
 * vitest assertions on geometry results. Exact comparisons treat −0 and +0 as equal (the geometry
 * API does not distinguish them); NaN never passes.
 */
import { expect } from 'vitest';
import type { Vec3 } from '../../src/index.js';

/** Each component of `actual` within `tol` of `expected` (tol 0: exactly equal). */
export function expectVec(actual: Vec3, expected: Vec3, tol = 1e-12): void {
  const msg = `${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`;
  expect(Math.abs(actual.x - expected.x), msg).toBeLessThanOrEqual(tol);
  expect(Math.abs(actual.y - expected.y), msg).toBeLessThanOrEqual(tol);
  expect(Math.abs(actual.z - expected.z), msg).toBeLessThanOrEqual(tol);
}

const same3 = (a: Vec3, b: Vec3): boolean => a.x === b.x && a.y === b.y && a.z === b.z;

/** The fields given in `e` equal those of the contact `c` exactly. */
export function expectContact(
  c: { hit: boolean; normal: Vec3; depth: number; point: Vec3 },
  e: { hit?: boolean; normal?: Vec3; depth?: number; point?: Vec3 },
): void {
  const show = JSON.stringify(c);
  if (e.hit !== undefined) expect(c.hit, show).toBe(e.hit);
  if (e.normal) expect(same3(c.normal, e.normal), `normal: ${show}, expected ${JSON.stringify(e.normal)}`).toBe(true);
  if (e.depth !== undefined) expect(c.depth, `depth: ${show}`).toBe(e.depth);
  if (e.point) expect(same3(c.point, e.point), `point: ${show}, expected ${JSON.stringify(e.point)}`).toBe(true);
}

/** A hit at toi exactly 0 with exactly this normal and point (touching or overlapping at the start). */
export function expectHitAtStart(c: { hit: boolean; toi: number; normal: Vec3; point: Vec3 }, normal: Vec3, point: Vec3): void {
  expect(c.hit).toBe(true);
  expect(c.toi).toBe(0);
  expectVec(c.normal, normal, 0);
  expectVec(c.point, point, 0);
}

/**
 * The cast that `castAt(s)` runs on a scene scaled by s hits at s = 1, and at s = 2^k for each k with
 * the same toi and normal to the bit (power-of-two scaling changes no rounding).
 */
export function expectScaleInvariantHit(castAt: (s: number) => { hit: boolean; toi: number; normal: Vec3 }, exponents: number[]): void {
  const unit = castAt(1);
  expect(unit.hit).toBe(true);
  for (const k of exponents) {
    const c = castAt(2 ** k);
    expect(c.hit, `2^${k}`).toBe(true);
    expect(c.toi, `2^${k}`).toBe(unit.toi);
    expect(c.normal, `2^${k}`).toEqual(unit.normal);
  }
}
