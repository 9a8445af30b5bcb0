/**
 * Reading and checking the arguments of the world queries into the query state's typed slots
 * (`QueryState.args`, `QueryState.filter`; the `QI_*`, `QF_*` slots of queryState.ts) before
 * anything is written to the caller's output: a bad argument throws `PhysicsInputError` naming the
 * argument, with the query's name as `source`. World frame, length units. No allocation unless
 * they throw.
 * @module
 */
import * as errors from '../physics/errors.js';
import * as internals from '../physics/internal.js';
import * as readInput from '../physics/readInput.js';
import type { VectorField } from '../physics/readInput.js';
import type { Physics } from '../physics/physicsTypes.js';
import type { BatchHits, HitList } from './hitLists.js';
import * as slots from './queryState.js';

// Imported bindings read once into module constants: see docs/internals.md (imports on hot paths).
const { PhysicsInputError } = errors;
const { checkLive, internalsOf } = internals;
const { describe, readBits, readRadius, readRotation, readVector, vectorField: field } = readInput;
const { QF_EXCLUDE, QF_GROUP, QF_MASK, QF_SENSORS, QI_D, QI_DIST, QI_H, QI_O, QI_Q, QI_RADIUS } = slots;

/** One vector argument as read (per call: nothing carried from one call to the next). */
const tmp = new Float64Array(4);

const ORIGIN = field('origin', ['origin.x', 'origin.y', 'origin.z']);
const CENTER = field('center', ['center.x', 'center.y', 'center.z']);
const DIRECTION = field('direction', ['direction.x', 'direction.y', 'direction.z']);
const HALF = field('halfExtents', ['halfExtents.x', 'halfExtents.y', 'halfExtents.z'], true);
const ROTATION = field('rotation', ['rotation.x', 'rotation.y', 'rotation.z', 'rotation.w']);

/**
 * Reads `n` (3 or 4) numeric components of `v` (an array or an object with x, y, z[, w]) into
 * `out[0 .. n)`; throws through `readVector` (which names the field) unless each is a finite number
 * (>= 0 for sizes). Each form is read in its own branch and stored at once: a double read from an
 * array and passed on would be boxed (`readVector` stays the one place that words the errors).
 */
function readNumbers(v: unknown, n: number, out: Float64Array, f: VectorField, source: string): void {
  let ok = false;
  if (Array.isArray(v)) {
    const a = v as readonly unknown[];
    const x = a[0], y = a[1], z = a[2], w = n === 4 ? a[3] : 0;
    if (typeof x === 'number' && typeof y === 'number' && typeof z === 'number' && typeof w === 'number') {
      out[0] = x;
      out[1] = y;
      out[2] = z;
      out[3] = w;
      ok = true;
    }
  } else if (v !== null && typeof v === 'object') {
    const o = v as { x?: unknown; y?: unknown; z?: unknown; w?: unknown };
    const x = o.x, y = o.y, z = o.z, w = n === 4 ? o.w : 0;
    if (typeof x === 'number' && typeof y === 'number' && typeof z === 'number' && typeof w === 'number') {
      out[0] = x;
      out[1] = y;
      out[2] = z;
      out[3] = w;
      ok = true;
    }
  }
  const finite = out[0] - out[0] === 0 && out[1] - out[1] === 0 && out[2] - out[2] === 0 && out[3] - out[3] === 0;
  const signs = !f.nonNegative || (out[0] >= 0 && out[1] >= 0 && out[2] >= 0);
  if (!(ok && finite && signs)) readVector(v, n, out, f, source, -1);
}

function fail(field: string, problem: string, source: string): never {
  throw new PhysicsInputError({ field, problem, source });
}

/** Checks `physics` is a live instance (an object `createPhysics` made, not destroyed). */
export function readPhysics(physics: Physics, source: string): void {
  if (physics === null || typeof physics !== 'object') fail('physics', `must be a physics instance (createPhysics), got ${describe(physics)}`, source);
  if (internalsOf(physics) === undefined) fail('physics', 'must be a physics instance (createPhysics), got an object createPhysics did not make', source);
  checkLive(physics, source);
}

/** Reads the origin (`ray`) or centre into `args[QI_O..]`. */
export function readStart(v: unknown, ray: boolean, source: string, args: Float64Array): void {
  readNumbers(v, 3, tmp, ray ? ORIGIN : CENTER, source);
  args[QI_O] = tmp[0];
  args[QI_O + 1] = tmp[1];
  args[QI_O + 2] = tmp[2];
}

/** Unit direction components below this are written as 0 (see {@link readDirection}). */
const TINY = 1e-300;

/**
 * Reads a finite non-zero direction and writes it normalised to `args[QI_D..]` (scaled first: no
 * overflow). A component below 1e-300 after normalising is written as 0: it is far below the
 * rounding of the others, and its inverse would overflow in the walks (0 · ∞ = NaN at a cell face).
 */
export function readDirection(v: unknown, source: string, args: Float64Array): void {
  readNumbers(v, 3, tmp, DIRECTION, source);
  const m = Math.max(Math.abs(tmp[0]), Math.abs(tmp[1]), Math.abs(tmp[2]));
  if (!(m > 0)) fail('direction', 'must be a non-zero vector', source);
  const x = tmp[0] / m, y = tmp[1] / m, z = tmp[2] / m;
  const inv = 1 / Math.sqrt(x * x + y * y + z * z);
  const dx = x * inv, dy = y * inv, dz = z * inv;
  args[QI_D] = Math.abs(dx) < TINY ? 0 : dx;
  args[QI_D + 1] = Math.abs(dy) < TINY ? 0 : dy;
  args[QI_D + 2] = Math.abs(dz) < TINY ? 0 : dz;
}

/**
 * Writes the direction `src[o .. o + 3)` (finite, not all zero) normalised to `args[QI_D..]` by the
 * arithmetic of {@link readDirection}, operation for operation, so that the batch casts walk
 * bit-identical directions (test/queries/queries.batch.test.ts checks every answer). Not called by
 * `readDirection`: through the call, the queries allocation test measured 257 B per batch of 48
 * queries (16 boxed doubles) with V8 optimising on the main thread, 8.5 B with the copy.
 */
export function unitDirection(src: Float64Array, o: number, args: Float64Array): void {
  const m = Math.max(Math.abs(src[o]), Math.abs(src[o + 1]), Math.abs(src[o + 2]));
  const x = src[o] / m, y = src[o + 1] / m, z = src[o + 2] / m;
  const inv = 1 / Math.sqrt(x * x + y * y + z * z);
  const dx = x * inv, dy = y * inv, dz = z * inv;
  args[QI_D] = Math.abs(dx) < TINY ? 0 : dx;
  args[QI_D + 1] = Math.abs(dy) < TINY ? 0 : dy;
  args[QI_D + 2] = Math.abs(dz) < TINY ? 0 : dz;
}

/** Throws unless `v` is a Float64Array of at least `n` numbers (argument `name` of a batch). */
function readColumnOf(v: unknown, n: number, name: string, what: string, source: string): void {
  if (!(v instanceof Float64Array)) failOut(name, `a Float64Array (${what})`, v, source);
  if (v.length < n) fail(name, `must hold at least ${n} numbers (${what}), got ${v.length}`, source);
}

/** Throws for the first entry of `a[0 .. n)` that is not finite (`positive`: or is negative), naming it. */
function readFiniteColumn(a: Float64Array, n: number, name: string, nonNegative: boolean, source: string): void {
  for (let i = 0; i < n; i++) {
    const v = a[i];
    if (v - v === 0 && (!nonNegative || v >= 0)) continue;
    fail(`${name}[${i}]`, `must be a finite number${nonNegative ? ' >= 0' : ''}, got ${v}`, source);
  }
}

/**
 * The first part of {@link readBatch}: `count` an integer in 0..2^30 and the columns Float64Arrays of
 * at least 3 · count (`origins`, `directions`) and count (`maxDistances`, `radii` unless null)
 * numbers; their values are not read.
 */
export function readBatchColumns(count: unknown, origins: unknown, start: string, directions: unknown, maxDistances: unknown, radii: unknown, source: string): void {
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > 1 << 30) fail('count', `must be an integer in 0..2^30, got ${describe(count)}`, source);
  readColumnOf(origins, 3 * count, start, '3 per cast', source);
  readColumnOf(directions, 3 * count, 'directions', '3 per cast', source);
  readColumnOf(maxDistances, count, 'maxDistances', '1 per cast', source);
  if (radii !== null) readColumnOf(radii, count, 'radii', '1 per cast', source);
}

/**
 * Checks the inputs of a batch of `count` casts before anything is written: `count` an integer >= 0;
 * `origins` (the centres for sphere casts: argument `start`) and `directions` Float64Arrays of at
 * least 3 · count finite numbers, each direction not all zero; `maxDistances` (and `radii` unless
 * null) at least `count` finite numbers >= 0. Throws `PhysicsInputError` naming the argument and
 * the entry (`directions[5]`).
 */
export function readBatch(count: unknown, origins: unknown, start: string, directions: unknown, maxDistances: unknown, radii: unknown, source: string): void {
  readBatchColumns(count, origins, start, directions, maxDistances, radii, source);
  if (typeof count !== 'number') return;
  readFiniteColumn(origins as Float64Array, 3 * count, start, false, source);
  const d = directions as Float64Array;
  readFiniteColumn(d, 3 * count, 'directions', false, source);
  for (let i = 0; i < count; i++) {
    if (d[3 * i] === 0 && d[3 * i + 1] === 0 && d[3 * i + 2] === 0) fail(`directions[${3 * i}..${3 * i + 2}]`, 'must be a non-zero vector', source);
  }
  readFiniteColumn(maxDistances as Float64Array, count, 'maxDistances', true, source);
  if (radii !== null) readFiniteColumn(radii as Float64Array, count, 'radii', true, source);
}

/** Checks that `out` is a `BatchHits` (createBatchHits): `entity` a Uint32Array, `distance` and `normal` Float64Arrays. */
export function readBatchOut(out: unknown, source: string): void {
  if (out === null || typeof out !== 'object') failOut('out', 'a BatchHits (createBatchHits)', out, source);
  const o = out as BatchHits;
  if (!(o.entity instanceof Uint32Array)) failOut('out.entity', 'a Uint32Array (a BatchHits column: createBatchHits)', o.entity, source);
  if (!(o.distance instanceof Float64Array)) failOut('out.distance', 'a Float64Array (a BatchHits column: createBatchHits)', o.distance, source);
  if (!(o.normal instanceof Float64Array)) failOut('out.normal', 'a Float64Array (a BatchHits column: createBatchHits)', o.normal, source);
}

/** Reads `maxDistance` (finite, >= 0) into `args[QI_DIST]`. */
export function readDistance(v: unknown, source: string, args: Float64Array): void {
  if (typeof v !== 'number' || !(v >= 0) || v === Infinity) fail('maxDistance', `must be a finite number >= 0, got ${describe(v)}`, source);
  args[QI_DIST] = v;
}

/**
 * Reads a radius (finite, >= 0) into `args[QI_RADIUS]`. Checked and stored here (`readRadius` only
 * words the error): a double returned by a call that is not inlined would be boxed.
 */
export function readQueryRadius(v: unknown, source: string, args: Float64Array): void {
  if (typeof v !== 'number' || !(v >= 0) || v === Infinity) readRadius(v, source, -1, 'radius');
  args[QI_RADIUS] = v as number;
}

/** Reads half extents (finite, >= 0) into `args[QI_H..]`. */
export function readHalfExtents(v: unknown, source: string, args: Float64Array): void {
  readNumbers(v, 3, tmp, HALF, source);
  args[QI_H] = tmp[0];
  args[QI_H + 1] = tmp[1];
  args[QI_H + 2] = tmp[2];
}

/** Reads a rotation (undefined: identity; else finite, not all zero) and writes it normalised to `args[QI_Q..]`. */
export function readQueryRotation(v: unknown, source: string, args: Float64Array): void {
  if (v === undefined) {
    args[QI_Q] = args[QI_Q + 1] = args[QI_Q + 2] = 0;
    args[QI_Q + 3] = 1;
    return;
  }
  readNumbers(v, 4, tmp, ROTATION, source);
  if (tmp[0] === 0 && tmp[1] === 0 && tmp[2] === 0 && tmp[3] === 0) readRotation(v, tmp, ROTATION, source, -1);
  const m = Math.max(Math.abs(tmp[0]), Math.abs(tmp[1]), Math.abs(tmp[2]), Math.abs(tmp[3]));
  const x = tmp[0] / m, y = tmp[1] / m, z = tmp[2] / m, w = tmp[3] / m;
  const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
  args[QI_Q] = x * inv;
  args[QI_Q + 1] = y * inv;
  args[QI_Q + 2] = z * inv;
  args[QI_Q + 3] = w * inv;
}

/** Whether `v` is 32 bits as `readBits` accepts them (an integer in -2^31 .. 2^32 - 1). */
function isBits(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= -0x80000000 && v <= 0xffffffff;
}

/** `an Array`, `a Map`, … for the error about a collection given as a filter. */
function collectionName(v: object): string {
  const name = (v.constructor as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && name !== '' ? `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}` : 'a collection';
}

/** Reads an optional filter into `filter` (`QF_*` slots; defaults: every group and mask bit, no exclusion, no sensors). */
export function readFilter(f: unknown, source: string, filter: Float64Array): void {
  filter[QF_GROUP] = 0xffffffff;
  filter[QF_MASK] = 0xffffffff;
  filter[QF_EXCLUDE] = 0;
  filter[QF_SENSORS] = 0;
  if (f === undefined) return;
  if (f === null || typeof f !== 'object') fail('filter', `must be an object {group?, mask?, exclude?, sensors?}, got ${describe(f)}`, source);
  // An array, a typed array, a Map or a Set has no filter keys of its own, so it would filter
  // nothing, silently (`[group, mask]` or a Map of the keys is a plausible mistake).
  if (Array.isArray(f) || ArrayBuffer.isView(f) || f instanceof Map || f instanceof Set) {
    fail('filter', `must be a plain object {group?, mask?, exclude?, sensors?}, got ${collectionName(f)}`, source);
  }
  const o = f as { group?: unknown; mask?: unknown; exclude?: unknown; sensors?: unknown };
  // A misspelt key (`{ msk: 1 }`) would otherwise filter nothing, silently. `for…in` walks the
  // object's map's enum cache: no allocation once the call is optimised (the queries' allocation tests).
  for (const k in o) {
    if (k !== 'group' && k !== 'mask' && k !== 'exclude' && k !== 'sensors') fail(`filter.${k}`, 'is not a filter key (group, mask, exclude, sensors)', source);
  }
  // Checked and stored here (`readBits` only words the error): its uint32 result, above 2^31 for
  // the default mask, would be boxed when the call is not inlined. A non-negative value is stored as
  // given, not through `>>> 0`: unoptimised code boxes a uint32 above 2^31 that it computes (seen as
  // 16 B per filtered query in the allocation test when this function ran unoptimised).
  const g = o.group, m = o.mask;
  if (g !== undefined) {
    if (!isBits(g)) readBits(g, source, -1, 'filter.group');
    filter[QF_GROUP] = (g as number) >= 0 ? (g as number) : (g as number) >>> 0;
  }
  if (m !== undefined) {
    if (!isBits(m)) readBits(m, source, -1, 'filter.mask');
    filter[QF_MASK] = (m as number) >= 0 ? (m as number) : (m as number) >>> 0;
  }
  const e = o.exclude;
  if (e !== undefined) {
    if (typeof e !== 'number' || !Number.isInteger(e) || e < 0 || e > 0xffffffff) fail('filter.exclude', `must be an entity id (an integer >= 0), got ${describe(e)}`, source);
    filter[QF_EXCLUDE] = e + 1;
  }
  const s = o.sensors;
  if (s !== undefined) {
    if (typeof s !== 'boolean') fail('filter.sensors', `must be true or false, got ${describe(s)}`, source);
    filter[QF_SENSORS] = s ? 1 : 0;
  }
}

/** Throws for a bad `out` (or part `field` of it): what it must be, and what it is (a class name for an object). */
function failOut(field: string, what: string, v: unknown, source: string): never {
  let got = describe(v);
  if (v !== null && typeof v === 'object') {
    const name = (v.constructor as { name?: unknown } | undefined)?.name;
    got = typeof name === 'string' && name !== '' ? `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}` : 'an object';
  }
  return fail(field, `must be ${what}, got ${got}`, source);
}

const HIT = 'a QueryHit {entity, distance, normal, point}';

/**
 * Checks that `out` is a `QueryHit` the query can write: an object whose `normal` and `point` are
 * objects (their x, y, z are written). Checked before the query writes `entity` and `distance`.
 */
export function readHitOut(out: unknown, source: string): void {
  if (out === null || typeof out !== 'object') failOut('out', HIT, out, source);
  const o = out as { normal?: unknown; point?: unknown };
  const n = o.normal, p = o.point;
  if (n === null || typeof n !== 'object') failOut('out.normal', 'an object {x, y, z}', n, source);
  if (p === null || typeof p !== 'object') failOut('out.point', 'an object {x, y, z}', p, source);
}

const LIST = 'a HitList (createHitList)';

/** Throws unless column `name` of a HitList is a Float64Array. */
function readColumn(v: unknown, name: string, source: string): void {
  if (!(v instanceof Float64Array)) failOut(`out.${name}`, 'a Float64Array (a HitList column: createHitList)', v, source);
}

/** Checks that `out` is a `HitList`: `entity` a Uint32Array, the other seven columns Float64Arrays. */
export function readListOut(out: unknown, source: string): void {
  if (out === null || typeof out !== 'object') failOut('out', LIST, out, source);
  const o = out as HitList;
  if (!(o.entity instanceof Uint32Array)) failOut('out.entity', 'a Uint32Array (a HitList column: createHitList)', o.entity, source);
  readColumn(o.distance, 'distance', source);
  readColumn(o.nx, 'nx', source);
  readColumn(o.ny, 'ny', source);
  readColumn(o.nz, 'nz', source);
  readColumn(o.px, 'px', source);
  readColumn(o.py, 'py', source);
  readColumn(o.pz, 'pz', source);
}

/** Checks that `out` is an `EntityList`: an object whose `ids` is a Uint32Array. */
export function readEntityOut(out: unknown, source: string): void {
  if (out === null || typeof out !== 'object') failOut('out', 'an EntityList (createEntityList)', out, source);
  const ids = (out as { ids?: unknown }).ids;
  if (!(ids instanceof Uint32Array)) failOut('out.ids', 'a Uint32Array (an EntityList: createEntityList)', ids, source);
}
