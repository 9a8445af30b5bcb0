/**
 * A dynamic sphere's straight move swept against the static bodies only (static boxes, found in the
 * static grid, and static spheres, found in the dynamic grid with every sphere): it moves until its
 * first touch with one that it approaches, and no further but along its surface. Used where the
 * response moves a sphere without predicting it: a push out of a kinematic body (predict.ts,
 * project.ts) and the separation of two merged spheres (project.ts). So no move of the response
 * ever enters or crosses a static body, whatever pushes it (a squeeze against a wall ends
 * overlapping the pusher instead).
 *
 * The move is the motion in `s.move[0..3]` (world frame, length units); the fraction of it made is
 * written to `s.move[3]` (1 when nothing is in the way). A static body the sphere touches or
 * overlaps and does not approach (motion · normal ≥ 0, the normal from the body toward the sphere)
 * does not stop it: it can always leave.
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

/** Slides of one sweep: after a stop, the rest of the move along the surface, at most this many times. */
export const SWEEP_SLIDES = 3;

/**
 * One straight segment of the sweep: moves `a` by `s.move[0..3]` up to its first touch with a static
 * body it approaches; returns the fraction made (1: nothing in the way) and leaves that body's
 * normal in `s.sweepShapes.contact.normal` when it stopped.
 */
function segment(physics: Physics, s: ResponseState, a: number): number {
  const m = s.move;
  const mx = m[0], my = m[1], mz = m[2];
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
  const { sphere, partnerSphere, partnerBox, motion, cast, contact } = s.sweepShapes;
  sphere.center.x = p.x[a];
  sphere.center.y = p.y[a];
  sphere.center.z = p.z[a];
  sphere.radius = r;
  motion.x = mx;
  motion.y = my;
  motion.z = mz;
  let best = 1;
  // Static spheres are items of the dynamic grid (findPairs.ts), with every sphere.
  if (s.staticSpheres !== 0 && s.dynamicGrid!.count !== 0) gridQuerySlice(s.dynamicGrid!, out, q, 0, WHOLE_TICK);
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
    const n = cast.normal;
    if (mx * n.x + my * n.y + mz * n.z >= 0) continue;
    best = cast.toi;
    contact.normal.x = n.x;
    contact.normal.y = n.y;
    contact.normal.z = n.z;
  }
  if (best > 0) {
    p.x[a] += mx * best;
    p.y[a] += my * best;
    p.z[a] += mz * best;
  }
  return best;
}

/**
 * Moves dynamic sphere `a` by `s.move[0..3]`, stopped at its first touch with a static body it
 * approaches, and from there slides the rest of the move along that body's surface (the component
 * into it removed; at most SWEEP_SLIDES times, collide-and-slide as in Fauerby 2003); writes to
 * `s.move[3]` the fraction of the move's length made along its own direction (1 when nothing was in
 * the way, 0 when it could not move at all). Returns whether it was stopped or deflected.
 */
export function sweepStatic(physics: Physics, s: ResponseState, a: number): boolean {
  const m = s.move;
  const mx = m[0], my = m[1], mz = m[2];
  const len2 = mx * mx + my * my + mz * mz;
  m[3] = 1;
  if (len2 === 0) return false;
  const p = physics.components.Position;
  const x0 = p.x[a], y0 = p.y[a], z0 = p.z[a];
  let stopped = false;
  for (let i = 0; i <= SWEEP_SLIDES; i++) {
    const f = segment(physics, s, a);
    if (f === 1) break;
    stopped = true;
    if (i === SWEEP_SLIDES) break;
    const n = s.sweepShapes.contact.normal;
    let rx = m[0] * (1 - f), ry = m[1] * (1 - f), rz = m[2] * (1 - f);
    const rn = rx * n.x + ry * n.y + rz * n.z;
    if (rn < 0) {
      rx -= rn * n.x;
      ry -= rn * n.y;
      rz -= rn * n.z;
    }
    if (rx * mx + ry * my + rz * mz <= 1e-12 * len2) break;
    m[0] = rx;
    m[1] = ry;
    m[2] = rz;
  }
  const along = ((p.x[a] - x0) * mx + (p.y[a] - y0) * my + (p.z[a] - z0) * mz) / len2;
  m[3] = stopped ? (along > 0 ? along : 0) : 1;
  return stopped;
}
