/**
 * Walks of a dense grid (`dense.ts`) along a segment: the cells a ray crosses, in order (a 3D-DDA,
 * Amanatides & Woo, "A Fast Voxel Traversal Algorithm", 1987), and the start of a thick walk (a
 * sphere's swept bounds: `traverse.ts`'s moving cube, in the grid's frame). Both are clipped to the
 * table first, so a segment from far outside walks only the cells the table has. World frame, length
 * units; times along the direction as given (unit: distances). State in caller-owned Float64Arrays
 * with named slots (no allocation, no double passed between functions).
 *
 * Robustness: cells are found by rounded arithmetic, so a ray may be attributed to the neighbour
 * of the cell it really crosses near a face or an edge. Items are entered in every cell their
 * bounds grown by the grid's padding meet (far more than such rounding), so an item the ray meets is
 * still in a cell it visits, no later than the time it meets the item (within the padding).
 * @module
 */
import { slabClip, slabLoad, SB_GROW, SB_INV, SB_SLOTS, SB_T0, SB_T1 } from '../math/slab.js';
import type { DenseGrid } from './dense.js';
import { DG_INV, DG_PAD, DG_SIDE, DG_X0 } from './dense.js';
import { traverseStart, TR_CELLS, TR_DX, TR_INV, TR_OX, TR_RADIUS, TR_T0, TR_TMAX } from './traverse.js';

/** Input slots of a ray walk: origin (0–2), direction (3–5, non-zero; each component 0 or above 1e-300 in size), the largest t (6). */
export const DR_OX = 0, DR_DX = 3, DR_TMAX = 6;
/** Output slot: the time the ray enters the cell last returned. */
export const DR_ENTRY = 7;
/**
 * Internal slots: cell coordinates (8–10), next face times (11–13), 1 / direction (14–16, 0 where the
 * direction is 0; callers keep components either 0 or above 1e-300 so that it stays finite), end
 * time (17), progress (18).
 */
const CELL = 8, NEXT = 11, INV = 14, END = 17, DONE = 18;
/** Number of slots of a ray walk state. */
export const DR_SLOTS = 19;

/** Creates a ray walk state (see the `DR_*` slots). */
export function createDenseRay(): Float64Array {
  return new Float64Array(DR_SLOTS);
}

/** Cells per axis a (0–2) of `g`. */
function cellsOn(g: DenseGrid, a: number): number {
  return a === 0 ? g.nx : a === 1 ? g.ny : g.nz;
}

/** The segment being clipped to the table (a slab state, src/math/slab.ts). */
const SEG = new Float64Array(SB_SLOTS);

/** Loads `SEG` with the segment from `s[o..]` along `s[d..]`, from t = 0, the table not grown. */
function loadSegment(s: Float64Array, o: number, d: number): void {
  slabLoad(SEG, s, o, d);
  SEG[SB_T0] = 0;
  SEG[SB_GROW] = 0;
}

/** The time the ray leaves cell `s[CELL + a]` across a face normal to axis a (Infinity: never). */
function faceTime(g: DenseGrid, s: Float64Array, a: number): void {
  const d = s[DR_DX + a];
  const f = g.frame;
  const c = s[CELL + a];
  if (d > 0) s[NEXT + a] = (f[DG_X0 + a] + (c + 1) * f[DG_SIDE] - s[DR_OX + a]) * s[INV + a];
  else if (d < 0) s[NEXT + a] = (f[DG_X0 + a] + c * f[DG_SIDE] - s[DR_OX + a]) * s[INV + a];
  else s[NEXT + a] = Infinity;
}

/**
 * Starts a ray walk of `g` with the inputs in `s`. Returns false when the ray misses the table
 * (or the table is empty): then no cell holds anything it meets.
 */
export function denseRayBegin(g: DenseGrid, s: Float64Array): boolean {
  if (g.nx === 0) return false;
  loadSegment(s, DR_OX, DR_DX);
  SEG[SB_T1] = s[DR_TMAX];
  if (!slabClip(SEG, g.frame, DG_X0)) return false;
  const t0 = SEG[SB_T0];
  const f = g.frame;
  for (let a = 0; a < 3; a++) {
    s[INV + a] = SEG[SB_INV + a];
    const p = s[DR_OX + a] + s[DR_DX + a] * t0;
    // Clamped: rounding may put the clipped start a hair outside the table.
    s[CELL + a] = Math.min(cellsOn(g, a) - 1, Math.max(0, Math.floor((p - f[DG_X0 + a]) * f[DG_INV])));
    faceTime(g, s, a);
  }
  s[END] = SEG[SB_T1];
  s[DR_ENTRY] = t0;
  s[DONE] = 0;
  return true;
}

/**
 * The index of the next cell the ray walk of `g` enters (the first call: the cell it starts in),
 * or −1 when the walk is over; `s[DR_ENTRY]` is then the time it enters that cell (non-decreasing).
 */
export function denseRayNext(g: DenseGrid, s: Float64Array): number {
  if (s[DONE] !== 0) {
    const a = s[NEXT] <= s[NEXT + 1] ? (s[NEXT] <= s[NEXT + 2] ? 0 : 2) : s[NEXT + 1] <= s[NEXT + 2] ? 1 : 2;
    const t = s[NEXT + a];
    if (!(t <= s[END])) return -1;
    const c = s[CELL + a] + (s[DR_DX + a] > 0 ? 1 : -1);
    if (c < 0 || c >= cellsOn(g, a)) return -1;
    s[CELL + a] = c;
    faceTime(g, s, a);
    // Not before the previous cell's entry: a start rounded into the neighbour of its cell (a ray
    // a hair from a face) gives that face a time a hair below it (seen as −1e−310 after 0 with a
    // table that has spare cells, test/grid/dense.test.ts).
    if (t > s[DR_ENTRY]) s[DR_ENTRY] = t;
  }
  s[DONE] = 1;
  return s[CELL] + g.nx * (s[CELL + 1] + g.ny * s[CELL + 2]);
}

/**
 * Starts `traverse.ts`'s walk of a cube of half side `s[TR_RADIUS]` moving from `s[TR_OX..]` along
 * `s[TR_DX..]` for t in [0, `s[TR_TMAX]`], over the cells of `g`: clipped to the table grown by the
 * radius and moved into the grid's frame (entry times stay those of the whole motion, through
 * `TR_T0`). Walk it with `traverseStep`; its cell coordinates (`TR_CX`..) may lie outside the table
 * (skip those). Returns false when the motion misses the table; `s[TR_CELLS]` is Infinity when the
 * cells cannot be walked (then scan the cells the motion's bounds meet).
 */
export function denseThickBegin(g: DenseGrid, s: Float64Array): boolean {
  if (g.nx === 0) return false;
  loadSegment(s, TR_OX, TR_DX);
  SEG[SB_T1] = s[TR_TMAX];
  SEG[SB_GROW] = s[TR_RADIUS];
  if (!slabClip(SEG, g.frame, DG_X0)) return false;
  const t0 = SEG[SB_T0];
  const f = g.frame;
  for (let a = 0; a < 3; a++) s[TR_OX + a] = s[TR_OX + a] + s[TR_DX + a] * t0 - f[DG_X0 + a];
  s[TR_TMAX] = SEG[SB_T1] - t0;
  s[TR_T0] = t0;
  s[TR_INV] = f[DG_INV];
  // The padding covers the rounding of the moved origin (as items' cells cover the walk's).
  s[TR_RADIUS] += f[DG_PAD];
  if (!traverseStart(s)) s[TR_CELLS] = Infinity;
  return true;
}
