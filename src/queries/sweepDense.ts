/**
 * The cast queries' walk of the queries' dense grid (src/grid/dense.ts, built by queryGrid.ts).
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
 * - The grid's big items (covering many cells, the big run after its last cell) get the same test first.
 * The per-query constants of the walk (slab terms, faces, the ray walk's state, the swept bounds)
 * are private scratch of this file, written at the start of every sweep before any is read: nothing
 * carries from one query to the next (the query's arguments, best hit and mode are in the
 * instance's QueryState). World frame, length units, times are distances along the unit direction.
 * No allocation.
 * @module
 */
import * as denseModule from '../grid/dense.js';
import type { DenseGrid } from '../grid/dense.js';
import * as denseWalk from '../grid/denseWalk.js';
import * as traverse from '../grid/traverse.js';
import type { Physics } from '../physics/physicsTypes.js';
import * as candidate from './candidate.js';
import * as slots from './queryState.js';
import type { QueryState } from './queryState.js';

// Imported bindings read once into module constants: see docs/internals.md (imports on hot paths).
const { denseRayBegin, createDenseRay, denseRayNext, denseThickBegin, DR_DX, DR_ENTRY, DR_OX, DR_TMAX } = denseWalk;
const { denseRange, DG_PAD } = denseModule;
const { traverseStep, TR_CELLS, TR_CX, TR_DX, TR_ENTRY, TR_OX, TR_RADIUS, TR_TMAX } = traverse;
const { testCandidate } = candidate;
const { BH_DIST, QI_D, QI_DIST, QI_O, QI_RADIUS } = slots;

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
/** The ray walk's state (src/grid/denseWalk.ts). */
const RAY = createDenseRay();

/** Fills the slab constants from the cast's arguments `q` (`QI_*` slots). */
function prepare(q: Float64Array): void {
  const r = q[QI_RADIUS];
  SL[SL_RADIUS] = r;
  for (let a = 0; a < 3; a++) {
    const d = q[QI_D + a];
    SL[SL_O + a] = q[QI_O + a];
    SL[SL_INV + a] = d === 0 ? 0 : 1 / d;
    NEAR[a] = d >= 0 ? a : 3 + a;
    FAR[a] = d >= 0 ? 3 + a : a;
    SL[SL_R + a] = d >= 0 ? r : -r;
    SL[SL_NEAR + a] = d === 0 ? -Infinity : 0;
    SL[SL_FAR + a] = d === 0 ? Infinity : 0;
  }
}

/**
 * Whether the origin lies within bounds `b[o..o+6)` grown by the radius on each axis the direction
 * does not move along (1 / direction stored as 0: the direction's component is 0).
 */
function withinStill(b: Float64Array, o: number): boolean {
  const r = SL[SL_RADIUS];
  for (let a = 0; a < 3; a++) {
    if (SL[SL_INV + a] !== 0) continue;
    if (!(b[o + a] - r <= SL[SL_O + a] && SL[SL_O + a] <= b[o + 3 + a] + r)) return false;
  }
  return true;
}

/**
 * Tests the entries of the runs `c0 ..= c1` of `g` (one cell, a row's cells, or the big run): a slab
 * test of the segment against each entry's bounds grown by the radius (see the module notes; the
 * far time capped by the best hit in closest mode), then its body.
 */
function testCells(physics: Physics, s: QueryState, g: DenseGrid, c0: number, c1: number): void {
  const eb = g.bounds, items = g.entryItems, ids = g.ids, run = g.cellRun;
  const ox = SL[SL_O], oy = SL[SL_O + 1], oz = SL[SL_O + 2];
  const ix = SL[SL_INV], iy = SL[SL_INV + 1], iz = SL[SL_INV + 2];
  const rx = SL[SL_R], ry = SL[SL_R + 1], rz = SL[SL_R + 2];
  const ax = SL[SL_NEAR], ay = SL[SL_NEAR + 1], az = SL[SL_NEAR + 2];
  const bx = SL[SL_FAR], by = SL[SL_FAR + 1], bz = SL[SL_FAR + 2];
  const nx = NEAR[0], ny = NEAR[1], nz = NEAR[2], fx = FAR[0], fy = FAR[1], fz = FAR[2];
  // A still axis (direction component 0) is tested as an interval.
  const still = ix === 0 || iy === 0 || iz === 0;
  const every = s.every, best = s.best;
  // The far time's cap: maxDistance, or the best hit (which only a candidate's test lowers).
  let cap = every ? s.args[QI_DIST] : best[BH_DIST];
  for (let c = c0; c <= c1; c++) {
    const to = run[2 * c + 1];
    for (let k = run[2 * c]; k < to; k++) {
      const o = 6 * items[k];
      const pn = (eb[o + nx] - rx - ox) * ix + ax, qn = (eb[o + ny] - ry - oy) * iy + ay, rn = (eb[o + nz] - rz - oz) * iz + az;
      const pf = (eb[o + fx] + rx - ox) * ix + bx, qf = (eb[o + fy] + ry - oy) * iy + by, rf = (eb[o + fz] + rz - oz) * iz + bz;
      // max(pn, qn, rn, 0) <= min(pf, qf, rf, cap), as every near time against every far time
      // without branches (the same verdict for every input; see src/queries/batchRays.ts).
      const pass = +(pn <= pf) & +(pn <= qf) & +(pn <= rf) & +(pn <= cap) & +(qn <= pf) & +(qn <= qf) & +(qn <= rf) & +(qn <= cap) &
        +(rn <= pf) & +(rn <= qf) & +(rn <= rf) & +(rn <= cap) & +(0 <= pf) & +(0 <= qf) & +(0 <= rf) & +(0 <= cap);
      if (pass !== 0 && (!still || withinStill(eb, o))) {
        testCandidate(physics, s, ids[items[k]]);
        if (!every) cap = best[BH_DIST];
      }
    }
  }
}

/** Walks the cells a ray crosses. */
function walkRay(physics: Physics, s: QueryState, g: DenseGrid): void {
  const w = RAY, q = s.args;
  for (let a = 0; a < 3; a++) {
    w[DR_OX + a] = q[QI_O + a];
    w[DR_DX + a] = q[QI_D + a];
  }
  w[DR_TMAX] = q[QI_DIST];
  if (!denseRayBegin(g, w)) return;
  const every = s.every, best = s.best;
  for (;;) {
    const c = denseRayNext(g, w);
    if (c < 0 || (!every && w[DR_ENTRY] > best[BH_DIST])) return;
    testCells(physics, s, g, c, c);
  }
}

/** The bounds of the swept sphere grown by the query's padding (min x, y, z, max x, y, z). */
const SWEPT = new Float64Array(6);
/** The query's padding against rounding: 1e-10 of its scale (set by {@link sweepDense}). */
const PAD = new Float64Array(1);

/**
 * Writes the bounds of the swept sphere of the cast `q` to `SWEPT` and returns how many cells of
 * `g` they meet: the cells a thick walk need never exceed.
 */
function sweptCells(q: Float64Array, g: DenseGrid): number {
  const r = q[QI_RADIUS] + PAD[0], L = q[QI_DIST];
  for (let a = 0; a < 3; a++) {
    const o = q[QI_O + a], e = o + q[QI_D + a] * L;
    SWEPT[a] = Math.min(o, e) - r;
    SWEPT[3 + a] = Math.max(o, e) + r;
  }
  return denseRange(g, SWEPT, 0);
}

/** Tests every entry of the cells in `g.range` (set by {@link sweptCells}), row by row. */
function scanRange(physics: Physics, s: QueryState, g: DenseGrid): void {
  const r = g.range;
  for (let z = r[2]; z <= r[5]; z++) {
    for (let y = r[1]; y <= r[4]; y++) {
      const row = g.nx * (y + g.ny * z);
      testCells(physics, s, g, row + r[0], row + r[3]);
    }
  }
}

/**
 * Walks the cells a sphere's swept bounds meet (traversal state `w`), in order; when the walk
 * would visit more cells than the swept bounds cover in the table (a radius of many cells), scans
 * those instead.
 */
function walkThick(physics: Physics, s: QueryState, g: DenseGrid): void {
  const w = s.walk, q = s.args;
  for (let a = 0; a < 3; a++) {
    w[TR_OX + a] = q[QI_O + a];
    w[TR_DX + a] = q[QI_D + a];
  }
  w[TR_TMAX] = q[QI_DIST];
  w[TR_RADIUS] = q[QI_RADIUS] + PAD[0];
  if (!denseThickBegin(g, w)) return;
  const cells = sweptCells(q, g);
  if (cells === 0) return;
  if (w[TR_CELLS] > cells) {
    scanRange(physics, s, g);
    return;
  }
  const nx = g.nx, ny = g.ny, nz = g.nz;
  const every = s.every, best = s.best;
  while (traverseStep(w)) {
    if (!every && w[TR_ENTRY] > best[BH_DIST]) return;
    const x = w[TR_CX], y = w[TR_CX + 1], z = w[TR_CX + 2];
    if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) continue;
    const c = x + nx * (y + ny * z);
    testCells(physics, s, g, c, c);
  }
}

/**
 * Sweeps the cast in `s.args` through the dense grid of `s` (usable), handing the bodies of
 * `physics` met to candidate.ts (started by the caller, which set `s.every`): every one or until
 * the best hit is settled.
 */
export function sweepDense(physics: Physics, s: QueryState): void {
  const q = s.args;
  prepare(q);
  const g = s.dense;
  if (g.nx === 0) return;
  const big = g.nx * g.ny * g.nz;
  testCells(physics, s, g, big, big);
  const reach = Math.max(Math.abs(q[QI_O]), Math.abs(q[QI_O + 1]), Math.abs(q[QI_O + 2]));
  PAD[0] = 1e-10 * (reach + q[QI_DIST] + q[QI_RADIUS]);
  // A ray whose rounding stays well inside the grid's padding takes the DDA: its errors scale with
  // the origin's coordinates (the walk is clipped to the table, so not with maxDistance). Others
  // (spheres, rays from ~50× the table's coordinates away) take the thick walk, padded by PAD.
  if (q[QI_RADIUS] === 0 && 1e-12 * reach <= g.frame[DG_PAD]) walkRay(physics, s, g);
  else walkThick(physics, s, g);
}
