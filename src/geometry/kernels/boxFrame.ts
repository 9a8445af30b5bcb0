/**
 * Box-frame kernels shared by the sphere–box queries. Internal: not part of the public API.
 *
 * Frame: the box's local frame, origin at the box centre, axes along the box's edges, so the box is
 * the axis-aligned set |x| <= hx, |y| <= hy, |z| <= hz. A world vector v maps to local as
 * rotate(conjugate(q), v) and back as rotate(q, v) (Ericson, Real-Time Collision Detection, 4.4 and
 * 5.1.3: "the closest point on an OBB" by working in its frame).
 *
 * No allocation: the kernels pass numbers through the module-level scratch `K` instead of arguments
 * and return values, so that no double is ever boxed, inlined or not.
 */
import { normalize3, V, V_SLOTS, withinDistance } from './scalar.js';
import type { BoxShape, Quat, SphereShape, Vec3 } from '../types.js';

const { V_LENGTH, V_R, V_X, V_Y, V_Z } = V_SLOTS;

/**
 * Scratch of the box-frame kernels, all in the box's local frame, in named slots (a vector takes
 * three slots, from its slot's index on):
 * - results: K_NORMAL the contact normal (unit, from the box toward the sphere centre), K_DEPTH the
 *   depth (>= 0 when touching or overlapping), K_POINT the contact point on the box surface, K_TOI
 *   the time of impact (a fraction of the motion, in [0, 1]);
 * - inputs: K_CENTER the sphere centre relative to the box centre, K_MOTION the sphere's motion over
 *   the step, K_HALF the half extents, K_RADIUS the radius; K_OTHER a second point (e.g. the centre
 *   at the end of the step).
 */
export const K = new Float64Array(21);
const K_NORMAL = 0, K_DEPTH = 3, K_POINT = 4, K_TOI = 7;
const K_CENTER = 8, K_MOTION = 11, K_HALF = 14, K_RADIUS = 17, K_OTHER = 18;
/** The named slots of K, for other modules to copy into module-local constants (see `V_SLOTS`). */
export const K_SLOTS = { K_NORMAL, K_DEPTH, K_POINT, K_TOI, K_CENTER, K_MOTION, K_HALF, K_RADIUS, K_OTHER } as const;

/** True when `q` is absent or an identity rotation, so local axes equal world axes. */
export function isAxisAligned(q: Quat | undefined): boolean {
  return q === undefined || (q.x === 0 && q.y === 0 && q.z === 0);
}

/**
 * Rotates K[o..o+2] in place by q (sense +1) or by its conjugate (sense −1):
 * v' = v + w·t + u × t with t = 2·(u × v) (the expanded form of q·v·q*).
 */
function rotateK(q: Quat, sense: number, o: number): void {
  const ux = sense * q.x;
  const uy = sense * q.y;
  const uz = sense * q.z;
  const w = q.w;
  const vx = K[o];
  const vy = K[o + 1];
  const vz = K[o + 2];
  const tx = 2 * (uy * vz - uz * vy);
  const ty = 2 * (uz * vx - ux * vz);
  const tz = 2 * (ux * vy - uy * vx);
  K[o] = vx + w * tx + (uy * tz - uz * ty);
  K[o + 1] = vy + w * ty + (uz * tx - ux * tz);
  K[o + 2] = vz + w * tz + (ux * ty - uy * tx);
}

/**
 * Loads a sphere–box query: the sphere's centre relative to the box in its frame (K_CENTER), the half
 * extents (K_HALF) and the radius (K_RADIUS). Objects are passed rather than their numbers so that no
 * double is boxed. (K_MOTION is left as it was: the static queries do not read it.)
 * Non-finite rotations reach the finiteness checks: x, y or z through the rotated centre (NaN), and
 * w, which an identity rotation does not otherwise read, through the radius (r + (w − w) is r for a
 * finite w and NaN otherwise).
 */
export function loadSphereBox(box: BoxShape, sphere: SphereShape): void {
  const q = box.rotation;
  const p = sphere.center;
  K[K_CENTER] = p.x - box.center.x;
  K[K_CENTER + 1] = p.y - box.center.y;
  K[K_CENTER + 2] = p.z - box.center.z;
  if (!isAxisAligned(q)) rotateK(q as Quat, -1, K_CENTER);
  K[K_HALF] = box.halfExtents.x;
  K[K_HALF + 1] = box.halfExtents.y;
  K[K_HALF + 2] = box.halfExtents.z;
  K[K_RADIUS] = q === undefined ? sphere.radius : sphere.radius + (q.w - q.w);
}

/** Loads a cast's motion `v` into the box's frame (K_MOTION), after {@link loadSphereBox}. */
export function loadMotion(box: BoxShape, v: Vec3): void {
  const q = box.rotation;
  K[K_MOTION] = v.x;
  K[K_MOTION + 1] = v.y;
  K[K_MOTION + 2] = v.z;
  if (!isAxisAligned(q)) rotateK(q as Quat, -1, K_MOTION);
}

/**
 * Whether the local point K[o..o+2] is within the radius of the box (closed), by clamping; false as
 * well when the point, a half extent or the radius is NaN or ±Infinity. (A coordinate within its
 * slab contributes (x − x)·h: 0 when x and h are finite, NaN when either is NaN or infinite; an
 * infinite coordinate outside its slab contributes ±Infinity; withinDistance is false for both, and
 * for a non-finite radius.)
 */
export function withinBoxLocal(o: number): boolean {
  const x = K[o], y = K[o + 1], z = K[o + 2];
  const hx = K[K_HALF], hy = K[K_HALF + 1], hz = K[K_HALF + 2];
  V[V_X] = x < -hx ? x + hx : x > hx ? x - hx : (x - x) * hx;
  V[V_Y] = y < -hy ? y + hy : y > hy ? y - hy : (y - y) * hy;
  V[V_Z] = z < -hz ? z + hz : z > hz ? z - hz : (z - z) * hz;
  V[V_R] = K[K_RADIUS];
  return withinDistance();
}

/**
 * Whether every loaded number is finite: K_CENTER, K_MOTION, K_HALF and K_RADIUS, hence the sphere's
 * and the box's centres, the motion, half extents and radius (their rotation into the box frame
 * included: a NaN or infinite rotation makes the rotated vectors NaN), with no difference overflowed.
 */
export function loadedFinite(): boolean {
  const center = K[K_CENTER] - K[K_CENTER] + (K[K_CENTER + 1] - K[K_CENTER + 1]) + (K[K_CENTER + 2] - K[K_CENTER + 2]);
  const motion = K[K_MOTION] - K[K_MOTION] + (K[K_MOTION + 1] - K[K_MOTION + 1]) + (K[K_MOTION + 2] - K[K_MOTION + 2]);
  const size = K[K_HALF] - K[K_HALF] + (K[K_HALF + 1] - K[K_HALF + 1]) + (K[K_HALF + 2] - K[K_HALF + 2] + (K[K_RADIUS] - K[K_RADIUS]));
  return center + motion + size === 0;
}

/**
 * Fills K_NORMAL, K_DEPTH and K_POINT with the contact of the sphere centred at the local point
 * K[o..o+2], whatever its distance (callers test the distance first).
 * Outside: point = clamp of the centre onto the box, normal = (centre − point)/distance,
 * depth = r − distance. Inside or on the surface (distance 0): the face of least penetration,
 * i.e. the smallest h − |l| per axis; ties go to the lowest axis (x, then y, then z) and, on an axis
 * with l = 0, to the + face. Then normal = that face's outward normal, depth = r + (h − |l|), point =
 * the centre projected onto that face.
 */
export function fillContactLocal(o: number): void {
  const lx = K[o], ly = K[o + 1], lz = K[o + 2];
  const hx = K[K_HALF], hy = K[K_HALF + 1], hz = K[K_HALF + 2], r = K[K_RADIUS];
  const px = lx < -hx ? -hx : lx > hx ? hx : lx;
  const py = ly < -hy ? -hy : ly > hy ? hy : ly;
  const pz = lz < -hz ? -hz : lz > hz ? hz : lz;
  const dx = lx - px;
  const dy = ly - py;
  const dz = lz - pz;
  K[K_POINT] = px;
  K[K_POINT + 1] = py;
  K[K_POINT + 2] = pz;
  if (dx !== 0 || dy !== 0 || dz !== 0) {
    V[V_X] = dx;
    V[V_Y] = dy;
    V[V_Z] = dz;
    normalize3();
    K[K_NORMAL] = V[V_X];
    K[K_NORMAL + 1] = V[V_Y];
    K[K_NORMAL + 2] = V[V_Z];
    K[K_DEPTH] = r - V[V_LENGTH];
    return;
  }
  const fx = hx - Math.abs(lx);
  const fy = hy - Math.abs(ly);
  const fz = hz - Math.abs(lz);
  const axis = fy < fx ? (fz < fy ? 2 : 1) : fz < fx ? 2 : 0;
  const l = axis === 0 ? lx : axis === 1 ? ly : lz;
  const s = l >= 0 ? 1 : -1;
  K[K_NORMAL] = 0;
  K[K_NORMAL + 1] = 0;
  K[K_NORMAL + 2] = 0;
  K[K_NORMAL + axis] = s;
  K[K_POINT + axis] = s * K[K_HALF + axis];
  K[K_DEPTH] = r + (axis === 0 ? fx : axis === 1 ? fy : fz);
}

/**
 * Writes K's local normal and point as world vectors into `out.normal` and `out.point`. Reads the box
 * before writing, so `out.normal` or `out.point` may be one of its vectors.
 */
export function writeWorldNormalPoint(box: BoxShape, out: { normal: Vec3; point: Vec3 }): void {
  const q = box.rotation;
  if (!isAxisAligned(q)) {
    rotateK(q as Quat, 1, K_NORMAL);
    rotateK(q as Quat, 1, K_POINT);
  }
  const c = box.center;
  const cx = c.x, cy = c.y, cz = c.z;
  out.normal.x = K[K_NORMAL];
  out.normal.y = K[K_NORMAL + 1];
  out.normal.z = K[K_NORMAL + 2];
  out.point.x = cx + K[K_POINT];
  out.point.y = cy + K[K_POINT + 1];
  out.point.z = cz + K[K_POINT + 2];
}
