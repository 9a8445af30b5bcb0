/**
 * Readers of user input shared by the body helpers (`addSphere`, `setPosition`, …) and the bitecs
 * `set()` handlers: each reads a value the caller passed, checks it and writes it to typed scratch,
 * or throws `PhysicsInputError` naming the function, the entity and the field before anything is
 * written. World frame; lengths in the caller's unit, velocities in length units per second.
 * No allocation unless they throw.
 * @module
 */
import { PhysicsInputError } from './errors.js';

/** The problem reported for an all-zero rotation, by the helpers and by `step` alike. */
export const ZERO_QUATERNION = 'quaternion has length 0 (identity is [0, 0, 0, 1])';

/** A vector as an object or a 3-element array. */
export type Vec3Like = { x: number; y: number; z: number } | readonly [number, number, number];
/** A quaternion as an object or a 4-element array (x, y, z, w). */
export type QuatLike = { x: number; y: number; z: number; w: number } | readonly [number, number, number, number];

/** How a vector argument is named in errors and what it accepts (module constants: no allocation). */
export interface VectorField {
  /** The whole argument, e.g. `position` or `Box.rotation`. */
  readonly whole: string;
  /** Each component, e.g. `position.x` or `Box.hx`. */
  readonly parts: readonly string[];
  /** Components must be >= 0 (sizes). */
  readonly nonNegative: boolean;
}

/** Names a vector argument and its components for errors. */
export const vectorField = (whole: string, parts: readonly string[], nonNegative = false): VectorField => ({ whole, parts, nonNegative });

const KEYS = ['x', 'y', 'z', 'w'] as const;

/** A value as it appears in a message: strings quoted, everything else as `String` gives it. */
export function describe(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : typeof v === 'symbol' ? v.toString() : String(v);
}

/**
 * Reads the first `n` components of `v` (`{x, y, z[, w]}` or an array) into `out` and checks them
 * (finite numbers; >= 0 for sizes). Throws `PhysicsInputError` naming `source`, `eid` and the field
 * before writing anything the caller keeps.
 */
export function readVector(v: unknown, n: number, out: Float64Array, f: VectorField, source: string, eid: number): void {
  if (v === null || typeof v !== 'object') {
    const form = n === 3 ? '{x, y, z} or [x, y, z]' : '{x, y, z, w} or [x, y, z, w]';
    throw new PhysicsInputError({ eid, field: f.whole, problem: `must be ${form}, got ${describe(v)}`, source });
  }
  const array = Array.isArray(v);
  for (let i = 0; i < n; i++) {
    const c: unknown = array ? (v as readonly unknown[])[i] : (v as Record<string, unknown>)[KEYS[i]];
    if (typeof c !== 'number' || !Number.isFinite(c) || (f.nonNegative && !(c >= 0))) {
      const what = f.nonNegative ? 'a finite number >= 0' : 'a finite number';
      throw new PhysicsInputError({ eid, field: f.parts[i], problem: `must be ${what}, got ${describe(c)}`, source });
    }
    out[i] = c;
  }
}

/**
 * Reads a rotation into `out` (x, y, z, w): finite components, not all zero: the same quaternions
 * `step` accepts (it normalises them safely where it uses them). Stored as given.
 */
export function readRotation(q: unknown, out: Float64Array, f: VectorField, source: string, eid: number): void {
  readVector(q, 4, out, f, source, eid);
  if (out[0] === 0 && out[1] === 0 && out[2] === 0 && out[3] === 0) {
    throw new PhysicsInputError({ eid, field: f.whole, problem: ZERO_QUATERNION, source });
  }
}

/** Checks a radius (a finite number >= 0) and returns it. */
export function readRadius(r: unknown, source: string, eid: number, name: string): number {
  if (typeof r !== 'number' || !(r >= 0) || r === Infinity) {
    throw new PhysicsInputError({ eid, field: name, problem: `must be a finite number >= 0, got ${describe(r)}`, source });
  }
  return r;
}

/**
 * Checks collision group or mask bits: 32 bits as an integer in 0 .. 2^32 − 1, or a negative int32
 * as JavaScript's bitwise operators give it (`~2`, `a | b` with bit 31 set: stored as the same 32-bit
 * pattern, −1 = 0xffffffff). A NaN, fraction, string, 2^32 or beyond would be stored as something
 * else (0 or wrapped), so it throws. Returns the value as uint32.
 */
export function readBits(v: unknown, source: string, eid: number, name: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -0x80000000 || v > 0xffffffff) {
    throw new PhysicsInputError({
      eid,
      field: name,
      problem: `must be 32 bits: an integer in 0..0xffffffff (or a negative int32 from a bitwise operator), got ${describe(v)}`,
      source,
    });
  }
  return v >>> 0;
}
