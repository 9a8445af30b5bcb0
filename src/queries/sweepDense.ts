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
 * - The grid's big items (covering many cells, the run after its last cell) get the same test first.
 * The per-query constants live in the query state (`segment`, `faces`, `rayWalk`; slots in
 * queryState.ts). World frame, length units, times are distances along the unit direction. No
 * allocation.
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

// Imported bindings copied once into module constants (a module interop may read an import through
// a getter on every use, which hot loops must not pay).
const { denseRayBegin, denseRayNext, denseThickBegin, DR_DX, DR_ENTRY, DR_OX, DR_TMAX } = denseWalk;
const { denseRange, DG_PAD } = denseModule;
const { traverseStep, TR_CELLS, TR_CX, TR_DX, TR_ENTRY, TR_OX, TR_RADIUS, TR_TMAX } = traverse;
const { testCandidate } = candidate;
const { BH_DIST, QI_D, QI_DIST, QI_O, QI_RADIUS, SG_FAR, SG_INV, SG_NEAR, SG_O, SG_PAD, SG_R, SG_RADIUS, SG_STILL, SG_SWEPT } = slots;

/** Fills the slab constants (`s.segment`, `s.faces`) from `s.args`. */
function prepare(s: QueryState): void {
  const q = s.args, sg = s.segment, faces = s.faces;
  const r = q[QI_RADIUS];
  sg[SG_RADIUS] = r;
  sg[SG_STILL] = 0;
  for (let a = 0; a < 3; a++) {
    const d = q[QI_D + a];
    sg[SG_O + a] = q[QI_O + a];
    sg[SG_INV + a] = d === 0 ? 0 : 1 / d;
    faces[a] = d >= 0 ? a : 3 + a;
    faces[3 + a] = d >= 0 ? 3 + a : a;
    sg[SG_R + a] = d >= 0 ? r : -r;
    sg[SG_NEAR + a] = d === 0 ? -Infinity : 0;
    sg[SG_FAR + a] = d === 0 ? Infinity : 0;
    if (d === 0) sg[SG_STILL] = 1;
  }
}

/** Whether the origin lies within bounds `b[o..o+6)` grown by the radius on each axis the direction does not move along. */
function withinStill(s: QueryState, b: Float64Array, o: number): boolean {
  const q = s.args, sg = s.segment;
  const r = sg[SG_RADIUS];
  for (let a = 0; a < 3; a++) {
    if (q[QI_D + a] !== 0) continue;
    if (!(b[o + a] - r <= sg[SG_O + a] && sg[SG_O + a] <= b[o + 3 + a] + r)) return false;
  }
  return true;
}

/**
 * Tests the entries `from .. to` of `g`: a slab test of the segment against each entry's bounds grown
 * by the radius (see the module notes; the far time capped by the best hit in closest mode), then
 * its body.
 */
function testRun(physics: Physics, s: QueryState, g: DenseGrid, from: number, to: number): void {
  const eb = g.bounds, items = g.entryItems, ids = g.ids;
  const sg = s.segment, faces = s.faces, best = s.best;
  const ox = sg[SG_O], oy = sg[SG_O + 1], oz = sg[SG_O + 2];
  const ix = sg[SG_INV], iy = sg[SG_INV + 1], iz = sg[SG_INV + 2];
  const rx = sg[SG_R], ry = sg[SG_R + 1], rz = sg[SG_R + 2];
  const ax = sg[SG_NEAR], ay = sg[SG_NEAR + 1], az = sg[SG_NEAR + 2];
  const bx = sg[SG_FAR], by = sg[SG_FAR + 1], bz = sg[SG_FAR + 2];
  const nx = faces[0], ny = faces[1], nz = faces[2], fx = faces[3], fy = faces[4], fz = faces[5];
  const every = s.every, still = sg[SG_STILL] !== 0, L = s.args[QI_DIST];
  for (let k = from; k < to; k++) {
    const o = 6 * items[k];
    const tn = Math.max(
      (eb[o + nx] - rx - ox) * ix + ax, (eb[o + ny] - ry - oy) * iy + ay, (eb[o + nz] - rz - oz) * iz + az, 0);
    const tf = Math.min(
      (eb[o + fx] + rx - ox) * ix + bx, (eb[o + fy] + ry - oy) * iy + by, (eb[o + fz] + rz - oz) * iz + bz,
      every ? L : best[BH_DIST]);
    if (tn <= tf && (!still || withinStill(s, eb, o))) testCandidate(physics, s, ids[items[k]]);
  }
}

/** Walks the cells a ray crosses. */
function walkRay(physics: Physics, s: QueryState, g: DenseGrid): void {
  const w = s.rayWalk, q = s.args;
  for (let a = 0; a < 3; a++) {
    w[DR_OX + a] = q[QI_O + a];
    w[DR_DX + a] = q[QI_D + a];
  }
  w[DR_TMAX] = q[QI_DIST];
  if (!denseRayBegin(g, w)) return;
  for (;;) {
    const c = denseRayNext(g, w);
    if (c < 0 || (!s.every && w[DR_ENTRY] > s.best[BH_DIST])) return;
    testRun(physics, s, g, g.cellStart[c], g.cellStart[c + 1]);
  }
}

/**
 * Writes the bounds of the swept sphere grown by the query's padding to `s.segment[SG_SWEPT..]` and
 * returns how many cells of `g` they meet: the cells a thick walk need never exceed.
 */
function sweptCells(s: QueryState, g: DenseGrid): number {
  const q = s.args, sg = s.segment;
  const r = q[QI_RADIUS] + sg[SG_PAD], L = q[QI_DIST];
  for (let a = 0; a < 3; a++) {
    const o = q[QI_O + a], e = o + q[QI_D + a] * L;
    sg[SG_SWEPT + a] = Math.min(o, e) - r;
    sg[SG_SWEPT + 3 + a] = Math.max(o, e) + r;
  }
  return denseRange(g, sg, SG_SWEPT);
}

/** Tests every entry of the cells in `g.range` (set by {@link sweptCells}), row by row. */
function scanRange(physics: Physics, s: QueryState, g: DenseGrid): void {
  const r = g.range, start = g.cellStart;
  for (let z = r[2]; z <= r[5]; z++) {
    for (let y = r[1]; y <= r[4]; y++) {
      const row = g.nx * (y + g.ny * z);
      testRun(physics, s, g, start[row + r[0]], start[row + r[3] + 1]);
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
  w[TR_RADIUS] = q[QI_RADIUS] + s.segment[SG_PAD];
  if (!denseThickBegin(g, w)) return;
  const cells = sweptCells(s, g);
  if (cells === 0) return;
  if (w[TR_CELLS] > cells) {
    scanRange(physics, s, g);
    return;
  }
  const nx = g.nx, ny = g.ny, nz = g.nz;
  while (traverseStep(w)) {
    if (!s.every && w[TR_ENTRY] > s.best[BH_DIST]) return;
    const x = w[TR_CX], y = w[TR_CX + 1], z = w[TR_CX + 2];
    if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) continue;
    const c = x + nx * (y + ny * z);
    testRun(physics, s, g, g.cellStart[c], g.cellStart[c + 1]);
  }
}

/**
 * Sweeps the cast in `s.args` through the dense grid of `s` (usable), handing the bodies of
 * `physics` met to candidate.ts (started by the caller, which set `s.every`): every one or until
 * the best hit is settled.
 */
export function sweepDense(physics: Physics, s: QueryState): void {
  prepare(s);
  const g = s.dense;
  if (g.nx === 0) return;
  testRun(physics, s, g, g.bigStart, g.cellStart[g.nx * g.ny * g.nz + 1]);
  const q = s.args;
  const reach = Math.max(Math.abs(q[QI_O]), Math.abs(q[QI_O + 1]), Math.abs(q[QI_O + 2]));
  s.segment[SG_PAD] = 1e-10 * (reach + q[QI_DIST] + q[QI_RADIUS]);
  // A ray whose rounding stays well inside the grid's padding takes the DDA: its errors scale with
  // the origin's coordinates (the walk is clipped to the table, so not with maxDistance). Others
  // (spheres, rays from ~50× the table's coordinates away) take the thick walk, padded by SG_PAD.
  if (q[QI_RADIUS] === 0 && 1e-12 * reach <= g.frame[DG_PAD]) walkRay(physics, s, g);
  else walkThick(physics, s, g);
}
