/**
 * The static boxes of the broadphase (boxes without Velocity): bucketed in their own grid, grown by a
 * margin that makes nearly every sphere query a single cell lookup, and re-bucketed only when they
 * change: `rebuildStatic`, called by findPairs when `staticDirty` is set (by the `checkStatic`
 * stage, checkStatic.ts, when a box was written directly; by `markStaticDirty`, a body added or
 * removed, a snapshot restore that found a re-pick due), and by a snapshot restore itself
 * (`rebucketStatic`, findPairs.ts, with the saved cell size and margin), records the inputs each box was bucketed from
 * (`BroadphaseState.staticInputs`). Pure over the physics instance's typed arrays; world frame,
 * length units.
 * @module
 */
import { cellTableBuild, CT_SIDE } from '../grid/cellTable.js';
import { gridBuild, gridClear, gridInsert } from '../grid/grid.js';
import { growArray } from '../math/grow.js';
import { boxBounds, boxRotation } from '../physics/bodyReads.js';
import { STATIC_SHAPE } from './pairTest.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import { internalsOf } from '../physics/internal.js';
import { type BroadphaseState, STATIC_INPUTS, WORK_REBUILDS } from './broadphaseState.js';

const { SPHERE, BOX, MOVING } = BodyFlags;

/** Scratch of `rebuildStatic`: one box's world bounds. */
const boxBoundsScratch = new Float64Array(6);

/** Records static slot `i`'s inputs (see `BroadphaseState.staticInputs`). */
function recordStatic(physics: Physics, inputs: Float64Array, i: number, eid: number): void {
  const { Position: p, Box: box } = physics.components;
  const o = STATIC_INPUTS * i;
  inputs[o] = p.x[eid];
  inputs[o + 1] = p.y[eid];
  inputs[o + 2] = p.z[eid];
  inputs[o + 3] = box.hx[eid];
  inputs[o + 4] = box.hy[eid];
  inputs[o + 5] = box.hz[eid];
  inputs[o + 6] = box.qx[eid];
  inputs[o + 7] = box.qy[eid];
  inputs[o + 8] = box.qz[eid];
  inputs[o + 9] = box.qw[eid];
}

/** Scratch of `recordShape`: one box's rotation (per call). */
const rotation = new Float64Array(4);

/** Records static slot `i`'s shape as `loadBox` reads it (see `BroadphaseState.staticShapes`). */
function recordShape(physics: Physics, shapes: Float64Array, i: number, eid: number): void {
  const { Position: p, Box: box } = physics.components;
  const o = STATIC_SHAPE * i;
  boxRotation(physics, eid, rotation);
  shapes[o] = p.x[eid];
  shapes[o + 1] = p.y[eid];
  shapes[o + 2] = p.z[eid];
  shapes[o + 3] = rotation[0];
  shapes[o + 4] = rotation[1];
  shapes[o + 5] = rotation[2];
  shapes[o + 6] = rotation[3];
  shapes[o + 7] = box.hx[eid];
  shapes[o + 8] = box.hy[eid];
  shapes[o + 9] = box.hz[eid];
}

/** Doubles `staticInputs` and `staticShapes` (outside the steady tick: only when more static boxes are bucketed). */
function growStaticInputs(bp: BroadphaseState): void {
  const n = Math.max(16, 2 * (bp.staticInputs.length / STATIC_INPUTS));
  bp.staticInputs = growArray(bp.staticInputs, n * STATIC_INPUTS);
  bp.staticShapes = growArray(bp.staticShapes, n * STATIC_SHAPE);
}

/**
 * Re-buckets the static boxes. Called from findPairs, the scan stage checked them first (with
 * `validate`); called from a snapshot restore, the next scan checks them (`staticUnchecked`).
 */
export function rebuildStatic(physics: Physics): void {
  const internal = internalsOf(physics);
  const { flags, maxEid } = internal;
  const bp = internal.broadphase;
  const { staticGrid } = bp;
  gridClear(staticGrid);
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & BOX) === 0 || (f & (MOVING | SPHERE)) !== 0) continue;
    boxBounds(physics, eid, f, false, boxBoundsScratch, 0);
    if (STATIC_INPUTS * (staticGrid.count + 1) > bp.staticInputs.length) growStaticInputs(bp);
    recordStatic(physics, bp.staticInputs, staticGrid.count, eid);
    recordShape(physics, bp.staticShapes, staticGrid.count, eid);
    gridInsert(staticGrid, eid, boxBoundsScratch, 0);
  }
  gridBuild(staticGrid);
  // The hashed grid's cell side: finer cells (the bare grid's, about the largest sphere diameter)
  // visit fewer items but outgrow the cache (docs/benchmarks.md: 1.12x the broadphase at 100,000).
  bp.staticCells.frame[CT_SIDE] = staticGrid.cellSize;
  cellTableBuild(bp.staticCells, staticGrid);
  bp.staticDirty = false;
  bp.staticUnchecked = false;
  bp.work[WORK_REBUILDS]++;
}
