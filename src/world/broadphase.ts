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
import { type Grid, gridBuild, gridClear, gridInsert, gridQueryBounds, gridSetCellSize, gridSetMargin } from '../broadphase/grid.js';
import { bounds, BOUNDS_PAD, boxBounds, sphereBounds, validateBody } from './bodies.js';
import { pairListPush } from './lists.js';
import { BodyFlags, type Physics } from './types.js';
import { internalsOf } from './internal.js';

const { SPHERE, BOX, MOVING } = BodyFlags;

function addBounds(grid: Grid, eid: number): void {
  gridInsert(grid, eid, bounds, 0);
}

/** Mean of the largest bounds side over the bodies with flag `want` (spheres: swept bounds). */
function meanSize(physics: Physics, want: number): number {
  const { flags, maxEid } = internalsOf(physics);
  let sum = 0;
  let n = 0;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & want) === 0) continue;
    if ((f & SPHERE) !== 0) sphereBounds(physics, eid, f, physics.continuous);
    else boxBounds(physics, eid, f, physics.continuous);
    const size = Math.max(bounds[3] - bounds[0], bounds[4] - bounds[1], bounds[5] - bounds[2]);
    if (size - size === 0) {
      sum += size;
      n++;
    }
  }
  return n > 0 ? sum / n : 0;
}

/**
 * Default cell size: three times the mean swept sphere size, else twice the mean box size, else 1.
 * Static boxes are grown by the sphere margin, so sphere queries stay single-cell lookups at any
 * cell size; larger cells mean fewer entries and a smaller table but more boxes per lookup. Measured
 * on the arena (side by side, one process): against 2× it is ~10% slower at 10,000 spheres and about
 * twice as fast at 100,000, where a 2× table no longer fits in cache.
 */
function chooseCellSize(physics: Physics): number {
  let size = 3 * meanSize(physics, SPHERE);
  if (!(size > 0)) size = 2 * meanSize(physics, BOX);
  return size > 0 && size - size === 0 ? size : 1;
}

/**
 * One pass over the bodies: with `physics.validate`, checks every sphere and moving box (static boxes
 * when re-bucketed) — a fast test of positions, velocities and radii, and the full check (which names
 * the field) for a body that fails it and for moving boxes. Returns whether some sphere may collide
 * with another sphere (the OR of sphere groups meets the OR of sphere masks).
 */
function scanBodies(physics: Physics): boolean {
  const { flags, maxEid } = internalsOf(physics);
  const { Position: p, Velocity: v, Sphere: s, CollisionFilter: filter } = physics.components;
  const px = p.x, py = p.y, pz = p.z, vx = v.x, vy = v.y, vz = v.z, radius = s.radius;
  const group = filter.group, mask = filter.mask;
  const validate = physics.validate;
  let groups = 0;
  let masks = 0;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & SPHERE) !== 0) {
      groups |= group[eid];
      masks |= mask[eid];
      if (!validate) continue;
      let z = px[eid] * 0 + py[eid] * 0 + pz[eid] * 0;
      if ((f & MOVING) !== 0) z += vx[eid] * 0 + vy[eid] * 0 + vz[eid] * 0;
      const r = radius[eid];
      if (z === 0 && r >= 0 && r !== Infinity) continue;
      validateBody(physics, eid, f);
    } else if (validate && (f & (BOX | MOVING)) === (BOX | MOVING)) validateBody(physics, eid, f);
  }
  return (groups & masks) !== 0;
}

/** Largest half side of any sphere's (swept) bounds: the static grid's Minkowski margin. */
function maxSphereHalfSize(physics: Physics): number {
  const { flags, maxEid } = internalsOf(physics);
    let half = 0;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & SPHERE) === 0) continue;
    sphereBounds(physics, eid, f, physics.continuous);
    const h = 0.5 * Math.max(bounds[3] - bounds[0], bounds[4] - bounds[1], bounds[5] - bounds[2]);
    if (h > half) half = h;
  }
  return half;
}

/**
 * Re-buckets the static boxes, grown by a margin of 1.25 × the largest sphere's half size (at most
 * one cell), so that almost every sphere query is a single cell lookup (see `gridSetMargin`).
 */
function rebuildStatic(physics: Physics): void {
  const internal = internalsOf(physics);
  const { flags, maxEid, staticGrid } = internal;
  gridClear(staticGrid);
  gridSetMargin(staticGrid, Math.min(1.25 * maxSphereHalfSize(physics), internal.cellSize));
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & BOX) === 0 || (f & (MOVING | SPHERE)) !== 0) continue;
    if (physics.validate) validateBody(physics, eid, f);
    boxBounds(physics, eid, f, false);
    addBounds(staticGrid, eid);
  }
  gridBuild(staticGrid);
  internal.staticDirty = false;
}

/** Buckets moving boxes, and spheres when some sphere may collide with another sphere. */
function rebuildDynamic(physics: Physics, sphereSphere: boolean): void {
  const { flags, maxEid, dynamicGrid } = internalsOf(physics);
  gridClear(dynamicGrid);
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & SPHERE) !== 0) {
      if (!sphereSphere) continue;
      sphereBounds(physics, eid, f, physics.continuous);
    } else if ((f & (BOX | MOVING)) === (BOX | MOVING)) {
      boxBounds(physics, eid, f, physics.continuous);
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
  const internal = internalsOf(physics);
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
 * Runs the broadphase: fills `internalsOf(physics).pairs` with candidate pairs sorted by (a, b).
 * Throws `PhysicsInputError` for invalid bodies (see `PhysicsOptions.validate`).
 */
export function updateBroadphase(physics: Physics): void {
  const internal = internalsOf(physics);
  const sphereSphere = scanBodies(physics);
  if (internal.cellSize === 0) {
    internal.cellSize = chooseCellSize(physics);
    internal.staticDirty = true;
  }
  if (internal.staticGrid.cellSize !== internal.cellSize) {
    gridSetCellSize(internal.staticGrid, internal.cellSize);
    gridSetCellSize(internal.dynamicGrid, internal.cellSize);
    internal.staticDirty = true;
  }
  if (internal.staticDirty) rebuildStatic(physics);
  rebuildDynamic(physics, sphereSphere);
  const { flags, maxEid, staticGrid, dynamicGrid, query } = internal;
  internal.pairs.count = 0;
  const { Position: p, Velocity: v, Sphere: s } = physics.components;
  const px = p.x, py = p.y, pz = p.z, vx = v.x, vy = v.y, vz = v.z, radius = s.radius;
  const dt = physics.continuous ? physics.dt : 0;
  const hasDynamic = dynamicGrid.count > 0;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & SPHERE) === 0) continue;
    // The sphere's (swept) bounds, as `sphereBounds` computes them, inline in this hot loop.
    const t = (f & MOVING) !== 0 ? dt : 0;
    const x = px[eid], y = py[eid], z = pz[eid], r = radius[eid];
    const mx = vx[eid] * t, my = vy[eid] * t, mz = vz[eid] * t;
    const pad = BOUNDS_PAD * (1 + Math.abs(x) + Math.abs(y) + Math.abs(z) + 3 * r + Math.abs(mx) + Math.abs(my) + Math.abs(mz));
    bounds[0] = x - r + (mx < 0 ? mx : 0) - pad;
    bounds[1] = y - r + (my < 0 ? my : 0) - pad;
    bounds[2] = z - r + (mz < 0 ? mz : 0) - pad;
    bounds[3] = x + r + (mx > 0 ? mx : 0) + pad;
    bounds[4] = y + r + (my > 0 ? my : 0) + pad;
    bounds[5] = z + r + (mz > 0 ? mz : 0) + pad;
    query.count = 0;
    gridQueryBounds(staticGrid, query, bounds, 0);
    if (hasDynamic) gridQueryBounds(dynamicGrid, query, bounds, 0);
    if (query.count > 0) emitPairs(physics, eid);
  }
}
