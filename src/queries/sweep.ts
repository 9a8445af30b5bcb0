/**
 * The engine of the cast queries: walks the grids along the swept segment of a ray (radius 0) or
 * sphere from `QI` (src/queries/queryArgs.ts) and hands each body whose bounds, grown by the
 * radius, the segment meets to candidate.ts (the exact cast, the closest hit or every hit).
 *
 * - The queries' dense grid, when usable (see state.ts): walked by sweepDense.ts.
 * - Otherwise the hashed grids: the step's static grid (unless stale, see state.ts) and the queries'
 *   grid of current poses. Each level in use is walked cell by cell along the segment
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
import * as input from './queryArgs.js';
import * as queryStateModule from './queryGrid.js';
import type { QueryState } from './queryState.js';
import * as dense from './sweepDense.js';

// Imported bindings copied once into module constants: a transpiler's module interop may read an
// import through a getter on every use, which hot loops must not pay.
const { traverseBegin, traverseNext, traverseNextCell, TR_CELLS, TR_DX, TR_ENTRY, TR_OX, TR_RADIUS, TR_TMAX } = traverse;
const { HUGE_LEVEL } = gridModule;
const { internalsOf } = internals;
const { slabClip, slabLoad, SB_GROW, SB_SLOTS, SB_T0, SB_T1 } = slab;
const { BEST, beginCandidates, testCandidate } = candidate;
const { queryState } = queryStateModule;
const { sweepDense } = dense;
const { QI, QI_D, QI_DIST, QI_O, QI_RADIUS } = input;

/** Whether the sweep keeps every hit (no early stop, no cut by the best hit). */
let all = false;
let state: QueryState;

/** The query's segment for the slab tests (src/math/slab.ts), loaded once per query by {@link sweep}. */
const SLAB = new Float64Array(SB_SLOTS);

/**
 * Slab test of the segment against item slot `i`'s bounds grown by the radius: whether it meets
 * them, its entry distance then in `SLAB[SB_T0]`.
 */
function slabEntry(g: Grid, i: number): boolean {
  SLAB[SB_T0] = 0;
  SLAB[SB_T1] = QI[QI_DIST];
  return slabClip(SLAB, g.bounds, 6 * i);
}

/** Tests the body in item slot `i` of `g`: its bounds on the path (before the best hit), then the body. */
function testItem(g: Grid, i: number): void {
  // The slab test first: it is arithmetic on the grid's own bounds and rejects most candidates.
  if (!slabEntry(g, i) || (!all && SLAB[SB_T0] > BEST[0])) return;
  testCandidate(g.ids[i]);
}

/** Tests every item of `level`. */
function scanLevel(g: Grid, level: number): void {
  const slots = g.levelSlots;
  const end = g.levelStart[level + 1];
  for (let k = g.levelStart[level]; k < end; k++) testItem(g, slots[k]);
}

/**
 * Writes the walk's inputs for the grids `g` and `h` (the same grid, or two of one cell side): the
 * query's radius shrunk by the smaller margin, padded against rounding. Returns whether the walk
 * of `level` is cheaper than scanning its items in either grid.
 */
function beginWalk(g: Grid, h: Grid, level: number): boolean {
  const w = state.walk;
  const r = QI[QI_RADIUS] - Math.min(g.margin, h.margin);
  const L = QI[QI_DIST];
  const scale = Math.max(Math.abs(QI[QI_O]), Math.abs(QI[QI_O + 1]), Math.abs(QI[QI_O + 2])) + L + QI[QI_RADIUS] + g.cellSize;
  for (let a = 0; a < 3; a++) {
    w[TR_OX + a] = QI[QI_O + a];
    w[TR_DX + a] = QI[QI_D + a];
  }
  w[TR_TMAX] = L;
  w[TR_RADIUS] = (r > 0 ? r : 0) + 1e-10 * scale;
  const items = Math.min(g.levelStart[level + 1] - g.levelStart[level], h.levelStart[level + 1] - h.levelStart[level]);
  return traverseBegin(g, level, w) && w[TR_CELLS] <= 2 * items + 8;
}

/** Walks `level` of `g` along the segment (or scans it when that is cheaper). */
function sweepLevel(g: Grid, level: number): void {
  if (!beginWalk(g, g, level)) {
    scanLevel(g, level);
    return;
  }
  const w = state.walk;
  const start = g.cellStart;
  const slots = g.cellItems;
  for (;;) {
    const h = traverseNext(g, w);
    if (h < 0) return;
    if (!all && w[TR_ENTRY] > BEST[0]) return;
    const end = start[h + 1];
    for (let k = start[h]; k < end; k++) testItem(g, slots[k]);
  }
}

/**
 * Walks `level` of the grids `g` and `h` (same cell side) together: one traversal (with the radius
 * of the smaller margin, a superset of each grid's cells) whose cells are looked up in both, so a
 * closest hit in either stops both. Falls back to a walk or scan of each when one would scan.
 */
function sweepLevelBoth(g: Grid, h: Grid, level: number): void {
  if (!beginWalk(g, h, level)) {
    sweepLevel(g, level);
    sweepLevel(h, level);
    return;
  }
  const w = state.walk;
  const gStart = g.cellStart, gSlots = g.cellItems, gMask = g.tableMask;
  const hStart = h.cellStart, hSlots = h.cellItems, hMask = h.tableMask;
  for (;;) {
    const c = traverseNextCell(w);
    if (c < 0) return;
    if (!all && w[TR_ENTRY] > BEST[0]) return;
    let b = c & gMask;
    let end = gStart[b + 1];
    for (let k = gStart[b]; k < end; k++) testItem(g, gSlots[k]);
    b = c & hMask;
    end = hStart[b + 1];
    for (let k = hStart[b]; k < end; k++) testItem(h, hSlots[k]);
  }
}

function sweepGrid(g: Grid): void {
  if (g.count === 0) return;
  let levels = g.levelMask;
  while (levels !== 0) {
    const level = 31 - Math.clz32(levels & -levels);
    levels &= levels - 1;
    if (level === HUGE_LEVEL) scanLevel(g, level);
    else sweepLevel(g, level);
  }
}

/** Sweeps the grids `g` and `h`: levels both hold (same cell side) in one walk, the others alone. */
function sweepGrids(g: Grid, h: Grid): void {
  if (g.count === 0 || h.count === 0 || g.cellSize !== h.cellSize) {
    sweepGrid(g);
    sweepGrid(h);
    return;
  }
  let levels = g.levelMask | h.levelMask;
  while (levels !== 0) {
    const bit = levels & -levels;
    const level = 31 - Math.clz32(bit);
    levels &= levels - 1;
    const inG = (g.levelMask & bit) !== 0, inH = (h.levelMask & bit) !== 0;
    if (level === HUGE_LEVEL) {
      if (inG) scanLevel(g, level);
      if (inH) scanLevel(h, level);
    } else if (inG && inH) sweepLevelBoth(g, h, level);
    else sweepLevel(inG ? g : h, level);
  }
}

/**
 * Runs the sweep described by `QI`/`QF` on `physics`: with `every`, every hit goes to the query
 * state's `hits` (unsorted); otherwise the closest to `BEST`/`BEST_ENTITY` (`BEST[0]` Infinity: none).
 * Walks the queries' dense grid when it is usable (sweepDense.ts), else the hashed grids. Returns
 * the query state.
 */
export function sweep(physics: Physics, every: boolean): QueryState {
  const s = queryState(physics);
  state = s;
  all = every;
  beginCandidates(physics, s, every);
  if (s.useDense) {
    sweepDense(s, every);
    return s;
  }
  slabLoad(SLAB, QI, QI_O, QI_D);
  SLAB[SB_GROW] = QI[QI_RADIUS];
  if (s.withStatic) sweepGrid(s.grid);
  else sweepGrids(s.grid, internalsOf(physics).staticGrid);
  return s;
}
