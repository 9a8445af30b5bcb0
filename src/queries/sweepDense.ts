/**
 * The cast queries' walk of the queries' dense grid (src/grid/dense.ts, built by state.ts).
 *
 * - Cells: a ray (radius 0) crosses them by a 3D-DDA (`denseRayBegin` / `denseRayNext`), a sphere's
 *   swept bounds by traverse.ts's moving cube (`denseThickBegin`), both clipped to the table and in
 *   order of entry, stopping (closest mode) once the cells start beyond the best hit.
 * - Entries: each cell's entries name their items. Each item's bounds get a slab test (Kay &
 *   Kajiya) of the segment against the bounds grown by the radius, without branches: each
 *   axis's near and far face are chosen once per query from the direction's signs, and the far time
 *   is capped by the best hit (closest mode). An axis the direction does not move along is tested
 *   as an interval instead. A body whose bounds pass goes to candidate.ts (once per query, the
 *   filter, the exact cast).
 * - The grid's big items (covering many cells, the run after its last cell) get the same test first.
 * World frame, length units, times are distances along the unit direction. No allocation.
 * @module
 */
import * as denseModule from '../grid/dense.js';
import type { DenseGrid } from '../grid/dense.js';
import * as denseWalk from '../grid/denseWalk.js';
import * as traverse from '../grid/traverse.js';
import * as candidate from './candidate.js';
import * as input from './queryArgs.js';
import type { QueryState } from './queryState.js';

// Imported bindings copied once into module constants (a module interop may read an import through
// a getter on every use, which hot loops must not pay).
const { denseRayBegin, denseRayCreate, denseRayNext, denseThickBegin, DR_DX, DR_ENTRY, DR_OX, DR_TMAX } = denseWalk;
const { denseRange, DG_PAD } = denseModule;
const { traverseStep, TR_CELLS, TR_CX, TR_DX, TR_ENTRY, TR_OX, TR_RADIUS, TR_TMAX } = traverse;
const { BEST, testCandidate } = candidate;
const { QI, QI_D, QI_DIST, QI_O, QI_RADIUS } = input;

/**
 * Per-query slab constants: origin (0–2), 1 / direction (3–5, 0 on a still axis), the radius signed
 * toward the near face (6–8), a term added to each near time (9–11: −∞ on a still axis, else 0) and
 * far time (12–14: +∞ on a still axis, else 0), the radius (15).
 */
const SL = new Float64Array(16);
const SL_O = 0, SL_INV = 3, SL_R = 6, SL_NEAR = 9, SL_FAR = 12, SL_RADIUS = 15;
/** Per axis: the offset of its near face in a bounds record (min: a, max: 3 + a), and of its far face. */
const NEAR = new Int32Array(3);
const FAR = new Int32Array(3);
/** Whether the direction has a zero component (those axes are tested as intervals). */
let still = false;
let all = false;
const RAY = denseRayCreate();

/** Fills the slab constants from `QI`. */
function prepare(): void {
  const r = QI[QI_RADIUS];
  SL[SL_RADIUS] = r;
  still = false;
  for (let a = 0; a < 3; a++) {
    const d = QI[QI_D + a];
    SL[SL_O + a] = QI[QI_O + a];
    SL[SL_INV + a] = d === 0 ? 0 : 1 / d;
    NEAR[a] = d >= 0 ? a : 3 + a;
    FAR[a] = d >= 0 ? 3 + a : a;
    SL[SL_R + a] = d >= 0 ? r : -r;
    SL[SL_NEAR + a] = d === 0 ? -Infinity : 0;
    SL[SL_FAR + a] = d === 0 ? Infinity : 0;
    if (d === 0) still = true;
  }
}

/** Whether the origin lies within bounds `b[o..o+6)` grown by the radius on each axis the direction does not move along. */
function withinStill(b: Float64Array, o: number): boolean {
  const r = SL[SL_RADIUS];
  for (let a = 0; a < 3; a++) {
    if (QI[QI_D + a] !== 0) continue;
    if (!(b[o + a] - r <= SL[SL_O + a] && SL[SL_O + a] <= b[o + 3 + a] + r)) return false;
  }
  return true;
}

/**
 * Tests the entries `from .. to` of `g`: a slab test of the segment against each entry's bounds grown
 * by the radius (see the module notes; the far time capped by the best hit in closest mode), then
 * its body.
 */
function testRun(g: DenseGrid, from: number, to: number): void {
  const eb = g.bounds, items = g.entryItems, ids = g.ids;
  const ox = SL[SL_O], oy = SL[SL_O + 1], oz = SL[SL_O + 2];
  const ix = SL[SL_INV], iy = SL[SL_INV + 1], iz = SL[SL_INV + 2];
  const rx = SL[SL_R], ry = SL[SL_R + 1], rz = SL[SL_R + 2];
  const ax = SL[SL_NEAR], ay = SL[SL_NEAR + 1], az = SL[SL_NEAR + 2];
  const bx = SL[SL_FAR], by = SL[SL_FAR + 1], bz = SL[SL_FAR + 2];
  const nx = NEAR[0], ny = NEAR[1], nz = NEAR[2], fx = FAR[0], fy = FAR[1], fz = FAR[2];
  for (let k = from; k < to; k++) {
    const o = 6 * items[k];
    const tn = Math.max(
      (eb[o + nx] - rx - ox) * ix + ax, (eb[o + ny] - ry - oy) * iy + ay, (eb[o + nz] - rz - oz) * iz + az, 0);
    const tf = Math.min(
      (eb[o + fx] + rx - ox) * ix + bx, (eb[o + fy] + ry - oy) * iy + by, (eb[o + fz] + rz - oz) * iz + bz,
      all ? QI[QI_DIST] : BEST[0]);
    if (tn <= tf && (!still || withinStill(eb, o))) testCandidate(ids[items[k]]);
  }
}

/** Walks the cells a ray crosses. */
function walkRay(g: DenseGrid): void {
  const w = RAY;
  for (let a = 0; a < 3; a++) {
    w[DR_OX + a] = QI[QI_O + a];
    w[DR_DX + a] = QI[QI_D + a];
  }
  w[DR_TMAX] = QI[QI_DIST];
  if (!denseRayBegin(g, w)) return;
  for (;;) {
    const c = denseRayNext(g, w);
    if (c < 0 || (!all && w[DR_ENTRY] > BEST[0])) return;
    testRun(g, g.cellStart[c], g.cellStart[c + 1]);
  }
}

/** The bounds of the swept sphere grown by the query's padding (min x, y, z, max x, y, z). */
const SWEPT = new Float64Array(6);
/** The query's padding against rounding: 1e-10 of its scale (set by {@link sweepDense}). */
const PAD = new Float64Array(1);

/**
 * Writes the bounds of the swept sphere to `SWEPT` and returns how many cells of `g` they meet:
 * the cells a thick walk need never exceed.
 */
function sweptCells(g: DenseGrid): number {
  const r = QI[QI_RADIUS] + PAD[0], L = QI[QI_DIST];
  for (let a = 0; a < 3; a++) {
    const o = QI[QI_O + a], e = o + QI[QI_D + a] * L;
    SWEPT[a] = Math.min(o, e) - r;
    SWEPT[3 + a] = Math.max(o, e) + r;
  }
  return denseRange(g, SWEPT, 0);
}

/** Tests every entry of the cells in `g.range` (set by {@link sweptCells}), row by row. */
function scanRange(g: DenseGrid): void {
  const r = g.range, start = g.cellStart;
  for (let z = r[2]; z <= r[5]; z++) {
    for (let y = r[1]; y <= r[4]; y++) {
      const row = g.nx * (y + g.ny * z);
      testRun(g, start[row + r[0]], start[row + r[3] + 1]);
    }
  }
}

/**
 * Walks the cells a sphere's swept bounds meet (traversal state `w`), in order; when the walk
 * would visit more cells than the swept bounds cover in the table (a radius of many cells), scans
 * those instead.
 */
function walkThick(g: DenseGrid, w: Float64Array): void {
  for (let a = 0; a < 3; a++) {
    w[TR_OX + a] = QI[QI_O + a];
    w[TR_DX + a] = QI[QI_D + a];
  }
  w[TR_TMAX] = QI[QI_DIST];
  w[TR_RADIUS] = QI[QI_RADIUS] + PAD[0];
  if (!denseThickBegin(g, w)) return;
  const cells = sweptCells(g);
  if (cells === 0) return;
  if (w[TR_CELLS] > cells) {
    scanRange(g);
    return;
  }
  const nx = g.nx, ny = g.ny, nz = g.nz;
  while (traverseStep(w)) {
    if (!all && w[TR_ENTRY] > BEST[0]) return;
    const x = w[TR_CX], y = w[TR_CX + 1], z = w[TR_CX + 2];
    if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) continue;
    const c = x + nx * (y + ny * z);
    testRun(g, g.cellStart[c], g.cellStart[c + 1]);
  }
}

/**
 * Sweeps the query in `QI` through the dense grid of `s` (usable), handing the bodies met to
 * candidate.ts (started by the caller): every one (`every`) or until the best hit is settled.
 */
export function sweepDense(s: QueryState, every: boolean): void {
  all = every;
  prepare();
  const g = s.dense;
  if (g.nx === 0) return;
  testRun(g, g.bigStart, g.cellStart[g.nx * g.ny * g.nz + 1]);
  const reach = Math.max(Math.abs(QI[QI_O]), Math.abs(QI[QI_O + 1]), Math.abs(QI[QI_O + 2]));
  PAD[0] = 1e-10 * (reach + QI[QI_DIST] + QI[QI_RADIUS]);
  // A ray whose rounding stays well inside the grid's padding takes the DDA: its errors scale with
  // the origin's coordinates (the walk is clipped to the table, so not with maxDistance). Others
  // (spheres, rays from ~50× the table's coordinates away) take the thick walk, padded by PAD.
  if (QI[QI_RADIUS] === 0 && 1e-12 * reach <= g.frame[DG_PAD]) walkRay(g);
  else walkThick(g, s.walk);
}
