/**
 * Prediction of a dynamic sphere's next impact: from its pose at the current time T (a fraction of
 * the tick), the earliest time its remaining path (velocity × dt × (1 − T)) touches an obstacle or
 * another dynamic sphere approaching it, by the exact casts of src/geometry (castSphereBox,
 * castSphereSphere) with the motion relative to the partner. World frame, length units; the normal
 * points from the partner toward the sphere; the point is on the partner, in the world at impact.
 *
 * Candidates come from the grids the broadphase built this tick (`s.staticGrid`, `s.dynamicGrid`,
 * handed over by `respond`), queried with the bounds of the remaining path: static boxes (exact),
 * kinematic bodies (their items cover the whole tick's swept bounds: exact) and dynamic spheres
 * (their items cover a ball of their start-of-tick speed).
 *
 * Touching (toi 0): a pair whose relative normal velocity is not approaching (≥ −1e-12 × the
 * relative speed; with gravity, less 1e-12 × the rest speed, or REST_TOL × it for two dynamic
 * spheres) is a touch, recorded as a contact and ignored (a sphere against a convex body
 * that does not approach at the touch never enters it along a straight path); an approaching one
 * is an impact now. A pair within the rest skin at the start of the tick whose cast hits later in
 * it approaching slower than 1e-12 × (the relative speed + the rest speed) is a touch too (the
 * rounding of the start-of-tick solve). At T = 0 a sphere
 * overlapping an obstacle is first pushed out along the contact normal by the depth.
 * @module
 */
import { WHOLE_TICK } from '../grid/cells.js';
import { gridQuerySlice, type QueryOut } from '../grid/query.js';
import { castSphereBox } from '../geometry/castSphereBox.js';
import { castSphereSphere } from '../geometry/castSphereSphere.js';
import { contactSphereBox } from '../geometry/contactSphereBox.js';
import { contactSphereSphere } from '../geometry/contactSphereSphere.js';
import type { Vec3 } from '../geometry/types.js';
import { loadBox, SW_MX, SW_R, SW_X, SWEEP_SLOTS, sweptSphereBounds } from '../physics/bodyReads.js';
import { internalsOf } from '../physics/internal.js';
import { BodyFlags, ContactFlags, type Physics } from '../physics/physicsTypes.js';
import { heapPush } from './eventQueue.js';
import { isRecorded, recordContact, RI_DEPTH, RI_NX, RI_PX, RI_TOI } from './contactRecords.js';
import { isDynamic } from './isDynamic.js';
import { addConstraint } from './solver.js';
import { CAPPED, CON_ACC, CON_SLOTS, DYNAMIC, R_CASTS, R_REJECTS, reserveEvents, type ResponseState } from './responseState.js';
import { capBody, listSuspect } from './suspects.js';
import { sweepStatic } from './sweepStatic.js';
import { firstSlice, PATH_SLACK, PATH_SLICES, pathPiece, pathQueryBegin, pathQuerySlice, pathSegment, SEG_DT, SEG_H, SEG_P, SEG_R, SEG_T0, SEG_V } from './pathGrid.js';
import { trackPath } from './paths.js';
import { sweptSpheresApart } from './sweptApart.js';

const { SPHERE, BOX, MOVING, SENSOR } = BodyFlags;

/**
 * A touch approaching slower than this fraction of the relative speed is not an impact; with gravity
 * neither is one approaching slower than this fraction of the rest speed (two ticks of gravity):
 * the rounding of the start-of-tick solve (a ball at the foot of a resting column met the floor at
 * 1e-17 u/s, an impact that used up its budget with `maxIterations: 1`). What it lets into a static
 * box, 1e-12 × 2|g|dt × dt a tick at most, is pushed out at the start of the next tick.
 */
export const APPROACH_EPS = 1e-12;
/**
 * Start-of-tick gap (fraction of the sphere's radius) within which a pair goes to the start-of-tick
 * solve as a resting contact (as well as being cast exactly).
 */
export const REST_SKIN = 1e-4;
/**
 * With gravity, two dynamic spheres touching and approaching slower than this fraction of the rest
 * speed (two ticks of gravity) are a resting touch too (what the start-of-tick solve leaves: at
 * most 2e-4 × g dt² of sinking per tick).
 */
export const REST_TOL = 1e-4;
/** Push-outs per tick of a sphere overlapping obstacles at the start of the tick, then as many again for deep overlaps. */
export const PUSH_OUTS = 3;
/**
 * An overlap deeper than this fraction of the pose's scale (1 + |centre|₁ + radius) is not rounding.
 * Pushing a sphere out of a box can leave an overlap of about 1e-16 of the scale, which the first
 * PUSH_OUTS passes push out again (often without moving the sphere): the next PUSH_OUTS passes push
 * only deeper overlaps, so that a second box the sphere started in is still left.
 */
export const PUSH_EPS = 1e-12;
/**
 * Most predictions of one body in one tick: 2 × maxIterations + 4 (its first, the one after the
 * start-of-tick solve, one per impact, and as many again for predictions found stale because the
 * partner changed). Past it the body is capped (suspects.ts): so the work of one body in a tick is
 * bounded whatever happens around it.
 */
export function predictionCap(physics: Physics): number {
  return 2 * internalsOf(physics).maxIterations + 4;
}

/** Values of `ResponseState.pushing`: which start-of-tick overlaps the current pass pushes out. */
const PUSH_NONE = 0, PUSH_ANY = 1, PUSH_DEEP = 2;

/** Bounds of the path query. */
const q = new Float64Array(6);
/** Input of `sweptSphereBounds` for the path query (slots `SW_*`). */
const SWEEP = new Float64Array(SWEEP_SLOTS);
/** Slots of `ResponseState.best`, the earliest event of the current prediction: time, partner, normal, world point. */
const B_TIME = 0, B_PARTNER = 1, B_N = 2, B_P = 5;
/** Normal of a collected touch. */
const touchN = new Float64Array(3);

/**
 * Loads the partner's shape at the current time into `s.shapes` (partnerSphere or partnerBox), and
 * its velocity into `s.partnerV`.
 */
function loadPartner(physics: Physics, s: ResponseState, x: number): void {
  const { partnerSphere: sphereX, partnerBox: box } = s.shapes;
  const now = s.clock[0];
  const partnerV = s.partnerV;
  const { Position: p, Velocity: v } = physics.components;
  const f = internalsOf(physics).flags[x];
  const st = s.state[x];
  const moving = st === DYNAMIC || (st === 0 && (f & MOVING) !== 0);
  const dt = physics.dt;
  const vx = moving ? v.x[x] : 0, vy = moving ? v.y[x] : 0, vz = moving ? v.z[x] : 0;
  partnerV[0] = vx;
  partnerV[1] = vy;
  partnerV[2] = vz;
  const lag = st === 0 ? now * dt : (now - s.time[x]) * dt;
  const cx = p.x[x] + vx * lag, cy = p.y[x] + vy * lag, cz = p.z[x] + vz * lag;
  if ((f & SPHERE) !== 0) {
    sphereX.center.x = cx;
    sphereX.center.y = cy;
    sphereX.center.z = cz;
    sphereX.radius = physics.components.Sphere.radius[x];
    return;
  }
  loadBox(physics, x, box);
  box.center.x = cx;
  box.center.y = cy;
  box.center.z = cz;
}

/** Queries both grids with the bounds of `a`'s remaining path into `s.path`. */
function queryPath(physics: Physics, s: ResponseState, a: number): void {
  const now = s.clock[0];
  const { Position: p, Velocity: v, Sphere: sp } = physics.components;
  const t = (1 - now) * physics.dt;
  SWEEP[SW_X] = p.x[a];
  SWEEP[SW_X + 1] = p.y[a];
  SWEEP[SW_X + 2] = p.z[a];
  SWEEP[SW_R] = sp.radius[a];
  SWEEP[SW_MX] = v.x[a] * t;
  SWEEP[SW_MX + 1] = v.y[a] * t;
  SWEEP[SW_MX + 2] = v.z[a] * t;
  sweptSphereBounds(SWEEP, q);
  const out = s.path;
  out.count = 0;
  gridQuerySlice(s.staticGrid!, out, q, 0, WHOLE_TICK);
  const dynamicGrid = s.dynamicGrid!;
  if (dynamicGrid.count === 0) return;
  if (s.paths.active) {
    // The remaining paths instead of the tick's reach (pathGrid.ts), unless the order of the
    // candidates may matter (time 0).
    const start = out.count;
    queryPathPieces(physics, s, a, out);
    if (now !== 0 || !orderMatters(physics, s, a, out, start)) return;
    out.count = start;
  }
  gridQuerySlice(dynamicGrid, out, q, 0, WHOLE_TICK);
}

/** Bounds of one time slice's piece of the path query (per-call scratch). */
const piece = new Float64Array(6);

/**
 * Appends `a`'s candidates from the path grid: its remaining path (from its pose at the current
 * time) looked up piece by piece in the time slices it spans, each piece grown by its radius and
 * PATH_SLACK of the magnitudes, and at time 0 by the rest skin (`withinSkin`); the dynamic grid's
 * items are matched against the whole path's bounds `q`.
 */
function queryPathPieces(physics: Physics, s: ResponseState, a: number, out: QueryOut): void {
  const g = s.paths;
  const st = pathQueryBegin(g, out);
  const now = s.clock[0];
  const { Position: p, Velocity: v } = physics.components;
  const seg = g.segment;
  seg[SEG_P] = p.x[a];
  seg[SEG_P + 1] = p.y[a];
  seg[SEG_P + 2] = p.z[a];
  seg[SEG_V] = v.x[a];
  seg[SEG_V + 1] = v.y[a];
  seg[SEG_V + 2] = v.z[a];
  const r = physics.components.Sphere.radius[a];
  seg[SEG_R] = r;
  seg[SEG_T0] = now;
  seg[SEG_DT] = physics.dt;
  pathSegment(seg);
  // At the start of the tick a pair within the rest skin touches (withinSkin) though their paths
  // need not meet: the pieces are grown by the skin too (two balls 8.3e-7 apart, resting side by
  // side, missed each other in the path grid and the solve summed its impulses otherwise).
  if (now === 0) seg[SEG_H] += REST_SKIN * r + PUSH_EPS * (1 + Math.abs(p.x[a]) + Math.abs(p.y[a]) + Math.abs(p.z[a]) + r);
  for (let w = firstSlice(now); w < PATH_SLICES; w++) {
    pathPiece(seg, w, piece);
    pathQuerySlice(g, piece, q, w, st, out);
  }
}

/**
 * Whether the order of the candidates `out.ids[start ..]` of `a`'s prediction at time 0 may change
 * its result (see the module notes): one of them is not moved by the response (kinematic, sleeping,
 * a moving box), or two spheres are within reach of a touch at the start (closer than the radii sum
 * plus the rest skin plus PATH_SLACK of the magnitudes).
 */
function orderMatters(physics: Physics, s: ResponseState, a: number, out: QueryOut, start: number): boolean {
  const p = physics.components.Position, r = physics.components.Sphere.radius;
  const flags = internalsOf(physics).flags;
  const ax = p.x[a], ay = p.y[a], az = p.z[a], ra = r[a];
  let near = 0;
  for (let k = start; k < out.count; k++) {
    const x = out.ids[k];
    if (x === a) continue;
    const st = s.state[x];
    if ((st !== DYNAMIC && st !== CAPPED) || (flags[x] & SPHERE) === 0) return true;
    const dx = ax - p.x[x], dy = ay - p.y[x], dz = az - p.z[x];
    const R = ra + r[x];
    const reach = R + REST_SKIN * ra + PATH_SLACK * (1 + Math.abs(ax) + Math.abs(ay) + Math.abs(az) + Math.abs(p.x[x]) + Math.abs(p.y[x]) + Math.abs(p.z[x]) + R);
    if (!(dx * dx + dy * dy + dz * dz > reach * reach) && ++near >= 2) return true;
  }
  return false;
}

/** Whether `a` and `x` may touch: shapes, filters. */
function mayTouch(physics: Physics, a: number, x: number): boolean {
  if (x === a || (internalsOf(physics).flags[x] & (SPHERE | BOX)) === 0) return false;
  const { group, mask } = physics.components.CollisionFilter;
  return (group[a] & mask[x]) !== 0 && (group[x] & mask[a]) !== 0;
}

/** Pushes `a` out of obstacle `x` (overlapping at the start of the tick) by the contact depth; records it. */
function pushOut(physics: Physics, s: ResponseState, a: number, x: number, flags: number): boolean {
  const { sphere: sphereA, partnerSphere: sphereX, partnerBox: box, contact } = s.shapes;
  const xSphere = (internalsOf(physics).flags[x] & SPHERE) !== 0;
  const hit = xSphere ? contactSphereSphere(sphereA, sphereX, contact) : contactSphereBox(sphereA, box, contact);
  if (!hit) return false;
  const d = contact.depth;
  const c = sphereA.center;
  if (s.pushing === PUSH_DEEP && !(d > PUSH_EPS * (1 + Math.abs(c.x) + Math.abs(c.y) + Math.abs(c.z) + sphereA.radius))) return false;
  const n = contact.normal;
  const rec = s.recIn;
  rec[RI_NX] = n.x;
  rec[RI_NX + 1] = n.y;
  rec[RI_NX + 2] = n.z;
  rec[RI_DEPTH] = d;
  rec[RI_PX] = contact.point.x;
  rec[RI_PX + 1] = contact.point.y;
  rec[RI_PX + 2] = contact.point.z;
  rec[RI_TOI] = 0;
  recordContact(s, a, x, xSphere, flags);
  if (!(d > 0) || (flags & ContactFlags.SENSOR) !== 0) return false;
  const p = physics.components.Position;
  if ((internalsOf(physics).flags[x] & MOVING) === 0) {
    p.x[a] += n.x * d;
    p.y[a] += n.y * d;
    p.z[a] += n.z * d;
    return true;
  }
  // Out of a kinematic body: swept against the static ones, never into them (squeezed: it stays in
  // the kinematic body, and the end-of-tick projection checks it again). Out of one at rest or moving
  // away from it (w·n ≤ 0), it is checked too: the body does not push it in the tick, and it may now
  // overlap the sphere next to it (a row the body squeezed against a wall, then stopped or turned
  // back: the projection's yield left it in the body).
  const m = s.move;
  m[0] = n.x * d;
  m[1] = n.y * d;
  m[2] = n.z * d;
  const w = physics.components.Velocity;
  if (sweepStatic(physics, s, a) || !(w.x[x] * n.x + w.y[x] * n.y + w.z[x] * n.z > 0)) listSuspect(s, a);
  return m[3] > 0;
}

/**
 * Whether the gap toi × |motion| of the current cast (`s.shapes`: the distance to its first touch at the start of the tick) is within
 * the rest skin: REST_SKIN × the radius, plus PUSH_EPS × the pose's scale (1 + |centre|₁ + radius),
 * the rounding of coordinates far from the origin. A pair that close at the start of the tick is
 * touching: it is a contact of the tick and a resting contact of the start-of-tick solve.
 */
function withinSkin(s: ResponseState): boolean {
  // Reads the cast's toi from the scratch, not as an argument (a double argument is boxed: docs/internals.md).
  const { sphere, motion, cast } = s.shapes;
  const u = cast.toi;
  const c = sphere.center, r = sphere.radius;
  const skin = REST_SKIN * r + PUSH_EPS * (1 + Math.abs(c.x) + Math.abs(c.y) + Math.abs(c.z) + r);
  return u * u * (motion.x * motion.x + motion.y * motion.y + motion.z * motion.z) <= skin * skin;
}

/**
 * Adds `a` and `x` (loaded in `s.shapes`) to the start-of-tick solve when they are within the rest
 * skin of each other although the cast does not hit (their relative motion does not approach: two
 * balls falling together, one on the other, or parting): the solve may change their velocities so
 * that they approach (it stops the lower ball on the floor), and then holds them as it holds the
 * others (target 0: a pair that did not approach does not bounce), instead of leaving the approach
 * to impacts at time 0, which used up the budget of resting piles (test/response/jammed.test.ts).
 * Not a contact of the tick (it does not approach). Test: the sphere grown by the skin touches the
 * partner (the static contact tests, Ericson 5.1.3 and 5.2.5 for the box), after a bounding-cube
 * test.
 */
function collectNear(s: ResponseState, a: number, x: number, xSphere: boolean): void {
  const { sphere, partnerSphere, partnerBox: box, contact } = s.shapes;
  const c = sphere.center, r = sphere.radius;
  const skin = REST_SKIN * r + PUSH_EPS * (1 + Math.abs(c.x) + Math.abs(c.y) + Math.abs(c.z) + r);
  // Most candidates are far: first a cube about the partner (half side its radius, or |h|₁ for a box,
  // which bounds its rotated corners), its six comparisons as one branch (docs/internals.md, rule 6).
  const h = box.halfExtents, o = xSphere ? partnerSphere.center : box.center;
  const reach = (xSphere ? partnerSphere.radius : h.x + h.y + h.z) + r + skin;
  const dx = c.x - o.x, dy = c.y - o.y, dz = c.z - o.z;
  if (((+(dx > reach) | +(dx < -reach)) | (+(dy > reach) | +(dy < -reach)) | (+(dz > reach) | +(dz < -reach))) !== 0) return;
  sphere.radius = r + skin;
  const near = xSphere ? contactSphereSphere(sphere, partnerSphere, contact) : contactSphereBox(sphere, box, contact);
  sphere.radius = r;
  if (!near) return;
  touchN[0] = contact.normal.x;
  touchN[1] = contact.normal.y;
  touchN[2] = contact.normal.z;
  addConstraint(s, a, x, touchN);
  s.conNear[s.conCount - 1] = 1;
}

/**
 * After the start-of-tick solve (resolve.ts): records the pairs added by `collectNear` that the solve
 * held (accumulated normal impulse > 0) as touching, contacts of the tick at time 0 with depth 0 (the
 * normal and point of the static contact test, as `collectNear` found them): a ball resting on
 * another one that fell with it is in contact (docs/response.md, "Resting contact").
 */
export function recordNearHeld(physics: Physics, s: ResponseState): void {
  const { sphere, partnerSphere, partnerBox, contact } = s.shapes;
  const p = physics.components.Position;
  const radius = physics.components.Sphere.radius;
  const flags = internalsOf(physics).flags;
  const rec = s.recIn;
  for (let c = 0; c < s.conCount; c++) {
    if (s.conNear[c] === 0 || !(s.conF[CON_SLOTS * c + CON_ACC] > 0)) continue;
    const a = s.conA[c], x = s.conB[c];
    const xSphere = (flags[x] & SPHERE) !== 0;
    const cx = p.x[a], cy = p.y[a], cz = p.z[a], r = radius[a];
    sphere.center.x = cx;
    sphere.center.y = cy;
    sphere.center.z = cz;
    sphere.radius = r + REST_SKIN * r + PUSH_EPS * (1 + Math.abs(cx) + Math.abs(cy) + Math.abs(cz) + r);
    loadPartner(physics, s, x);
    if (!(xSphere ? contactSphereSphere(sphere, partnerSphere, contact) : contactSphereBox(sphere, partnerBox, contact))) continue;
    loadTouch(rec, contact);
    rec[RI_TOI] = 0;
    recordContact(s, a, x, xSphere, 0);
  }
}

/** Writes a touch (depth 0) with the normal and point of `from` (a cast or a contact) into record `rec`; the caller writes its toi. */
function loadTouch(rec: Float64Array, from: { normal: Vec3; point: Vec3 }): void {
  rec[RI_NX] = from.normal.x;
  rec[RI_NX + 1] = from.normal.y;
  rec[RI_NX + 2] = from.normal.z;
  rec[RI_DEPTH] = 0;
  rec[RI_PX] = from.point.x;
  rec[RI_PX + 1] = from.point.y;
  rec[RI_PX + 2] = from.point.z;
}

/** Records a touch of `a` and `x` at the current time from `cast` (toi 0). */
function recordTouch(s: ResponseState, a: number, x: number, xSphere: boolean, flags: number): void {
  const rec = s.recIn;
  loadTouch(rec, s.shapes.cast);
  rec[RI_TOI] = s.clock[0];
  recordContact(s, a, x, xSphere, flags);
}

/**
 * Casts `a` (at its pose at the current time) against candidate `x`; keeps the earliest impact in
 * `s.best`. Returns true when `a` was pushed out of an overlap (the caller predicts again).
 */
function castPartner(physics: Physics, s: ResponseState, a: number, x: number): boolean {
  const { sphere: sphereA, partnerSphere: sphereX, partnerBox: box, motion, cast } = s.shapes;
  const now = s.clock[0];
  const flags = internalsOf(physics).flags;
  const sensor = ((flags[a] | flags[x]) & SENSOR) !== 0 ? ContactFlags.SENSOR : 0;
  const xSphere = (flags[x] & SPHERE) !== 0;
  if (sensor !== 0 && isRecorded(s, a, x, xSphere)) return false;
  loadPartner(physics, s, x);
  const partnerV = s.partnerV;
  const v = physics.components.Velocity;
  const rx = v.x[a] - partnerV[0], ry = v.y[a] - partnerV[1], rz = v.z[a] - partnerV[2];
  const t = (1 - now) * physics.dt;
  motion.x = rx * t;
  motion.y = ry * t;
  motion.z = rz * t;
  // Paths that stay clear of each other: the cast would miss (sweptApart.ts), so it is skipped.
  if (xSphere && sweptSpheresApart(sphereA, motion, sphereX)) {
    s.work[R_REJECTS]++;
    // As for a cast that misses (below): the rest-skin pairs of the start-of-tick solve.
    if (now === 0 && s.collect === 1 && sensor === 0 && (s.state[x] !== DYNAMIC || a < x)) collectNear(s, a, x, xSphere);
    return false;
  }
  s.work[R_CASTS]++;
  const hit = xSphere ? castSphereSphere(sphereA, motion, sphereX, cast) : castSphereBox(sphereA, motion, box, cast);
  if (!hit) {
    if (now === 0 && s.collect === 1 && sensor === 0 && (s.state[x] !== DYNAMIC || a < x)) collectNear(s, a, x, xSphere);
    return false;
  }
  const u = cast.toi;
  if (u === 0) {
    // Not out of a sleeping dynamic sphere (response/sleep.ts): dynamic pairs are never pushed apart.
    if (now === 0 && s.pushing !== PUSH_NONE && s.state[x] === 0 && !isDynamic(flags[x]) && sensor === 0 && pushOut(physics, s, a, x, sensor)) return true;
    const n = cast.normal;
    const vn = rx * n.x + ry * n.y + rz * n.z;
    if (now === 0 && s.collect === 1 && sensor === 0 && (s.state[x] !== DYNAMIC || a < x)) {
      touchN[0] = n.x;
      touchN[1] = n.y;
      touchN[2] = n.z;
      addConstraint(s, a, x, touchN);
    }
    if (sensor !== 0 || vn >= -(APPROACH_EPS * Math.sqrt(rx * rx + ry * ry + rz * rz) + (s.state[x] !== 0 ? REST_TOL : APPROACH_EPS) * s.rest[0])) {
      recordTouch(s, a, x, xSphere, sensor);
      return false;
    }
  }
  if (u > 0 && now === 0 && s.collect === 1 && sensor === 0 && (s.state[x] !== DYNAMIC || a < x) && withinSkin(s)) {
    // Within the rest skin at the start of the tick: a resting contact for the solve as well, and
    // touching (a contact of this tick whatever the solve then does to the velocity).
    touchN[0] = cast.normal.x;
    touchN[1] = cast.normal.y;
    touchN[2] = cast.normal.z;
    addConstraint(s, a, x, touchN);
    recordTouch(s, a, x, xSphere, 0);
  }
  if (u > 0 && now === 0 && sensor === 0 && withinSkin(s)) {
    // Within the rest skin at the start of the tick and approaching at the rounding of the
    // start-of-tick solve (APPROACH_EPS of the relative speed plus the rest speed, for every partner:
    // the REST_TOL of dynamic pairs at toi 0 here let resting piles sink and settle later): a
    // touch, not an impact later in the tick.
    const n = cast.normal;
    const vn = rx * n.x + ry * n.y + rz * n.z;
    if (vn >= -APPROACH_EPS * (Math.sqrt(rx * rx + ry * ry + rz * rz) + s.rest[0])) {
      recordTouch(s, a, x, xSphere, 0);
      return false;
    }
  }
  const te = u === 0 ? now : now + u * (1 - now);
  const best = s.best;
  if (te > best[B_TIME] || (te === best[B_TIME] && x > best[B_PARTNER])) return false;
  const lag = u * t;
  best[B_TIME] = te;
  best[B_PARTNER] = x;
  best[B_N] = cast.normal.x;
  best[B_N + 1] = cast.normal.y;
  best[B_N + 2] = cast.normal.z;
  best[B_P] = cast.point.x + partnerV[0] * lag;
  best[B_P + 1] = cast.point.y + partnerV[1] * lag;
  best[B_P + 2] = cast.point.z + partnerV[2] * lag;
  return false;
}

/** One pass over `a`'s candidates; returns true when `a` was pushed out (predict again). */
function scan(physics: Physics, s: ResponseState, a: number): boolean {
  const sphereA = s.shapes.sphere;
  const p = physics.components.Position;
  queryPath(physics, s, a);
  sphereA.center.x = p.x[a];
  sphereA.center.y = p.y[a];
  sphereA.center.z = p.z[a];
  sphereA.radius = physics.components.Sphere.radius[a];
  s.best[B_TIME] = 2;
  s.best[B_PARTNER] = 0;
  s.conCount = s.conStart;
  const query = s.path;
  const n = query.count;
  for (let k = 0; k < n; k++) {
    const x = query.ids[k];
    if (mayTouch(physics, a, x) && castPartner(physics, s, a, x)) return true;
  }
  return false;
}

/** Appends the event in `s.best` for owner `a`. */
function pushBest(s: ResponseState, a: number): void {
  reserveEvents(s, 1);
  const best = s.best;
  const e = s.evCount++;
  const x = best[B_PARTNER];
  s.evTime[e] = best[B_TIME];
  s.evA[e] = a;
  s.evB[e] = x;
  s.evVa[e] = s.version[a];
  s.evVb[e] = s.version[x];
  for (let k = 0; k < 3; k++) {
    s.evN[3 * e + k] = best[B_N + k];
    s.evP[3 * e + k] = best[B_P + k];
  }
  heapPush(s, e);
}

/**
 * Predicts the next impact of dynamic body `a`, whose Position is its pose at the current time
 * `s.clock[0]` (its local time), and queues it; records the touches found on the way.
 */
export function predict(physics: Physics, s: ResponseState, a: number): void {
  if (++s.predictions[a] > s.predictCap) {
    capBody(s, a);
    trackPath(physics, s, a);
    return;
  }
  s.conStart = s.conCount;
  // Push-outs (overlaps at the start of the tick): PUSH_OUTS of any depth, PUSH_OUTS more of deep
  // overlaps only; then predict from where it is.
  let pass = 0;
  for (; ; pass++) {
    s.pushing = pass < PUSH_OUTS ? PUSH_ANY : pass < 2 * PUSH_OUTS ? PUSH_DEEP : PUSH_NONE;
    if (!scan(physics, s, a)) break;
  }
  if (pass !== 0) trackPath(physics, s, a);
  if (s.best[B_TIME] <= 1) pushBest(s, a);
}
