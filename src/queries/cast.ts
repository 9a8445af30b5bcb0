/**
 * Ray and sphere casts against a physics world: `castRay`, `castSphere` (the closest hit) and
 * `castRayAll`, `castSphereAll` (every body hit). World frame, length units.
 *
 * Conventions (all four): `direction` is any finite non-zero vector, normalised; `distance` is in
 * length units along the unit direction from `origin` (`center`), in [0, maxDistance]; `normal` is
 * the body's outward unit normal at the contact (pointing back toward the ray or the swept sphere)
 * and `point` the contact point on the body's surface. Solids are closed: a ray starting inside a
 * body, or a sphere starting touching or overlapping one, hits it at distance 0 with the static
 * contact normal and point of the geometry API (`contactSphereSphere` / `contactSphereBox`).
 * Every body is seen where its data is now (after direct writes, call `markStaticDirty`). Bad input
 * throws `PhysicsInputError` naming the argument; `out` is written only on success. Exact (the
 * geometry API's casts; a ray is a sphere of radius 0), deterministic, no allocation unless a list
 * grows. Algorithm: src/queries/sweep.ts.
 * @module
 */
import * as heapSortModule from '../math/heapSort.js';
import type { Vec3Like } from '../physics/readInput.js';
import type { Physics } from '../physics/physicsTypes.js';
import * as input from './queryArgs.js';
import * as queryGrid from './queryGrid.js';
import * as lists from './hitLists.js';
import type { HitList, QueryFilter, QueryHit } from './hitLists.js';
import * as slots from './queryState.js';
import type { HitScratch, QueryState } from './queryState.js';
import * as sweepModule from './sweep.js';

// Imported bindings read once into module constants: see docs/internals.md (imports on hot paths).
const { sweep } = sweepModule;
const { readDirection, readDistance, readFilter, readHitOut, readListOut, readPhysics, readQueryRadius, readStart } = input;
const { queryStateOf, updateQueryGrid } = queryGrid;
const { BH_DIST, BH_N, BH_P, QI_RADIUS } = slots;
const { hitListReserve } = lists;
const { heapSort } = heapSortModule;

/**
 * Checks `physics` and reads the cast's arguments (all but the radius) into its query state, which
 * it returns (grids not yet brought up to date).
 */
function readCast(physics: Physics, start: Vec3Like, direction: Vec3Like, maxDistance: number, out: unknown, filter: QueryFilter | undefined, source: string, list: boolean): QueryState {
  readPhysics(physics, source);
  const s = queryStateOf(physics);
  const args = s.args;
  readStart(start, source === 'castRay' || source === 'castRayAll', source, args);
  readDirection(direction, source, args);
  readDistance(maxDistance, source, args);
  if (list) readListOut(out, source);
  else readHitOut(out, source);
  readFilter(filter, source, s.filter);
  return s;
}

/** Writes the closest hit of the cast in `s` to `out`; false (`out` untouched) when none. */
function writeHit(s: QueryState, out: QueryHit): boolean {
  const best = s.best;
  if (best[BH_DIST] === Infinity) return false;
  out.entity = s.bestEntity[0];
  out.distance = best[BH_DIST];
  // Written field by field: the caller's objects are of any shape (a shared helper's stores would
  // see every shape and could box; docs/internals.md).
  const n = out.normal, p = out.point;
  n.x = best[BH_N];
  n.y = best[BH_N + 1];
  n.z = best[BH_N + 2];
  p.x = best[BH_P];
  p.y = best[BH_P + 1];
  p.z = best[BH_P + 2];
  return true;
}

/** Whether hit a comes after hit b: by distance, then entity id. */
function after(h: HitScratch, a: number, b: number): boolean {
  const da = h.data[7 * a], db = h.data[7 * b];
  return da > db || (da === db && h.entity[a] > h.entity[b]);
}

/** Sorts the hit order by (distance, entity) with heapsort (keys are unique: deterministic). */
function sortHits(h: HitScratch): void {
  const n = h.count;
  const order = h.order;
  for (let i = 0; i < n; i++) order[i] = i;
  heapSort(h, after, order, n);
}

function writeHits(h: HitScratch, out: HitList): number {
  sortHits(h);
  const n = h.count;
  hitListReserve(out, n);
  for (let k = 0; k < n; k++) {
    const i = h.order[k];
    const o = 7 * i;
    out.entity[k] = h.entity[i];
    out.distance[k] = h.data[o];
    out.nx[k] = h.data[o + 1];
    out.ny[k] = h.data[o + 2];
    out.nz[k] = h.data[o + 3];
    out.px[k] = h.data[o + 4];
    out.py[k] = h.data[o + 5];
    out.pz[k] = h.data[o + 6];
  }
  out.count = n;
  return n;
}

/**
 * The closest body hit by the ray from `origin` along `direction` within `maxDistance`, into `out`
 * (equal distances: the lower entity id). Returns false (leaving `out` as it was) when none.
 * See the module notes for the conventions.
 */
export function castRay(physics: Physics, origin: Vec3Like, direction: Vec3Like, maxDistance: number, out: QueryHit, filter?: QueryFilter): boolean {
  const s = readCast(physics, origin, direction, maxDistance, out, filter, 'castRay', false);
  s.args[QI_RADIUS] = 0;
  updateQueryGrid(physics, s);
  sweep(physics, s, false);
  return writeHit(s, out);
}

/**
 * The closest body hit by the sphere of `radius` (>= 0) swept from `center` along `direction` within
 * `maxDistance`, into `out` (equal distances: the lower entity id); false when none.
 */
export function castSphere(physics: Physics, center: Vec3Like, radius: number, direction: Vec3Like, maxDistance: number, out: QueryHit, filter?: QueryFilter): boolean {
  const s = readCast(physics, center, direction, maxDistance, out, filter, 'castSphere', false);
  readQueryRadius(radius, 'castSphere', s.args);
  updateQueryGrid(physics, s);
  sweep(physics, s, false);
  return writeHit(s, out);
}

/**
 * Every body hit by the ray within `maxDistance` (each at its first hit), into `out`, sorted by
 * distance then entity id. Returns `out.count`.
 */
export function castRayAll(physics: Physics, origin: Vec3Like, direction: Vec3Like, maxDistance: number, out: HitList, filter?: QueryFilter): number {
  const s = readCast(physics, origin, direction, maxDistance, out, filter, 'castRayAll', true);
  s.args[QI_RADIUS] = 0;
  updateQueryGrid(physics, s);
  sweep(physics, s, true);
  return writeHits(s.hits, out);
}

/**
 * Every body hit by the swept sphere within `maxDistance` (each at its first hit), into `out`,
 * sorted by distance then entity id. Returns `out.count`.
 */
export function castSphereAll(physics: Physics, center: Vec3Like, radius: number, direction: Vec3Like, maxDistance: number, out: HitList, filter?: QueryFilter): number {
  const s = readCast(physics, center, direction, maxDistance, out, filter, 'castSphereAll', true);
  readQueryRadius(radius, 'castSphereAll', s.args);
  updateQueryGrid(physics, s);
  sweep(physics, s, true);
  return writeHits(s.hits, out);
}
