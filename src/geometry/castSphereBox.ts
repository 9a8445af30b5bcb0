import { fillContactLocal, K, pointToBoxFrame, vectorToBoxFrame, withinBoxLocal, writeWorldNormalPoint } from './boxFrame.js';
import { enterCapsule } from './entryTime.js';
import type { BoxShape, CastResult, SphereShape, Vec3 } from './types.js';

/**
 * A toi this close to 1 is within rounding of the step's end: the static test at the end pose
 * decides, so that "hit within the step" agrees with the overlap test there to the last ulp.
 */
export const END_CHECK = 1 - 1e-15;

// Slab-test state (module scratch, so the per-axis helper allocates nothing).
let slabT0 = 0;
let slabT1 = 1;
let slabAxis = -1;

/** Clips [slabT0, slabT1] by the slab |c + t·m| <= e of one axis; false when the ray misses it. */
function clipSlab(c: number, m: number, e: number, axis: number): boolean {
  if (m === 0) return c >= -e && c <= e;
  let ta = (-e - c) / m;
  let tb = (e - c) / m;
  if (ta > tb) {
    const s = ta;
    ta = tb;
    tb = s;
  }
  if (ta > slabT0) {
    slabT0 = ta;
    slabAxis = axis;
  }
  if (tb < slabT1) slabT1 = tb;
  return slabT0 <= slabT1;
}

/**
 * Entry time into the capsule around the box edge parallel to `axis` (0, 1 or 2) that passes
 * through the corner `(ax, ay, az)` (the coordinate along `axis` is ignored), for the local ray
 * c + t·m. The edge spans −h..h along `axis`.
 */
function enterEdge(
  axis: number, ax: number, ay: number, az: number,
  cx: number, cy: number, cz: number, mx: number, my: number, mz: number,
  hx: number, hy: number, hz: number, r: number,
): number {
  if (axis === 0) return enterCapsule(cy - ay, cz - az, cx, my, mz, mx, hx, r);
  if (axis === 1) return enterCapsule(cz - az, cx - ax, cy, mz, mx, my, hy, r);
  return enterCapsule(cx - ax, cy - ay, cz, mx, my, mz, hz, r);
}

/**
 * The sweep in the box frame (Ericson, Real-Time Collision Detection, 5.5.7, "intersecting moving
 * sphere against AABB"): the sphere's centre as a ray c + t·m, t in [0, 1], against the box grown
 * by r on every side (the Minkowski sum's bounding box). Where the ray enters that grown box decides:
 * on a face region (outside the original box on at most one axis) the entry is the contact; on an
 * edge region the contact is the entry into the capsule of radius r around that edge; on a vertex
 * region it is the earliest entry into the three capsules meeting at the vertex.
 * Writes K[7] = toi and K[0..6] = local normal, depth 0 and point; false when there is no contact.
 */
function castLocal(
  cx: number, cy: number, cz: number, mx: number, my: number, mz: number,
  hx: number, hy: number, hz: number, r: number,
): boolean {
  if (withinBoxLocal(cx, cy, cz, hx, hy, hz, r)) {
    fillContactLocal(cx, cy, cz, hx, hy, hz, r);
    K[7] = 0;
    return true;
  }
  const ex = hx + r;
  const ey = hy + r;
  const ez = hz + r;
  slabT0 = 0;
  slabT1 = 1;
  slabAxis = -1;
  if (!clipSlab(cx, mx, ex, 0) || !clipSlab(cy, my, ey, 1) || !clipSlab(cz, mz, ez, 2)) return false;
  let t = slabT0;
  // Entry point on the grown box, clamped onto it against rounding.
  const px = Math.min(Math.max(cx + t * mx, -ex), ex);
  const py = Math.min(Math.max(cy + t * my, -ey), ey);
  const pz = Math.min(Math.max(cz + t * mz, -ez), ez);
  const ox = px < -hx || px > hx;
  const oy = py < -hy || py > hy;
  const oz = pz < -hz || pz > hz;
  const outside = (ox ? 1 : 0) + (oy ? 1 : 0) + (oz ? 1 : 0);
  if (outside <= 1 && slabAxis >= 0) {
    if (t >= END_CHECK && !withinBoxLocal(cx + mx, cy + my, cz + mz, hx, hy, hz, r)) return false;
    writeFaceHit(slabAxis, px, py, pz, mx, my, mz, hx, hy, hz, t);
    return true;
  }
  if (outside === 2) {
    const axis = !ox ? 0 : !oy ? 1 : 2;
    t = enterEdge(axis, sign(px) * hx, sign(py) * hy, sign(pz) * hz, cx, cy, cz, mx, my, mz, hx, hy, hz, r);
  } else if (outside === 3) {
    const vx = sign(px) * hx;
    const vy = sign(py) * hy;
    const vz = sign(pz) * hz;
    t = enterEdge(0, vx, vy, vz, cx, cy, cz, mx, my, mz, hx, hy, hz, r);
    t = Math.min(t, enterEdge(1, vx, vy, vz, cx, cy, cz, mx, my, mz, hx, hy, hz, r));
    t = Math.min(t, enterEdge(2, vx, vy, vz, cx, cy, cz, mx, my, mz, hx, hy, hz, r));
  }
  else if (slabAxis < 0) {
    // Inside the grown box at the start yet not touching: within rounding of one face. Touch
    // when moving toward that face, at the time its gap closes (0 when the gap rounds away).
    t = roundingFaceEntry(px, py, pz, mx, my, mz, hx, hy, hz, r);
  }
  if (!(t <= 1)) return false;
  if (t >= END_CHECK && !withinBoxLocal(cx + mx, cy + my, cz + mz, hx, hy, hz, r)) return false;
  fillContactLocal(cx + t * mx, cy + t * my, cz + t * mz, hx, hy, hz, r);
  K[3] = 0;
  K[7] = t;
  return true;
}

/** Entry time through the one face the start is outside of (by rounding), or Infinity. */
function roundingFaceEntry(
  px: number, py: number, pz: number, mx: number, my: number, mz: number,
  hx: number, hy: number, hz: number, r: number,
): number {
  const axis = px < -hx || px > hx ? 0 : py < -hy || py > hy ? 1 : pz < -hz || pz > hz ? 2 : -1;
  if (axis < 0) return Infinity;
  const p = axis === 0 ? px : axis === 1 ? py : pz;
  const m = axis === 0 ? mx : axis === 1 ? my : mz;
  const h = axis === 0 ? hx : axis === 1 ? hy : hz;
  if (!(p * m < 0)) return Infinity;
  const gap = Math.abs(p) - h - r;
  return gap > 0 ? gap / Math.abs(m) : 0;
}

function sign(v: number): number {
  return v < 0 ? -1 : 1;
}

/** A face hit: normal is the entered face's outward normal, point the centre projected onto it. */
function writeFaceHit(
  axis: number, px: number, py: number, pz: number, mx: number, my: number, mz: number,
  hx: number, hy: number, hz: number, t: number,
): void {
  const m = axis === 0 ? mx : axis === 1 ? my : mz;
  const s = m < 0 ? 1 : -1;
  K[0] = 0;
  K[1] = 0;
  K[2] = 0;
  K[axis] = s;
  K[3] = 0;
  K[4] = axis === 0 ? s * hx : Math.min(Math.max(px, -hx), hx);
  K[5] = axis === 1 ? s * hy : Math.min(Math.max(py, -hy), hy);
  K[6] = axis === 2 ? s * hz : Math.min(Math.max(pz, -hz), hz);
  K[7] = t;
}

/**
 * Swept sphere against a box: the first time within one step at which the moving sphere touches
 * the box (continuous collision detection; a sphere crossing a thin box within one step still hits).
 *
 * Frame and units: world frame, the caller's length unit. `motion` is the sphere's displacement over
 * the step relative to the box (the box is at rest).
 * Result: `out.toi` in [0, 1] is the fraction of `motion` at the first contact (0 when touching or
 * overlapping at the start: then `out` is the static contact of {@link contactSphereBox}); `out.normal`
 * is unit and points from the box toward the sphere's centre at impact; `out.point` is the contact
 * point on the box surface at impact. Solids are closed: grazing contact (distance exactly r) hits.
 * Returns false, leaving `out` unspecified, when there is no contact within the step.
 *
 * Algorithm: in the box's frame, a ray against the box grown by the radius, then the entry point's
 * region picks face, edge capsule or vertex capsules (Ericson, Real-Time Collision Detection, 5.5.7).
 * Zero radius, zero extents, zero motion and motion parallel to a face are exact. No allocation.
 */
export function castSphereBox(sphere: SphereShape, motion: Vec3, box: BoxShape, out: CastResult): boolean {
  pointToBoxFrame(box, sphere.center);
  vectorToBoxFrame(box, motion);
  const h = box.halfExtents;
  if (!castLocal(K[8], K[9], K[10], K[11], K[12], K[13], h.x, h.y, h.z, sphere.radius)) return false;
  out.toi = K[7];
  writeWorldNormalPoint(box, out);
  return true;
}
