/**
 * The engine of the cast queries: walks the grids along the swept segment of a ray (radius 0) or
 * sphere from the query state's `args` (read by queryArgs.ts) and hands each body whose bounds,
 * grown by the radius, the segment meets to candidate.ts (the exact cast, the closest hit or every
 * hit).
 *
 * - The queries' dense grid, when usable (see queryGrid.ts): walked by sweepDense.ts.
 * - Otherwise the hashed grids: the step's static grid (unless stale, see queryGrid.ts) and the
 *   queries' grid of current poses. Each level in use is walked cell by cell along the segment
 *   (src/grid/traverse.ts), closest-first, stopping once the cells start beyond the best hit;
 *   a level both grids hold (same cell side, as after a step) is walked once for both, each cell
 *   looked up in each grid; a level whose walk would visit more cells than it holds items is
 *   scanned instead (long rays over sparse levels, huge items). Each item's bounds get a slab test
 *   (Kay & Kajiya) before its body is examined.
 * World frame, length units. No allocation (typed scratch, grown by doubling outside the loops).
 * @module
 */
import * as gridModule from '../grid/grid.js';
import type { Grid } from '../grid/grid.js';
import * as traverse from '../grid/traverse.js';
import * as slab from '../math/slab.js';
import * as internals from '../physics/internal.js';
import type { Physics } from '../physics/physicsTypes.js';
import * as candidate from './candidate.js';
import * as slots from './queryState.js';
import type { QueryState } from './queryState.js';
import * as dense from './sweepDense.js';

// Imported bindings read once into module constants: see docs/internals.md (imports on hot paths).
const { traverseBegin, traverseNext, traverseNextCell, TR_CELLS, TR_DX, TR_ENTRY, TR_OX, TR_RADIUS, TR_TMAX } = traverse;
const { HUGE_LEVEL } = gridModule;
const { internalsOf } = internals;
const { slabClip, slabLoad, SB_GROW, SB_SLOTS, SB_T0, SB_T1 } = slab;
const { beginCandidates, testCandidate } = candidate;
const { sweepDense } = dense;
const { BH_DIST, QI_D, QI_DIST, QI_O, QI_RADIUS } = slots;

/**
 * The cast's segment for the slab tests (src/math/slab.ts): private scratch, loaded by {@link sweep}
 * at the start of every query before it is read.
 */
const SLAB = new Float64Array(SB_SLOTS);

/**
 * Slab test of the segment against item slot `i`'s bounds grown by the radius: whether it meets
 * them, its entry distance then in `SLAB[SB_T0]`.
 */
function slabEntry(s: QueryState, g: Grid, i: number): boolean {
  SLAB[SB_T0] = 0;
  SLAB[SB_T1] = s.args[QI_DIST];
  return slabClip(SLAB, g.bounds, 6 * i);
}

/** Tests the body in item slot `i` of `g`: its bounds on the path (before the best hit), then the body. */
function testItem(physics: Physics, s: QueryState, g: Grid, i: number): void {
  // The slab test first: it is arithmetic on the grid's own bounds and rejects most candidates.
  if (!slabEntry(s, g, i) || (!s.every && SLAB[SB_T0] > s.best[BH_DIST])) return;
  testCandidate(physics, s, g.ids[i]);
}

/** Tests every item of `level`. */
function scanLevel(physics: Physics, s: QueryState, g: Grid, level: number): void {
  const items = g.levelSlots;
  const end = g.levelStart[level + 1];
  for (let k = g.levelStart[level]; k < end; k++) testItem(physics, s, g, items[k]);
}

/**
 * Writes the walk's inputs for the grids `g` and `h` (the same grid, or two of one cell side): the
 * query's radius shrunk by the smaller margin, padded against rounding. Returns whether the walk
 * of `level` is cheaper than scanning its items in either grid.
 */
function beginWalk(s: QueryState, g: Grid, h: Grid, level: number): boolean {
  const w = s.walk;
  const q = s.args;
  const r = q[QI_RADIUS] - Math.min(g.margin, h.margin);
  const L = q[QI_DIST];
  const scale = Math.max(Math.abs(q[QI_O]), Math.abs(q[QI_O + 1]), Math.abs(q[QI_O + 2])) + L + q[QI_RADIUS] + g.cellSize;
  for (let a = 0; a < 3; a++) {
    w[TR_OX + a] = q[QI_O + a];
    w[TR_DX + a] = q[QI_D + a];
  }
  w[TR_TMAX] = L;
  w[TR_RADIUS] = (r > 0 ? r : 0) + 1e-10 * scale;
  const items = Math.min(g.levelStart[level + 1] - g.levelStart[level], h.levelStart[level + 1] - h.levelStart[level]);
  return traverseBegin(g, level, w) && w[TR_CELLS] <= 2 * items + 8;
}

/** Walks `level` of `g` along the segment (or scans it when that is cheaper). */
function sweepLevel(physics: Physics, s: QueryState, g: Grid, level: number): void {
  if (!beginWalk(s, g, g, level)) {
    scanLevel(physics, s, g, level);
    return;
  }
  const w = s.walk;
  const start = g.cellStart;
  const items = g.cellItems;
  for (;;) {
    const h = traverseNext(g, w);
    if (h < 0) return;
    if (!s.every && w[TR_ENTRY] > s.best[BH_DIST]) return;
    const end = start[h + 1];
    for (let k = start[h]; k < end; k++) testItem(physics, s, g, items[k]);
  }
}

/**
 * Walks `level` of the grids `g` and `h` (same cell side) together: one traversal (with the radius
 * of the smaller margin, a superset of each grid's cells) whose cells are looked up in both, so a
 * closest hit in either stops both. Falls back to a walk or scan of each when one would scan.
 */
function sweepLevelBoth(physics: Physics, s: QueryState, g: Grid, h: Grid, level: number): void {
  if (!beginWalk(s, g, h, level)) {
    sweepLevel(physics, s, g, level);
    sweepLevel(physics, s, h, level);
    return;
  }
  const w = s.walk;
  const gStart = g.cellStart, gSlots = g.cellItems, gMask = g.tableMask;
  const hStart = h.cellStart, hSlots = h.cellItems, hMask = h.tableMask;
  for (;;) {
    const c = traverseNextCell(w);
    if (c < 0) return;
    if (!s.every && w[TR_ENTRY] > s.best[BH_DIST]) return;
    let b = c & gMask;
    let end = gStart[b + 1];
    for (let k = gStart[b]; k < end; k++) testItem(physics, s, g, gSlots[k]);
    b = c & hMask;
    end = hStart[b + 1];
    for (let k = hStart[b]; k < end; k++) testItem(physics, s, h, hSlots[k]);
  }
}

/** Sweeps every level of the grid `g`. */
function sweepGrid(physics: Physics, s: QueryState, g: Grid): void {
  if (g.count === 0) return;
  let levels = g.levelMask;
  while (levels !== 0) {
    const level = 31 - Math.clz32(levels & -levels);
    levels &= levels - 1;
    if (level === HUGE_LEVEL) scanLevel(physics, s, g, level);
    else sweepLevel(physics, s, g, level);
  }
}

/** Sweeps the grids `g` and `h`: levels both hold (same cell side) in one walk, the others alone. */
function sweepGrids(physics: Physics, s: QueryState, g: Grid, h: Grid): void {
  if (g.count === 0 || h.count === 0 || g.cellSize !== h.cellSize) {
    sweepGrid(physics, s, g);
    sweepGrid(physics, s, h);
    return;
  }
  let levels = g.levelMask | h.levelMask;
  while (levels !== 0) {
    const bit = levels & -levels;
    const level = 31 - Math.clz32(bit);
    levels &= levels - 1;
    const inG = (g.levelMask & bit) !== 0, inH = (h.levelMask & bit) !== 0;
    if (level === HUGE_LEVEL) {
      if (inG) scanLevel(physics, s, g, level);
      if (inH) scanLevel(physics, s, h, level);
    } else if (inG && inH) sweepLevelBoth(physics, s, g, h, level);
    else sweepLevel(physics, s, inG ? g : h, level);
  }
}

/**
 * Runs the cast described by `s.args` and `s.filter` on `physics` (`s` its query state, grids up
 * to date): with `every`, every hit goes to `s.hits` (unsorted); otherwise the closest to `s.best`
 * and `s.bestEntity` (`s.best[BH_DIST]` Infinity: none). Walks the queries' dense grid when it is
 * usable (sweepDense.ts), else the hashed grids.
 */
export function sweep(physics: Physics, s: QueryState, every: boolean): void {
  beginCandidates(physics, s, every);
  if (s.useDense) {
    sweepDense(physics, s);
    return;
  }
  slabLoad(SLAB, s.args, QI_O, QI_D);
  SLAB[SB_GROW] = s.args[QI_RADIUS];
  if (s.withStatic) sweepGrid(physics, s, s.grid);
  else sweepGrids(physics, s, s.grid, internalsOf(physics).broadphase.staticGrid);
}
