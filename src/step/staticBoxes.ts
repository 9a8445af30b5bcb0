/**
 * The static boxes of the broadphase (boxes without Velocity): bucketed in their own grid, grown by a
 * margin that makes nearly every sphere query a single cell lookup, and re-bucketed only when they
 * change. Each step compares every static box's inputs (Position, Box) with those it was bucketed
 * from (`BroadphaseState.staticInputs`, the stage `checkStatic`, before the scan stage); a written box
 * re-buckets them all (and, with `validate`, the scan stage checks them all first), so direct writes
 * are noticed without `markStaticDirty` (which still forces a
 * re-bucketing). Pure over the physics instance's typed arrays; world frame, length units.
 * @module
 */
import { gridBuild, gridClear, gridInsert } from '../grid/grid.js';
import { growArray } from '../math/grow.js';
import { boxBounds } from '../physics/bodyReads.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import { internalsOf } from '../physics/internal.js';
import { type BroadphaseState, STATIC_INPUTS, WORK_REBUILDS } from './broadphaseState.js';

const { SPHERE, BOX, MOVING } = BodyFlags;

/**
 * Whether static slot `i`'s inputs differ from `staticScratch` (NaN equals NaN: an unchanged bad box
 * is unchanged). The slow path of `checkStatic`, for a box whose inputs are not all equal.
 */
function staticChanged(inputs: Float64Array, i: number): boolean {
  const o = STATIC_INPUTS * i;
  for (let k = 0; k < STATIC_INPUTS; k++) {
    const u = staticScratch[k], v = inputs[o + k];
    if (u !== v && (u === u || v === v)) return true;
  }
  return false;
}

/** Scratch of `checkStatic`: one box's current inputs. */
const staticScratch = new Float64Array(STATIC_INPUTS);
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

/**
 * Compares every static box's inputs with those it was bucketed from: a box written since (directly,
 * without `markStaticDirty`) marks the static grid for re-bucketing (`staticDirty`), and with
 * `validate` the scan stage (scanBodies.ts) then checks every static box before anything is
 * written (so a box that passes unchanged was validated when it was bucketed). Skipped when a
 * re-bucketing is due anyway. A stage of the tick (step.ts): it writes only `staticDirty`.
 */
export function checkStatic(physics: Physics): void {
  const bp = internalsOf(physics).broadphase;
  if (bp.staticDirty) return;
  const { staticGrid: g, staticInputs: a } = bp;
  const { Position: p, Box: box } = physics.components;
  const px = p.x, py = p.y, pz = p.z, bhx = box.hx, bhy = box.hy, bhz = box.hz, bqx = box.qx, bqy = box.qy, bqz = box.qz, bqw = box.qw;
  const ids = g.ids;
  for (let i = 0; i < g.count; i++) {
    const eid = ids[i];
    const o = STATIC_INPUTS * i;
    const x = px[eid], y = py[eid], z = pz[eid], hx = bhx[eid], hy = bhy[eid], hz = bhz[eid];
    const qx = bqx[eid], qy = bqy[eid], qz = bqz[eid], qw = bqw[eid];
    if (x === a[o] && y === a[o + 1] && z === a[o + 2] && hx === a[o + 3] && hy === a[o + 4] && hz === a[o + 5] &&
      qx === a[o + 6] && qy === a[o + 7] && qz === a[o + 8] && qw === a[o + 9]) continue;
    const c = staticScratch;
    c[0] = x; c[1] = y; c[2] = z; c[3] = hx; c[4] = hy; c[5] = hz; c[6] = qx; c[7] = qy; c[8] = qz; c[9] = qw;
    if (!staticChanged(a, i)) continue;
    bp.staticDirty = true;
    return;
  }
}

/** Doubles `staticInputs` (outside the steady tick: only when more static boxes are bucketed). */
function growStaticInputs(bp: BroadphaseState): void {
  bp.staticInputs = growArray(bp.staticInputs, Math.max(16 * STATIC_INPUTS, 2 * bp.staticInputs.length));
}

/** Re-buckets the static boxes (the scan stage checked them, with `validate`, before gravity). */
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
    gridInsert(staticGrid, eid, boxBoundsScratch, 0);
  }
  gridBuild(staticGrid);
  bp.staticDirty = false;
  bp.work[WORK_REBUILDS]++;
}
