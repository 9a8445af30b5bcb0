/**
 * Spheres queried in cell order: in large worlds, the static-only sphere queries of the broadphase
 * (static boxes on level 0 of their grid, no dynamic grid) visit the spheres sorted by a coarse
 * grid cell of their centre (cells of 4 static cells or more, over the static boxes' extent), so
 * that consecutive queries read the same or nearby boxes' entries and bounds instead of jumping at
 * random (entity ids carry no spatial order). A stable counting sort (Knuth, TAOCP vol. 3, 5.2,
 * "distribution counting"): spheres of one coarse cell keep their id order. World frame, length
 * units, seconds.
 *
 * - Pass 1, in id order: each sphere's record: query bounds (swept over the tick with continuous
 *   contacts on, exactly as the id-order loop of `broadphase.ts` computes them), its static bucket
 *   (or `GENERAL`: several cells or far coordinates; `SLICED`: a motion longer than a cell, sorted
 *   last), its coarse cell, and the counts per coarse cell.
 * - The sort copies the records into coarse-cell order; pass 2 queries in that order, reading them
 *   sequentially.
 * - Each sphere's pairs are one run of the pair list; the runs are then copied back in id order, so
 *   the pair list is exactly what the id-order loop writes (sorted by (a, b)), and so are the work
 *   counters. Only the contact budget's error may name another sphere (the total is the same).
 * Scratch is shared by every instance (steps never interleave) and grows by doubling: 96 bytes of
 * records and 20 of keys and runs per entity id.
 * @module
 */
import { CELL_LIMIT, hashCell, WHOLE_TICK } from '../broadphase/cells.js';
import { WORK_CELLS, WORK_ITEMS, type Grid } from '../broadphase/grid.js';
import { gridQuerySlice, queryOutReserve } from '../broadphase/query.js';
import { BOUNDS_PAD } from './bodies.js';
import { internalsOf, WORK_QUERIES } from './internal.js';
import { emitPairs } from './spherePairs.js';
import { BodyFlags, type Physics } from './types.js';

const { SPHERE, BOX, MOVING, RESPONSE } = BodyFlags;

/**
 * Entity ids (`maxEid`) from which the static-only queries go in cell order (the default of
 * `internal.cellOrderMin`): measured side by side on the arena, the sort costs more than it saves
 * while the grid and the bodies stay in cache (whole tick, cell order / id order: 10,000 spheres
 * 1.23, 100,000 1.07, 300,000 1.06) and wins beyond (1,000,000: 0.84). The crossover between
 * 300,000 and 1,000,000 was not measured more finely.
 */
export const CELL_ORDER_MIN = 1 << 19;

/** Per query record (pass-1 order): bounds (6 per record), entity id, static bucket key, coarse cell. */
let recBounds = new Float64Array(6 * 64);
let recEid = new Int32Array(64);
let recKey = new Int32Array(64);
let recSort = new Int32Array(64);
/** Record keys other than a static bucket: several cells or far coordinates; a sliced motion. */
const GENERAL = -1;
const SLICED = -2;
/** The coarse grid the spheres are sorted by: origin (x, y, z), 1 / side; cells per axis, and in all. */
const coarse = new Float64Array(4);
const coarseDims = new Int32Array(4);
/** Most coarse cells. */
const COARSE_MAX = 1 << 22;
/** The records in coarse-cell order. */
let sortedBounds = new Float64Array(6 * 64);
let sortedEid = new Int32Array(64);
let sortedKey = new Int32Array(64);
/** Per coarse cell: running starts of the counting sort. */
let keyStart = new Int32Array(64);
/** Per entity id: where its run of pairs starts in the pair list, and its length. */
let runStart = new Int32Array(64);
let runLength = new Int32Array(64);
/** The pair list in id order (swapped with the broadphase's list). */
let pairA: Uint32Array = new Uint32Array(64);
let pairB: Uint32Array = new Uint32Array(64);

/** Scratch bounds for the general query. */
const q = new Float64Array(6);

/** A sliced sphere's queries (from `broadphase.ts`): they emit its pairs. */
export type QuerySliced = (physics: Physics, eid: number, f: number) => void;

function reserveRecords(n: number): void {
  if (recEid.length >= n) return;
  let size = recEid.length * 2;
  while (size < n) size *= 2;
  recBounds = new Float64Array(6 * size);
  recEid = new Int32Array(size);
  recKey = new Int32Array(size);
  recSort = new Int32Array(size);
  sortedBounds = new Float64Array(6 * size);
  sortedEid = new Int32Array(size);
  sortedKey = new Int32Array(size);
}

/**
 * Pass 1: the records of every querying sphere, in id order, and the count of each sort key in
 * `keyStart[key + 1]`. Sort keys: the coarse cell (< `keys`), or `keys` for a sliced sphere. Returns the number of records (nothing follows the loop, see `scanBodies` in broadphase.ts).
 */
function collect(physics: Physics, keys: number): number {
  const internal = internalsOf(physics);
  const { flags, maxEid, staticGrid } = internal;
  const { Position: p, Velocity: v, Sphere: s } = physics.components;
  const px = p.x, py = p.y, pz = p.z, vx = v.x, vy = v.y, vz = v.z, radius = s.radius;
  const dt = physics.continuous ? physics.dt : 0;
  const side = internal.dynamicGrid.cellSize;
  const m = staticGrid.margin, inv = staticGrid.levelInv[0], tableMask = staticGrid.tableMask;
  const rb = recBounds, re = recEid, rk = recKey, rs = recSort, count = keyStart;
  const ox = coarse[0], oy = coarse[1], oz = coarse[2], cinv = coarse[3];
  const dx = coarseDims[0], dy = coarseDims[1], dz = coarseDims[2];
  let n = 0;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & SPHERE) === 0 || (f & (MOVING | RESPONSE | BOX)) === (MOVING | RESPONSE)) continue;
    const t = (f & MOVING) !== 0 ? dt : 0;
    const x = px[eid], y = py[eid], z = pz[eid], r = radius[eid];
    const mx = vx[eid] * t, my = vy[eid] * t, mz = vz[eid] * t;
    const ax = Math.abs(mx), ay = Math.abs(my), az = Math.abs(mz);
    re[n] = eid;
    if (!(ax <= side && ay <= side && az <= side)) {
      rb[6 * n] = n - count[keys + 1]; // the queries of single-slice spheres before it in id order
      rk[n] = SLICED;
      rs[n] = keys;
      count[keys + 1]++;
      n++;
      continue;
    }
    const pad = BOUNDS_PAD * (1 + Math.abs(x) + Math.abs(y) + Math.abs(z) + 3 * r + ax + ay + az);
    const x0 = x - r + (mx < 0 ? mx : 0) - pad, y0 = y - r + (my < 0 ? my : 0) - pad, z0 = z - r + (mz < 0 ? mz : 0) - pad;
    const x1 = x + r + (mx > 0 ? mx : 0) + pad, y1 = y + r + (my > 0 ? my : 0) + pad, z1 = z + r + (mz > 0 ? mz : 0) + pad;
    const o = 6 * n;
    rb[o] = x0;
    rb[o + 1] = y0;
    rb[o + 2] = z0;
    rb[o + 3] = x1;
    rb[o + 4] = y1;
    rb[o + 5] = z1;
    // The single-cell test of `querySingleCell` (src/broadphase/query.ts): the same arithmetic.
    let u0 = (x0 + m) * inv, u1 = (x1 - m) * inv;
    if (u0 > u1) u0 = u1 = (x0 + (x1 - x0) * 0.5) * inv;
    let v0 = (y0 + m) * inv, v1 = (y1 - m) * inv;
    if (v0 > v1) v0 = v1 = (y0 + (y1 - y0) * 0.5) * inv;
    let w0 = (z0 + m) * inv, w1 = (z1 - m) * inv;
    if (w0 > w1) w0 = w1 = (z0 + (z1 - z0) * 0.5) * inv;
    const cx = Math.floor(u0), cy = Math.floor(v0), cz = Math.floor(w0);
    let key = GENERAL;
    if (u0 > -CELL_LIMIT && u1 < CELL_LIMIT && v0 > -CELL_LIMIT && v1 < CELL_LIMIT && w0 > -CELL_LIMIT && w1 < CELL_LIMIT &&
      Math.floor(u1) === cx && Math.floor(v1) === cy && Math.floor(w1) === cz) key = hashCell(cx, cy, cz, 0, tableMask);
    rk[n] = key;
    // Sort key: the coarse cell of the centre (clamped to the coarse grid; NaN goes to cell 0).
    let kx = Math.floor((x - ox) * cinv), ky = Math.floor((y - oy) * cinv), kz = Math.floor((z - oz) * cinv);
    kx = kx > 0 ? (kx < dx ? kx : dx - 1) : 0;
    ky = ky > 0 ? (ky < dy ? ky : dy - 1) : 0;
    kz = kz > 0 ? (kz < dz ? kz : dz - 1) : 0;
    const sk = (kx * dy + ky) * dz + kz;
    rs[n] = sk;
    count[sk + 1]++;
    n++;
  }
  return n;
}

/**
 * The counting sort: prefix sums of the key counts, then the stable copy of the records into
 * coarse-cell order. Each loop stands alone in its function (code after a loop optimised on stack
 * replacement would deoptimise at every tick, see `sortByLevel` in src/broadphase/grid.ts).
 */
function prefixKeys(keys: number): void {
  const start = keyStart;
  for (let k = 0; k < keys; k++) start[k + 1] += start[k];
}

function distribute(n: number): void {
  const start = keyStart, rk = recKey, rs = recSort, rb = recBounds, re = recEid, sb = sortedBounds, se = sortedEid, sk = sortedKey;
  for (let j = 0; j < n; j++) {
    const s = start[rs[j]]++;
    se[s] = re[j];
    sk[s] = rk[j];
    for (let k = 0; k < 6; k++) sb[6 * s + k] = rb[6 * j + k];
  }
}

/**
 * Pass 2: the queries in coarse-cell order; each sphere's pairs recorded as a run. Sliced spheres
 * come last (their key is the largest), in id order, each seeing `work[WORK_QUERIES]` as the id-order
 * loop shows it (the slice budget reads it). Returns the number of queries.
 */
function queryInOrder(physics: Physics, n: number, querySliced: QuerySliced): number {
  const internal = internalsOf(physics);
  const { flags, staticGrid, query, pairs, work } = internal;
  let single = 0;
  let sliced = 0;
  const { cellStart, cellItems, bounds: b, ids: staticIds, work: staticWork } = staticGrid;
  const rb = sortedBounds, re = sortedEid, rk = sortedKey, rs = runStart, rl = runLength;
  for (let j = 0; j < n; j++) {
    const eid = re[j];
    const key = rk[j];
    const before = pairs.count;
    if (key === SLICED) {
      work[WORK_QUERIES] = rb[6 * j] + sliced;
      querySliced(physics, eid, flags[eid]);
      sliced = work[WORK_QUERIES] - rb[6 * j];
    } else if (key === GENERAL) {
      single++;
      for (let k = 0; k < 6; k++) q[k] = rb[6 * j + k];
      query.count = 0;
      gridQuerySlice(staticGrid, query, q, 0, WHOLE_TICK);
      if (query.count > 0) emitPairs(physics, eid);
    } else {
      single++;
      const o = 6 * j;
      const x0 = rb[o], y0 = rb[o + 1], z0 = rb[o + 2], x1 = rb[o + 3], y1 = rb[o + 4], z1 = rb[o + 5];
      const end = cellStart[key + 1];
      staticWork[WORK_CELLS]++;
      staticWork[WORK_ITEMS] += end - cellStart[key];
      const out = query.ids; // holds every static item (reserved by the caller): a bucket holds each once
      let c = 0;
      for (let k = cellStart[key]; k < end; k++) {
        const i = 6 * cellItems[k];
        if (b[i] <= x1 && b[i + 3] >= x0 && b[i + 1] <= y1 && b[i + 4] >= y0 && b[i + 2] <= z1 && b[i + 5] >= z0) out[c++] = staticIds[cellItems[k]];
      }
      if (c > 0) {
        query.count = c;
        emitPairs(physics, eid);
      }
    }
    rs[eid] = before;
    rl[eid] = pairs.count - before;
  }
  return single + sliced;
}

/** Copies the runs of pairs back in id order (into the spare arrays, then swapped in). */
function reorderPairs(physics: Physics, maxEid: number): void {
  const { pairs } = internalsOf(physics);
  if (pairA.length < pairs.a.length) {
    pairA = new Uint32Array(pairs.a.length);
    pairB = new Uint32Array(pairs.a.length);
  }
  const a = pairs.a, b = pairs.b, na = pairA, nb = pairB, rs = runStart, rl = runLength;
  pairA = a;
  pairB = b;
  pairs.a = na;
  pairs.b = nb;
  let w = 0;
  for (let eid = 1; eid <= maxEid; eid++) {
    const len = rl[eid];
    if (len === 0) continue;
    const from = rs[eid];
    for (let k = 0; k < len; k++) {
      na[w] = a[from + k];
      nb[w] = b[from + k];
      w++;
    }
  }
}

/**
 * Sets the coarse grid over the static grid's extent: cells of 4 static cells, doubled until there
 * are at most `n` and `COARSE_MAX` of them; their number goes to `coarseDims[3]`. Reads its inputs
 * from the grid and writes to typed arrays, so that no double crosses a call (no boxing).
 */
function coarseGrid(grid: Grid, n: number): void {
  const e = grid.extent;
  const limit = Math.min(COARSE_MAX, Math.max(1, n));
  let s = grid.cellSize > 0 ? 4 * grid.cellSize : 1;
  let cells = Infinity;
  for (let k = 0; k < 64 && !(cells <= limit); k++) {
    if (k > 0) s *= 2;
    cells = 1;
    for (let a = 0; a < 3; a++) cells *= Math.max(1, Math.min(COARSE_MAX, Math.floor((e[a + 3] - e[a]) / s) + 1));
  }
  if (!(cells <= limit)) s = Infinity;
  coarse[3] = 1 / s;
  let total = 1;
  for (let a = 0; a < 3; a++) {
    coarse[a] = e[a] > -Infinity ? e[a] : 0;
    const d = s === Infinity ? 1 : Math.max(1, Math.min(COARSE_MAX, Math.floor((e[a + 3] - e[a]) / s) + 1));
    coarseDims[a] = d;
    total *= d;
  }
  coarseDims[3] = total;
}

/**
 * Every sphere's static-only queries, in cell order (see the module notes); appends to
 * `internal.pairs` (empty on entry) sorted by (a, b). Returns the number of sphere queries, as the
 * id-order loop counts them (one per slice).
 */
export function querySpheresInCellOrder(physics: Physics, querySliced: QuerySliced): number {
  const internal = internalsOf(physics);
  const { maxEid, staticGrid, query } = internal;
  if (query.ids.length < staticGrid.count) queryOutReserve(query, staticGrid.count);
  coarseGrid(staticGrid, maxEid);
  const keys = coarseDims[3];
  reserveRecords(maxEid + 1);
  if (keyStart.length < keys + 2) keyStart = new Int32Array(Math.max(keys + 2, 2 * keyStart.length));
  if (runStart.length < maxEid + 1) {
    runStart = new Int32Array(Math.max(maxEid + 1, 2 * runStart.length));
    runLength = new Int32Array(runStart.length);
  }
  keyStart.fill(0, 0, keys + 2);
  runLength.fill(0, 0, maxEid + 1);
  const n = collect(physics, keys);
  prefixKeys(keys + 1);
  distribute(n);
  const queries = queryInOrder(physics, n, querySliced);
  reorderPairs(physics, maxEid);
  return queries;
}
