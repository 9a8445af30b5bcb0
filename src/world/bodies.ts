/**
 * Per-body reads shared by the broadphase and the narrowphase: validation and world bounds.
 * Frame: world; units: length units, seconds. Results go to module scratch (no allocation).
 * @module
 */
import { PhysicsInputError } from './errors.js';
import { BodyFlags, type Physics } from './types.js';

const { MOVING } = BodyFlags;

/** Bounds written by `sphereBounds` / `boxBounds`: minX, minY, minZ, maxX, maxY, maxZ. */
export const bounds = new Float64Array(6);
/** A box's unit rotation written by `boxRotation`: x, y, z, w. */
export const rotation = new Float64Array(4);

/** Relative padding of bounds so that rounding never drops a touching pair. */
const PAD = 1e-12;

function bad(v: number): boolean {
  return !(v - v === 0);
}

function checkVec3(eid: number, name: string, x: number, y: number, z: number): void {
  if (bad(x)) throw new PhysicsInputError(eid, `${name}.x`, `must be finite, got ${x}`);
  if (bad(y)) throw new PhysicsInputError(eid, `${name}.y`, `must be finite, got ${y}`);
  if (bad(z)) throw new PhysicsInputError(eid, `${name}.z`, `must be finite, got ${z}`);
}

function checkExtent(eid: number, name: string, v: number): void {
  if (!(v >= 0 && v !== Infinity)) throw new PhysicsInputError(eid, name, `must be a finite number >= 0, got ${v}`);
}

/** Throws `PhysicsInputError` naming the entity and field when a body's data is unusable. */
export function validateBody(physics: Physics, eid: number, flags: number): void {
  const { Position: p, Velocity: v, Sphere: s, Box: b } = physics.components;
  checkVec3(eid, 'Position', p.x[eid], p.y[eid], p.z[eid]);
  if ((flags & MOVING) !== 0) checkVec3(eid, 'Velocity', v.x[eid], v.y[eid], v.z[eid]);
  if ((flags & BodyFlags.SPHERE) !== 0) checkExtent(eid, 'Sphere.radius', s.radius[eid]);
  if ((flags & BodyFlags.BOX) !== 0) {
    checkExtent(eid, 'Box.hx', b.hx[eid]);
    checkExtent(eid, 'Box.hy', b.hy[eid]);
    checkExtent(eid, 'Box.hz', b.hz[eid]);
    const qx = b.qx[eid], qy = b.qy[eid], qz = b.qz[eid], qw = b.qw[eid];
    const n2 = qx * qx + qy * qy + qz * qz + qw * qw;
    if (!(n2 > 1e-12 && n2 !== Infinity)) {
      throw new PhysicsInputError(eid, 'Box.qx/qy/qz/qw', `rotation quaternion must be finite and non-zero (identity is 0, 0, 0, 1), got (${qx}, ${qy}, ${qz}, ${qw})`);
    }
  }
}

/**
 * Writes the box's rotation, normalised, to `rotation` (validation rejects zero quaternions; an
 * unvalidated zero quaternion becomes the identity).
 */
export function boxRotation(physics: Physics, eid: number): void {
  const b = physics.components.Box;
  const qx = b.qx[eid], qy = b.qy[eid], qz = b.qz[eid], qw = b.qw[eid];
  const n2 = qx * qx + qy * qy + qz * qz + qw * qw;
  if (n2 === 1 || !(n2 > 0)) {
    rotation[0] = n2 > 0 ? qx : 0;
    rotation[1] = n2 > 0 ? qy : 0;
    rotation[2] = n2 > 0 ? qz : 0;
    rotation[3] = n2 > 0 ? qw : 1;
    return;
  }
  const inv = 1 / Math.sqrt(n2);
  rotation[0] = qx * inv;
  rotation[1] = qy * inv;
  rotation[2] = qz * inv;
  rotation[3] = qw * inv;
}

/**
 * Outward padding of bounds centred at c with half size e and motion m, relative to their magnitude,
 * so that rounding never drops a touching pair. Every bounds computation must use it.
 */
export function boundsPad(cx: number, cy: number, cz: number, e: number, mx: number, my: number, mz: number): number {
  return PAD * (1 + Math.abs(cx) + Math.abs(cy) + Math.abs(cz) + e + Math.abs(mx) + Math.abs(my) + Math.abs(mz));
}

function writeBounds(cx: number, cy: number, cz: number, ex: number, ey: number, ez: number, mx: number, my: number, mz: number): void {
  const pad = boundsPad(cx, cy, cz, ex + ey + ez, mx, my, mz);
  bounds[0] = cx - ex + (mx < 0 ? mx : 0) - pad;
  bounds[1] = cy - ey + (my < 0 ? my : 0) - pad;
  bounds[2] = cz - ez + (mz < 0 ? mz : 0) - pad;
  bounds[3] = cx + ex + (mx > 0 ? mx : 0) + pad;
  bounds[4] = cy + ey + (my > 0 ? my : 0) + pad;
  bounds[5] = cz + ez + (mz > 0 ? mz : 0) + pad;
}

/** Writes a sphere's bounds, swept over `motionDt` seconds of its velocity (0 = static bounds). */
export function sphereBounds(physics: Physics, eid: number, flags: number, motionDt: number): void {
  const { Position: p, Velocity: v, Sphere: s } = physics.components;
  const r = s.radius[eid];
  const t = (flags & MOVING) !== 0 ? motionDt : 0;
  writeBounds(p.x[eid], p.y[eid], p.z[eid], r, r, r, t === 0 ? 0 : v.x[eid] * t, t === 0 ? 0 : v.y[eid] * t, t === 0 ? 0 : v.z[eid] * t);
}

/**
 * Writes a box's world bounds (half size per world axis = Σ |R_ij|·h_j, Ericson 4.2.6), swept over
 * `motionDt` seconds of its velocity.
 */
export function boxBounds(physics: Physics, eid: number, flags: number, motionDt: number): void {
  const { Position: p, Velocity: v, Box: b } = physics.components;
  boxRotation(physics, eid);
  const x = rotation[0], y = rotation[1], z = rotation[2], w = rotation[3];
  const hx = b.hx[eid], hy = b.hy[eid], hz = b.hz[eid];
  const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * w), r02 = 2 * (x * z + y * w);
  const r10 = 2 * (x * y + z * w), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * w);
  const r20 = 2 * (x * z - y * w), r21 = 2 * (y * z + x * w), r22 = 1 - 2 * (x * x + y * y);
  const ex = Math.abs(r00) * hx + Math.abs(r01) * hy + Math.abs(r02) * hz;
  const ey = Math.abs(r10) * hx + Math.abs(r11) * hy + Math.abs(r12) * hz;
  const ez = Math.abs(r20) * hx + Math.abs(r21) * hy + Math.abs(r22) * hz;
  const t = (flags & MOVING) !== 0 ? motionDt : 0;
  writeBounds(p.x[eid], p.y[eid], p.z[eid], ex, ey, ez, t === 0 ? 0 : v.x[eid] * t, t === 0 ? 0 : v.y[eid] * t, t === 0 ? 0 : v.z[eid] * t);
}
