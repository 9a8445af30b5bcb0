/**
 * A dynamic sphere's straight move swept against the static bodies only (static boxes and spheres,
 * found in the static grid): it moves until its first touch with one that it approaches, and no
 * further. Used where the response moves a sphere without predicting it: the ballistic motion of a
 * capped body (resolve.ts), a push out of a kinematic body (predict.ts, project.ts) and the
 * separation of two merged spheres (project.ts). So no move of the response ever enters or crosses
 * a static body, whatever pushes it (a squeeze against a wall ends overlapping the pusher instead).
 *
 * The move is the motion in `s.move[0..3]` (world frame, length units); the fraction of it made is
 * written to `s.move[3]` (1 when nothing is in the way). A static body the sphere touches or
 * overlaps and does not approach (motion · normal ≥ 0) does not stop it: it can always leave.
 * Exact casts of src/geometry (castSphereBox, castSphereSphere). No allocation.
 * @module
 */
import { WHOLE_TICK } from '../grid/cells.js';
import { gridQuerySlice } from '../grid/query.js';
import { castSphereBox } from '../geometry/castSphereBox.js';
import { castSphereSphere } from '../geometry/castSphereSphere.js';
import { loadBox, SW_MX, SW_R, SW_X, SWEEP_SLOTS, sweptSphereBounds } from '../physics/bodyReads.js';
import { internalsOf } from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import type { ResponseState } from './responseState.js';

const { SPHERE, BOX, MOVING, SENSOR } = BodyFlags;

/** Bounds of the sweep's query (per-call scratch). */
const q = new Float64Array(6);
/** Input of `sweptSphereBounds` (per-call scratch, slots `SW_*`). */
const SWEEP = new Float64Array(SWEEP_SLOTS);

/** Whether static body `x` blocks dynamic `a`: a shape, no sensor, the filters let them touch. */
function blocks(physics: Physics, a: number, x: number): boolean {
  const f = internalsOf(physics).flags[x];
  if ((f & (SPHERE | BOX)) === 0 || (f & (MOVING | SENSOR)) !== 0 || (internalsOf(physics).flags[a] & SENSOR) !== 0) return false;
  const { group, mask } = physics.components.CollisionFilter;
  return (group[a] & mask[x]) !== 0 && (group[x] & mask[a]) !== 0;
}

/**
 * Moves dynamic sphere `a` by `s.move[0..3]`, stopped at its first touch with a static body it
 * approaches; writes the fraction moved to `s.move[3]`. Returns whether it was stopped.
 */
export function sweepStatic(physics: Physics, s: ResponseState, a: number): boolean {
  const m = s.move;
  const mx = m[0], my = m[1], mz = m[2];
  m[3] = 1;
  if (mx === 0 && my === 0 && mz === 0) return false;
  const p = physics.components.Position;
  const r = physics.components.Sphere.radius[a];
  SWEEP[SW_X] = p.x[a];
  SWEEP[SW_X + 1] = p.y[a];
  SWEEP[SW_X + 2] = p.z[a];
  SWEEP[SW_R] = r;
  SWEEP[SW_MX] = mx;
  SWEEP[SW_MX + 1] = my;
  SWEEP[SW_MX + 2] = mz;
  sweptSphereBounds(SWEEP, q);
  const out = s.sweepPath;
  out.count = 0;
  gridQuerySlice(s.staticGrid!, out, q, 0, WHOLE_TICK);
  const { sphere, partnerSphere, partnerBox, motion, cast } = s.sweepShapes;
  sphere.center.x = p.x[a];
  sphere.center.y = p.y[a];
  sphere.center.z = p.z[a];
  sphere.radius = r;
  motion.x = mx;
  motion.y = my;
  motion.z = mz;
  let best = 1;
  let stopped = false;
  for (let k = 0; k < out.count; k++) {
    const x = out.ids[k];
    if (x === a || !blocks(physics, a, x)) continue;
    let hit: boolean;
    if ((internalsOf(physics).flags[x] & SPHERE) !== 0) {
      partnerSphere.center.x = p.x[x];
      partnerSphere.center.y = p.y[x];
      partnerSphere.center.z = p.z[x];
      partnerSphere.radius = physics.components.Sphere.radius[x];
      hit = castSphereSphere(sphere, motion, partnerSphere, cast);
    } else {
      loadBox(physics, x, partnerBox);
      hit = castSphereBox(sphere, motion, partnerBox, cast);
    }
    if (!hit || cast.toi > best) continue;
    if (cast.toi === 0 && mx * cast.normal.x + my * cast.normal.y + mz * cast.normal.z >= 0) continue;
    best = cast.toi;
    stopped = true;
  }
  m[3] = best;
  if (best === 0) return stopped;
  p.x[a] += mx * best;
  p.y[a] += my * best;
  p.z[a] += mz * best;
  return stopped;
}
