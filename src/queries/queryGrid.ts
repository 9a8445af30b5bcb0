/**
 * The world queries' own structure, built lazily on the first query after something that can
 * change it — a tick (`physics.tick` changed), a helper edit, a body or component added or removed,
 * `markStaticDirty`, a snapshot restored (all of which set `internal.queryDirty`) — and never per
 * query. Queries read the step's static grid but never write any simulation state: stepping after
 * queries gives bit-identical results. World frame, length units.
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
import * as queryStateModule from './queryState.js';
import type { QueryState } from './queryState.js';

const { SPHERE, BOX, MOVING } = BodyFlags;
// Imported bindings read once into module constants: see docs/internals.md (imports on hot paths).
const { internalsOf } = internals;
const { denseBuild, denseClear, denseReserve, DG_SIDE } = denseModule;
const { gridBuild, gridClear, gridInsert, gridSetCellSize } = gridModule;
const { boxBounds, sphereBounds, sphereBoundsAt } = bodies;
const { createQueryState } = queryStateModule;

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
  return denseBuild(g);
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
  if (!s.built || internal.queryDirty || s.builtTick !== physics.tick) rebuild(physics, internal, s);
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
