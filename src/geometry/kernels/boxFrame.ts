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
import { length3, V, withinDistance } from '../../math/scalar.js';
import type { BoxShape, Quat, SphereShape, Vec3 } from '../types.js';

/**
 * Scratch, all in the box's local frame:
 * K[0..2] normal (unit, from the box toward the sphere centre), K[3] depth, K[4..6] point on the box
 * surface, K[7] toi; K[8..10] the sphere centre, K[11..13] its motion, K[14..16] the half extents,
 * K[17] the radius, K[18..20] a second point (e.g. the centre at the end of the step).
 */
export const K = new Float64Array(21);
export const CENTER = 8;
export const MOTION = 11;
export const OTHER = 18;

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
 * Loads a sphere–box query: the sphere's centre relative to the box in its frame (K[8..10]), the
 * motion `v` in its frame (K[11..13], zero when absent), the half extents (K[14..16]) and the radius
 * (K[17]). Objects are passed rather than their numbers so that no double is boxed.
 */
export function loadSphereBox(box: BoxShape, sphere: SphereShape, v: Vec3 | undefined): void {
  const q = box.rotation;
  const p = sphere.center;
  K[CENTER] = p.x - box.center.x;
  K[CENTER + 1] = p.y - box.center.y;
  K[CENTER + 2] = p.z - box.center.z;
  K[MOTION] = v === undefined ? 0 : v.x;
  K[MOTION + 1] = v === undefined ? 0 : v.y;
  K[MOTION + 2] = v === undefined ? 0 : v.z;
  if (!isAxisAligned(q)) {
    rotateK(q as Quat, -1, CENTER);
    if (v !== undefined) rotateK(q as Quat, -1, MOTION);
  }
  K[14] = box.halfExtents.x;
  K[15] = box.halfExtents.y;
  K[16] = box.halfExtents.z;
  K[17] = sphere.radius;
}

/** Whether the local point K[o..o+2] is within the radius of the box (closed), by clamping. */
export function withinBoxLocal(o: number): boolean {
  const x = K[o], y = K[o + 1], z = K[o + 2];
  const hx = K[14], hy = K[15], hz = K[16];
  V[0] = x < -hx ? x + hx : x > hx ? x - hx : 0;
  V[1] = y < -hy ? y + hy : y > hy ? y - hy : 0;
  V[2] = z < -hz ? z + hz : z > hz ? z - hz : 0;
  V[3] = K[17];
  return withinDistance();
}

/**
 * Fills K[0..6] with the contact of the sphere centred at the local point K[o..o+2], whatever its
 * distance (callers test the distance first).
 * Outside: point = clamp of the centre onto the box, normal = (centre − point)/distance,
 * depth = r − distance. Inside or on the surface (distance 0): the face of least penetration,
 * i.e. the smallest h − |l| per axis; ties go to the lowest axis (x, then y, then z) and, on an axis
 * with l = 0, to the + face. Then normal = that face's outward normal, depth = r + (h − |l|), point =
 * the centre projected onto that face.
 */
export function fillContactLocal(o: number): void {
  const lx = K[o], ly = K[o + 1], lz = K[o + 2];
  const hx = K[14], hy = K[15], hz = K[16], r = K[17];
  const px = lx < -hx ? -hx : lx > hx ? hx : lx;
  const py = ly < -hy ? -hy : ly > hy ? hy : ly;
  const pz = lz < -hz ? -hz : lz > hz ? hz : lz;
  const dx = lx - px;
  const dy = ly - py;
  const dz = lz - pz;
  K[4] = px;
  K[5] = py;
  K[6] = pz;
  if (dx !== 0 || dy !== 0 || dz !== 0) {
    V[0] = dx;
    V[1] = dy;
    V[2] = dz;
    length3();
    const d = V[4];
    K[0] = dx / d;
    K[1] = dy / d;
    K[2] = dz / d;
    K[3] = r - d;
    return;
  }
  const fx = hx - Math.abs(lx);
  const fy = hy - Math.abs(ly);
  const fz = hz - Math.abs(lz);
  const axis = fy < fx ? (fz < fy ? 2 : 1) : fz < fx ? 2 : 0;
  const l = axis === 0 ? lx : axis === 1 ? ly : lz;
  const s = l >= 0 ? 1 : -1;
  K[0] = 0;
  K[1] = 0;
  K[2] = 0;
  K[axis] = s;
  K[4 + axis] = s * K[14 + axis];
  K[3] = r + (axis === 0 ? fx : axis === 1 ? fy : fz);
}

/** Writes K's local normal and point as world vectors into `out.normal` and `out.point`. */
export function writeWorldNormalPoint(box: BoxShape, out: { normal: Vec3; point: Vec3 }): void {
  const q = box.rotation;
  if (!isAxisAligned(q)) {
    rotateK(q as Quat, 1, 0);
    rotateK(q as Quat, 1, 4);
  }
  const c = box.center;
  out.normal.x = K[0];
  out.normal.y = K[1];
  out.normal.z = K[2];
  out.point.x = c.x + K[4];
  out.point.y = c.y + K[5];
  out.point.z = c.z + K[6];
}
