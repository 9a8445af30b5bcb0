/**
 * The broadphase of one tick: validate bodies, (re)bucket static boxes when they changed, bucket the
 * moving ones, and list candidate pairs sorted by (a, b), with `a` always the sphere (the lower id
 * of two spheres). Pure over the physics instance's typed arrays; no bitecs calls.
 *
 * Bounds: with continuous contacts on, a moving body's bounds cover its whole motion over the tick
 * (velocity × dt); otherwise its current pose. Boxes without Velocity are static: bucketed once in
 * their own grid and re-bucketed only when a box is added, removed or marked dirty.
 * @module
 */
import { gridAdd, gridBuild, gridClear, gridQuery } from '../broadphase/grid.js';
import { bounds, boxBounds, sphereBounds, validateBody } from './bodies.js';
import { pairListPush } from './lists.js';
import { BodyFlags, type Physics } from './types.js';

const { SPHERE, BOX, MOVING } = BodyFlags;

function addBounds(grid: Physics['internal']['staticGrid'], eid: number): void {
  gridAdd(grid, eid, bounds[0], bounds[1], bounds[2], bounds[3], bounds[4], bounds[5]);
}

/** Mean of the largest bounds side over the bodies with flag `want` (spheres: swept bounds). */
function meanSize(physics: Physics, want: number): number {
  const { flags, maxEid } = physics.internal;
  const t = physics.continuous ? physics.dt : 0;
  let sum = 0;
  let n = 0;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & want) === 0) continue;
    if ((f & SPHERE) !== 0) sphereBounds(physics, eid, f, t);
    else boxBounds(physics, eid, f, t);
    const size = Math.max(bounds[3] - bounds[0], bounds[4] - bounds[1], bounds[5] - bounds[2]);
    if (size - size === 0) {
      sum += size;
      n++;
    }
  }
  return n > 0 ? sum / n : 0;
}

/** Default cell size: twice the mean swept sphere size, else twice the mean box size, else 1. */
function chooseCellSize(physics: Physics): number {
  let size = 2 * meanSize(physics, SPHERE);
  if (!(size > 0)) size = 2 * meanSize(physics, BOX);
  return size > 0 && size - size === 0 ? size : 1;
}

/** With `physics.validate`, checks every sphere and moving box (static boxes when re-bucketed). */
function validateMoving(physics: Physics): void {
  if (!physics.validate) return;
  const { flags, maxEid } = physics.internal;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & SPHERE) !== 0 || (f & (BOX | MOVING)) === (BOX | MOVING)) validateBody(physics, eid, f);
  }
}

function rebuildStatic(physics: Physics): void {
  const internal = physics.internal;
  const { flags, maxEid, staticGrid } = internal;
  gridClear(staticGrid);
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & BOX) === 0 || (f & (MOVING | SPHERE)) !== 0) continue;
    if (physics.validate) validateBody(physics, eid, f);
    boxBounds(physics, eid, f, 0);
    addBounds(staticGrid, eid);
  }
  gridBuild(staticGrid);
  internal.staticDirty = false;
}

/** Buckets moving boxes, and spheres when some sphere may collide with another sphere. */
function rebuildDynamic(physics: Physics): void {
  const { flags, maxEid, dynamicGrid } = physics.internal;
  const { group, mask } = physics.components.CollisionFilter;
  const t = physics.continuous ? physics.dt : 0;
  let groups = 0;
  let masks = 0;
  for (let eid = 1; eid <= maxEid; eid++) {
    if ((flags[eid] & SPHERE) !== 0) {
      groups |= group[eid];
      masks |= mask[eid];
    }
  }
  const sphereSphere = (groups & masks) !== 0;
  gridClear(dynamicGrid);
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & SPHERE) !== 0) {
      if (!sphereSphere) continue;
      sphereBounds(physics, eid, f, t);
    } else if ((f & (BOX | MOVING)) === (BOX | MOVING)) {
      boxBounds(physics, eid, f, t);
    } else continue;
    addBounds(dynamicGrid, eid);
  }
  gridBuild(dynamicGrid);
}

/** Sorts `ids[0..n)` ascending (insertion sort: candidate runs are short). */
function sortIds(ids: Int32Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const v = ids[i];
    let j = i - 1;
    while (j >= 0 && ids[j] > v) {
      ids[j + 1] = ids[j];
      j--;
    }
    ids[j + 1] = v;
  }
}

/** Appends the pairs of sphere `a` with its candidates that pass the filters. */
function emitPairs(physics: Physics, a: number): void {
  const internal = physics.internal;
  const { flags, query, pairs } = internal;
  const { group, mask } = physics.components.CollisionFilter;
  const ids = query.ids;
  sortIds(ids, query.count);
  const ga = group[a];
  const ma = mask[a];
  for (let k = 0; k < query.count; k++) {
    const b = ids[k];
    if (b === a || ((flags[b] & SPHERE) !== 0 && b < a)) continue;
    if ((ga & mask[b]) === 0 || (group[b] & ma) === 0) continue;
    pairListPush(pairs, a, b);
  }
}

/**
 * Runs the broadphase: fills `physics.internal.pairs` with candidate pairs sorted by (a, b).
 * Throws `PhysicsInputError` for invalid bodies (see `PhysicsOptions.validate`).
 */
export function updateBroadphase(physics: Physics): void {
  const internal = physics.internal;
  validateMoving(physics);
  if (internal.cellSize === 0) {
    internal.cellSize = chooseCellSize(physics);
    internal.staticDirty = true;
  }
  internal.staticGrid.cellSize = internal.cellSize;
  internal.dynamicGrid.cellSize = internal.cellSize;
  if (internal.staticDirty) rebuildStatic(physics);
  rebuildDynamic(physics);
  const { flags, maxEid, staticGrid, dynamicGrid, query } = internal;
  const t = physics.continuous ? physics.dt : 0;
  internal.pairs.count = 0;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & SPHERE) === 0) continue;
    sphereBounds(physics, eid, f, t);
    query.count = 0;
    gridQuery(staticGrid, query, bounds[0], bounds[1], bounds[2], bounds[3], bounds[4], bounds[5]);
    gridQuery(dynamicGrid, query, bounds[0], bounds[1], bounds[2], bounds[3], bounds[4], bounds[5]);
    if (query.count > 0) emitPairs(physics, eid);
  }
}
