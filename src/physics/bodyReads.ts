/**
 * Per-body reads shared by the broadphase and the narrowphase: validation and world bounds.
 * Frame: world; units: length units, seconds. Results go to the caller's `out` typed arrays (bounds:
 * minX, minY, minZ, maxX, maxY, maxZ at `out[o .. o + 6)`; rotations x, y, z, w); no allocation.
 * @module
 */
import type { Vec3Store } from '../../components/index.js';
import { PhysicsInputError } from './errors.js';
import { internalsOf } from './internal.js';
import { BodyFlags, type Physics } from './physicsTypes.js';
import { ZERO_QUATERNION } from './readInput.js';
import type { ScratchBox } from '../geometry/scratch.js';

const { MOVING } = BodyFlags;

/** `loadBox`'s scratch rotation (per call: it carries nothing between calls). */
const ROTATION = new Float64Array(4);

/** Relative padding of bounds so that rounding never drops a touching pair. */
export const BOUNDS_PAD = 1e-12;

function bad(v: number): boolean {
  return !(v - v === 0);
}

// The checks read the stores themselves (no double argument: moving boxes are validated every tick).
function checkVec3(eid: number, name: string, s: Vec3Store): void {
  checkColumn(eid, name, 'x', s.x);
  checkColumn(eid, name, 'y', s.y);
  checkColumn(eid, name, 'z', s.z);
}

type Column = Vec3Store['x'];

function checkColumn(eid: number, name: string, axis: string, a: Column): void {
  if (!bad(a[eid])) return;
  const field = `${name}.${axis}`;
  if (a[eid] === undefined && !(eid < a.length)) {
    // Only a store passed in options can be too short: the physics grows its own.
    throw new PhysicsInputError({
      eid,
      field,
      problem: `entity id ${eid} is beyond the end of the ${name} store (length ${a.length}): a store passed as ` +
        `options.${name.toLowerCase()} is not grown by the physics; size it for your entity ids`,
    });
  }
  throw new PhysicsInputError({ eid, field, problem: `must be finite, got ${a[eid]}` });
}

/**
 * Throws when velocity × dt (the tick's motion) overflows for finite factors (e.g. 1e300 × 1e10):
 * the sweeps and the integration would get infinities.
 */
function checkMotion(physics: Physics, eid: number): void {
  const v = physics.components.Velocity;
  checkMotionAxis(physics, eid, 'x', v.x);
  checkMotionAxis(physics, eid, 'y', v.y);
  checkMotionAxis(physics, eid, 'z', v.z);
}

function checkMotionAxis(physics: Physics, eid: number, axis: string, a: Column): void {
  const m = a[eid] * physics.dt;
  if (m - m === 0) return;
  throw new PhysicsInputError({
    eid,
    field: `Velocity.${axis}`,
    problem: `velocity × dt overflows: ${a[eid]} × ${physics.dt} s = ${m} (the motion over one tick must be finite)`,
  });
}

/**
 * Throws when gravity × dt (the velocity gravity adds in one tick, length units per second) is not
 * finite for a finite gravity and dt (e.g. gravity 1e300 and dt 1e10): naming gravity and dt, not a
 * body's velocity. Read by the scan stage (with `validate`) and by the gravity stage before it writes.
 */
export function checkGravityStep(physics: Physics): void {
  const g = internalsOf(physics).gravity;
  const dt = physics.dt;
  for (let k = 0; k < 3; k++) {
    const m = g[k] * dt;
    if (m - m === 0) continue;
    const axis = k === 0 ? 'x' : k === 1 ? 'y' : 'z';
    throw new PhysicsInputError({
      field: `gravity.${axis}`,
      problem: `gravity × dt overflows: ${g[k]} × ${dt} s = ${m} (the velocity gravity adds in one tick must be finite; lower gravity or dt)`,
    });
  }
}

function checkExtent(eid: number, name: string, a: Float64Array): void {
  const v = a[eid];
  if (!(v >= 0 && v !== Infinity)) throw new PhysicsInputError({ eid, field: name, problem: `must be a finite number >= 0, got ${v}` });
}


function checkComponent(eid: number, name: string, a: Float64Array): void {
  if (bad(a[eid])) throw new PhysicsInputError({ eid, field: name, problem: `must be a finite number, got ${a[eid]}` });
}

/**
 * The rotation check shared with the helpers: every component finite, not all zero. Every such
 * quaternion normalises to a finite unit one ({@link boxRotation} scales by its largest component
 * first when the squared length would overflow or underflow).
 */
function checkRotation(physics: Physics, eid: number): void {
  const b = physics.components.Box;
  checkComponent(eid, 'Box.qx', b.qx);
  checkComponent(eid, 'Box.qy', b.qy);
  checkComponent(eid, 'Box.qz', b.qz);
  checkComponent(eid, 'Box.qw', b.qw);
  if (b.qx[eid] === 0 && b.qy[eid] === 0 && b.qz[eid] === 0 && b.qw[eid] === 0) {
    throw new PhysicsInputError({ eid, field: 'Box.rotation', problem: ZERO_QUATERNION });
  }
}

/** Throws `PhysicsInputError` naming the entity and field when a body's data is unusable. */
export function validateBody(physics: Physics, eid: number, flags: number): void {
  const { Position: p, Velocity: v, Sphere: s, Box: b } = physics.components;
  checkVec3(eid, 'Position', p);
  if ((flags & MOVING) !== 0) {
    checkVec3(eid, 'Velocity', v);
    checkMotion(physics, eid);
  }
  if ((flags & BodyFlags.SPHERE) !== 0) checkExtent(eid, 'Sphere.radius', s.radius);
  if ((flags & BodyFlags.BOX) !== 0) {
    checkExtent(eid, 'Box.hx', b.hx);
    checkExtent(eid, 'Box.hy', b.hy);
    checkExtent(eid, 'Box.hz', b.hz);
    checkRotation(physics, eid);
  }
  if (internalsOf(physics).hasMaterial[eid] !== 0) checkFriction(physics, eid);
}

/** Throws unless `Material.friction` of `eid` is a finite number >= 0. */
export function checkFriction(physics: Physics, eid: number): void {
  const mu = physics.components.Material.friction[eid];
  if (!(mu >= 0 && mu !== Infinity)) {
    throw new PhysicsInputError({ eid, field: 'Material.friction', problem: `must be a finite number >= 0 (the Coulomb coefficient), got ${mu}` });
  }
}

/** Squared lengths outside [2^-600, 2^600] are normalised by the scaled path (no under/overflow). */
const SQUARED_MIN = 2 ** -600;

/**
 * Writes the box's rotation, normalised, to `rotation`: q / |q|, or q itself when |q|² is exactly 1.
 * A quaternion whose squared length would overflow or lose precision (components beyond about
 * 2^±300) is first divided by its largest component magnitude, so every finite non-zero quaternion
 * gives a finite unit one. Validation rejects the others; an unvalidated zero or non-finite
 * quaternion becomes the identity.
 */
export function boxRotation(physics: Physics, eid: number, rotation: Float64Array): void {
  const b = physics.components.Box;
  const qx = b.qx[eid], qy = b.qy[eid], qz = b.qz[eid], qw = b.qw[eid];
  const n2 = qx * qx + qy * qy + qz * qz + qw * qw;
  if (n2 === 1) {
    rotation[0] = qx;
    rotation[1] = qy;
    rotation[2] = qz;
    rotation[3] = qw;
    return;
  }
  if (n2 >= SQUARED_MIN && n2 !== Infinity) {
    const inv = 1 / Math.sqrt(n2);
    rotation[0] = qx * inv;
    rotation[1] = qy * inv;
    rotation[2] = qz * inv;
    rotation[3] = qw * inv;
    return;
  }
  const m = Math.max(Math.abs(qx), Math.abs(qy), Math.abs(qz), Math.abs(qw));
  if (!(m > 0 && m !== Infinity)) {
    rotation[0] = rotation[1] = rotation[2] = 0;
    rotation[3] = 1;
    return;
  }
  rotation[0] = qx / m;
  rotation[1] = qy / m;
  rotation[2] = qz / m;
  rotation[3] = qw / m;
  const inv = 1 / Math.sqrt(rotation[0] * rotation[0] + rotation[1] * rotation[1] + rotation[2] * rotation[2] + rotation[3] * rotation[3]);
  rotation[0] *= inv;
  rotation[1] *= inv;
  rotation[2] *= inv;
  rotation[3] *= inv;
}

/**
 * Slots of `sweptSphereBounds`'s input array (`SWEEP_SLOTS` long, caller-owned; world frame, length
 * units): centre at `SW_X .. SW_X + 2`, radius at `SW_R`, motion over the span at `SW_MX .. SW_MX + 2`
 * (zero for a sphere at rest).
 */
export const SWEEP_SLOTS = 7;
export const SW_X = 0;
export const SW_R = 3;
export const SW_MX = 4;

/**
 * Writes to `out[0 .. 6)` (minX, minY, minZ, maxX, maxY, maxZ) the bounds of the sphere in `sweep`
 * (slots `SW_*`) swept by its motion, padded outward relative to the magnitudes so that rounding
 * never drops a touching pair: the response's path and neighbourhood queries (the broadphase writes
 * the same arithmetic inline). Inputs travel in a typed array, not as double arguments (docs/internals.md).
 */
export function sweptSphereBounds(sweep: Float64Array, out: Float64Array): void {
  const x = sweep[SW_X], y = sweep[SW_X + 1], z = sweep[SW_X + 2], r = sweep[SW_R];
  const mx = sweep[SW_MX], my = sweep[SW_MX + 1], mz = sweep[SW_MX + 2];
  const pad = BOUNDS_PAD * (1 + Math.abs(x) + Math.abs(y) + Math.abs(z) + 3 * r + Math.abs(mx) + Math.abs(my) + Math.abs(mz));
  out[0] = x - r + (mx < 0 ? mx : 0) - pad;
  out[1] = y - r + (my < 0 ? my : 0) - pad;
  out[2] = z - r + (mz < 0 ? mz : 0) - pad;
  out[3] = x + r + (mx > 0 ? mx : 0) + pad;
  out[4] = y + r + (my > 0 ? my : 0) + pad;
  out[5] = z + r + (mz > 0 ? mz : 0) + pad;
}

/** Inputs of `writeBounds`: centre (0..2), half size per axis (3..5), motion (6..8); per call. */
const W = new Float64Array(9);

/**
 * Writes to `out[o .. o + 6)` the box centred at W[0..2] with half sizes W[3..5], swept by the motion
 * W[6..8], padded outward relative to the magnitudes so that rounding never drops a touching pair.
 */
function writeBounds(out: Float64Array, o: number): void {
  const pad = BOUNDS_PAD * (1 + Math.abs(W[0]) + Math.abs(W[1]) + Math.abs(W[2]) + W[3] + W[4] + W[5] +
    Math.abs(W[6]) + Math.abs(W[7]) + Math.abs(W[8]));
  for (let a = 0; a < 3; a++) {
    const m = W[6 + a];
    out[o + a] = W[a] - W[3 + a] + (m < 0 ? m : 0) - pad;
    out[o + 3 + a] = W[a] + W[3 + a] + (m > 0 ? m : 0) + pad;
  }
}

/** Loads eid's centre into W[0..2] and, when `swept` and moving, its velocity × dt into W[6..8]. */
function loadMotion(physics: Physics, eid: number, flags: number, swept: boolean): void {
  const { Position: p, Velocity: v } = physics.components;
  W[0] = p.x[eid];
  W[1] = p.y[eid];
  W[2] = p.z[eid];
  const moving = swept && (flags & MOVING) !== 0;
  const dt = physics.dt;
  W[6] = moving ? v.x[eid] * dt : 0;
  W[7] = moving ? v.y[eid] * dt : 0;
  W[8] = moving ? v.z[eid] * dt : 0;
}

/**
 * Writes sphere body `eid`'s bounds at rest (not swept) to `out[o .. o + 6)`, padded as
 * {@link sphereBounds} pads them: for builders that fill their own arrays.
 */
export function sphereBoundsAt(physics: Physics, eid: number, out: Float64Array, o: number): void {
  const p = physics.components.Position;
  const x = p.x[eid], y = p.y[eid], z = p.z[eid], r = physics.components.Sphere.radius[eid];
  const pad = BOUNDS_PAD * (1 + Math.abs(x) + Math.abs(y) + Math.abs(z) + r + r + r);
  out[o] = x - r - pad;
  out[o + 1] = y - r - pad;
  out[o + 2] = z - r - pad;
  out[o + 3] = x + r + pad;
  out[o + 4] = y + r + pad;
  out[o + 5] = z + r + pad;
}

/** Writes a sphere's bounds to `out[o .. o + 6)`, swept over the tick's motion when `swept`. */
export function sphereBounds(physics: Physics, eid: number, flags: number, swept: boolean, out: Float64Array, o: number): void {
  loadMotion(physics, eid, flags, swept);
  const r = physics.components.Sphere.radius[eid];
  W[3] = r;
  W[4] = r;
  W[5] = r;
  writeBounds(out, o);
}

/**
 * Writes a box's world bounds (half size per world axis = Σ |R_ij|·h_j, Ericson 4.2.6) to
 * `out[o .. o + 6)`, swept over the tick's motion when `swept`.
 */
export function boxBounds(physics: Physics, eid: number, flags: number, swept: boolean, out: Float64Array, o: number): void {
  const b = physics.components.Box;
  boxRotation(physics, eid, ROTATION);
  const x = ROTATION[0], y = ROTATION[1], z = ROTATION[2], w = ROTATION[3];
  const hx = b.hx[eid], hy = b.hy[eid], hz = b.hz[eid];
  const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * w), r02 = 2 * (x * z + y * w);
  const r10 = 2 * (x * y + z * w), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * w);
  const r20 = 2 * (x * z - y * w), r21 = 2 * (y * z + x * w), r22 = 1 - 2 * (x * x + y * y);
  loadMotion(physics, eid, flags, swept);
  W[3] = Math.abs(r00) * hx + Math.abs(r01) * hy + Math.abs(r02) * hz;
  W[4] = Math.abs(r10) * hx + Math.abs(r11) * hy + Math.abs(r12) * hz;
  W[5] = Math.abs(r20) * hx + Math.abs(r21) * hy + Math.abs(r22) * hz;
  writeBounds(out, o);
}

/**
 * Loads box body `eid` into `out`: centre from Position, half extents from Box, and the normalised
 * rotation ({@link boxRotation}). World frame, length units. The one box loader of the narrowphase,
 * the collision response and the queries (src/queries).
 */
export function loadBox(physics: Physics, eid: number, out: ScratchBox): void {
  const p = physics.components.Position;
  const b = physics.components.Box;
  out.center.x = p.x[eid];
  out.center.y = p.y[eid];
  out.center.z = p.z[eid];
  out.halfExtents.x = b.hx[eid];
  out.halfExtents.y = b.hy[eid];
  out.halfExtents.z = b.hz[eid];
  boxRotation(physics, eid, ROTATION);
  const q = out.rotation;
  q.x = ROTATION[0];
  q.y = ROTATION[1];
  q.z = ROTATION[2];
  q.w = ROTATION[3];
}
