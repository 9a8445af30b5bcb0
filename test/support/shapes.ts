/**
 * Builders of geometry inputs and outputs for tests, as plain object literals (the form a caller
 * writes). World frame, any length unit; quaternions (x, y, z, w) map box-local to world.
 */
import type { BoxShape, CastResult, ContactResult, Quat, SphereShape, Vec3 } from '../../src/index.js';

/** The vector (x, y, z). */
export const vec3 = (x: number, y: number, z: number): Vec3 => ({ x, y, z });

/** A sphere centred at (x, y, z). */
export const sphere = (x: number, y: number, z: number, radius: number): SphereShape => ({ center: { x, y, z }, radius });

/** A box centred at (cx, cy, cz) with half extents (hx, hy, hz); without `rotation` the key is absent (axis-aligned). */
export const box = (cx: number, cy: number, cz: number, hx: number, hy: number, hz: number, rotation?: Quat): BoxShape =>
  rotation === undefined
    ? { center: { x: cx, y: cy, z: cz }, halfExtents: { x: hx, y: hy, z: hz } }
    : { center: { x: cx, y: cy, z: cz }, halfExtents: { x: hx, y: hy, z: hz }, rotation };

/** A contact output filled with NaN, so that a field a query leaves unwritten shows. */
export const newContact = (): ContactResult => ({ normal: { x: NaN, y: NaN, z: NaN }, depth: NaN, point: { x: NaN, y: NaN, z: NaN } });

/** A cast output filled with NaN, so that a field a query leaves unwritten shows. */
export const newCast = (): CastResult => ({ toi: NaN, normal: { x: NaN, y: NaN, z: NaN }, point: { x: NaN, y: NaN, z: NaN } });

/** A `contact*` query's output (a fresh {@link newContact}) with its boolean result as `hit`. */
export function contactWith<A, B>(query: (a: A, b: B, out: ContactResult) => boolean, a: A, b: B): ContactResult & { hit: boolean } {
  const out = newContact();
  const hit = query(a, b, out);
  return { hit, ...out };
}

/** A `cast*` query's output (a fresh {@link newCast}) with its boolean result as `hit`. */
export function castWith<A, B>(query: (a: A, motion: Vec3, b: B, out: CastResult) => boolean, a: A, motion: Vec3, b: B): CastResult & { hit: boolean } {
  const out = newCast();
  const hit = query(a, motion, b, out);
  return { hit, ...out };
}
