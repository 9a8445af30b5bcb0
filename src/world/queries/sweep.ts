/**
 * The engine of the cast queries: walks the grids along the swept segment of a ray (radius 0) or
 * sphere from `QI` (src/world/queries/input.ts) and tests each candidate body exactly, with the
 * geometry API's sphere casts (a ray is a sphere of radius 0), keeping the closest hit or every hit.
 *
 * - Grids: the step's static grid (unless stale, see state.ts) and the queries' grid of current
 *   poses. Each level in use is walked cell by cell along the segment (src/broadphase/traverse.ts),
 *   closest-first, stopping once the cells start beyond the best hit; a level both grids hold (same
 *   cell side, as after a step) is walked once for both, each cell looked up in each grid; a level
 *   whose walk would visit more cells than it holds items is scanned instead (long rays over sparse
 *   levels, huge items).
 * - Candidates: each body once per query (per-entity stamps), the filter, then a slab test against
 *   its bounds grown by the radius, then the exact cast. Distances are `toi · maxDistance` along the
 *   unit direction, in length units; ties go to the lower entity id.
 * World frame, length units. No allocation (typed scratch, grown by doubling outside the loops).
 * @module
 */
import * as gridModule from '../../broadphase/grid.js';
import type { Grid } from '../../broadphase/grid.js';
import * as traverse from '../../broadphase/traverse.js';
import * as castBox from '../../geometry/castSphereBox.js';
import * as castBall from '../../geometry/castSphereSphere.js';
import * as bodies from '../bodies.js';
import * as internals from '../internal.js';
import { BodyFlags, type Physics } from '../types.js';
import * as input from './input.js';
import * as queryStateModule from './state.js';
import type { QueryState } from './stateData.js';

const { SPHERE, BOX, SENSOR } = BodyFlags;
// Imported bindings copied once into module constants: a transpiler's module interop may read an
// import through a getter on every use, which hot loops must not pay.
const { traverseBegin, traverseNext, traverseNextCell, TR_CELLS, TR_DX, TR_ENTRY, TR_OX, TR_RADIUS, TR_TMAX } = traverse;
const { HUGE_LEVEL } = gridModule;
const { castSphereBox } = castBox;
const { castSphereSphere } = castBall;
const { loadBox } = bodies;
const { internalsOf } = internals;
const { nextStamp, queryState } = queryStateModule;
const { QF, QF_EXCLUDE, QF_GROUP, QF_MASK, QF_SENSORS, QI, QI_D, QI_DIST, QI_O, QI_RADIUS } = input;

/** The best hit so far (closest mode): distance, normal (1–3), point (4–6); entity in `BEST_ENTITY`. */
export const BEST = new Float64Array(7);
/** The entity of the best hit (a typed slot: the cast module reads it without a live-binding getter). */
export const BEST_ENTITY = new Uint32Array(1);
/** Whether the sweep keeps every hit (in `QueryState.hits`) instead of the closest. */
let all = false;
let stamp = 0;
let state: QueryState;
let physicsNow: Physics;
let flagsNow: Uint8Array = new Uint8Array(0);

/** Whether `eid` passes the current filter (group/mask, exclusion, sensors). */
export function passesFilter(physics: Physics, eid: number, f: number): boolean {
  if ((f & (SPHERE | BOX)) === 0) return false;
  if (eid + 1 === QF[QF_EXCLUDE]) return false;
  if ((f & SENSOR) !== 0 && QF[QF_SENSORS] === 0) return false;
  const filter = physics.components.CollisionFilter;
  return (QF[QF_GROUP] & filter.mask[eid]) !== 0 && (filter.group[eid] & QF[QF_MASK]) !== 0;
}

/** The entry distance written by {@link slabEntry} (a returned double would be boxed). */
const ENTRY = new Float64Array(1);
/** Per query: 1 / direction per axis (Infinity-free: 0 where the component is 0), set by {@link sweep}. */
const INV_D = new Float64Array(3);

/**
 * Slab test of the segment against item slot `i`'s bounds grown by the radius: whether it meets
 * them, and its entry distance in `ENTRY[0]` (Kay & Kajiya slabs; a zero direction component tests
 * the origin against the slab).
 */
function slabEntry(g: Grid, i: number): boolean {
  const b = g.bounds;
  const r = QI[QI_RADIUS];
  let t0 = 0;
  let t1 = QI[QI_DIST];
  for (let a = 0; a < 3; a++) {
    const lo = b[6 * i + a] - r, hi = b[6 * i + 3 + a] + r;
    const o = QI[QI_O + a];
    if (QI[QI_D + a] === 0) {
      if (!(o >= lo && o <= hi)) return false;
      continue;
    }
    const inv = INV_D[a];
    let ta = (lo - o) * inv, tb = (hi - o) * inv;
    if (ta > tb) {
      const t = ta;
      ta = tb;
      tb = t;
    }
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (!(t0 <= t1)) return false;
  }
  ENTRY[0] = t0;
  return true;
}

/** Loads body `eid` into `state.sphere` or `state.box` and casts the query's sphere against it into `state.cast`. */
function castBody(physics: Physics, s: QueryState, eid: number, f: number): boolean {
  const p = physics.components.Position;
  const ray = s.ray;
  ray.center.x = QI[QI_O];
  ray.center.y = QI[QI_O + 1];
  ray.center.z = QI[QI_O + 2];
  ray.radius = QI[QI_RADIUS];
  const L = QI[QI_DIST];
  s.motion.x = QI[QI_D] * L;
  s.motion.y = QI[QI_D + 1] * L;
  s.motion.z = QI[QI_D + 2] * L;
  if ((f & SPHERE) !== 0) {
    const b = s.sphere;
    b.center.x = p.x[eid];
    b.center.y = p.y[eid];
    b.center.z = p.z[eid];
    b.radius = physics.components.Sphere.radius[eid];
    return castSphereSphere(ray, s.motion, b, s.cast);
  }
  loadBox(physics, eid, s.box);
  return castSphereBox(ray, s.motion, s.box, s.cast);
}

/** Appends the hit in `s.cast` on body `eid` to `s.hits` (its distance from the toi: no double passed). */
function pushHit(s: QueryState, eid: number): void {
  const h = s.hits;
  if (h.count === h.entity.length) {
    const n = h.entity.length * 2;
    const entity = new Uint32Array(n);
    entity.set(h.entity);
    const data = new Float64Array(7 * n);
    data.set(h.data);
    h.entity = entity;
    h.data = data;
    h.order = new Int32Array(n);
  }
  const k = h.count++;
  const c = s.cast;
  h.entity[k] = eid;
  const o = 7 * k;
  h.data[o] = c.toi * QI[QI_DIST];
  h.data[o + 1] = c.normal.x;
  h.data[o + 2] = c.normal.y;
  h.data[o + 3] = c.normal.z;
  h.data[o + 4] = c.point.x;
  h.data[o + 5] = c.point.y;
  h.data[o + 6] = c.point.z;
}

/** Tests the body in item slot `i` of `g` (once per query), recording a hit. */
function testItem(g: Grid, i: number): void {
  const eid = g.ids[i];
  const s = state;
  if (s.stamp[eid] === stamp) return;
  s.stamp[eid] = stamp;
  // The slab test first: it is arithmetic on the grid's own bounds and rejects most candidates.
  if (!slabEntry(g, i) || (!all && ENTRY[0] > BEST[0])) return;
  const physics = physicsNow;
  const f = flagsNow[eid];
  if (!passesFilter(physics, eid, f)) return;
  if (!castBody(physics, s, eid, f)) return;
  if (all) {
    pushHit(s, eid);
    return;
  }
  const d = s.cast.toi * QI[QI_DIST];
  if (d > BEST[0] || (d === BEST[0] && eid > BEST_ENTITY[0])) return;
  BEST_ENTITY[0] = eid;
  BEST[0] = d;
  const c = s.cast;
  BEST[1] = c.normal.x;
  BEST[2] = c.normal.y;
  BEST[3] = c.normal.z;
  BEST[4] = c.point.x;
  BEST[5] = c.point.y;
  BEST[6] = c.point.z;
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
 * Returns the query state.
 */
export function sweep(physics: Physics, every: boolean): QueryState {
  const s = queryState(physics);
  state = s;
  physicsNow = physics;
  flagsNow = internalsOf(physics).flags;
  all = every;
  stamp = nextStamp(s);
  s.hits.count = 0;
  BEST[0] = Infinity;
  BEST_ENTITY[0] = 0;
  for (let a = 0; a < 3; a++) INV_D[a] = QI[QI_D + a] === 0 ? 0 : 1 / QI[QI_D + a];
  if (s.withStatic) sweepGrid(s.grid);
  else sweepGrids(s.grid, internalsOf(physics).staticGrid);
  return s;
}
