/**
 * The `checkStatic` stage (step.ts): every static box's inputs (Position, Box) compared with those
 * it was bucketed from (`BroadphaseState.staticInputs`, recorded by staticBoxes.ts), so that direct
 * writes are noticed without `markStaticDirty`; a written box sets `staticDirty`, and findPairs then
 * re-buckets them all (with `validate`, the scan stage checks them all first). World frame, length
 * units.
 * @module
 */
import { internalsOf } from '../physics/internal.js';
import type { Physics } from '../physics/physicsTypes.js';
import { STATIC_INPUTS } from './broadphaseState.js';

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

/** Scratch of `staticWritten`: one box's current inputs (per call). */
const staticScratch = new Float64Array(STATIC_INPUTS);

/**
 * Whether some static box's inputs (Position, Box) differ from those it was bucketed from: a box
 * written since (directly, without `markStaticDirty`). Reads only: the `checkStatic` stage acts on
 * it, and the snapshot writer records it (a re-pick due at the next step, snapshot/format.ts).
 */
export function staticWritten(physics: Physics): boolean {
  const bp = internalsOf(physics).broadphase;
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
    if (staticChanged(a, i)) return true;
  }
  return false;
}

/**
 * Compares every static box's inputs with those it was bucketed from (`staticWritten`): a box
 * written since marks the static grid for re-bucketing (`staticDirty`), and with `validate` the
 * scan stage (scanBodies.ts) then checks every static box before anything is written (so a box
 * that passes unchanged was validated when it was bucketed). Skipped when a re-bucketing is due
 * anyway. A stage of the tick (step.ts): it writes only `staticDirty`.
 */
export function checkStatic(physics: Physics): void {
  const bp = internalsOf(physics).broadphase;
  if (!bp.staticDirty && staticWritten(physics)) bp.staticDirty = true;
}
