/**
 * A hierarchical hashed uniform grid of axis-aligned bounds (Ericson, Real-Time Collision
 * Detection, 7.1.2–7.1.6 and 7.2): data-first free functions over typed arrays, no bitecs.
 *
 * - Items (an id and world-space bounds) are added with `gridAdd`, then `gridBuild` buckets them by a
 *   counting sort into one compressed table (CSR: `cellStart`, `cellItems`), so a rebuild allocates
 *   nothing once the buffers are big enough (they grow by doubling, outside the per-item loops).
 * - Level k has cells of side `cellSize · 4^k`. Each item goes to the finest level where it covers
 *   at most `MAX_ITEM_CELLS` cells, so a box much larger than a cell costs a few entries, not
 *   thousands. Cells are hashed into a table sized to the entry count: empty space costs nothing.
 *   Different cells may share a bucket; `gridQuery` filters candidates by their bounds.
 * - A query visits the cells its bounds cover on every level in use, skips repeats with a stamp per
 *   item and returns the ids whose bounds overlap (closed intervals: touching bounds count). A query
 *   that would visit more than `MAX_QUERY_CELLS` cells on a level scans that level's items instead,
 *   so huge or far-flung bounds never loop for long. Cell coordinates are clamped to ±2^30.
 */

/** Most cells an item may cover on its level before it moves one level up. */
export const MAX_ITEM_CELLS = 64;
/** Most cells a query visits on one level before it scans the level's items instead. */
export const MAX_QUERY_CELLS = 512;
const MAX_LEVEL = 15;
const HUGE_LEVEL = 16;
const CELL_LIMIT = 1 << 30;

export interface Grid {
  /** Side of a level-0 cell, in length units (> 0). */
  cellSize: number;
  /** Number of items added since the last `gridClear`. */
  count: number;
  ids: Int32Array;
  minX: Float64Array;
  minY: Float64Array;
  minZ: Float64Array;
  maxX: Float64Array;
  maxY: Float64Array;
  maxZ: Float64Array;
  level: Uint8Array;
  /** Bit k set when level k holds an item (bit 16: items too large for any level). */
  levelMask: number;
  entries: number;
  tableMask: number;
  cellStart: Int32Array;
  cellItems: Int32Array;
  stamp: Uint32Array;
  stampValue: number;
}

/** Creates an empty grid whose level-0 cells have side `cellSize` (length units, > 0). */
export function gridCreate(cellSize: number, capacity = 64): Grid {
  const n = Math.max(1, capacity);
  return {
    cellSize,
    count: 0,
    ids: new Int32Array(n),
    minX: new Float64Array(n), minY: new Float64Array(n), minZ: new Float64Array(n),
    maxX: new Float64Array(n), maxY: new Float64Array(n), maxZ: new Float64Array(n),
    level: new Uint8Array(n),
    levelMask: 0,
    entries: 0,
    tableMask: 0,
    cellStart: new Int32Array(2),
    cellItems: new Int32Array(n),
    stamp: new Uint32Array(n),
    stampValue: 0,
  };
}

/** Removes all items (keeps the buffers). */
export function gridClear(grid: Grid): void {
  grid.count = 0;
  grid.entries = 0;
  grid.levelMask = 0;
}

function cellOf(v: number, inv: number): number {
  const c = Math.floor(v * inv);
  return c < -CELL_LIMIT ? -CELL_LIMIT : c > CELL_LIMIT ? CELL_LIMIT : c;
}

function hashCell(ix: number, iy: number, iz: number, level: number, mask: number): number {
  return (Math.imul(ix, 0x8da6b343) ^ Math.imul(iy, 0xd8163841) ^ Math.imul(iz, 0xcb1ab31f) ^ Math.imul(level + 1, 0x165667b1)) & mask;
}

/** Number of cells the bounds cover at the level whose inverse cell size is `inv` (capped). */
function cellSpan(min: number, max: number, inv: number): number {
  return cellOf(max, inv) - cellOf(min, inv) + 1;
}

function levelInv(grid: Grid, level: number): number {
  return 1 / (grid.cellSize * 4 ** level);
}

function growItems(grid: Grid): void {
  const n = grid.ids.length * 2;
  const g = grid as unknown as Record<string, unknown>;
  for (const k of ['ids', 'minX', 'minY', 'minZ', 'maxX', 'maxY', 'maxZ', 'level', 'stamp'] as const) {
    const old = g[k] as Float64Array;
    const next = new (old.constructor as Float64ArrayConstructor)(n);
    next.set(old);
    g[k] = next;
  }
}

/**
 * Adds an item with id `id` and closed bounds [min, max] (world frame, length units). Non-finite or
 * inverted bounds are the caller's error (validate first); they are kept out of every cell loop.
 */
export function gridAdd(
  grid: Grid, id: number,
  minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number,
): void {
  if (grid.count === grid.ids.length) growItems(grid);
  const i = grid.count++;
  grid.ids[i] = id;
  grid.minX[i] = minX;
  grid.minY[i] = minY;
  grid.minZ[i] = minZ;
  grid.maxX[i] = maxX;
  grid.maxY[i] = maxY;
  grid.maxZ[i] = maxZ;
  let level = 0;
  let cells = 0;
  for (; level <= MAX_LEVEL; level++) {
    const inv = levelInv(grid, level);
    cells = cellSpan(minX, maxX, inv) * cellSpan(minY, maxY, inv) * cellSpan(minZ, maxZ, inv);
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

/** Visits every cell of item `i`: counts it into its bucket, or (`fill`) writes the item there. */
function forEachItemBucket(grid: Grid, i: number, fill: boolean): void {
  const level = grid.level[i];
  if (level === HUGE_LEVEL) return;
  const inv = levelInv(grid, level);
  const x0 = cellOf(grid.minX[i], inv), x1 = cellOf(grid.maxX[i], inv);
  const y0 = cellOf(grid.minY[i], inv), y1 = cellOf(grid.maxY[i], inv);
  const z0 = cellOf(grid.minZ[i], inv), z1 = cellOf(grid.maxZ[i], inv);
  const mask = grid.tableMask;
  const start = grid.cellStart;
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) {
      for (let z = z0; z <= z1; z++) {
        const h = hashCell(x, y, z, level, mask);
        if (fill) grid.cellItems[--start[h]] = i;
        else start[h]++;
      }
    }
  }
}

/** Buckets the items added since `gridClear` (counting sort into the CSR table). */
export function gridBuild(grid: Grid): void {
  let size = 16;
  while (size < grid.entries * 2) size *= 2;
  if (grid.cellStart.length < size + 1) grid.cellStart = new Int32Array(size + 1);
  if (grid.cellItems.length < grid.entries) grid.cellItems = new Int32Array(Math.max(grid.entries, grid.cellItems.length * 2));
  grid.tableMask = size - 1;
  const start = grid.cellStart;
  start.fill(0, 0, size + 1);
  const n = grid.count;
  for (let i = 0; i < n; i++) forEachItemBucket(grid, i, false);
  // Prefix sums give each bucket's end; the fill pass decrements to its start.
  let sum = 0;
  for (let h = 0; h < size; h++) {
    sum += start[h];
    start[h] = sum;
  }
  start[size] = sum;
  for (let i = n - 1; i >= 0; i--) forEachItemBucket(grid, i, true);
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

function pushHit(grid: Grid, i: number, out: QueryOut): void {
  if (out.count === out.ids.length) {
    const next = new Int32Array(out.ids.length * 2);
    next.set(out.ids);
    out.ids = next;
  }
  out.ids[out.count++] = grid.ids[i];
}

function overlapsItem(
  grid: Grid, i: number,
  minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number,
): boolean {
  return grid.minX[i] <= maxX && grid.maxX[i] >= minX && grid.minY[i] <= maxY && grid.maxY[i] >= minY &&
    grid.minZ[i] <= maxZ && grid.maxZ[i] >= minZ;
}

function nextStamp(grid: Grid): number {
  if (grid.stampValue >= 0xfffffff0) {
    grid.stamp.fill(0);
    grid.stampValue = 0;
  }
  return ++grid.stampValue;
}

function scanLevel(
  grid: Grid, level: number, stamp: number, out: QueryOut,
  minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number,
): void {
  for (let i = 0; i < grid.count; i++) {
    if (grid.level[i] !== level || grid.stamp[i] === stamp) continue;
    grid.stamp[i] = stamp;
    if (overlapsItem(grid, i, minX, minY, minZ, maxX, maxY, maxZ)) pushHit(grid, i, out);
  }
}

/**
 * Appends to `out` the ids of the items whose bounds overlap the closed bounds [min, max], each
 * once, in bucket order (callers sort if they need an order). Allocates nothing unless `out` grows.
 */
export function gridQuery(
  grid: Grid, out: QueryOut,
  minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number,
): void {
  if (grid.count === 0) return;
  const stamp = nextStamp(grid);
  const mask = grid.tableMask;
  const start = grid.cellStart;
  const items = grid.cellItems;
  for (let level = 0; level <= HUGE_LEVEL; level++) {
    if ((grid.levelMask & (1 << level)) === 0) continue;
    if (level === HUGE_LEVEL) {
      scanLevel(grid, level, stamp, out, minX, minY, minZ, maxX, maxY, maxZ);
      continue;
    }
    const inv = levelInv(grid, level);
    const x0 = cellOf(minX, inv), x1 = cellOf(maxX, inv);
    const y0 = cellOf(minY, inv), y1 = cellOf(maxY, inv);
    const z0 = cellOf(minZ, inv), z1 = cellOf(maxZ, inv);
    if (!((x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1) <= MAX_QUERY_CELLS)) {
      scanLevel(grid, level, stamp, out, minX, minY, minZ, maxX, maxY, maxZ);
      continue;
    }
    for (let x = x0; x <= x1; x++) {
      for (let y = y0; y <= y1; y++) {
        for (let z = z0; z <= z1; z++) {
          const h = hashCell(x, y, z, level, mask);
          const end = start[h + 1];
          for (let k = start[h]; k < end; k++) {
            const i = items[k];
            if (grid.stamp[i] === stamp) continue;
            grid.stamp[i] = stamp;
            if (overlapsItem(grid, i, minX, minY, minZ, maxX, maxY, maxZ)) pushHit(grid, i, out);
          }
        }
      }
    }
  }
}
