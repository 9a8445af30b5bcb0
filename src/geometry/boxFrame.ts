/**
 * Box-frame kernels shared by the sphere–box queries. Internal: not part of the public API.
 *
 * Frame: the box's local frame, origin at the box centre, axes along the box's edges, so the box is
 * the axis-aligned set |x| <= hx, |y| <= hy, |z| <= hz. A world vector v maps to local as
 * rotate(conjugate(q), v) and back as rotate(q, v) (Ericson, Real-Time Collision Detection, 4.4 and
 * 5.1.3: "the closest point on an OBB" by working in its frame). Results are written to the
 * module-level scratch `K` so that no call allocates.
 */
import { clamp, length3, withinDistance } from '../math/scalar.js';
import type { BoxShape, Quat, Vec3 } from './types.js';

/**
 * Scratch results, all in the box's local frame:
 * K[0..2] normal (unit, from the box toward the sphere centre), K[3] depth, K[4..6] point on the box
 * surface, K[7] toi (casts only). K[8..13] hold a transformed centre and motion.
 */
export const K = new Float64Array(14);

/** True when `q` is absent or an identity rotation, so local axes equal world axes. */
export function isAxisAligned(q: Quat | undefined): boolean {
  return q === undefined || (q.x === 0 && q.y === 0 && q.z === 0);
}

/**
 * Rotates (vx, vy, vz) by the quaternion (ux, uy, uz, w) and writes it to K[o..o+2].
 * v' = v + w·t + u × t with t = 2·(u × v) (the expanded form of q·v·q*).
 */
function rotateInto(ux: number, uy: number, uz: number, w: number, vx: number, vy: number, vz: number, o: number): void {
  const tx = 2 * (uy * vz - uz * vy);
  const ty = 2 * (uz * vx - ux * vz);
  const tz = 2 * (ux * vy - uy * vx);
  K[o] = vx + w * tx + (uy * tz - uz * ty);
  K[o + 1] = vy + w * ty + (uz * tx - ux * tz);
  K[o + 2] = vz + w * tz + (ux * ty - uy * tx);
}

/** Writes `p - box.center` in the box frame to K[8..10]. */
export function pointToBoxFrame(box: BoxShape, p: Vec3): void {
  const q = box.rotation;
  const dx = p.x - box.center.x;
  const dy = p.y - box.center.y;
  const dz = p.z - box.center.z;
  if (isAxisAligned(q)) {
    K[8] = dx;
    K[9] = dy;
    K[10] = dz;
  } else {
    const r = q as Quat;
    rotateInto(-r.x, -r.y, -r.z, r.w, dx, dy, dz, 8);
  }
}

/** Writes the direction `v` in the box frame to K[11..13]. */
export function vectorToBoxFrame(box: BoxShape, v: Vec3): void {
  const q = box.rotation;
  if (isAxisAligned(q)) {
    K[11] = v.x;
    K[12] = v.y;
    K[13] = v.z;
  } else {
    const r = q as Quat;
    rotateInto(-r.x, -r.y, -r.z, r.w, v.x, v.y, v.z, 11);
  }
}

/**
 * Whether the local point (lx, ly, lz) is within distance r of the box |x|<=hx, |y|<=hy, |z|<=hz
 * (closed), by clamping onto the box.
 */
export function withinBoxLocal(lx: number, ly: number, lz: number, hx: number, hy: number, hz: number, r: number): boolean {
  return withinDistance(lx - clamp(lx, -hx, hx), ly - clamp(ly, -hy, hy), lz - clamp(lz, -hz, hz), r);
}

/**
 * Fills K[0..6] with the contact of a sphere of radius r centred at the local point (lx, ly, lz)
 * whatever its distance (callers test the distance first).
 * Outside: point = clamp of the centre onto the box, normal = (centre − point)/distance,
 * depth = r − distance. Inside or on the surface (distance 0): the face of least penetration,
 * i.e. the smallest h − |l| per axis; ties go to the lowest axis (x, then y, then z) and, on an axis
 * with l = 0, to the + face. Then normal = that face's outward normal, depth = r + (h − |l|), point =
 * the centre projected onto that face.
 */
export function fillContactLocal(lx: number, ly: number, lz: number, hx: number, hy: number, hz: number, r: number): void {
  const px = clamp(lx, -hx, hx);
  const py = clamp(ly, -hy, hy);
  const pz = clamp(lz, -hz, hz);
  const dx = lx - px;
  const dy = ly - py;
  const dz = lz - pz;
  K[4] = px;
  K[5] = py;
  K[6] = pz;
  if (dx !== 0 || dy !== 0 || dz !== 0) {
    const d = length3(dx, dy, dz);
    K[0] = dx / d;
    K[1] = dy / d;
    K[2] = dz / d;
    K[3] = r - d;
    return;
  }
  const fx = hx - Math.abs(lx);
  const fy = hy - Math.abs(ly);
  const fz = hz - Math.abs(lz);
  let axis = 0;
  let f = fx;
  if (fy < f) {
    axis = 1;
    f = fy;
  }
  if (fz < f) {
    axis = 2;
    f = fz;
  }
  const l = axis === 0 ? lx : axis === 1 ? ly : lz;
  const h = axis === 0 ? hx : axis === 1 ? hy : hz;
  const s = l >= 0 ? 1 : -1;
  K[0] = 0;
  K[1] = 0;
  K[2] = 0;
  K[axis] = s;
  K[4 + axis] = s * h;
  K[3] = r + f;
}

/** Writes K's local normal and point as world vectors into `out.normal` and `out.point`. */
export function writeWorldNormalPoint(box: BoxShape, out: { normal: Vec3; point: Vec3 }): void {
  const q = box.rotation;
  const c = box.center;
  if (isAxisAligned(q)) {
    out.normal.x = K[0];
    out.normal.y = K[1];
    out.normal.z = K[2];
    out.point.x = c.x + K[4];
    out.point.y = c.y + K[5];
    out.point.z = c.z + K[6];
    return;
  }
  const r = q as Quat;
  const px = K[4];
  const py = K[5];
  const pz = K[6];
  rotateInto(r.x, r.y, r.z, r.w, K[0], K[1], K[2], 0);
  out.normal.x = K[0];
  out.normal.y = K[1];
  out.normal.z = K[2];
  rotateInto(r.x, r.y, r.z, r.w, px, py, pz, 4);
  out.point.x = c.x + K[4];
  out.point.y = c.y + K[5];
  out.point.z = c.z + K[6];
}
