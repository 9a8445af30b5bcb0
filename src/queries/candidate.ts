/**
 * The candidates of the cast queries: each body a grid walk brings (src/queries/sweep.ts,
 * sweepDense.ts) is examined once per query (per-entity stamps), then the filter, then the exact
 * cast of the query's sphere (radius 0 for a ray) from the query state's `args` (read by
 * queryArgs.ts) with the geometry API (`castSphereSphere`, `castSphereBox`), keeping the closest hit
 * (the state's `best`, `bestEntity`) or every hit (its `hits`). Distances are `toi · maxDistance`
 * along the unit direction, in length units; equal distances go to the lower entity id. World
 * frame. No allocation (typed scratch, grown by doubling).
 * @module
 */
import * as castBox from '../geometry/castSphereBox.js';
import * as castBall from '../geometry/castSphereSphere.js';
import * as endCheck from '../geometry/kernels/endCheck.js';
import * as entryTime from '../geometry/kernels/entryTime.js';
import * as scalar from '../geometry/kernels/scalar.js';
import * as growModule from '../math/grow.js';
import * as bodies from '../physics/bodyReads.js';
import * as internals from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import * as queryGridModule from './queryGrid.js';
import * as slots from './queryState.js';
import type { QueryState } from './queryState.js';

const { SPHERE, BOX, SENSOR } = BodyFlags;
const { BIG, PERP_EPS, SMALL } = entryTime.ENTRY_LIMITS;
const { SQ_MAX, SQ_MIN } = scalar.SQ_LIMITS;
const { END_CHECK } = endCheck;
// Imported bindings read once into module constants: see docs/internals.md (imports on hot paths).
const { castSphereBox } = castBox;
const { castSphereSphere } = castBall;
const { growArray } = growModule;
const { loadBox } = bodies;
const { internalsOf } = internals;
const { nextStamp } = queryGridModule;
const { BH_DIST, BH_N, BH_P, loadVec3, QF_EXCLUDE, QF_GROUP, QF_MASK, QF_SENSORS, QI_D, QI_DIST, QI_O, QI_RADIUS } = slots;

/** Whether `eid` (body flags `f`) passes the query's filter `q` (`QF_*` slots: group/mask, exclusion, sensors). */
export function passesFilter(physics: Physics, q: Float64Array, eid: number, f: number): boolean {
  if ((f & (SPHERE | BOX)) === 0) return false;
  if (eid + 1 === q[QF_EXCLUDE]) return false;
  if ((f & SENSOR) !== 0 && q[QF_SENSORS] === 0) return false;
  const filter = physics.components.CollisionFilter;
  return (q[QF_GROUP] & filter.mask[eid]) !== 0 && (filter.group[eid] & q[QF_MASK]) !== 0;
}

/** Starts a cast query on `physics` with its query state `s`: every hit (`every`) or the closest. */
export function beginCandidates(physics: Physics, s: QueryState, every: boolean): void {
  s.flags = internalsOf(physics).flags;
  s.every = every;
  nextStamp(s);
  s.hits.count = 0;
  s.best[BH_DIST] = Infinity;
  s.bestEntity[0] = 0;
  const q = s.args;
  const ray = s.ray;
  loadVec3(ray.center, q, QI_O);
  ray.radius = q[QI_RADIUS];
  const L = q[QI_DIST];
  s.motion.x = q[QI_D] * L;
  s.motion.y = q[QI_D + 1] * L;
  s.motion.z = q[QI_D + 2] * L;
}

/** Loads body `eid` into `s.sphere` or `s.box` and casts the query's sphere (`s.ray`, `s.motion`) against it into `s.cast`. */
function castBody(physics: Physics, s: QueryState, eid: number, f: number): boolean {
  const p = physics.components.Position;
  if ((f & SPHERE) !== 0) {
    const b = s.sphere;
    b.center.x = p.x[eid];
    b.center.y = p.y[eid];
    b.center.z = p.z[eid];
    b.radius = physics.components.Sphere.radius[eid];
    return castSphereSphere(s.ray, s.motion, b, s.cast);
  }
  loadBox(physics, eid, s.box);
  return castSphereBox(s.ray, s.motion, s.box, s.cast);
}

/** Appends the hit in `s.cast` on body `eid` to `s.hits` (its distance from the toi: no double passed). */
function pushHit(s: QueryState, eid: number): void {
  const h = s.hits;
  if (h.count === h.entity.length) {
    const n = h.entity.length * 2;
    h.entity = growArray(h.entity, n);
    h.data = growArray(h.data, 7 * n);
    h.order = new Int32Array(n);
  }
  const k = h.count++;
  const c = s.cast;
  h.entity[k] = eid;
  const o = 7 * k;
  h.data[o] = c.toi * s.args[QI_DIST];
  h.data[o + 1] = c.normal.x;
  h.data[o + 2] = c.normal.y;
  h.data[o + 3] = c.normal.z;
  h.data[o + 4] = c.point.x;
  h.data[o + 5] = c.point.y;
  h.data[o + 6] = c.point.z;
}

/** Keeps the hit in `s.cast` on body `eid` if it is the closest so far (ties: the lower id). */
function keepClosest(s: QueryState, eid: number): void {
  const c = s.cast;
  const best = s.best;
  const d = c.toi * s.args[QI_DIST];
  if (d > best[BH_DIST] || (d === best[BH_DIST] && eid > s.bestEntity[0])) return;
  s.bestEntity[0] = eid;
  best[BH_DIST] = d;
  best[BH_N] = c.normal.x;
  best[BH_N + 1] = c.normal.y;
  best[BH_N + 2] = c.normal.z;
  best[BH_P] = c.point.x;
  best[BH_P + 1] = c.point.y;
  best[BH_P + 2] = c.point.z;
}

/**
 * Examines body `eid` of `physics` (a grid walk found its bounds on the path of the cast in `s`,
 * started by {@link beginCandidates}): once per query, if it passes the filter, casts against it
 * and records a hit.
 */
export function testCandidate(physics: Physics, s: QueryState, eid: number): void {
  const stamp = s.stampValue;
  if (s.stamp[eid] === stamp) return;
  s.stamp[eid] = stamp;
  const f = s.flags[eid];
  if (!passesFilter(physics, s.filter, eid, f) || !castBody(physics, s, eid, f)) return;
  if (s.every) pushHit(s, eid);
  else keepClosest(s, eid);
}

/** Results of the ray batch's exact casts: no hit, a hit (in `s.cast`: toi and normal), or not decided here. */
const MISS = 0, HIT = 1, SLOW = 2;
/** Squared quaternion lengths below this take bodyReads.ts `boxRotation`'s scaled path (its SQUARED_MIN). */
const QUAT_SQUARED_MIN = 2 ** -600;

/**
 * `castSphereSphere` (src/geometry) of the ray in `s` (radius 0 from `args[QI_O]`, motion `s.motion`)
 * against sphere `eid`, for ordinary magnitudes: the same operations in the same order — the start
 * test (`withinDistance`), the entry time (entryTime.ts `enterRound`, Ray Tracing Gems ch. 7 roots),
 * the end-pose check, the normal (`normalize3`) — so the same toi and normal to the bit. SLOW where
 * those kernels would take a path not copied here: a radius or a difference outside [1e-60, 1e60]
 * (their rescaling), a start touching or inside, an entry at or after END_CHECK with the end pose
 * touching, a squared length outside (SQ_MIN, SQ_MAX). Writes `s.cast.toi` and `s.cast.normal` on a hit.
 */
function raySphere(physics: Physics, s: QueryState, eid: number): number {
  const args = s.args;
  const p = physics.components.Position;
  const ox = args[QI_O], oy = args[QI_O + 1], oz = args[QI_O + 2];
  const cx = p.x[eid], cy = p.y[eid], cz = p.z[eid];
  const qx = ox - cx, qy = oy - cy, qz = oz - cz;
  const r = 0 + physics.components.Sphere.radius[eid];
  // The motion as beginCandidates writes it: direction · max distance.
  const L = args[QI_DIST];
  const mx = args[QI_D] * L, my = args[QI_D + 1] * L, mz = args[QI_D + 2] * L;
  // No rescaling in enterRound (its largest magnitude within [SMALL, BIG]); no NaN or infinity.
  if (!(r >= SMALL && r <= BIG && Math.abs(qx) <= BIG && Math.abs(qy) <= BIG && Math.abs(qz) <= BIG && Math.abs(mx) <= BIG && Math.abs(my) <= BIG && Math.abs(mz) <= BIG)) return SLOW;
  // withinDistance at the start: in range, since |q| <= BIG and r >= SMALL.
  const qq = qx * qx + qy * qy + qz * qz;
  const rr = r * r;
  if (qq <= rr) return SLOW;
  // enterRound(3).
  const a = mx * mx + my * my + mz * mz;
  const b = qx * mx + qy * my + qz * mz;
  const c = qq - rr;
  let t: number;
  if (c <= 0) t = 0;
  else if (b >= 0 || a === 0) t = Infinity;
  else if (b * b + a * c < a * rr) {
    const disc = b * b - a * c;
    t = disc < 0 ? Infinity : c / (-b + Math.sqrt(disc));
  } else {
    const k = b / a;
    const px = qx - k * mx;
    const py = qy - k * my;
    const pz = qz - k * mz;
    const perp2 = px * px + py * py + pz * pz;
    if (perp2 <= rr) t = c / (-b + Math.sqrt(a * (rr - perp2)));
    else {
      const slack = r + PERP_EPS * Math.sqrt(qq);
      t = perp2 > slack * slack ? Infinity : -b / a;
    }
  }
  if (!(t < END_CHECK)) {
    // The end pose decides (withinDistance of a + m − b): a miss unless it touches.
    const ex = ox + mx - cx, ey = oy + my - cy, ez = oz + mz - cz;
    const e2 = ex * ex + ey * ey + ez * ez;
    if (!(e2 < SQ_MAX)) return SLOW;
    return e2 <= rr ? SLOW : MISS;
  }
  // writeSphereSphereContact: the normal from b's centre to the ray's point at t (normalize3).
  const vx = qx + t * mx, vy = qy + t * my, vz = qz + t * mz;
  const v2 = vx * vx + vy * vy + vz * vz;
  if (!(v2 > SQ_MIN && v2 < SQ_MAX)) return SLOW;
  const d = Math.sqrt(v2);
  const out = s.cast, n = out.normal;
  out.toi = t;
  n.x = vx / d;
  n.y = vy / d;
  n.z = vz / d;
  return HIT;
}

/**
 * `castSphereBox` (src/geometry) of the ray in `s` against box `eid` as `loadBox` gives it (pose,
 * half extents, rotation normalised by `boxRotation`), copied for radius 0: the box-frame start
 * (`loadSphereBox`, `loadMotion`: `rotateK` by the conjugate), the start test (`withinBoxLocal`),
 * the slab clip (Kay & Kajiya; castSphereBoxLocal.ts `clipSlab`, in its order and with its short
 * cut), a face entry (a ray's clamped entry point is never outside a face: `writeFaceHit`), the
 * normal back to the world (`rotateK`), operation for operation: the same toi and normal to the
 * bit. SLOW where castSphereBoxLocal would take another path (a start inside or touching, an entry
 * with no entering axis, at or after END_CHECK, or a clip that fails with the end point on the box),
 * for a quaternion that boxRotation scales, and for any non-finite loaded number.
 */
function rayBox(physics: Physics, s: QueryState, eid: number): number {
  const args = s.args;
  const p = physics.components.Position, B = physics.components.Box;
  // boxRotation: unit as stored, or divided by its length.
  let rx = B.qx[eid], ry = B.qy[eid], rz = B.qz[eid], rw = B.qw[eid];
  const n2 = rx * rx + ry * ry + rz * rz + rw * rw;
  if (n2 !== 1) {
    if (!(n2 >= QUAT_SQUARED_MIN && n2 !== Infinity)) return SLOW;
    const inv = 1 / Math.sqrt(n2);
    rx *= inv;
    ry *= inv;
    rz *= inv;
    rw *= inv;
  }
  const rotated = !(rx === 0 && ry === 0 && rz === 0);
  // loadSphereBox and loadMotion: the start relative to the box and the motion, by the conjugate.
  let kx = args[QI_O] - p.x[eid], ky = args[QI_O + 1] - p.y[eid], kz = args[QI_O + 2] - p.z[eid];
  const L = args[QI_DIST];
  let mx = args[QI_D] * L, my = args[QI_D + 1] * L, mz = args[QI_D + 2] * L;
  const hx = B.hx[eid], hy = B.hy[eid], hz = B.hz[eid];
  const r = 0 + (rw - rw);
  if (rotated) {
    const ux = -1 * rx, uy = -1 * ry, uz = -1 * rz;
    let tx = 2 * (uy * kz - uz * ky), ty = 2 * (uz * kx - ux * kz), tz = 2 * (ux * ky - uy * kx);
    const cx = kx + rw * tx + (uy * tz - uz * ty), cy = ky + rw * ty + (uz * tx - ux * tz), cz = kz + rw * tz + (ux * ty - uy * tx);
    kx = cx;
    ky = cy;
    kz = cz;
    tx = 2 * (uy * mz - uz * my);
    ty = 2 * (uz * mx - ux * mz);
    tz = 2 * (ux * my - uy * mx);
    const vx = mx + rw * tx + (uy * tz - uz * ty), vy = my + rw * ty + (uz * tx - ux * tz), vz = mz + rw * tz + (ux * ty - uy * tx);
    mx = vx;
    my = vy;
    mz = vz;
  }
  // loadedFinite, up front: every loaded number finite (the copied paths below assume it).
  if (kx - kx + (ky - ky) + (kz - kz) + (mx - mx + (my - my) + (mz - mz)) + (hx - hx + (hy - hy) + (hz - hz + (r - r))) !== 0) return SLOW;
  // withinBoxLocal(K_CENTER) with radius 0: decided here only when the squared distance is in range.
  const wx = kx < -hx ? kx + hx : kx > hx ? kx - hx : (kx - kx) * hx;
  const wy = ky < -hy ? ky + hy : ky > hy ? ky - hy : (ky - ky) * hy;
  const wz = kz < -hz ? kz + hz : kz > hz ? kz - hz : (kz - kz) * hz;
  const w2 = wx * wx + wy * wy + wz * wz;
  if (!(w2 > SQ_MIN && w2 < SQ_MAX)) return SLOW;
  // clipSlab on x, y, z (stopping at the first that fails), e = h + radius.
  let t0 = 0, t1 = 1, axis = -1;
  let entered = true;
  const ex = hx + r, ey = hy + r, ez = hz + r;
  if (mx === 0) entered = kx >= -ex && kx <= ex;
  else {
    let ta = (-ex - kx) / mx, tb = (ex - kx) / mx;
    if (ta > tb) {
      const u = ta;
      ta = tb;
      tb = u;
    }
    if (ta > t0) {
      t0 = ta;
      axis = 0;
    }
    if (tb < t1) t1 = tb;
    entered = t0 <= t1;
  }
  if (entered) {
    if (my === 0) entered = ky >= -ey && ky <= ey;
    else {
      let ta = (-ey - ky) / my, tb = (ey - ky) / my;
      if (ta > tb) {
        const u = ta;
        ta = tb;
        tb = u;
      }
      if (ta > t0) {
        t0 = ta;
        axis = 1;
      }
      if (tb < t1) t1 = tb;
      entered = t0 <= t1;
    }
  }
  if (entered) {
    if (mz === 0) entered = kz >= -ez && kz <= ez;
    else {
      let ta = (-ez - kz) / mz, tb = (ez - kz) / mz;
      if (ta > tb) {
        const u = ta;
        ta = tb;
        tb = u;
      }
      if (ta > t0) {
        t0 = ta;
        axis = 2;
      }
      if (tb < t1) t1 = tb;
      entered = t0 <= t1;
    }
  }
  if (!entered) {
    // endPoint: the end point beyond a face by more than the radius is a miss; else the slow path.
    const px = kx + mx, py = ky + my, pz = kz + mz;
    if (px - hx > r || -px - hx > r || py - hy > r || -py - hy > r || pz - hz > r || -pz - hz > r) return MISS;
    return SLOW;
  }
  // The entry point, clamped to the slabs, is within every face (radius 0): a face hit on `axis`.
  if (axis < 0 || !(t0 < END_CHECK)) return SLOW;
  const sign = (axis === 0 ? mx : axis === 1 ? my : mz) < 0 ? 1 : -1;
  let nx = axis === 0 ? sign : 0, ny = axis === 1 ? sign : 0, nz = axis === 2 ? sign : 0;
  if (rotated) {
    // writeWorldNormalPoint: rotateK by q (sense +1).
    const ux = 1 * rx, uy = 1 * ry, uz = 1 * rz;
    const tx = 2 * (uy * nz - uz * ny), ty = 2 * (uz * nx - ux * nz), tz = 2 * (ux * ny - uy * nx);
    const vx = nx + rw * tx + (uy * tz - uz * ty), vy = ny + rw * ty + (uz * tx - ux * tz), vz = nz + rw * tz + (ux * ty - uy * tx);
    nx = vx;
    ny = vy;
    nz = vz;
  }
  const out = s.cast, n = out.normal;
  out.toi = t0;
  n.x = nx;
  n.y = ny;
  n.z = nz;
  return HIT;
}

/**
 * {@link testCandidate} for the ray batch (batchRays.ts; the query in `s` a ray, closest hit, its
 * origin, unit direction and length in `s.args`, `s.ray.radius` 0): the stamp and the filter as there, then the exact cast by {@link raySphere} / {@link rayBox} where
 * they decide, else by the geometry API (`castBody`); the same answer to the bit (their notes).
 */
export function testRayCandidate(physics: Physics, s: QueryState, eid: number): void {
  const stamp = s.stampValue;
  if (s.stamp[eid] === stamp) return;
  s.stamp[eid] = stamp;
  const f = s.flags[eid];
  if (!passesFilter(physics, s.filter, eid, f)) return;
  const how = (f & SPHERE) !== 0 ? raySphere(physics, s, eid) : rayBox(physics, s, eid);
  if (how === MISS) return;
  if (how === SLOW) {
    // The geometry API's cast reads the ray from the scratch shapes (beginCandidates' loads).
    const q = s.args, L = q[QI_DIST];
    loadVec3(s.ray.center, q, QI_O);
    s.motion.x = q[QI_D] * L;
    s.motion.y = q[QI_D + 1] * L;
    s.motion.z = q[QI_D + 2] * L;
    if (!castBody(physics, s, eid, f)) return;
  }
  keepClosest(s, eid);
}
