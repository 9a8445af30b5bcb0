/**
 * A hierarchical hashed uniform grid of axis-aligned bounds (Ericson, Real-Time Collision
 * Detection, 7.1.2–7.1.6 and 7.2): data-first free functions over typed arrays, no bitecs. This
 * module builds it; `query.ts` queries it.
 *
 * - Items (an id, world-space bounds and a time slice of the tick, see `cells.ts`) are added with
 *   `gridInsert` / `gridInsertSlice`, then `gridBuild` buckets them by a counting sort into one
 *   compressed table (CSR): bucket h holds the item slots `cellItems[cellStart[h] .. cellStart[h + 1]]`,
 *   in ascending slot order. Item bounds are stored together (6 numbers per item). A rebuild
 *   allocates nothing once the buffers are big enough (they grow by doubling, outside the per-item
 *   loops).
 * - Level k has cells of side `cellSize · 4^k`. Each item goes to the finest level where it covers
 *   at most `MAX_ITEM_CELLS` cells, so a box much larger than a cell costs a few entries, not
 *   thousands. Cells are hashed at full precision (no clamp of cell coordinates, see `cells.ts`)
 *   into a table sized to the entry count: empty space costs nothing. Different cells may share a
 *   bucket (an item is stored once per bucket); queries filter by bounds.
 * - Items whose bounds are not ordered numbers (NaN, min > max) or too large for every level go to
 *   a "huge" level that every query scans: they never enter a cell loop, never change the table
 *   of the others, and are matched by the same closed-bounds test as everything else.
 * - Margin (Minkowski inflation): with `gridSetMargin(grid, m)`, items are bucketed by their bounds
 *   grown by m, and a query's bounds shrink by m on each side (to their midpoint when thinner), so a
 *   query no wider than 2m looks up a single cell per level and needs no stamps. Items are still
 *   tested against their true bounds. This suits static items queried by many small movers.
 * - Work counters (`work`: buckets looked up, entries examined) count what queries did,
 *   deterministically.
 */
import { growArray as grow } from '../math/grow.js';
import { CELL_LIMIT, hashCell, WHOLE_TICK } from './cells.js';

/** Most cells an item may cover on its level before it moves one level up. */
export const MAX_ITEM_CELLS = 125;
/** Most cells a query visits on one level before it scans the level's items instead. */
export const MAX_QUERY_CELLS = 512;
/** Coarsest cell level (cells of side cellSize · 4^15). */
export const MAX_LEVEL = 15;
/** The level of items too large (or too malformed) for any cell level: scanned by every query. */
export const HUGE_LEVEL = 16;

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
  /** Item level by slot (`HUGE_LEVEL`: scanned by every query). */
  level: Uint8Array;
  /** Item time slice by slot (see `cells.ts`; `WHOLE_TICK` for most). */
  slice: Int32Array;
  /** Whether some item has a slice other than `WHOLE_TICK` (queries then compare slices). */
  sliced: boolean;
  /** Item slots by level (written by `gridBuild`): level k's are `levelSlots[levelStart[k] .. levelStart[k + 1]]`. */
  levelSlots: Int32Array;
  levelStart: Int32Array;
  /** Bit k set when level k holds an item. */
  levelMask: number;
  /**
   * Union of the bounds of the items on cell levels (not `HUGE_LEVEL`), written by `gridBuild`
   * (minX, minY, minZ, maxX, maxY, maxZ; empty: +Infinity … −Infinity). A query outside it meets
   * no such item and looks up no cell.
   */
  extent: Float64Array;
  /** Upper bound of the entries the next build writes. */
  entries: number;
  tableMask: number;
  cellStart: Int32Array;
  /** Item slots, bucket by bucket. */
  cellItems: Int32Array;
  /** Per item slot: the last query that saw it. */
  stamp: Uint32Array;
  stampValue: number;
  /**
   * Work counters of the queries, deterministic (reset them by writing 0): slot `WORK_CELLS`, the
   * buckets looked up (a scanned level counts one); slot `WORK_ITEMS`, the item entries examined
   * (bucket entries and scanned items).
   */
  work: Float64Array;
  /** Build scratch, per bucket: the last item written to it (an item is stored once per bucket). */
  lastItem: Int32Array;
  /** Scratch of the convenience forms `gridAdd` / `gridQuery`: their six bounds numbers. */
  args: Float64Array;
  /** Scratch of a query: its bounds (minX, minY, minZ, maxX, maxY, maxZ). */
  queryBounds: Float64Array;
  /** Scratch: the cell range (x0, y0, z0, x1, y1, z1) of the item being bucketed or of a query's level. */
  cellRange: Float64Array;
}

/** Slot of `Grid.work`: buckets looked up. */
export const WORK_CELLS = 0;
/** Slot of `Grid.work`: item entries examined. */
export const WORK_ITEMS = 1;

/** Creates an empty grid whose level-0 cells have side `cellSize` (length units, > 0). */
export function createGrid(cellSize: number, capacity = 64): Grid {
  const n = Math.max(1, capacity);
  const grid: Grid = {
    cellSize,
    levelInv: new Float64Array(HUGE_LEVEL),
    margin: 0,
    count: 0,
    ids: new Int32Array(n),
    bounds: new Float64Array(6 * n),
    level: new Uint8Array(n),
    slice: new Int32Array(n),
    sliced: false,
    levelSlots: new Int32Array(n),
    levelStart: new Int32Array(HUGE_LEVEL + 2),
    levelMask: 0,
    extent: new Float64Array(6),
    entries: 0,
    tableMask: 0,
    cellStart: new Int32Array(2),
    cellItems: new Int32Array(n),
    stamp: new Uint32Array(n),
    stampValue: 0,
    work: new Float64Array(2),
    lastItem: new Int32Array(16),
    args: new Float64Array(6),
    queryBounds: new Float64Array(6),
    cellRange: new Float64Array(6),
  };
  gridSetCellSize(grid, cellSize);
  return grid;
}

/** @deprecated The former name of {@link createGrid} (every constructor is `createX`); removed in the next release. */
export const gridCreate: typeof createGrid = createGrid;

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
  grid.sliced = false;
}

/** The margin items are grown by, a hair larger than `grid.margin` against rounding. */
export function inflation(grid: Grid): number {
  return grid.margin * (1 + 1e-9);
}

/**
 * Items are also grown by this much relative to their coordinates (4 ulps): a margin query's
 * shrunk bounds and midpoint round at the scale of the coordinates, not of the margin (1e10 from
 * the origin rounds by ~2e-6, beyond a 1e-9 share of a margin of 1).
 */
const COORD_SLACK = 2 ** -50;

/**
 * Writes to `grid.cellRange` the cells that item slot `i`'s bounds, grown by the margin, cover on
 * `level`, and returns how many (Infinity when a coordinate reaches ±CELL_LIMIT). Reads the bounds
 * from the grid (no double argument).
 */
function itemCells(grid: Grid, i: number, level: number): number {
  const inv = grid.levelInv[level];
  const b = grid.bounds;
  const m = inflation(grid);
  const range = grid.cellRange;
  let cells = 1;
  for (let a = 0; a < 3; a++) {
    const lo = b[6 * i + a];
    const hi = b[6 * i + 3 + a];
    const c0 = Math.floor((lo - m - COORD_SLACK * Math.abs(lo)) * inv);
    const c1 = Math.floor((hi + m + COORD_SLACK * Math.abs(hi)) * inv);
    if (!(c0 > -CELL_LIMIT && c1 < CELL_LIMIT)) return Infinity;
    range[a] = c0;
    range[a + 3] = c1;
    cells *= c1 - c0 + 1;
  }
  return cells;
}

function growItems(grid: Grid): void {
  const n = grid.ids.length * 2;
  grid.ids = grow(grid.ids, n);
  grid.bounds = grow(grid.bounds, 6 * n);
  grid.level = grow(grid.level, n);
  grid.slice = grow(grid.slice, n);
  grid.stamp = grow(grid.stamp, n);
}

/** Whether slot `i`'s bounds are ordered numbers on every axis (min <= max; NaN fails). */
function ordered(grid: Grid, i: number): boolean {
  const b = grid.bounds;
  const o = 6 * i;
  return b[o] <= b[o + 3] && b[o + 1] <= b[o + 4] && b[o + 2] <= b[o + 5];
}

/** Writes six numbers to `grid.args` and returns it (the convenience forms' bounds). */
export function argsOf(
  grid: Grid, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number,
): Float64Array {
  const a = grid.args;
  a[0] = minX;
  a[1] = minY;
  a[2] = minZ;
  a[3] = maxX;
  a[4] = maxY;
  a[5] = maxZ;
  return a;
}

/**
 * Adds an item with id `id` and closed bounds [min, max] (world frame, length units) for the whole
 * tick. Convenience form of {@link gridInsert}.
 */
export function gridAdd(
  grid: Grid, id: number,
  minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number,
): void {
  gridInsertSlice(grid, id, argsOf(grid, minX, minY, minZ, maxX, maxY, maxZ), 0, WHOLE_TICK);
}

/**
 * Adds an item with id `id` and closed bounds `src[o .. o + 6]` = minX, minY, minZ, maxX, maxY, maxZ
 * (world frame, length units), for the whole tick. Bounds travel in an array so that no call boxes
 * a number. Bounds that are not ordered numbers are kept out of every cell (see the module notes).
 */
export function gridInsert(grid: Grid, id: number, src: ArrayLike<number>, o: number): void {
  gridInsertSlice(grid, id, src, o, WHOLE_TICK);
}

/**
 * Adds an item as {@link gridInsert} does, present only during time slice `slice` of the tick
 * (see `cells.ts`): a query for a slice that does not meet it never reports it. One body's motion
 * split in slices is one item per slice, all with the body's id.
 */
export function gridInsertSlice(grid: Grid, id: number, src: ArrayLike<number>, o: number, slice: number): void {
  if (grid.count === grid.ids.length) growItems(grid);
  const i = grid.count++;
  grid.ids[i] = id;
  grid.slice[i] = slice;
  if (slice !== WHOLE_TICK) grid.sliced = true;
  const b = grid.bounds;
  for (let k = 0; k < 6; k++) b[6 * i + k] = src[o + k];
  let level = HUGE_LEVEL;
  let cells = 0;
  if (ordered(grid, i)) {
    for (let k = 0; k <= MAX_LEVEL; k++) {
      const c = itemCells(grid, i, k);
      if (c <= MAX_ITEM_CELLS) {
        level = k;
        cells = c;
        break;
      }
    }
  }
  grid.level[i] = level;
  grid.levelMask |= 1 << level;
  grid.entries += cells;
}

/**
 * Lists the item slots level by level (a counting sort by level), for the queries that scan a level.
 * Each loop of a build is a function of its own that returns right after it (code after a loop
 * optimised on stack replacement deoptimised at every build: docs/internals.md).
 */
function sortByLevel(grid: Grid): void {
  const n = grid.count;
  if (grid.levelSlots.length < n) grid.levelSlots = new Int32Array(grid.ids.length);
  const start = grid.levelStart;
  start.fill(0);
  countLevels(grid, n);
  for (let k = 0; k <= HUGE_LEVEL; k++) start[k + 1] += start[k];
  fillLevels(grid, n);
  // The fill moved start[k + 1] from level k's end back to its start: shift it to start[k].
  for (let k = 0; k <= HUGE_LEVEL; k++) start[k] = start[k + 1];
  start[HUGE_LEVEL + 1] = n;
}

function countLevels(grid: Grid, n: number): void {
  const start = grid.levelStart;
  const level = grid.level;
  for (let i = 0; i < n; i++) start[level[i] + 1]++;
}

function fillLevels(grid: Grid, n: number): void {
  const start = grid.levelStart;
  const level = grid.level;
  const slots = grid.levelSlots;
  for (let i = n - 1; i >= 0; i--) slots[--start[level[i] + 1]] = i;
}

/**
 * Visits every bucket of item `i`'s cells once: counts the item into it, or (`fill`) writes the
 * item's entry at the bucket's next free place (counting sort, filled from the back).
 */
function bucketItem(grid: Grid, i: number, fill: boolean): void {
  const level = grid.level[i];
  if (level === HUGE_LEVEL) return;
  itemCells(grid, i, level);
  const range = grid.cellRange;
  const x0 = range[0], y0 = range[1], z0 = range[2];
  const x1 = range[3], y1 = range[4], z1 = range[5];
  const mask = grid.tableMask;
  const start = grid.cellStart;
  const last = grid.lastItem;
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

/** Buckets the items added since `gridClear` (counting sort into the CSR table). */
export function gridBuild(grid: Grid): void {
  let size = 16;
  while (size < grid.entries) size *= 2;
  if (grid.cellStart.length < size + 1) grid.cellStart = new Int32Array(size + 1);
  if (grid.cellItems.length < grid.entries) grid.cellItems = new Int32Array(Math.max(grid.entries, grid.cellItems.length * 2));
  if (grid.lastItem.length < size) grid.lastItem = new Int32Array(size);
  grid.tableMask = size - 1;
  const start = grid.cellStart;
  start.fill(0, 0, size + 1);
  grid.lastItem.fill(-1, 0, size);
  countItems(grid, grid.count);
  // Prefix sums give each bucket's end; the fill pass decrements to its start.
  start[size] = prefixSums(start, size);
  grid.lastItem.fill(-1, 0, size);
  fillItems(grid, grid.count);
  sortByLevel(grid);
  measureExtent(grid, grid.count);
}

/** Writes `grid.extent`: the union of the bounds of the items on cell levels. */
function measureExtent(grid: Grid, n: number): void {
  const e = grid.extent;
  const b = grid.bounds;
  const level = grid.level;
  e.fill(Infinity, 0, 3);
  e.fill(-Infinity, 3, 6);
  for (let i = 0; i < n; i++) {
    if (level[i] === HUGE_LEVEL) continue;
    const o = 6 * i;
    for (let a = 0; a < 3; a++) {
      if (b[o + a] < e[a]) e[a] = b[o + a];
      if (b[o + 3 + a] > e[3 + a]) e[3 + a] = b[o + 3 + a];
    }
  }
}

/** Counts every item into its buckets (the loops of a build stand alone, see `sortByLevel`). */
function countItems(grid: Grid, n: number): void {
  for (let i = 0; i < n; i++) bucketItem(grid, i, false);
}

/** Writes every item into its buckets, from the back. */
function fillItems(grid: Grid, n: number): void {
  for (let i = n - 1; i >= 0; i--) bucketItem(grid, i, true);
}

/** Turns bucket counts into running sums (each bucket's end); returns the total. */
function prefixSums(start: Int32Array, size: number): number {
  let sum = 0;
  for (let h = 0; h < size; h++) {
    sum += start[h];
    start[h] = sum;
  }
  return sum;
}
