/**
 * Traversal of one level of a grid built by `grid.ts` along a thick segment: the buckets of the
 * cells met by a cube of half side `radius` whose centre moves from `origin` to `origin + t · dir`
 * for t in [0, tMax] (world frame, length units; `dir` need not be unit, t is in its units). Used by
 * ray casts (radius ≈ 0) and sphere casts, where a query box around the whole segment would cover
 * thousands of cells.
 *
 * Algorithm: a 3D-DDA (Amanatides & Woo, "A Fast Voxel Traversal Algorithm", 1987) generalised to a
 * moving cube: per axis the cells the cube covers form a range [lo, hi] whose ends only move forward
 * along the motion. The cells at t = 0 come first; then, in order of time, each step of a range's
 * leading end brings in one slab of new cells (the trailing end only drops cells). So every cell the
 * moving cube meets is listed exactly once, in non-decreasing order of the time the cube first meets
 * it (`TR_ENTRY`), which lets a closest-hit query stop early. Cells hash into buckets as in
 * `cells.ts`, so a bucket may repeat (different cells, same bucket): callers dedupe items.
 *
 * The state lives in a caller-owned Float64Array (`createTraverse`, named `TR_*` slots): no
 * allocation, no number passed between functions (no double argument: docs/internals.md). Inputs go to
 * the slots `TR_OX..TR_OZ`, `TR_DX..TR_DZ`, `TR_TMAX`, `TR_RADIUS`; callers pad the radius against
 * rounding (the traversal is then a superset of the exact cells) and shrink it by the grid's margin.
 * Cells come one at a time: `traverseNext` gives a grid's bucket, `traverseNextCell` the hash before
 * a table's mask, for walking several grids of one cell side at once, and `traverseStep` (after
 * `traverseStart`, for a dense table of any cell side) the cell's coordinates.
 * @module
 */
import * as cells from './cells.js';
import type { Grid } from './grid.js';

// Imports copied once into module constants (a module interop may read an import through a getter per use).
const { CELL_LIMIT, hashCell } = cells;

/** Input slots: origin, direction, the largest t, the half side of the moving cube (>= 0). */
export const TR_OX = 0, TR_DX = 3, TR_TMAX = 6, TR_RADIUS = 7;
/** Output slot: the time the moving cube first meets the cell of the bucket last returned. */
export const TR_ENTRY = 8;
/** Output slots: the coordinates of the cell last returned (x, y, z at 27, 28, 29). */
export const TR_CX = 27;
/** Input slot of {@link traverseStart}: 1 / the cell side (set by {@link traverseBegin} from the grid's level). */
export const TR_INV = 30;
/** Output slot of {@link traverseBegin}: how many cells the walk visits at most. */
export const TR_CELLS = 33;
/**
 * Input slot of {@link traverseStart}: a time added to every `TR_ENTRY` (the time of the origin on
 * a longer motion, for a walk that starts part-way; {@link traverseBegin} sets 0).
 */
export const TR_T0 = 38;
/**
 * Internal slots: ranges lo (9..11), hi (12..14), next grow (15..17) and shrink (18..20) times,
 * block (21..29, its cursor 27..29 is the cell returned), the level (31), the walk's progress (32),
 * the cell side (34) and 1 / direction per axis (35..37, 0 where it is 0), both computed once per
 * traversal.
 */
const LO = 9, HI = 12, GROW = 15, SHRINK = 18, B0 = 21, B1 = 24, CUR = TR_CX, LEVEL = 31, DONE = 32, SIDE = 34, INV_D = 35;
/** Number of slots of a traversal state. */
export const TR_SLOTS = 39;

/** Creates a traversal state (see the module notes for the slots). */
export function createTraverse(): Float64Array {
  return new Float64Array(TR_SLOTS);
}

/** @deprecated The former name of {@link createTraverse} (every constructor is `createX`); removed in the next release. */
export const traverseCreate: typeof createTraverse = createTraverse;

/**
 * Schedules the next grow and shrink events of axis `a`: the times the leading and trailing faces
 * of the cube (origin ± radius) reach the next cell boundary. Numbers stay in `s` (no boxing).
 */
function schedule(s: Float64Array, a: number): void {
  const d = s[TR_DX + a];
  const o = s[TR_OX + a];
  const r = s[TR_RADIUS];
  const side = s[SIDE];
  // Times as products with 1 / d (a division per event costs more): they may differ from the
  // quotients by an ulp, far inside the padding callers give the radius (see the module notes).
  const inv = s[INV_D + a];
  if (d > 0) {
    s[GROW + a] = ((s[HI + a] + 1) * side - (o + r)) * inv;
    s[SHRINK + a] = ((s[LO + a] + 1) * side - (o - r)) * inv;
  } else if (d < 0) {
    s[GROW + a] = (s[LO + a] * side - (o - r)) * inv;
    s[SHRINK + a] = (s[HI + a] * side - (o + r)) * inv;
  } else {
    s[GROW + a] = Infinity;
    s[SHRINK + a] = Infinity;
  }
}

/**
 * Starts a traversal of `level` of `grid` with the inputs in `s`; writes to `s[TR_CELLS]` how many
 * cells it will visit at most (an estimate for choosing between walking and scanning the level).
 * Returns false when the cells cannot be walked (non-finite input, or coordinates reaching
 * ±CELL_LIMIT): then scan the level.
 */
export function traverseBegin(grid: Grid, level: number, s: Float64Array): boolean {
  s[TR_INV] = grid.levelInv[level];
  s[LEVEL] = level;
  s[TR_T0] = 0;
  return traverseStart(s);
}

/**
 * Starts a traversal of cells of side 1 / `s[TR_INV]` (cell (0, 0, 0) at the origin of the frame
 * the inputs are in) with entry times offset by `s[TR_T0]`; walk it with {@link traverseStep}. As
 * {@link traverseBegin} otherwise (which is this for a grid's level, with hashed cells).
 */
export function traverseStart(s: Float64Array): boolean {
  const inv = s[TR_INV];
  s[SIDE] = 1 / inv;
  s[DONE] = 0;
  const r = s[TR_RADIUS];
  const tMax = s[TR_TMAX];
  let first = 1;
  let walk = 0;
  for (let a = 0; a < 3; a++) {
    const o = s[TR_OX + a], d = s[TR_DX + a];
    const lo = Math.floor((o - r) * inv), hi = Math.floor((o + r) * inv);
    const end = o + d * tMax;
    const far = Math.floor((end + (d < 0 ? -r : r)) * inv);
    if (!(lo > -CELL_LIMIT && hi < CELL_LIMIT && far > -CELL_LIMIT && far < CELL_LIMIT)) return false;
    s[LO + a] = lo;
    s[HI + a] = hi;
    s[B0 + a] = lo;
    s[B1 + a] = hi;
    s[CUR + a] = lo;
    s[INV_D + a] = d === 0 ? 0 : 1 / d;
    first *= hi - lo + 1;
    walk += d < 0 ? lo - far : far - hi;
  }
  for (let a = 0; a < 3; a++) schedule(s, a);
  s[TR_ENTRY] = s[TR_T0];
  // Each step brings a slab no larger than the widest face of the starting block plus the motion.
  const w = Math.max(s[HI] - s[LO], s[HI + 1] - s[LO + 1], s[HI + 2] - s[LO + 2]) + 2;
  s[TR_CELLS] = first + walk * w * w;
  return true;
}

/** Advances the block cursor; returns false when the block is exhausted. */
function advanceCursor(s: Float64Array): boolean {
  if (s[CUR + 2] < s[B1 + 2]) {
    s[CUR + 2]++;
    return true;
  }
  s[CUR + 2] = s[B0 + 2];
  if (s[CUR + 1] < s[B1 + 1]) {
    s[CUR + 1]++;
    return true;
  }
  s[CUR + 1] = s[B0 + 1];
  if (s[CUR] < s[B1]) {
    s[CUR]++;
    return true;
  }
  return false;
}

/**
 * Processes events in time order until one brings new cells (a slab, loaded as the block), or the
 * motion ends. Returns false when the traversal is over.
 */
function nextSlab(s: Float64Array): boolean {
  const tMax = s[TR_TMAX];
  for (;;) {
    let a = 0;
    let grow = true;
    let t = s[GROW];
    for (let k = 0; k < 3; k++) {
      if (s[GROW + k] < t) {
        t = s[GROW + k];
        a = k;
        grow = true;
      }
      if (s[SHRINK + k] < t) {
        t = s[SHRINK + k];
        a = k;
        grow = false;
      }
    }
    if (!(t <= tMax)) return false;
    const d = s[TR_DX + a];
    if (!grow) {
      if (d > 0) s[LO + a]++;
      else s[HI + a]--;
      schedule(s, a);
      continue;
    }
    const c = d > 0 ? ++s[HI + a] : --s[LO + a];
    schedule(s, a);
    for (let k = 0; k < 3; k++) {
      s[B0 + k] = k === a ? c : s[LO + k];
      s[B1 + k] = k === a ? c : s[HI + k];
      s[CUR + k] = s[B0 + k];
    }
    s[TR_ENTRY] = s[TR_T0] + (t > 0 ? t : 0);
    return true;
  }
}

/**
 * The bucket of the next cell of the traversal started by {@link traverseBegin} (its items are
 * `grid.cellItems[grid.cellStart[h] .. grid.cellStart[h + 1]]`), or −1 when it is over. `s[TR_ENTRY]`
 * is then the time the moving cube first meets that cell (non-decreasing from call to call).
 */
export function traverseNext(grid: Grid, s: Float64Array): number {
  const h = traverseNextCell(s);
  return h < 0 ? -1 : h & grid.tableMask;
}

/** Every bit of a cell hash that a table mask may keep (table sizes are powers of two below 2^31). */
const FULL_MASK = 0x7fffffff;

/**
 * Moves to the next cell of the traversal (its coordinates at `s[TR_CX .. TR_CX + 2]`, the time
 * the moving cube first meets it at `s[TR_ENTRY]`); false when it is over.
 */
export function traverseStep(s: Float64Array): boolean {
  if (s[DONE] === 2) return false;
  if (s[DONE] === 1 && !advanceCursor(s)) {
    if (!nextSlab(s)) {
      s[DONE] = 2;
      return false;
    }
  }
  s[DONE] = 1;
  return true;
}

/**
 * As {@link traverseNext}, but the cell's hash before a table's mask (>= 0; −1 when the traversal
 * is over): `h & grid.tableMask` is its bucket in any grid whose level has the side of the one
 * given to {@link traverseBegin}, so one walk serves several such grids.
 */
export function traverseNextCell(s: Float64Array): number {
  return traverseStep(s) ? hashCell(s[CUR], s[CUR + 1], s[CUR + 2], s[LEVEL], FULL_MASK) : -1;
}
