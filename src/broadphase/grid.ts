/**
 * A hierarchical hashed uniform grid of axis-aligned bounds (Ericson, Real-Time Collision
 * Detection, 7.1.2–7.1.6 and 7.2): data-first free functions over typed arrays, no bitecs.
 *
 * - Items (an id and world-space bounds) are added with `gridAdd`, then `gridBuild` buckets them by a
 *   counting sort into one compressed table (CSR): bucket h holds the item slots `cellItems[cellStart[h]
 *   .. cellStart[h + 1]]`; item bounds are stored together (6 numbers per item). A rebuild allocates nothing once the buffers are big enough (they grow by
 *   doubling, outside the per-item loops).
 * - Level k has cells of side `cellSize · 4^k`. Each item goes to the finest level where it covers
 *   at most `MAX_ITEM_CELLS` cells, so a box much larger than a cell costs a few entries, not
 *   thousands. Cells are hashed into a table sized to the entry count: empty space costs nothing.
 *   Different cells may share a bucket (an item is stored once per bucket); queries filter by bounds.
 * - A query visits the cells its bounds cover on every level in use and reports each overlapping
 *   item once (a per-item stamp marks the items already seen by this query). Bounds are closed:
 *   touching counts.
 * - Margin (Minkowski inflation): with `gridSetMargin(grid, m)`, items are bucketed by their bounds
 *   grown by m, and a query's bounds shrink by m on each side (to their midpoint when thinner), so a
 *   query no wider than 2m looks up a single cell per level and needs no stamps. Items are still
 *   tested against their true bounds. This suits static items queried by many small movers. A query that would
 *   visit more than `MAX_QUERY_CELLS` cells on a level scans that level's items instead, so huge or
 *   far-flung bounds never loop for long. Cell coordinates are clamped to ±2^30.
 */

/** Most cells an item may cover on its level before it moves one level up. */
export const MAX_ITEM_CELLS = 125;
/** Most cells a query visits on one level before it scans the level's items instead. */
export const MAX_QUERY_CELLS = 512;
const MAX_LEVEL = 15;
const HUGE_LEVEL = 16;
const CELL_LIMIT = 1 << 30;

export interface Grid {
  /** Side of a level-0 cell, in length units (> 0). Change it with `gridSetCellSize`. */
  cellSize: number;
  /** 1 / (cellSize · 4^k) for each level k. */
  levelInv: Float64Array;
  /** Minkowski margin (length units, >= 0) items are grown by when bucketed. */
  margin: number;
  /** Number of items added since the last `gridClear`. */
  count: number;
  /** Item ids, by insertion slot. */
  ids: Int32Array;
  /** Item bounds by slot, 6 per item: minX, minY, minZ, maxX, maxY, maxZ. */
  bounds: Float64Array;
  /** Item level by slot (16: too large for any level, scanned by every query). */
  level: Uint8Array;
  /** Bit k set when level k holds an item. */
  levelMask: number;
  /** Upper bound of the entries the next build writes. */
  entries: number;
  tableMask: number;
  cellStart: Int32Array;
  /** Item slots, bucket by bucket. */
  cellItems: Int32Array;
  /** Per item slot: the last query that saw it. */
  stamp: Uint32Array;
  stampValue: number;
}

/** Creates an empty grid whose level-0 cells have side `cellSize` (length units, > 0). */
export function gridCreate(cellSize: number, capacity = 64): Grid {
  const n = Math.max(1, capacity);
  const grid: Grid = {
    cellSize,
    levelInv: new Float64Array(HUGE_LEVEL),
    margin: 0,
    count: 0,
    ids: new Int32Array(n),
    bounds: new Float64Array(6 * n),
    level: new Uint8Array(n),
    levelMask: 0,
    entries: 0,
    tableMask: 0,
    cellStart: new Int32Array(2),
    cellItems: new Int32Array(n),
    stamp: new Uint32Array(n),
    stampValue: 0,
  };
  gridSetCellSize(grid, cellSize);
  return grid;
}

/** Sets the level-0 cell side (length units, > 0). Takes effect at the next `gridBuild`. */
export function gridSetCellSize(grid: Grid, cellSize: number): void {
  grid.cellSize = cellSize;
  let side = cellSize;
  for (let k = 0; k < HUGE_LEVEL; k++) {
    grid.levelInv[k] = 1 / side;
    side *= 4; // exact: a power of two
  }
}

/**
 * Sets the margin (length units, >= 0) items are grown by when bucketed. Takes effect at the next
 * `gridBuild`; queries of bounds no wider than 2·margin then visit one cell per level.
 */
export function gridSetMargin(grid: Grid, margin: number): void {
  grid.margin = margin > 0 && margin !== Infinity ? margin : 0;
}

/** Removes all items (keeps the buffers). */
export function gridClear(grid: Grid): void {
  grid.count = 0;
  grid.entries = 0;
  grid.levelMask = 0;
}

function hashCell(ix: number, iy: number, iz: number, level: number, mask: number): number {
  return (Math.imul(ix, 0x8da6b343) ^ Math.imul(iy, 0xd8163841) ^ Math.imul(iz, 0xcb1ab31f) ^ Math.imul(level + 1, 0x165667b1)) & mask;
}

/** The margin items are grown by, a hair larger than `grid.margin` against rounding. */
function inflation(grid: Grid): number {
  return grid.margin * (1 + 1e-9);
}

/** Scratch: item cell range on a level (x0, y0, z0, x1, y1, z1), written by `itemCells`. */
const itemRange = new Int32Array(6);

/**
 * Writes to `itemRange` the cells that item slot `i`'s bounds, grown by the margin, cover on
 * `level`, and returns how many (capped by the clamp). Reads the bounds from the grid so that no
 * double is passed as an argument (no boxing when not inlined).
 */
function itemCells(grid: Grid, i: number, level: number): number {
  const inv = grid.levelInv[level];
  const b = grid.bounds;
  const m = inflation(grid);
  let cells = 1;
  for (let a = 0; a < 3; a++) {
    const lo = Math.floor((b[6 * i + a] - m) * inv);
    const hi = Math.floor((b[6 * i + 3 + a] + m) * inv);
    const c0 = lo < -CELL_LIMIT ? -CELL_LIMIT : lo > CELL_LIMIT ? CELL_LIMIT : lo;
    const c1 = hi < -CELL_LIMIT ? -CELL_LIMIT : hi > CELL_LIMIT ? CELL_LIMIT : hi;
    itemRange[a] = c0;
    itemRange[a + 3] = c1;
    cells *= c1 - c0 + 1;
  }
  return cells;
}

function growItems(grid: Grid): void {
  const n = grid.ids.length * 2;
  const ids = new Int32Array(n);
  ids.set(grid.ids);
  grid.ids = ids;
  const bounds = new Float64Array(6 * n);
  bounds.set(grid.bounds);
  grid.bounds = bounds;
  const level = new Uint8Array(n);
  level.set(grid.level);
  grid.level = level;
  const stamp = new Uint32Array(n);
  stamp.set(grid.stamp);
  grid.stamp = stamp;
}

/** Scratch for the number-argument convenience wrappers. */
const argBounds = new Float64Array(6);

/**
 * Adds an item with id `id` and closed bounds [min, max] (world frame, length units). Non-finite or
 * inverted bounds are the caller's error (validate first); they are kept out of every cell loop.
 * Convenience form of {@link gridInsert}.
 */
export function gridAdd(
  grid: Grid, id: number,
  minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number,
): void {
  setArgBounds(minX, minY, minZ, maxX, maxY, maxZ);
  gridInsert(grid, id, argBounds, 0);
}

function setArgBounds(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): void {
  argBounds[0] = minX;
  argBounds[1] = minY;
  argBounds[2] = minZ;
  argBounds[3] = maxX;
  argBounds[4] = maxY;
  argBounds[5] = maxZ;
}

/**
 * Adds an item with id `id` and closed bounds `src[o .. o + 6]` = minX, minY, minZ, maxX, maxY, maxZ
 * (world frame, length units). Bounds travel in an array so that no call boxes a number.
 */
export function gridInsert(grid: Grid, id: number, src: ArrayLike<number>, o: number): void {
  if (grid.count === grid.ids.length) growItems(grid);
  const i = grid.count++;
  grid.ids[i] = id;
  const b = grid.bounds;
  for (let k = 0; k < 6; k++) b[6 * i + k] = src[o + k];
  let level = 0;
  let cells = 0;
  for (; level <= MAX_LEVEL; level++) {
    cells = itemCells(grid, i, level);
    if (cells <= MAX_ITEM_CELLS) break;
  }
  if (!(cells <= MAX_ITEM_CELLS)) {
    level = HUGE_LEVEL;
    cells = 0;
  }
  grid.level[i] = level;
  grid.levelMask |= 1 << level;
  grid.entries += cells;
}

/**
 * Visits every bucket of item `i`'s cells once: counts the item into it, or (`fill`) writes the
 * item's entry at the bucket's next free place (counting sort, filled from the back).
 */
function bucketItem(grid: Grid, i: number, fill: boolean): void {
  const level = grid.level[i];
  if (level === HUGE_LEVEL) return;
  itemCells(grid, i, level);
  const x0 = itemRange[0], y0 = itemRange[1], z0 = itemRange[2];
  const x1 = itemRange[3], y1 = itemRange[4], z1 = itemRange[5];
  const mask = grid.tableMask;
  const start = grid.cellStart;
  const last = lastItem;
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) {
      for (let z = z0; z <= z1; z++) {
        const h = hashCell(x, y, z, level, mask);
        if (last[h] === i) continue;
        last[h] = i;
        if (!fill) {
          start[h]++;
          continue;
        }
        grid.cellItems[--start[h]] = i;
      }
    }
  }
}

/**
 * Build scratch shared by every grid (builds never interleave): the last item written to each
 * bucket, so that an item whose cells share a bucket is stored there once.
 */
let lastItem = new Int32Array(16);

/** Buckets the items added since `gridClear` (counting sort into the CSR table). */
export function gridBuild(grid: Grid): void {
  let size = 16;
  while (size < grid.entries) size *= 2;
  if (grid.cellStart.length < size + 1) grid.cellStart = new Int32Array(size + 1);
  if (grid.cellItems.length < grid.entries) grid.cellItems = new Int32Array(Math.max(grid.entries, grid.cellItems.length * 2));
  if (lastItem.length < size) lastItem = new Int32Array(size);
  grid.tableMask = size - 1;
  const start = grid.cellStart;
  start.fill(0, 0, size + 1);
  const n = grid.count;
  lastItem.fill(-1, 0, size);
  for (let i = 0; i < n; i++) bucketItem(grid, i, false);
  // Prefix sums give each bucket's end; the fill pass decrements to its start.
  let sum = 0;
  for (let h = 0; h < size; h++) {
    sum += start[h];
    start[h] = sum;
  }
  start[size] = sum;
  lastItem.fill(-1, 0, size);
  for (let i = n - 1; i >= 0; i--) bucketItem(grid, i, true);
}

/** Items hit by the current query are written here (grown by doubling). */
export interface QueryOut {
  ids: Int32Array;
  count: number;
}

/** Creates a query output buffer. */
export function queryOutCreate(capacity = 64): QueryOut {
  return { ids: new Int32Array(capacity), count: 0 };
}

function reserveOut(out: QueryOut, extra: number): void {
  if (out.count + extra <= out.ids.length) return;
  let n = out.ids.length * 2;
  while (n < out.count + extra) n *= 2;
  const next = new Int32Array(n);
  next.set(out.ids);
  out.ids = next;
}

function nextStamp(grid: Grid): number {
  if (grid.stampValue >= 0xfffffff0) {
    grid.stamp.fill(0);
    grid.stampValue = 0;
  }
  return ++grid.stampValue;
}

/** The current query's bounds (minX, minY, minZ, maxX, maxY, maxZ). */
const Q = new Float64Array(6);

/** Whether item slot `i`'s bounds overlap the query bounds `Q` (closed). */
function overlapsQuery(grid: Grid, i: number): boolean {
  const b = grid.bounds;
  const o = 6 * i;
  return b[o] <= Q[3] && b[o + 3] >= Q[0] && b[o + 1] <= Q[4] && b[o + 4] >= Q[1] && b[o + 2] <= Q[5] && b[o + 5] >= Q[2];
}

/**
 * Tests item slot `i` of `level` once per query (stamp) against the query; appends its id on
 * overlap. A bucket may also hold items of other levels (hash sharing): those are skipped here and
 * reported through their own level.
 */
function visitItem(grid: Grid, i: number, level: number, stamp: number, out: QueryOut): void {
  if (grid.level[i] !== level || grid.stamp[i] === stamp) return;
  grid.stamp[i] = stamp;
  if (overlapsQuery(grid, i)) out.ids[out.count++] = grid.ids[i];
}

/** Appends every item of `level` that overlaps the query (a linear scan). */
function scanLevel(grid: Grid, level: number, stamp: number, out: QueryOut): void {
  for (let i = 0; i < grid.count; i++) visitItem(grid, i, level, stamp, out);
}

/**
 * The query's cell range on `level`, shrunk by the margin on each axis (to its midpoint when thinner
 * than 2·margin), to `range` (x0, y0, z0, x1, y1, z1); cell coordinates clamped to ±2^30.
 */
function shrunkRange(grid: Grid, level: number): void {
  const m = grid.margin;
  const inv = grid.levelInv[level];
  for (let axis = 0; axis < 3; axis++) {
    const lo = Q[axis];
    const hi = Q[axis + 3];
    let a = (lo + m) * inv;
    let b = (hi - m) * inv;
    if (a > b) {
      a = (lo + (hi - lo) * 0.5) * inv;
      b = a;
    }
    range[axis] = Math.floor(a < -CELL_LIMIT ? -CELL_LIMIT : a > CELL_LIMIT ? CELL_LIMIT : a);
    range[axis + 3] = Math.floor(b < -CELL_LIMIT ? -CELL_LIMIT : b > CELL_LIMIT ? CELL_LIMIT : b);
  }
}

/** Scratch: the query's cell range on the current level (x0, y0, z0, x1, y1, z1). */
const range = new Int32Array(6);

/**
 * The items of `level` in one bucket, without stamps (a single-cell query sees each item once: an
 * item is stored once per bucket, and items of other levels sharing the bucket are skipped).
 */
function visitBucket(grid: Grid, h: number, level: number, out: QueryOut): void {
  const start = grid.cellStart;
  const items = grid.cellItems;
  const levels = grid.level;
  const b = grid.bounds;
  const ids = out.ids;
  const x0 = Q[0], y0 = Q[1], z0 = Q[2], x1 = Q[3], y1 = Q[4], z1 = Q[5];
  const end = start[h + 1];
  let n = out.count;
  for (let k = start[h]; k < end; k++) {
    const i = items[k];
    const o = 6 * i;
    if (levels[i] === level && b[o] <= x1 && b[o + 3] >= x0 && b[o + 1] <= y1 && b[o + 4] >= y0 && b[o + 2] <= z1 && b[o + 5] >= z0) {
      ids[n++] = grid.ids[i];
    }
  }
  out.count = n;
}

/**
 * The common case in one flat function (the per-sphere hot path): a grid with only level 0 and a
 * query that, shrunk by the margin, lies in one cell. Returns false, having done nothing, for any
 * other query (several cells, coordinates beyond the clamp range, NaN), which takes the general path.
 */
function querySingleCell(grid: Grid, out: QueryOut, src: ArrayLike<number>, o: number): boolean {
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
  let n = out.count;
  for (let k = start[h]; k < end; k++) {
    const i = items[k];
    const q = 6 * i;
    if (b[q] <= x1 && b[q + 3] >= x0 && b[q + 1] <= y1 && b[q + 4] >= y0 && b[q + 2] <= z1 && b[q + 5] >= z0) ids[n++] = grid.ids[i];
  }
  out.count = n;
  return true;
}

/**
 * Visits the query's cells on one level (or scans the level when they are too many). The query's
 * bounds shrink by the margin (see `gridSetMargin`).
 */
function queryLevel(grid: Grid, level: number, out: QueryOut): void {
  shrunkRange(grid, level);
  const x0 = range[0], y0 = range[1], z0 = range[2], x1 = range[3], y1 = range[4], z1 = range[5];
  const mask = grid.tableMask;
  if (x0 === x1 && y0 === y1 && z0 === z1) {
    visitBucket(grid, hashCell(x0, y0, z0, level, mask), level, out);
    return;
  }
  const stamp = nextStamp(grid);
  if (!((x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1) <= MAX_QUERY_CELLS)) {
    scanLevel(grid, level, stamp, out);
    return;
  }
  const start = grid.cellStart;
  const items = grid.cellItems;
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) {
      for (let z = z0; z <= z1; z++) {
        const h = hashCell(x, y, z, level, mask);
        const end = start[h + 1];
        for (let k = start[h]; k < end; k++) visitItem(grid, items[k], level, stamp, out);
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
  setArgBounds(minX, minY, minZ, maxX, maxY, maxZ);
  gridQueryBounds(grid, out, argBounds, 0);
}

/**
 * Appends to `out` the ids of the items whose bounds overlap the closed bounds `src[o .. o + 6]`
 * (minX, minY, minZ, maxX, maxY, maxZ), each once, in bucket order. Allocates nothing unless `out`
 * grows.
 */
export function gridQueryBounds(grid: Grid, out: QueryOut, src: ArrayLike<number>, o: number): void {
  if (grid.count === 0) return;
  reserveOut(out, grid.count);
  if (grid.levelMask === 1 && querySingleCell(grid, out, src, o)) return;
  for (let k = 0; k < 6; k++) Q[k] = src[o + k];
  let levels = grid.levelMask;
  while (levels !== 0) {
    const level = 31 - Math.clz32(levels & -levels);
    levels &= levels - 1;
    if (level === HUGE_LEVEL) scanLevel(grid, level, nextStamp(grid), out);
    else queryLevel(grid, level, out);
  }
}
