/**
 * A dense uniform grid of axis-aligned bounds, for many small queries against one set of items (the
 * world queries between ticks). Data-first free functions over typed arrays, no bitecs. World frame,
 * the caller's length unit; bounds are closed (touching counts).
 *
 * - Cells of one side tile the union of the items' bounds; cell (x, y, z) has index
 *   `x + nx · (y + ny · z)` in a dense table (no hashing). Cell c holds the entries
 *   `entryItems[cellRun[2c] .. cellRun[2c + 1])`, each its item's slot (the item's id and bounds are
 *   read from it): a run per cell, laid out in cell order by a build with one free entry of room
 *   after each cell's entries (up to `cellCap[c]`), so that `denseUpdate` can move an item between
 *   cells without a rebuild. Copies of the bounds in the entries were measured (docs/queries.md):
 *   casts within ±6 %, overlaps 12–17 % faster, but a build 1.2–1.7× slower and 1.8× the memory.
 * - Build: `denseClear`, `denseInsert` per item (or `denseReserve` and writing `ids`, `bounds` and
 *   `count` directly), then `denseBuild` with the wanted cell side in `frame[DG_SIDE]` (0: about one
 *   item per cell). The table keeps at most 4 cells per item (+64): a sparse world gets larger
 *   cells. An item enters every cell its bounds, grown by a padding of `1e-10` of the grid's scale
 *   (`frame[DG_PAD]`), meet, so walks that round at a cell face still meet it. An item covering more
 *   than `DENSE_ITEM_CELLS` cells is entered once, in the big run (run `nx · ny · nz`, after the last
 *   cell's, which every query scans). Buffers grow by doubling, outside the per-item loops.
 * - Update: after an item's bounds changed (rewritten in `bounds`), `denseUpdate` moves it between
 *   cells when its cell range changed: out of each old cell (swapped with the run's last entry),
 *   into each new cell (into its room; a full run is first moved to the end of the entries with
 *   twice the room). The work scales with the items that changed cells, not with all items. It
 *   reports when the grid cannot take the item (bounds leaving the table or not finite, too many big
 *   items, the moved runs outgrowing the built entries twice): the caller then builds afresh.
 * - `denseBuild` returns false, leaving the grid unusable (no cells), when it would serve queries
 *   poorly: more than `DENSE_BIG` big items, a cell with more than `DENSE_CROWD` entries, non-finite
 *   bounds, or no finite cell side giving a small enough table in 8 rounds (bounds so far apart
 *   that the cell count overflows): use the hashed grid, whose levels and hashing adapt to any
 *   spread of sizes and places.
 * - Walks: `denseRange` (the cells meeting bounds), `denseRayBegin` / `denseRayNext` (the cells a
 *   ray crosses, in order: a 3D-DDA, Amanatides & Woo, "A Fast Voxel Traversal Algorithm", 1987,
 *   clipped to the table), and for thick segments `traverse.ts`'s walk in the grid's frame
 *   (`denseThickBegin`).
 * @module
 */

import { cubeRoot } from '../math/cubeRoot.js';
import { growArray } from '../math/grow.js';
import { queryOutReserve, type QueryOut } from './query.js';

/** Most cells an item may cover before it goes to the grid's big items (the run after the last cell). */
export const DENSE_ITEM_CELLS = 64;
/** Most big items a usable grid has. */
export const DENSE_BIG = 32;
/** Most entries one cell of a usable grid holds. */
export const DENSE_CROWD = 256;

/**
 * Slots of `DenseGrid.frame`: the table's minimum corner (0–2) and maximum corner (3–5: minimum +
 * cells · side per axis; together a bounds record), the cell side and its inverse (6, 7), and the
 * padding items are grown by when entered in cells (8).
 */
export const DG_X0 = 0, DG_X1 = 3, DG_SIDE = 6, DG_INV = 7, DG_PAD = 8;

export interface DenseGrid {
  /** Frame of the table (see the `DG_*` slots); `frame[DG_SIDE]` is also the wanted side before a build. */
  frame: Float64Array;
  /** Cells per axis (the table has nx · ny · nz cells). */
  nx: number;
  ny: number;
  nz: number;
  /** Whether the last build succeeded (see the module notes). */
  usable: boolean;
  /**
   * Whole cells a build leaves on each side of the items' bounds (0 or more; only with a wanted
   * side): set by a caller whose items move past their first bounds, so that updates
   * (`denseUpdate`) keep them in the table. Measured: the spare cells cost single queries a few
   * per cent in some runs (docs/queries.md), so the queries set it only after an item left the table.
   */
  spare: number;
  /** Items added since the last `denseClear`: ids and bounds (6 per item: min x, y, z, max x, y, z). */
  count: number;
  ids: Int32Array;
  bounds: Float64Array;
  /**
   * Per cell c (and the big run, c = nx · ny · nz): its entries are `entryItems[cellRun[2c] ..
   * cellRun[2c + 1])`. Start and end side by side: a walk reads both from one cache line.
   */
  cellRun: Int32Array;
  /** Per cell (and the big run): the end of the room its run may fill (`denseUpdate`). */
  cellCap: Int32Array;
  /** Entries in use: runs that `denseUpdate` moves go after it. */
  entryEnd: number;
  /** `entryEnd` after the last build. */
  builtEnd: number;
  /** Per entry: its item's slot. */
  entryItems: Int32Array;
  /** Per item slot: the last `denseQueryBounds` that listed it (see `stampValue`). */
  stamp: Uint32Array;
  stampValue: number;
  /** Cell range written by `denseRange`: x0, y0, z0, x1, y1, z1 (inclusive). */
  range: Int32Array;
  /** Per item, its cell range as `range` (written by the build's count pass; x0 = −1: a big item). */
  itemCells: Int32Array;
}

/** Creates an empty dense grid (buffers grow on demand). */
export function createDenseGrid(): DenseGrid {
  return {
    frame: new Float64Array(9),
    nx: 0,
    ny: 0,
    nz: 0,
    usable: false,
    spare: 0,
    count: 0,
    ids: new Int32Array(64),
    bounds: new Float64Array(6 * 64),
    cellRun: new Int32Array(2),
    cellCap: new Int32Array(1),
    entryEnd: 0,
    builtEnd: 0,
    entryItems: new Int32Array(64),
    stamp: new Uint32Array(64),
    stampValue: 0,
    range: new Int32Array(6),
    itemCells: new Int32Array(6 * 64),
  };
}

/** Removes every item (keeps the buffers and the wanted side). */
export function denseClear(g: DenseGrid): void {
  g.count = 0;
  g.usable = false;
}

/**
 * Makes room for `n` items in all (doubling): a builder may then write items `count .. n - 1`
 * straight into `ids` and `bounds` and set `count` (as `denseInsert` would).
 */
export function denseReserve(g: DenseGrid, n: number): void {
  if (g.ids.length >= n) return;
  let size = g.ids.length;
  while (size < n) size *= 2;
  g.ids = growArray(g.ids, size);
  g.bounds = growArray(g.bounds, 6 * size);
}

/** Adds an item: its id and the bounds `src[o .. o + 6)` (min x, y, z, max x, y, z). */
export function denseInsert(g: DenseGrid, id: number, src: ArrayLike<number>, o: number): void {
  denseReserve(g, g.count + 1);
  const i = g.count++;
  g.ids[i] = id;
  for (let a = 0; a < 6; a++) g.bounds[6 * i + a] = src[o + a];
}

/** Writes the union of the items' bounds to the frame's corners; false when a bound is not finite. */
function unionBounds(g: DenseGrid): boolean {
  const f = g.frame;
  for (let a = 0; a < 3; a++) {
    f[DG_X0 + a] = Infinity;
    f[DG_X1 + a] = -Infinity;
  }
  const b = g.bounds;
  for (let i = 0; i < g.count; i++) {
    for (let a = 0; a < 3; a++) {
      const lo = b[6 * i + a], hi = b[6 * i + 3 + a];
      if (!(lo - lo === 0 && hi - hi === 0)) return false;
      if (lo < f[DG_X0 + a]) f[DG_X0 + a] = lo;
      if (hi > f[DG_X1 + a]) f[DG_X1 + a] = hi;
    }
  }
  return true;
}

/**
 * Chooses the table: padding, minimum corner, cell side (the wanted one, grown until the table has
 * at most 4 · items + 64 cells, in at most 8 rounds) and cell counts; the maximum corner becomes
 * the table's. False when that fails (no finite side found in 8 rounds).
 */
function chooseTable(g: DenseGrid): boolean {
  const f = g.frame;
  let scale = 0;
  for (let a = 0; a < 3; a++) scale = Math.max(scale, Math.abs(f[DG_X0 + a]), Math.abs(f[DG_X1 + a]));
  const pad = 1e-10 * (scale + 1e-300);
  f[DG_PAD] = pad;
  const ex = f[DG_X1] - f[DG_X0] + 2 * pad;
  const ey = f[DG_X1 + 1] - f[DG_X0 + 1] + 2 * pad;
  const ez = f[DG_X1 + 2] - f[DG_X0 + 2] + 2 * pad;
  const e = Math.max(ex, ey, ez);
  for (let a = 0; a < 3; a++) f[DG_X0 + a] -= pad;
  let side = f[DG_SIDE];
  // Whole cells to spare on each side of the union (`g.spare`), with a wanted side only.
  const spare = side > 0 && side < Infinity ? g.spare : 0;
  if (!(side > 0 && side < Infinity)) side = Math.max(cubeRoot((ex * ey * ez) / g.count), e / g.count);
  const limit = 4 * g.count + 64;
  for (let round = 0; round < 8; round++) {
    const more = 1 + 2 * spare;
    const nx = Math.floor(ex / side) + more, ny = Math.floor(ey / side) + more, nz = Math.floor(ez / side) + more;
    const cells = nx * ny * nz;
    if (!(side < Infinity)) return false;
    if (cells <= limit) {
      g.nx = nx;
      g.ny = ny;
      g.nz = nz;
      f[DG_SIDE] = side;
      f[DG_INV] = 1 / side;
      for (let a = 0; a < 3; a++) {
        f[DG_X0 + a] -= spare * side;
        f[DG_X1 + a] = f[DG_X0 + a] + (a === 0 ? nx : a === 1 ? ny : nz) * side;
      }
      return true;
    }
    // Grown by the cells' excess, and at least enough for the longest axis to lose a cell (near the
    // limit the cube root alone is too small a step to change the rounded counts).
    const n = Math.max(nx, ny, nz) - 2 * spare;
    side = 1.001 * Math.max(side * cubeRoot(cells / limit), n > 1 ? e / (n - 1) : side);
  }
  return false;
}

/**
 * Writes to `g.range` the cells meeting the bounds `src[o .. o + 6)` grown by `g.frame[DG_PAD]`,
 * clamped to the table; returns how many cells that is (0 when the bounds miss the table).
 */
export function denseRange(g: DenseGrid, src: ArrayLike<number>, o: number): number {
  const f = g.frame, r = g.range;
  const inv = f[DG_INV], pad = f[DG_PAD];
  let cells = 1;
  for (let a = 0; a < 3; a++) {
    const n = a === 0 ? g.nx : a === 1 ? g.ny : g.nz;
    const lo = Math.max(0, Math.floor((src[o + a] - pad - f[DG_X0 + a]) * inv));
    const hi = Math.min(n - 1, Math.floor((src[o + 3 + a] + pad - f[DG_X0 + a]) * inv));
    if (!(lo <= hi)) return 0;
    r[a] = lo;
    r[3 + a] = hi;
    cells *= hi - lo + 1;
  }
  return cells;
}

/**
 * Counts each item's entries per cell into `count[c]` (big items: into the big run's,
 * `count[cells]`), keeping each item's cell range in `itemCells`; false when there are too many big
 * items.
 */
function countEntries(g: DenseGrid, count: Int32Array, cells: number): boolean {
  const f = g.frame, b = g.bounds, nx = g.nx, nxy = g.nx * g.ny;
  const inv = f[DG_INV], pad = f[DG_PAD], x0 = f[DG_X0], y0 = f[DG_X0 + 1], z0 = f[DG_X0 + 2];
  if (g.itemCells.length < 6 * g.count) g.itemCells = new Int32Array(6 * g.ids.length);
  const ic = g.itemCells;
  for (let i = 0; i < g.count; i++) {
    const o = 6 * i;
    // `denseRange`'s arithmetic with the frame in locals (measured: a build about 0.86× of calling it).
    // Items lie in the table (it is their union, padded): no clamp but against rounding.
    const ax = Math.max(0, Math.floor((b[o] - pad - x0) * inv));
    const ay = Math.max(0, Math.floor((b[o + 1] - pad - y0) * inv));
    const az = Math.max(0, Math.floor((b[o + 2] - pad - z0) * inv));
    const bx = Math.min(nx - 1, Math.floor((b[o + 3] + pad - x0) * inv));
    const by = Math.min(g.ny - 1, Math.floor((b[o + 4] + pad - y0) * inv));
    const bz = Math.min(g.nz - 1, Math.floor((b[o + 5] + pad - z0) * inv));
    if ((bx - ax + 1) * (by - ay + 1) * (bz - az + 1) > DENSE_ITEM_CELLS) {
      ic[o] = -1;
      if (++count[cells] > DENSE_BIG) return false;
      continue;
    }
    ic[o] = ax;
    ic[o + 1] = ay;
    ic[o + 2] = az;
    ic[o + 3] = bx;
    ic[o + 4] = by;
    ic[o + 5] = bz;
    for (let z = az; z <= bz; z++) {
      for (let y = ay; y <= by; y++) {
        for (let x = ax; x <= bx; x++) count[x + nx * y + nxy * z]++;
      }
    }
  }
  return true;
}

/** Free entries a build leaves after each run (room for `denseUpdate` to add items without moving the run). */
const ROOM = 1;

/**
 * Lays the runs out in cell order from the counts in `cap` (the big run last), each followed by
 * `ROOM` free entries; `cap` becomes each run's end of room. Returns the entries laid out, or −1
 * when a cell is too crowded.
 */
function layRuns(g: DenseGrid, cap: Int32Array, cells: number): number {
  const run = g.cellRun;
  let e = 0;
  for (let c = 0; c <= cells; c++) {
    const n = cap[c];
    if (n > DENSE_CROWD) return -1;
    run[2 * c] = e;
    run[2 * c + 1] = e;
    e += n + ROOM;
    cap[c] = e;
  }
  return e;
}

/** Grows the entry buffer to at least `n` entries (doubling; `keep`: copying the entries). */
function reserveEntries(g: DenseGrid, n: number, keep: boolean): void {
  if (g.entryItems.length >= n) return;
  let size = g.entryItems.length;
  while (size < n) size *= 2;
  g.entryItems = keep ? growArray(g.entryItems, size) : new Int32Array(size);
}

/**
 * Writes each item's slot to its entries, cell by cell (`cellRun[2c + 1]`: the next free entry of
 * cell c; big items: of the big run, c = `cells`), from the cell ranges of the count pass.
 */
function fillEntries(g: DenseGrid, cells: number): void {
  const nx = g.nx, nxy = g.nx * g.ny, items = g.entryItems, ic = g.itemCells, run = g.cellRun;
  for (let i = 0; i < g.count; i++) {
    const o = 6 * i;
    if (ic[o] < 0) {
      items[run[2 * cells + 1]++] = i;
      continue;
    }
    for (let z = ic[o + 2]; z <= ic[o + 5]; z++) {
      for (let y = ic[o + 1]; y <= ic[o + 4]; y++) {
        for (let x = ic[o]; x <= ic[o + 3]; x++) items[run[2 * (x + nx * y + nxy * z) + 1]++] = i;
      }
    }
  }
}

/** Grows `g.cellRun` and `g.cellCap` (doubling, not kept) for `runs` runs. */
function reserveRuns(g: DenseGrid, runs: number): void {
  if (g.cellCap.length >= runs) return;
  let n = g.cellCap.length;
  while (n < runs) n *= 2;
  g.cellCap = new Int32Array(n);
  g.cellRun = new Int32Array(2 * n);
}

/**
 * Buckets the items added since `denseClear` (see the module notes; the wanted cell side is read
 * from `frame[DG_SIDE]`). Returns whether the grid is usable; an empty grid is, with no cells.
 */
export function denseBuild(g: DenseGrid): boolean {
  g.usable = false;
  g.entryEnd = g.builtEnd = 0;
  g.nx = g.ny = g.nz = 0;
  if (g.count === 0) {
    g.usable = true;
    return true;
  }
  if (!unionBounds(g) || !chooseTable(g)) {
    g.nx = g.ny = g.nz = 0;
    return false;
  }
  const cells = g.nx * g.ny * g.nz;
  reserveRuns(g, cells + 1);
  const cap = g.cellCap;
  cap.fill(0, 0, cells + 1);
  const laid = countEntries(g, cap, cells) ? layRuns(g, cap, cells) : -1;
  if (laid < 0) {
    g.nx = g.ny = g.nz = 0;
    return false;
  }
  reserveEntries(g, laid, false);
  fillEntries(g, cells);
  g.entryEnd = g.builtEnd = laid;
  if (g.stamp.length < g.count) {
    g.stamp = new Uint32Array(g.ids.length);
    g.stampValue = 0;
  }
  g.usable = true;
  return true;
}

/** Removes item slot `i` from run `c` (swapped with the run's last entry). */
function removeEntry(g: DenseGrid, c: number, i: number): void {
  const run = g.cellRun, items = g.entryItems;
  const last = run[2 * c + 1] - 1;
  for (let k = run[2 * c]; k <= last; k++) {
    if (items[k] !== i) continue;
    items[k] = items[last];
    run[2 * c + 1] = last;
    return;
  }
}

/**
 * Adds item slot `i` to run `c`; a full run is first moved to the end of the entries with twice its
 * room. False when that would take the entries past twice the built ones (+64): build afresh.
 */
function addEntry(g: DenseGrid, c: number, i: number): boolean {
  const run = g.cellRun;
  if (run[2 * c + 1] === g.cellCap[c]) {
    const from = run[2 * c], n = run[2 * c + 1] - from, room = 2 * n + 2, at = g.entryEnd;
    if (at + room > 2 * g.builtEnd + 64) return false;
    reserveEntries(g, at + room, true);
    g.entryItems.copyWithin(at, from, from + n);
    run[2 * c] = at;
    run[2 * c + 1] = at + n;
    g.cellCap[c] = at + room;
    g.entryEnd = at + room;
  }
  g.entryItems[run[2 * c + 1]++] = i;
  return true;
}

/** Whether cell (x, y, z) lies in the cell range `r[o .. o + 6)` (x0, y0, z0, x1, y1, z1, inclusive). */
function inRange(r: Int32Array, o: number, x: number, y: number, z: number): boolean {
  return x >= r[o] && x <= r[o + 3] && y >= r[o + 1] && y <= r[o + 4] && z >= r[o + 2] && z <= r[o + 5];
}

/**
 * Re-buckets item slot `i` of the usable grid `g` after its bounds (`bounds[6i .. 6i + 6)`) were
 * rewritten: out of the cells it left, into the cells it entered (a cell kept is not touched; a big
 * item stays in the big run). Returns 0 when its cells did not change, 1 when it moved; −2 when its
 * bounds left the table (or are not finite), −1 when the grid cannot take it otherwise (a small item
 * becoming big with the big run full, the moved runs outgrowing their budget): the grid is then left
 * inconsistent and the caller must build afresh (after −2, perhaps with `spare` cells). The unchanged case, nearly every item at each tick, is `denseRange`'s
 * arithmetic written out with the frame in locals (called once per item and per update).
 */
export function denseUpdate(g: DenseGrid, i: number): number {
  const f = g.frame, b = g.bounds, o = 6 * i, ic = g.itemCells;
  const pad = f[DG_PAD], inv = f[DG_INV], x0 = f[DG_X0], y0 = f[DG_X0 + 1], z0 = f[DG_X0 + 2];
  const lx = b[o] - pad, ly = b[o + 1] - pad, lz = b[o + 2] - pad;
  const hx = b[o + 3] + pad, hy = b[o + 4] + pad, hz = b[o + 5] + pad;
  if (!(lx >= x0 && ly >= y0 && lz >= z0 && hx <= f[DG_X1] && hy <= f[DG_X1 + 1] && hz <= f[DG_X1 + 2])) return -2;
  if (ic[o] < 0) return 0;
  const r = g.range;
  r[0] = Math.max(0, Math.floor((lx - x0) * inv));
  r[1] = Math.max(0, Math.floor((ly - y0) * inv));
  r[2] = Math.max(0, Math.floor((lz - z0) * inv));
  r[3] = Math.min(g.nx - 1, Math.floor((hx - x0) * inv));
  r[4] = Math.min(g.ny - 1, Math.floor((hy - y0) * inv));
  r[5] = Math.min(g.nz - 1, Math.floor((hz - z0) * inv));
  if (r[0] === ic[o] && r[1] === ic[o + 1] && r[2] === ic[o + 2] && r[3] === ic[o + 3] && r[4] === ic[o + 4] && r[5] === ic[o + 5]) return 0;
  return moveItem(g, i);
}

/** {@link denseUpdate} for an item whose new cell range (in `g.range`) differs from its old one. */
function moveItem(g: DenseGrid, i: number): number {
  const o = 6 * i, ic = g.itemCells, r = g.range;
  const cells = (r[3] - r[0] + 1) * (r[4] - r[1] + 1) * (r[5] - r[2] + 1);
  const nx = g.nx, nxy = g.nx * g.ny, big = g.nx * g.ny * g.nz;
  const run = g.cellRun;
  if (cells > DENSE_ITEM_CELLS && run[2 * big + 1] - run[2 * big] >= DENSE_BIG) return -1;
  // The new range stays in `range` (nothing below writes it); the old one in `itemCells` until the end.
  for (let z = ic[o + 2]; z <= ic[o + 5]; z++) {
    for (let y = ic[o + 1]; y <= ic[o + 4]; y++) {
      for (let x = ic[o]; x <= ic[o + 3]; x++) {
        if (cells > DENSE_ITEM_CELLS || !inRange(r, 0, x, y, z)) removeEntry(g, x + nx * y + nxy * z, i);
      }
    }
  }
  if (cells > DENSE_ITEM_CELLS) {
    ic[o] = -1;
    return addEntry(g, big, i) ? 1 : -1;
  }
  for (let z = r[2]; z <= r[5]; z++) {
    for (let y = r[1]; y <= r[4]; y++) {
      for (let x = r[0]; x <= r[3]; x++) {
        if (!inRange(ic, o, x, y, z) && !addEntry(g, x + nx * y + nxy * z, i)) return -1;
      }
    }
  }
  for (let a = 0; a < 6; a++) ic[o + a] = r[a];
  return 1;
}

/** Whether entry (or item) bounds `b[o .. o + 6)` meet the bounds `q[0 .. 6)` (closed). */
function meets(b: Float64Array, o: number, q: ArrayLike<number>): boolean {
  return b[o] <= q[3] && b[o + 3] >= q[0] && b[o + 1] <= q[4] && b[o + 4] >= q[1] && b[o + 2] <= q[5] && b[o + 5] >= q[2];
}

/** Appends item slot i's id to `out` unless this query listed it already. */
function listItem(g: DenseGrid, out: QueryOut, i: number): void {
  if (g.stamp[i] === g.stampValue) return;
  g.stamp[i] = g.stampValue;
  if (out.count === out.ids.length) queryOutReserve(out, 1);
  out.ids[out.count++] = g.ids[i];
}

/** Lists the items of the runs `c0 ..= c1` (a row's cells, or the big run) whose bounds meet `q` (see {@link denseQueryBounds}). */
function listRuns(g: DenseGrid, out: QueryOut, q: ArrayLike<number>, c0: number, c1: number): void {
  const eb = g.bounds, items = g.entryItems, run = g.cellRun;
  for (let c = c0; c <= c1; c++) {
    const end = run[2 * c + 1];
    for (let k = run[2 * c]; k < end; k++) if (meets(eb, 6 * items[k], q)) listItem(g, out, items[k]);
  }
}

/**
 * Appends to `out` the ids of the items whose bounds meet the bounds `q[0 .. 6)` (min x, y, z, max
 * x, y, z; closed), each once, in no particular order; `out.count` is not reset. The grid must be
 * usable (`denseBuild` returned true).
 */
export function denseQueryBounds(g: DenseGrid, out: QueryOut, q: ArrayLike<number>): void {
  if (g.stampValue >= 0xfffffff0) {
    g.stamp.fill(0);
    g.stampValue = 0;
  }
  g.stampValue++;
  if (g.nx === 0) return;
  const big = g.nx * g.ny * g.nz;
  listRuns(g, out, q, big, big);
  if (denseRange(g, q, 0) === 0) return;
  const r = g.range;
  for (let z = r[2]; z <= r[5]; z++) {
    for (let y = r[1]; y <= r[4]; y++) {
      const row = g.nx * (y + g.ny * z);
      listRuns(g, out, q, row + r[0], row + r[3]);
    }
  }
}
