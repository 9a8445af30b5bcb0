/**
 * Caller-owned outputs of the world queries: `QueryHit` (one hit), `HitList` (every hit, in
 * float64 columns) and `EntityList` (entity ids). The lists grow by doubling when a query needs more
 * room (their arrays are then replaced, like the contact list's). World frame, length units.
 * @module
 */
import * as errors from '../physics/errors.js';
import type { Vec3 } from '../geometry/types.js';

// Imported bindings read once into module constants: see docs/internals.md (imports on hot paths).
const { PhysicsInputError } = errors;

/**
 * One hit of `castRay` / `castSphere`: the body (`entity`), the `distance` along the unit direction
 * from the query's origin (centre), in [0, maxDistance], the body's outward unit `normal` at the
 * contact (pointing back toward the ray or the swept sphere) and the contact `point` on its surface.
 */
export interface QueryHit {
  entity: number;
  distance: number;
  normal: Vec3;
  point: Vec3;
}

/**
 * Options of every world query: a body b is considered when `(group & mask_b) !== 0 &&
 * (group_b & mask) !== 0` (its CollisionFilter; defaults 0xffffffff: every body), b is not
 * `exclude`, and b is not a sensor unless `sensors` is true (default false).
 */
export interface QueryFilter {
  group?: number;
  mask?: number;
  exclude?: number;
  sensors?: boolean;
}

/** Every hit of `castRayAll` / `castSphereAll`, as columns: hit i is entity[i], distance[i], (nx, ny, nz)[i], (px, py, pz)[i]. */
export interface HitList {
  count: number;
  entity: Uint32Array;
  distance: Float64Array;
  nx: Float64Array;
  ny: Float64Array;
  nz: Float64Array;
  px: Float64Array;
  py: Float64Array;
  pz: Float64Array;
}

/** The entities found by `overlapSphere` / `overlapBox`: `ids[0 .. count)`, ascending. */
export interface EntityList {
  count: number;
  ids: Uint32Array;
}

/**
 * The hits of a batch of casts (`castRays`, `castSpheres`), one slot per cast, in the order of the
 * casts: cast i hit `entity[i]` at `distance[i]` along its unit direction, the body's outward unit
 * normal there `normal[3i .. 3i + 3)` (pointing back toward the ray or sphere). A cast that hit
 * nothing has `entity` 0, `distance` Infinity and a zero normal. The arrays grow by doubling (they
 * are then replaced) when a batch has more casts than they hold.
 */
export interface BatchHits {
  entity: Uint32Array;
  distance: Float64Array;
  normal: Float64Array;
}

function readCapacity(capacity: unknown, source: string): number {
  if (typeof capacity !== 'number' || !Number.isInteger(capacity) || capacity < 1 || capacity > 1 << 30) {
    throw new PhysicsInputError({ field: 'capacity', problem: `must be an integer in 1..2^30, got ${String(capacity)}`, source });
  }
  return capacity;
}

/** Creates an empty hit list with room for `capacity` hits (default 16; it grows by doubling). */
export function createHitList(capacity = 16): HitList {
  const n = readCapacity(capacity, 'createHitList');
  return {
    count: 0,
    entity: new Uint32Array(n),
    distance: new Float64Array(n),
    nx: new Float64Array(n),
    ny: new Float64Array(n),
    nz: new Float64Array(n),
    px: new Float64Array(n),
    py: new Float64Array(n),
    pz: new Float64Array(n),
  };
}

/** Creates an empty entity list with room for `capacity` ids (default 16; it grows by doubling). */
export function createEntityList(capacity = 16): EntityList {
  return { count: 0, ids: new Uint32Array(readCapacity(capacity, 'createEntityList')) };
}

/** Creates the hits of a batch of casts with room for `capacity` casts (default 64; it grows by doubling). */
export function createBatchHits(capacity = 64): BatchHits {
  const n = readCapacity(capacity, 'createBatchHits');
  return { entity: new Uint32Array(n), distance: new Float64Array(n), normal: new Float64Array(3 * n) };
}

function grown<T extends Float64Array | Uint32Array>(a: T, n: number): T {
  const next = new (a.constructor as new (n: number) => T)(n);
  next.set(a.subarray(0, Math.min(a.length, n)));
  return next;
}

function doubled(length: number, n: number): number {
  let m = length > 0 ? length * 2 : 16;
  while (m < n) m *= 2;
  return m;
}

/** Makes room for `n` hits in `out` (doubling; arrays replaced). */
export function hitListReserve(out: HitList, n: number): void {
  if (n <= out.entity.length && n <= out.distance.length && n <= out.nx.length && n <= out.ny.length &&
    n <= out.nz.length && n <= out.px.length && n <= out.py.length && n <= out.pz.length) return;
  const m = doubled(out.entity.length, n);
  out.entity = grown(out.entity, m);
  out.distance = grown(out.distance, m);
  out.nx = grown(out.nx, m);
  out.ny = grown(out.ny, m);
  out.nz = grown(out.nz, m);
  out.px = grown(out.px, m);
  out.py = grown(out.py, m);
  out.pz = grown(out.pz, m);
}

/** Makes room for `n` ids in `out` (doubling; the array replaced). */
export function entityListReserve(out: EntityList, n: number): void {
  if (n <= out.ids.length) return;
  out.ids = grown(out.ids, doubled(out.ids.length, n));
}

/** Makes room for `n` casts in `out` (doubling; arrays replaced). */
export function batchHitsReserve(out: BatchHits, n: number): void {
  if (n <= out.entity.length && n <= out.distance.length && 3 * n <= out.normal.length) return;
  const m = doubled(out.entity.length, n);
  out.entity = grown(out.entity, m);
  out.distance = grown(out.distance, m);
  out.normal = grown(out.normal, 3 * m);
}
