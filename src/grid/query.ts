/**
 * Queries of the grid built by `grid.ts`: the items whose closed bounds overlap a query's bounds
 * (and whose time slice meets the query's), each reported once.
 *
 * A query visits the cells its bounds, shrunk by the grid's margin, cover on every level in use; a
 * per-item stamp marks the items already seen by this query when it spans several cells. A query
 * that would visit more than `MAX_QUERY_CELLS` cells on a level, or whose cell coordinates reach
 * ±CELL_LIMIT (or are NaN), scans that level's items instead, so huge, far-flung or malformed
 * bounds never loop for long. Each bucket looked up adds one to `grid.work[WORK_CELLS]` and each
 * entry examined one to `grid.work[WORK_ITEMS]` (a scan: one cell, every item).
 */
import { doubledLength, growArray } from '../math/grow.js';
import { CELL_LIMIT, hashCell, slicesMeet, WHOLE_TICK } from './cells.js';
import { argsOf, HUGE_LEVEL, MAX_QUERY_CELLS, WORK_CELLS, WORK_ITEMS, type Grid } from './grid.js';

/** Items hit by the current query are written here (grown by doubling). */
export interface QueryOut {
  ids: Int32Array;
  count: number;
}

/** Creates a query output buffer. */
export function createQueryOut(capacity = 64): QueryOut {
  return { ids: new Int32Array(capacity), count: 0 };
}

/** @deprecated The former name of {@link createQueryOut} (every constructor is `createX`); removed in the next release. */
export const queryOutCreate: typeof createQueryOut = createQueryOut;

/** Grows `out` so that `extra` more ids fit (doubling). */
export function queryOutReserve(out: QueryOut, extra: number): void {
  if (out.count + extra <= out.ids.length) return;
  out.ids = growArray(out.ids, doubledLength(out.ids.length * 2, out.count + extra));
}

function nextStamp(grid: Grid): number {
  if (grid.stampValue >= 0xfffffff0) {
    grid.stamp.fill(0);
    grid.stampValue = 0;
  }
  return ++grid.stampValue;
}

/** Whether item slot `i` overlaps the query: bounds `grid.queryBounds` (closed), time slice `slice`. */
function overlapsQuery(grid: Grid, i: number, slice: number): boolean {
  const b = grid.bounds;
  const Q = grid.queryBounds;
  const o = 6 * i;
  // The six comparisons as bits, one branch (see querySingleCell).
  if (((+(b[o] <= Q[3]) & +(b[o + 3] >= Q[0])) & (+(b[o + 1] <= Q[4]) & +(b[o + 4] >= Q[1])) & (+(b[o + 2] <= Q[5]) & +(b[o + 5] >= Q[2]))) === 0) return false;
  const t = grid.slice[i];
  return t === WHOLE_TICK || slice === WHOLE_TICK || slicesMeet(t, slice);
}

/**
 * Tests item slot `i` of `level` once per query (stamp) against the query; appends its id on
 * overlap. A bucket may also hold items of other levels (hash sharing): those are skipped here and
 * reported through their own level.
 */
function visitItem(grid: Grid, i: number, level: number, stamp: number, slice: number, out: QueryOut): void {
  if (grid.level[i] !== level || grid.stamp[i] === stamp) return;
  grid.stamp[i] = stamp;
  if (overlapsQuery(grid, i, slice)) out.ids[out.count++] = grid.ids[i];
}

/** Appends every item of `level` that overlaps the query (a linear scan of that level's items). */
function scanLevel(grid: Grid, level: number, slice: number, out: QueryOut): void {
  const end = grid.levelStart[level + 1];
  const slots = grid.levelSlots;
  grid.work[WORK_CELLS]++;
  grid.work[WORK_ITEMS] += end - grid.levelStart[level];
  for (let k = grid.levelStart[level]; k < end; k++) {
    const i = slots[k];
    if (overlapsQuery(grid, i, slice)) out.ids[out.count++] = grid.ids[i];
  }
}

/**
 * Writes the query's cell range on `level`, shrunk by the margin on each axis (to its midpoint when
 * thinner than 2·margin), to `grid.cellRange`, and returns its cell count: Infinity when a
 * coordinate is NaN or reaches ±CELL_LIMIT.
 */
function shrunkRange(grid: Grid, level: number): number {
  const m = grid.margin;
  const inv = grid.levelInv[level];
  const Q = grid.queryBounds;
  const range = grid.cellRange;
  let cells = 1;
  for (let axis = 0; axis < 3; axis++) {
    const lo = Q[axis];
    const hi = Q[axis + 3];
    let a = (lo + m) * inv;
    let b = (hi - m) * inv;
    if (a > b) {
      a = (lo + (hi - lo) * 0.5) * inv;
      b = a;
    }
    const c0 = Math.floor(a);
    const c1 = Math.floor(b);
    if (!(c0 > -CELL_LIMIT && c1 < CELL_LIMIT && c0 <= c1)) return Infinity;
    range[axis] = c0;
    range[axis + 3] = c1;
    cells *= c1 - c0 + 1;
  }
  return cells;
}

/**
 * The items of `level` in one bucket, without stamps (a single-cell query sees each item once: an
 * item is stored once per bucket, and items of other levels sharing the bucket are skipped).
 */
function visitBucket(grid: Grid, h: number, level: number, slice: number, out: QueryOut): void {
  const start = grid.cellStart;
  const items = grid.cellItems;
  const levels = grid.level;
  const end = start[h + 1];
  grid.work[WORK_CELLS]++;
  grid.work[WORK_ITEMS] += end - start[h];
  for (let k = start[h]; k < end; k++) {
    const i = items[k];
    if (levels[i] === level && overlapsQuery(grid, i, slice)) out.ids[out.count++] = grid.ids[i];
  }
}

/**
 * The common case in one flat function (the per-sphere hot path): a grid with only level 0 and a
 * query that, shrunk by the margin, lies in one cell. Returns false, having done nothing, for any
 * other query (several cells, coordinates beyond ±CELL_LIMIT, NaN), which takes the general path.
 */
function querySingleCell(grid: Grid, out: QueryOut, src: ArrayLike<number>, o: number, slice: number): boolean {
  const m = grid.margin;
  const inv = grid.levelInv[0];
  const x0 = src[o], y0 = src[o + 1], z0 = src[o + 2], x1 = src[o + 3], y1 = src[o + 4], z1 = src[o + 5];
  let ax = (x0 + m) * inv, bx = (x1 - m) * inv;
  if (ax > bx) ax = bx = (x0 + (x1 - x0) * 0.5) * inv;
  let ay = (y0 + m) * inv, by = (y1 - m) * inv;
  if (ay > by) ay = by = (y0 + (y1 - y0) * 0.5) * inv;
  let az = (z0 + m) * inv, bz = (z1 - m) * inv;
  if (az > bz) az = bz = (z0 + (z1 - z0) * 0.5) * inv;
  if (!(ax > -CELL_LIMIT && bx < CELL_LIMIT && ay > -CELL_LIMIT && by < CELL_LIMIT && az > -CELL_LIMIT && bz < CELL_LIMIT)) return false;
  const cx = Math.floor(ax), cy = Math.floor(ay), cz = Math.floor(az);
  if (Math.floor(bx) !== cx || Math.floor(by) !== cy || Math.floor(bz) !== cz) return false;
  const h = hashCell(cx, cy, cz, 0, grid.tableMask);
  const start = grid.cellStart;
  const items = grid.cellItems;
  const b = grid.bounds;
  const ids = out.ids;
  const end = start[h + 1];
  const times = grid.slice;
  const sliced = grid.sliced && slice !== WHOLE_TICK;
  grid.work[WORK_CELLS]++;
  grid.work[WORK_ITEMS] += end - start[h];
  let n = out.count;
  for (let k = start[h]; k < end; k++) {
    const i = items[k];
    const q = 6 * i;
    // The six comparisons as bits, one branch: most items fail, so that branch is predicted, while a
    // chain of && mispredicted per axis (measured 0.85x the broadphase at 10,000 spheres, findPairs.ts).
    if (((+(b[q] <= x1) & +(b[q + 3] >= x0)) & (+(b[q + 1] <= y1) & +(b[q + 4] >= y0)) & (+(b[q + 2] <= z1) & +(b[q + 5] >= z0))) !== 0) {
      if (sliced && times[i] !== WHOLE_TICK && !slicesMeet(times[i], slice)) continue;
      ids[n++] = grid.ids[i];
    }
  }
  out.count = n;
  return true;
}

/**
 * Whether bounds `src[o .. o + 6]` lie beyond the grid's extent on some axis (then they meet no item
 * on a cell level; NaN bounds are never beyond).
 */
function outsideExtent(grid: Grid, src: ArrayLike<number>, o: number): boolean {
  const e = grid.extent;
  return src[o] > e[3] || src[o + 1] > e[4] || src[o + 2] > e[5] || src[o + 3] < e[0] || src[o + 4] < e[1] || src[o + 5] < e[2];
}

/**
 * Visits the query's cells on one level (or scans the level when they are too many). The query's
 * bounds shrink by the margin (see `gridSetMargin`).
 */
function queryLevel(grid: Grid, level: number, slice: number, out: QueryOut): void {
  const cells = shrunkRange(grid, level);
  if (!(cells <= MAX_QUERY_CELLS)) {
    scanLevel(grid, level, slice, out);
    return;
  }
  const range = grid.cellRange;
  const x0 = range[0], y0 = range[1], z0 = range[2], x1 = range[3], y1 = range[4], z1 = range[5];
  const mask = grid.tableMask;
  if (cells === 1) {
    visitBucket(grid, hashCell(x0, y0, z0, level, mask), level, slice, out);
    return;
  }
  const stamp = nextStamp(grid);
  const start = grid.cellStart;
  const items = grid.cellItems;
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) {
      for (let z = z0; z <= z1; z++) {
        const h = hashCell(x, y, z, level, mask);
        const end = start[h + 1];
        grid.work[WORK_CELLS]++;
        grid.work[WORK_ITEMS] += end - start[h];
        for (let k = start[h]; k < end; k++) visitItem(grid, items[k], level, stamp, slice, out);
      }
    }
  }
}

/**
 * Appends to `out` the ids of the items whose bounds overlap the closed bounds [min, max], each
 * once, in bucket order (callers sort if they need an order). Convenience form of
 * {@link gridQueryBounds}.
 */
export function gridQuery(
  grid: Grid, out: QueryOut,
  minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number,
): void {
  gridQuerySlice(grid, out, argsOf(grid, minX, minY, minZ, maxX, maxY, maxZ), 0, WHOLE_TICK);
}

/**
 * Appends to `out` the ids of the items whose bounds overlap the closed bounds `src[o .. o + 6]`
 * (minX, minY, minZ, maxX, maxY, maxZ), each once, in bucket order. Allocates nothing unless `out`
 * grows.
 */
export function gridQueryBounds(grid: Grid, out: QueryOut, src: ArrayLike<number>, o: number): void {
  gridQuerySlice(grid, out, src, o, WHOLE_TICK);
}

/**
 * Appends to `out` the ids of the items whose bounds overlap `src[o .. o + 6]` and whose time
 * slice meets `slice` (see `cells.ts`), each once per call, in bucket order.
 */
export function gridQuerySlice(grid: Grid, out: QueryOut, src: ArrayLike<number>, o: number, slice: number): void {
  if (grid.count === 0) return;
  if (out.count + grid.count > out.ids.length) queryOutReserve(out, grid.count);
  if ((grid.levelMask & (1 << HUGE_LEVEL)) === 0 && outsideExtent(grid, src, o)) return;
  if (grid.levelMask === 1 && querySingleCell(grid, out, src, o, slice)) return;
  for (let k = 0; k < 6; k++) grid.queryBounds[k] = src[o + k];
  let levels = grid.levelMask;
  while (levels !== 0) {
    const level = 31 - Math.clz32(levels & -levels);
    levels &= levels - 1;
    if (level === HUGE_LEVEL) scanLevel(grid, level, slice, out);
    else queryLevel(grid, level, slice, out);
  }
}
