/**
 * Helpers of the response tests: an independent distance from a point to a rotated box (closest
 * point in the box frame, written here from the definition, not the library's kernels), quaternion
 * builders, and the scene scale used by the tolerances.
 */
import { createWorld } from 'bitecs';
import { createPhysics, type Physics, type PhysicsOptions } from '../../src/index.js';

export type V3 = [number, number, number];
export type Q4 = [number, number, number, number];

/** A unit quaternion from an axis (not necessarily unit) and an angle (radians). */
export function axisAngle(axis: V3, angle: number): Q4 {
  const l = Math.hypot(axis[0], axis[1], axis[2]) || 1;
  const s = Math.sin(angle / 2) / l;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/** Rotates v by unit quaternion q. */
export function rotate(q: Q4, v: V3): V3 {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

/** Signed distance from point p to the box (centre c, half extents h, rotation q): < 0 inside. */
export function boxDistance(p: V3, c: V3, h: V3, q: Q4): number {
  const inv: Q4 = [-q[0], -q[1], -q[2], q[3]];
  const l = rotate(inv, [p[0] - c[0], p[1] - c[1], p[2] - c[2]]);
  const d = [Math.abs(l[0]) - h[0], Math.abs(l[1]) - h[1], Math.abs(l[2]) - h[2]];
  const outside = Math.hypot(Math.max(d[0], 0), Math.max(d[1], 0), Math.max(d[2], 0));
  return outside > 0 ? outside : Math.max(d[0], d[1], d[2]);
}

/** A physics instance on a fresh world. */
export function freshPhysics(options: PhysicsOptions = {}): Physics {
  return createPhysics(createWorld(), { capacity: 16, ...options });
}

/** Position of `eid` as a tuple. */
export function pos(physics: Physics, eid: number): V3 {
  const p = physics.components.Position;
  return [p.x[eid], p.y[eid], p.z[eid]];
}

/** Velocity of `eid` as a tuple. */
export function vel(physics: Physics, eid: number): V3 {
  const v = physics.components.Velocity;
  return [v.x[eid], v.y[eid], v.z[eid]];
}

export const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const len = (a: V3): number => Math.hypot(a[0], a[1], a[2]);

/**
 * The lean (radians from the vertical) of the faces of the slot the jam-mark tests stand a column
 * in: faces this close to parallel (within 1e-6 rad: the weight guess's `DEPENDENT`, weightGuess.ts)
 * hold the lowest ball by impulses of about L / (2 × 1e-7), which the guess leaves to the sweeps and
 * the sweeps do not reach, so every ball of the column reaches the budget every tick, jammed
 * (docs/response.md, Limits). A groove whose faces lean 0.5° or more no longer jams
 * (restingChains.test.ts).
 */
export const JAM_LEAN = 1e-7;
