/**
 * The world queries' own structure, brought up to date lazily on the first query after something
 * that can change it — a tick (`physics.tick` changed), a helper edit, a body or component added or
 * removed, `markStaticDirty`, a snapshot restored (all of which set `internal.queryDirty`) — and never
 * per query. Queries read the step's static grid but never write any simulation state: stepping
 * after queries gives bit-identical results. World frame, length units.
 *
 * After ticks alone (no `queryDirty`, the static boxes not re-bucketed by the step, the same cell
 * side) the dense grid is updated in place rather than rebuilt: the bounds of every sphere and
 * moving box are recomputed (a few arithmetic operations each; static boxes cannot have moved, the
 * step re-buckets them when they do) and only the bodies whose cells changed are re-bucketed
 * (`denseUpdate`), so the first query after a tick costs in proportion to the bodies that moved
 * across cells, not to all bodies. Anything else, or an update the grid cannot take (a body leaving
 * the table, too many big bodies, moved runs past their budget), builds afresh; after a body left
 * the table, builds keep a cell to spare on each side of the bodies (`DenseGrid.spare`). Reusing the step's
 * own grids instead was measured and left out: docs/queries.md.
 *
 * - First choice: a dense grid (src/grid/dense.ts) of every body at its current pose, cells
 *   of the step's cell side (before the first step: about one body per cell), grown when the world
 *   is sparse. It is used when usable: finite bounds, few bodies much larger than a cell, no crowded
 *   cell (see src/grid/dense.ts). After a build finds it unusable, the next 32 rebuilds use
 *   the hashed grids without trying it (a failed try can cost a whole dense build).
 * - Otherwise: a hashed grid of the bodies the step's static grid does not hold at their current
 *   pose (every sphere and moving box; every body while the static grid is stale), walked together
 *   with the step's static grid.
 * @module
 */
import * as denseModule from '../grid/dense.js';
import * as gridModule from '../grid/grid.js';
import * as bodies from '../physics/bodyReads.js';
import * as internals from '../physics/internal.js';
import type { PhysicsInternal } from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import * as broadphaseState from '../step/broadphaseState.js';
import * as queryStateModule from './queryState.js';
import type { QueryState } from './queryState.js';

const { SPHERE, BOX, MOVING } = BodyFlags;
// Imported bindings read once into module constants: see docs/internals.md (imports on hot paths).
const { internalsOf } = internals;
const { denseBuild, denseClear, denseReserve, denseUpdate, DG_SIDE } = denseModule;
const { gridBuild, gridClear, gridInsert, gridSetCellSize } = gridModule;
const { boxBounds, sphereBounds, sphereBoundsAt } = bodies;
const { createQueryState, QW_BUILDS, QW_BUILT_ITEMS, QW_CHECKED, QW_REBUCKETED, QW_UPDATES } = queryStateModule;
const { WORK_REBUILDS } = broadphaseState;

/** Builds the dense grid of every body at its current pose; returns whether it is usable. */
function buildDense(physics: Physics, internal: PhysicsInternal, s: QueryState): boolean {
  const { flags, maxEid } = internal;
  const g = s.dense;
  denseClear(g);
  denseReserve(g, maxEid);
  let n = 0;
  // Written straight into the grid's arrays (spheres, nearly every body, without the scratch).
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & SPHERE) !== 0) sphereBoundsAt(physics, eid, g.bounds, 6 * n);
    else if ((f & BOX) !== 0) {
      boxBounds(physics, eid, f, false, g.bounds, 6 * n);
    } else continue;
    g.ids[n++] = eid;
  }
  g.count = n;
  g.frame[DG_SIDE] = internal.broadphase.cellSize > 0 ? internal.broadphase.cellSize : 0;
  s.work[QW_BUILT_ITEMS] += n;
  return denseBuild(g);
}

/**
 * Brings the usable dense grid to the current poses after ticks alone (see the module notes):
 * recomputes the bounds of each sphere and moving box into the grid and re-buckets it when its
 * cells changed. False when the grid cannot take a body (`denseUpdate`): build afresh.
 */
function updateDense(physics: Physics, internal: PhysicsInternal, s: QueryState): boolean {
  const flags = internal.flags, g = s.dense, ids = g.ids, work = s.work;
  for (let i = 0; i < g.count; i++) {
    const eid = ids[i], f = flags[eid];
    if ((f & SPHERE) !== 0) sphereBoundsAt(physics, eid, g.bounds, 6 * i);
    else if ((f & MOVING) !== 0) boxBounds(physics, eid, f, false, g.bounds, 6 * i);
    else continue;
    work[QW_CHECKED]++;
    const moved = denseUpdate(g, i);
    if (moved < 0) {
      // A body left the table: builds keep a cell to spare around the bodies from now on.
      if (moved === -2) g.spare = 1;
      return false;
    }
    work[QW_REBUCKETED] += moved;
  }
  return true;
}

/** `buildHashed`'s scratch: one body's bounds (per call). */
const BOUNDS = new Float64Array(6);

/** Rebuilds the hashed query grid from every body at its current pose (static boxes only when `withStatic`). */
function buildHashed(physics: Physics, internal: PhysicsInternal, s: QueryState): void {
  const { flags, maxEid } = internal;
  const g = s.grid;
  const withStatic = internal.broadphase.staticDirty;
  gridSetCellSize(g, internal.broadphase.cellSize > 0 ? internal.broadphase.cellSize : internal.broadphase.staticGrid.cellSize);
  gridClear(g);
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & SPHERE) !== 0) sphereBounds(physics, eid, f, false, BOUNDS, 0);
    else if ((f & BOX) !== 0 && (withStatic || (f & MOVING) !== 0)) boxBounds(physics, eid, f, false, BOUNDS, 0);
    else continue;
    gridInsert(g, eid, BOUNDS, 0);
  }
  gridBuild(g);
  s.withStatic = withStatic;
}

/** Rebuilds after a failed dense build that use the hashed grids before the dense grid is tried again. */
const DENSE_RETRY = 32;

/** Rebuilds the queries' structure (see the module notes). */
function rebuild(physics: Physics, internal: PhysicsInternal, s: QueryState): void {
  const maxEid = internal.maxEid;
  s.useDense = false;
  if (s.denseAllowed && s.denseRetry === 0) {
    s.useDense = buildDense(physics, internal, s);
    if (!s.useDense) s.denseRetry = DENSE_RETRY;
  } else if (s.denseRetry > 0) s.denseRetry--;
  if (!s.useDense) buildHashed(physics, internal, s);
  s.work[QW_BUILDS]++;
  s.builtSide = internal.broadphase.cellSize;
  s.builtStatic = internal.broadphase.work[WORK_REBUILDS];
  if (s.stamp.length <= maxEid) {
    let n = s.stamp.length;
    while (n <= maxEid) n *= 2;
    s.stamp = new Uint32Array(n);
    s.stampValue = 0;
  }
  s.built = true;
  s.builtTick = physics.tick;
  internal.queryDirty = false;
}

/** The query state of `physics` (created by its first query), its grids as they are. */
export function queryStateOf(physics: Physics): QueryState {
  const internal = internalsOf(physics);
  let s = internal.queries;
  if (s === undefined) {
    s = createQueryState();
    internal.queries = s;
  }
  return s;
}

/** Brings the grids of `s`, the query state of `physics`, up to date (rebuilt only after a change). */
export function updateQueryGrid(physics: Physics, s: QueryState): void {
  const internal = internalsOf(physics);
  if (s.built && internal.queryDirty !== true && s.builtTick === physics.tick) return;
  const bp = internal.broadphase;
  if (s.built && internal.queryDirty !== true && s.useDense && s.builtSide === bp.cellSize && s.builtStatic === bp.work[WORK_REBUILDS] &&
    updateDense(physics, internal, s)) {
    s.work[QW_UPDATES]++;
    s.builtTick = physics.tick;
    return;
  }
  rebuild(physics, internal, s);
}

/** The query state of `physics`, its grids brought up to date. */
export function queryState(physics: Physics): QueryState {
  const s = queryStateOf(physics);
  updateQueryGrid(physics, s);
  return s;
}

/** Starts a new query for the per-entity stamps; returns its stamp (also in `s.stampValue`). */
export function nextStamp(s: QueryState): number {
  if (s.stampValue >= 0xfffffff0) {
    s.stamp.fill(0);
    s.stampValue = 0;
  }
  return ++s.stampValue;
}

/**
 * Whether the queries of `physics` may use the dense grid (default true); false makes them use the
 * hashed grids (tests compare both). Takes effect at the next query.
 */
export function setDenseQueries(physics: Physics, allowed: boolean): void {
  const s = queryState(physics);
  s.denseAllowed = allowed;
  s.denseRetry = 0;
  internalsOf(physics).queryDirty = true;
}
