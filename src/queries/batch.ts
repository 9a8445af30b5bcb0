/**
 * Batches of casts against a physics world: `castRays` and `castSpheres` take many rays or sphere
 * casts per call over typed arrays (origins or centres, directions, max distances, radii) and write
 * each one's closest hit into a caller-owned `BatchHits` (entity, distance, normal), for
 * line-of-sight fans, sensors and many agents' probes. World frame, length units.
 *
 * Each cast answers exactly what the single query (`castRay`, `castSphere`) with the same numbers
 * answers, bit for bit: the same normalisation of the direction (queryArgs.ts `unitDirection`), the
 * same walk and exact casts (sweep.ts); equal distances go to the lower entity id. What a batch
 * saves: its inputs are checked once, in one pass before anything is written (a bad entry throws
 * `PhysicsInputError` naming the argument and the entry, `out` untouched), the filter is read once,
 * the queries' grid brought up to date once, and no argument objects are read per cast. A batch
 * with at least as many casts as the dense grid has cells is walked in the order of the casts'
 * start cells (an LSD radix sort of the cell indices, 11 bits a pass), so that casts starting in
 * one cell read its entries one after the other; a sparser batch is walked in the order given (a
 * fan from one origin is in one cell already): 256 random short rays over the 9,261 cells of the
 * 10,000-sphere arena took 0.91 of the batch's time without the sort (and 1.00 at 100,000
 * spheres), the rays sharing a start cell too rarely to pay for it. Rays on the queries' dense grid are walked by batchRays.ts (one
 * function per batch, the walk in local variables: no call per ray, cell or entry); sphere casts and
 * rays on the hashed grids take the single queries' `sweep` per cast. No allocation unless `out`
 * grows (doubling) or a batch is larger than any before it (the sort's buffers, doubling).
 * @module
 */
import * as denseModule from '../grid/dense.js';
import type { Physics } from '../physics/physicsTypes.js';
import * as lists from './hitLists.js';
import type { BatchHits, QueryFilter } from './hitLists.js';
import * as input from './queryArgs.js';
import * as queryGrid from './queryGrid.js';
import * as slots from './queryState.js';
import type { QueryState } from './queryState.js';
import * as sweepModule from './sweep.js';
import * as batchRaysModule from './batchRays.js';

// Imported bindings read once into module constants: see docs/internals.md (imports on hot paths).
const { DG_INV, DG_X0 } = denseModule;
const { batchHitsReserve } = lists;
const { readBatch, readBatchColumns, readBatchOut, readFilter, readPhysics, unitDirection } = input;
const { queryStateOf, updateQueryGrid } = queryGrid;
const { BH_DIST, BH_N, QI_DIST, QI_O, QI_RADIUS } = slots;
const { sweep } = sweepModule;
const { castRaysDense, prepareRays } = batchRaysModule;

/** Grows the batch buffers of `s` to `n` casts (doubling; contents not kept). */
function reserveBatch(s: QueryState, n: number): void {
  if (s.batchOrder.length >= n) return;
  let m = s.batchOrder.length;
  while (m < n) m *= 2;
  s.batchOrder = new Int32Array(m);
  s.batchSwap = new Int32Array(m);
  s.batchKeys = new Int32Array(m);
  s.batchRays = new Float64Array(6 * m);
}

/**
 * Writes to `s.batchKeys` each cast's start cell in the dense grid (clamped to the table; 0 for
 * every cast on the hashed grids) and returns the largest key.
 */
function startCells(s: QueryState, n: number, starts: Float64Array): number {
  const keys = s.batchKeys, g = s.dense;
  if (!s.useDense || g.nx === 0) {
    keys.fill(0, 0, n);
    return 0;
  }
  const f = g.frame, inv = f[DG_INV], x0 = f[DG_X0], y0 = f[DG_X0 + 1], z0 = f[DG_X0 + 2];
  const nx = g.nx, ny = g.ny, nz = g.nz;
  let max = 0;
  for (let i = 0; i < n; i++) {
    const x = Math.min(nx - 1, Math.max(0, Math.floor((starts[3 * i] - x0) * inv)));
    const y = Math.min(ny - 1, Math.max(0, Math.floor((starts[3 * i + 1] - y0) * inv)));
    const z = Math.min(nz - 1, Math.max(0, Math.floor((starts[3 * i + 2] - z0) * inv)));
    const k = x + nx * (y + ny * z);
    keys[i] = k;
    if (k > max) max = k;
  }
  return max;
}

/**
 * Sorts the casts `0 .. n` by their keys (stable LSD radix sort: as few passes of at most 11 bits
 * as the largest key needs, the bits shared evenly between them, so a table of 9,261 cells takes
 * two passes of 7 bits, 128 counts each, not of 2,048); returns the array that holds the order
 * (`s.batchOrder` or `s.batchSwap`).
 */
function sortCasts(s: QueryState, n: number, max: number): Int32Array {
  let src = s.batchOrder, dst = s.batchSwap;
  const keys = s.batchKeys, counts = s.batchCounts;
  for (let i = 0; i < n; i++) src[i] = i;
  const bits = 32 - Math.clz32(max);
  const width = bits === 0 ? 1 : Math.ceil(bits / Math.ceil(bits / 11));
  const digits = 1 << width, mask = digits - 1;
  for (let shift = 0; max >> shift > 0; shift += width) {
    counts.fill(0, 0, digits);
    for (let i = 0; i < n; i++) counts[(keys[src[i]] >> shift) & mask]++;
    let sum = 0;
    for (let d = 0; d < digits; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) dst[counts[(keys[src[i]] >> shift) & mask]++] = src[i];
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}

/** The casts `0 .. n` in the order given (`s.batchOrder`). */
function givenOrder(s: QueryState, n: number): Int32Array {
  const order = s.batchOrder;
  for (let i = 0; i < n; i++) order[i] = i;
  return order;
}

/** Walks the casts in `order`, writing each one's closest hit (or a miss) into `out`; returns the hits. */
function castEach(physics: Physics, s: QueryState, n: number, order: Int32Array, starts: Float64Array, directions: Float64Array, maxDistances: Float64Array, radii: Float64Array | null, out: BatchHits): number {
  const args = s.args, best = s.best;
  const entity = out.entity, distance = out.distance, normal = out.normal;
  let hits = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    args[QI_O] = starts[3 * i];
    args[QI_O + 1] = starts[3 * i + 1];
    args[QI_O + 2] = starts[3 * i + 2];
    unitDirection(directions, 3 * i, args);
    args[QI_DIST] = maxDistances[i];
    args[QI_RADIUS] = radii === null ? 0 : radii[i];
    sweep(physics, s, false);
    if (best[BH_DIST] === Infinity) {
      entity[i] = 0;
      distance[i] = Infinity;
      normal[3 * i] = normal[3 * i + 1] = normal[3 * i + 2] = 0;
      continue;
    }
    hits++;
    entity[i] = s.bestEntity[0];
    distance[i] = best[BH_DIST];
    normal[3 * i] = best[BH_N];
    normal[3 * i + 1] = best[BH_N + 1];
    normal[3 * i + 2] = best[BH_N + 2];
  }
  return hits;
}

/** The batch engine of {@link castRays} and {@link castSpheres} (inputs checked). */
function castBatch(physics: Physics, s: QueryState, n: number, starts: Float64Array, directions: Float64Array, maxDistances: Float64Array, radii: Float64Array | null, out: BatchHits): number {
  batchHitsReserve(out, n);
  reserveBatch(s, n);
  updateQueryGrid(physics, s);
  const order = n >= s.dense.nx * s.dense.ny * s.dense.nz ? sortCasts(s, n, startCells(s, n, starts)) : givenOrder(s, n);
  if (radii === null && s.useDense) return castRaysDense(physics, s, n, order, starts, maxDistances, out);
  return castEach(physics, s, n, order, starts, directions, maxDistances, radii, out);
}

/**
 * Casts `count` rays: ray i starts at `origins[3i .. 3i + 3)` and goes along `directions[3i .. 3i +
 * 3)` (any finite non-zero vector, normalised) for at most `maxDistances[i]` (finite, >= 0). Its
 * closest hit goes to slot i of `out`: `entity[i]`, `distance[i]` (length units along the unit
 * direction) and the body's outward unit normal `normal[3i .. 3i + 3)`; a ray that hits nothing gets
 * entity 0 and distance Infinity. The filter applies to every ray. Returns how many rays hit.
 * Each ray's answer equals `castRay` with the same numbers; see the module notes.
 */
export function castRays(physics: Physics, count: number, origins: Float64Array, directions: Float64Array, maxDistances: Float64Array, out: BatchHits, filter?: QueryFilter): number {
  readPhysics(physics, 'castRays');
  const s = queryStateOf(physics);
  readBatchColumns(count, origins, 'origins', directions, maxDistances, null, 'castRays');
  reserveBatch(s, count);
  // The values checked in one pass with the directions' normalisation; readBatch names the first bad one.
  if (!prepareRays(s, count, origins, directions, maxDistances)) readBatch(count, origins, 'origins', directions, maxDistances, null, 'castRays');
  readBatchOut(out, 'castRays');
  readFilter(filter, 'castRays', s.filter);
  return castBatch(physics, s, count, origins, directions, maxDistances, null, out);
}

/**
 * Casts `count` spheres: sphere i of radius `radii[i]` (finite, >= 0) is swept from
 * `centers[3i .. 3i + 3)` along `directions[3i .. 3i + 3)` for at most `maxDistances[i]`. Its closest
 * hit goes to slot i of `out` as in {@link castRays}; each answer equals `castSphere` with the same
 * numbers. Returns how many spheres hit.
 */
export function castSpheres(physics: Physics, count: number, centers: Float64Array, radii: Float64Array, directions: Float64Array, maxDistances: Float64Array, out: BatchHits, filter?: QueryFilter): number {
  readPhysics(physics, 'castSpheres');
  const s = queryStateOf(physics);
  readBatch(count, centers, 'centers', directions, maxDistances, radii, 'castSpheres');
  readBatchOut(out, 'castSpheres');
  readFilter(filter, 'castSpheres', s.filter);
  return castBatch(physics, s, count, centers, directions, maxDistances, radii, out);
}
