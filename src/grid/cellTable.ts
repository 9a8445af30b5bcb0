/**
 * A dense cell table over a built hashed grid's level-0 items (grid.ts), for the broadphase's
 * single-cell sphere lookups against the static boxes: the same items, grown by the same margin
 * (`inflation`, plus the same relative slack), counted into the cells of a side of its own over the
 * bounded region they cover, one entry list per cell (CSR, Ericson, Real-Time Collision Detection,
 * 7.1.2: a dense array of cells instead of a hash when the world is bounded). No hashing, so a
 * lookup meets only the items of its own cell (hashed buckets also hold the items of the cells that
 * share them), and the side may be finer than the hashed grid's (fewer items per lookup: the bare
 * grid's choice, bench/peers/bareGrid.ts). Data-first free functions over typed arrays, no bitecs.
 * World frame, length units.
 *
 * A lookup of bounds shrunk by the margin (as `querySingleCell` shrinks them, query.ts) that falls
 * in one cell of this table meets every item whose bounds it meets: each item is in every cell its
 * grown bounds reach, as in the hashed grid. A lookup outside the region meets no item.
 *
 * The table is built only when every item is on level 0 (`grid.levelMask === 1`), every cell
 * coordinate is finite and small, and the cell count stays within `TABLE_CELLS_PER_ENTRY` × the
 * entries (+ `TABLE_MIN_CELLS`); otherwise it is not usable and callers use the hashed grid.
 * @module
 */
import { growArray } from '../math/grow.js';
import { inflation, type Grid } from './grid.js';

/** Slots of `CellTable.frame`: the cell side and its inverse (length units). */
export const CT_SIDE = 0, CT_INV = 1;
/** Most cells per entry (and extra cells) a usable table has: a sparse world uses the hashed grid. */
export const TABLE_CELLS_PER_ENTRY = 8;
export const TABLE_MIN_CELLS = 4096;
/** Most cells of a usable table (4 bytes each). */
export const TABLE_MAX_CELLS = 1 << 26;
/** Items are grown by this much relative to their coordinates, as in grid.ts (`COORD_SLACK`). */
const COORD_SLACK = 2 ** -50;
/** Most cells per axis: cell coordinates stay small integers (no heap numbers). */
const AXIS_LIMIT = 1 << 28;

export interface CellTable {
  /** Whether the last build made a table (see the module notes). */
  usable: boolean;
  /** Cell side and its inverse (slots `CT_*`): `frame[CT_SIDE]` is also the wanted side of a build. */
  frame: Float64Array;
  /** The table's lowest cell coordinates (cells of `frame[CT_SIDE]` from the origin). */
  ox: number;
  oy: number;
  oz: number;
  /** Cells per axis; cell (x, y, z) has index `((x − ox) · ny + (y − oy)) · nz + (z − oz)`. */
  nx: number;
  ny: number;
  nz: number;
  /** Cell c's entries are `items[start[c] .. start[c + 1]]`: item slots of the grid, ascending. */
  start: Int32Array;
  items: Int32Array;
  /** Build scratch: each item's cell range (x0, y0, z0, x1, y1, z1), by grid slot. */
  range: Int32Array;
}

export function createCellTable(): CellTable {
  return {
    usable: false, frame: new Float64Array(2), ox: 0, oy: 0, oz: 0, nx: 0, ny: 0, nz: 0,
    start: new Int32Array(1), items: new Int32Array(16), range: new Int32Array(96),
  };
}

/**
 * Writes item `i`'s cell range into `t.range` and returns its cell count (0 when a coordinate is not
 * a finite small integer: the table is then not built).
 */
function itemRange(t: CellTable, grid: Grid, i: number): number {
  const inv = t.frame[CT_INV];
  const m = inflation(grid);
  const b = grid.bounds;
  let cells = 1;
  for (let a = 0; a < 3; a++) {
    const lo = b[6 * i + a], hi = b[6 * i + 3 + a];
    const c0 = Math.floor((lo - m - COORD_SLACK * Math.abs(lo)) * inv);
    const c1 = Math.floor((hi + m + COORD_SLACK * Math.abs(hi)) * inv);
    if (!(c0 > -AXIS_LIMIT && c1 < AXIS_LIMIT && c0 <= c1)) return 0;
    t.range[6 * i + a] = c0;
    t.range[6 * i + 3 + a] = c1;
    cells *= c1 - c0 + 1;
  }
  return cells;
}

/** Ranges of every item; returns the entry count, or −1 when some item has no usable range. */
function measureItems(t: CellTable, grid: Grid, n: number): number {
  let entries = 0;
  for (let i = 0; i < n; i++) {
    const c = itemRange(t, grid, i);
    if (c === 0) return -1;
    entries += c;
  }
  return entries;
}

/** The table's corner and sizes from the items' ranges; returns the cell count. */
function frameItems(t: CellTable, n: number): number {
  const r = t.range;
  let x0 = AXIS_LIMIT, y0 = AXIS_LIMIT, z0 = AXIS_LIMIT, x1 = -AXIS_LIMIT, y1 = -AXIS_LIMIT, z1 = -AXIS_LIMIT;
  for (let i = 0; i < n; i++) {
    const o = 6 * i;
    if (r[o] < x0) x0 = r[o];
    if (r[o + 1] < y0) y0 = r[o + 1];
    if (r[o + 2] < z0) z0 = r[o + 2];
    if (r[o + 3] > x1) x1 = r[o + 3];
    if (r[o + 4] > y1) y1 = r[o + 4];
    if (r[o + 5] > z1) z1 = r[o + 5];
  }
  t.ox = x0;
  t.oy = y0;
  t.oz = z0;
  t.nx = x1 - x0 + 1;
  t.ny = y1 - y0 + 1;
  t.nz = z1 - z0 + 1;
  return t.nx * t.ny * t.nz;
}

/** Counts (`fill` false) or writes from the back (`fill` true) item `i`'s entries. */
function bucketRange(t: CellTable, i: number, fill: boolean): void {
  const r = t.range;
  const o = 6 * i;
  const ny = t.ny, nz = t.nz, start = t.start, items = t.items;
  const x0 = r[o] - t.ox, y0 = r[o + 1] - t.oy, z0 = r[o + 2] - t.oz;
  const x1 = r[o + 3] - t.ox, y1 = r[o + 4] - t.oy, z1 = r[o + 5] - t.oz;
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) {
      const row = (x * ny + y) * nz;
      for (let z = z0; z <= z1; z++) {
        if (fill) items[--start[row + z]] = i;
        else start[row + z]++;
      }
    }
  }
}

function countEntries(t: CellTable, n: number): void {
  for (let i = 0; i < n; i++) bucketRange(t, i, false);
}

function fillEntries(t: CellTable, n: number): void {
  for (let i = n - 1; i >= 0; i--) bucketRange(t, i, true);
}

/** Turns cell counts into running sums (each cell's end); returns the total. */
function prefixSums(start: Int32Array, cells: number): number {
  let sum = 0;
  for (let c = 0; c < cells; c++) {
    sum += start[c];
    start[c] = sum;
  }
  return sum;
}

/**
 * Builds the table of `grid`'s items (built, see grid.ts) with cells of side `frame[CT_SIDE]` (> 0,
 * set by the caller). Sets `usable`; an unusable table keeps no cells. Allocates only when its
 * buffers must grow (by doubling).
 */
export function cellTableBuild(t: CellTable, grid: Grid): void {
  t.usable = false;
  t.nx = t.ny = t.nz = 0;
  const n = grid.count;
  const side = t.frame[CT_SIDE];
  if (n === 0 || grid.levelMask !== 1 || !(side > 0 && side !== Infinity)) return;
  t.frame[CT_INV] = 1 / side;
  if (t.range.length < 6 * n) t.range = new Int32Array(Math.max(6 * n, 2 * t.range.length));
  const entries = measureItems(t, grid, n);
  if (entries < 0) return;
  const cells = frameItems(t, n);
  if (!(cells <= TABLE_CELLS_PER_ENTRY * entries + TABLE_MIN_CELLS && cells <= TABLE_MAX_CELLS)) return;
  if (t.start.length < cells + 1) t.start = new Int32Array(Math.max(cells + 1, 2 * t.start.length));
  // One more than the entries: `items[start[c]]` is read for an empty last cell too (findPairs.ts, touchTable).
  if (t.items.length < entries + 1) t.items = growArray(t.items, Math.max(entries + 1, 2 * t.items.length));
  t.items[entries] = 0;
  t.start.fill(0, 0, cells + 1);
  countEntries(t, n);
  t.start[cells] = prefixSums(t.start, cells);
  fillEntries(t, n);
  t.usable = true;
}
