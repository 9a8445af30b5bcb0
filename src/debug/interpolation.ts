/**
 * Render interpolation: the pose of each body between the last two ticks, for drawing at a frame
 * rate that is not the tick rate (the accumulator pattern of `createFixedStepper`, whose `alpha` is
 * the fraction of a tick that has elapsed since the last one: draw
 * `previous + alpha · (current − previous)`, one tick behind the simulation, so that motion is smooth
 * — Glenn Fiedler, "Fix Your Timestep!", 2004).
 *
 * Opt-in (`enableInterpolation`): the instance then keeps, for every moving body (a sphere or box
 * with Velocity), its pose at the end of each of the last two ticks — position, and a box's rotation
 * — taken by the `keepPoses` stage at the end of every `step` (after the integration, and after the
 * collision response moved the dynamic bodies), each with the tick it belongs to. The previous pose
 * of a body is used only when it was taken at tick `physics.tick − 1`; otherwise (a body added since,
 * a static body, or right after a restore to an older tick before any step) the current pose is
 * written whatever `alpha`. After a rollback (`restoreRollback`) and the re-simulation to the present,
 * the previous poses are those of the re-simulated tick: when the re-simulation equals the
 * prediction, the interpolated poses are bit for bit those the prediction gave.
 *
 * Frame and units: world frame, the physics' length unit; rotations are unit quaternions
 * (x, y, z, w) from a box's local frame to the world, as in the Box component.
 *
 * Positions: `(1 − alpha) · previous + alpha · current` per coordinate (exact at both ends).
 * Rotations: normalised linear interpolation (nlerp) along the shorter arc (the current quaternion
 * negated when the two have a negative dot product), not slerp: slerp needs acos and sin, which
 * ECMAScript leaves to each engine (the module computes nothing with them, see
 * docs/determinism.md), while nlerp needs + × ÷ √ only. Its path is slerp's; only its speed along it
 * differs, by at most 0.0003° at 6° of turn per tick (360°/s at 60 Hz), 0.11° at 45°, 0.92° at 90°.
 * At `alpha` 0 and 1 the two ticks' poses are copied exactly, and a coordinate or rotation equal at
 * both ticks is copied (no rounding jitter for a body at rest).
 *
 * No allocation per call: the poses live in two Float64Arrays of 8 numbers per entity id (x, y, z,
 * qx, qy, qz, qw, tick), grown by doubling with the instance's capacity before the stage's loop.
 * @module
 */
import { growArray } from '../math/grow.js';
import { PhysicsInputError } from '../physics/errors.js';
import { checkLive, internalsOf } from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';

const { SPHERE, BOX, MOVING } = BodyFlags;

/** Numbers per entity in a pose buffer: x, y, z, qx, qy, qz, qw, and the tick of the pose. */
const STRIDE = 8;
const TICK = 7;

/** The interpolation's state (in the instance, `internal.interpolation`, while enabled). */
export interface InterpolationState {
  /** The poses at the end of even ticks (`poses[0]`) and of odd ticks (`poses[1]`), `STRIDE` numbers per entity id. */
  poses: [Float64Array, Float64Array];
  /** Entity ids below it fit the pose buffers. */
  capacity: number;
  /** The `alpha` of the current call (read by the per-body writer, not passed as a double). */
  alpha: Float64Array;
}

/** A fresh state for `capacity` entity ids; every pose's tick is NaN (never taken). */
export function createInterpolationState(capacity: number): InterpolationState {
  const buffer = () => new Float64Array(STRIDE * capacity).fill(NaN);
  return { poses: [buffer(), buffer()], capacity, alpha: new Float64Array(1) };
}

/**
 * Where `interpolatePose` and `interpolatePoses` write: arrays indexed by entity id, like the
 * components (`out.x[eid]`). The rotation arrays are optional: give all four to receive boxes'
 * rotations (spheres' entries are left alone), or none.
 */
export interface PoseStore {
  x: { [eid: number]: number; readonly length: number };
  y: { [eid: number]: number; readonly length: number };
  z: { [eid: number]: number; readonly length: number };
  qx?: { [eid: number]: number; readonly length: number };
  qy?: { [eid: number]: number; readonly length: number };
  qz?: { [eid: number]: number; readonly length: number };
  qw?: { [eid: number]: number; readonly length: number };
}

/**
 * Starts keeping the moving bodies' previous poses. Takes the current poses now (as those of the
 * current tick), so the first step after it interpolates already. Idempotent.
 */
export function enableInterpolation(physics: Physics): void {
  checkLive(physics, 'enableInterpolation');
  const internal = internalsOf(physics);
  if (internal.interpolation !== null) return;
  internal.interpolation = createInterpolationState(internal.capacity);
  keepPoses(physics);
}

/** Stops keeping previous poses and frees them; `interpolatePose(s)` then throw until enabled again. */
export function disableInterpolation(physics: Physics): void {
  checkLive(physics, 'disableInterpolation');
  internalsOf(physics).interpolation = null;
}

/**
 * The last stage of a tick while interpolation is enabled (run by `step` after the integration, and
 * by the integrate system): copies each moving body's pose into the buffer of the tick just
 * counted (`physics.tick`), with that tick.
 */
export function keepPoses(physics: Physics): void {
  const internal = internalsOf(physics);
  const s = internal.interpolation!;
  if (s.capacity < internal.capacity) {
    s.poses[0] = growArray(s.poses[0], STRIDE * internal.capacity, NaN);
    s.poses[1] = growArray(s.poses[1], STRIDE * internal.capacity, NaN);
    s.capacity = internal.capacity;
  }
  copyPoses(physics, s.poses[physics.tick % 2]);
}

function copyPoses(physics: Physics, out: Float64Array): void {
  const { flags, maxEid } = internalsOf(physics);
  const { Position: P, Box: B } = physics.components;
  const tick = physics.tick;
  for (let e = 1; e <= maxEid; e++) {
    const f = flags[e];
    if ((f & MOVING) === 0 || (f & (SPHERE | BOX)) === 0) continue;
    const o = STRIDE * e;
    out[o] = P.x[e];
    out[o + 1] = P.y[e];
    out[o + 2] = P.z[e];
    if ((f & BOX) !== 0) {
      out[o + 3] = B.qx[e];
      out[o + 4] = B.qy[e];
      out[o + 5] = B.qz[e];
      out[o + 6] = B.qw[e];
    } else out[o + 6] = NaN; // no rotation taken (a sphere then)
    out[o + TICK] = tick;
  }
}

/**
 * Forgets the poses kept for entity `eid` (their ticks set to NaN): called when it stops being a
 * moving body (its Position, Sphere / Box or Velocity removed, `removeBody` included), so that a
 * body given the same id later — bitecs recycles ids — is drawn at its own current pose until it
 * has a previous one, not interpolated from the pose of the body that had the id before.
 */
export function forgetPoses(s: InterpolationState, eid: number): void {
  if (eid >= s.capacity) return;
  s.poses[0][STRIDE * eid + TICK] = NaN;
  s.poses[1][STRIDE * eid + TICK] = NaN;
}

/** The state, or a `PhysicsInputError` when interpolation is off; checks `alpha`. */
function stateFor(physics: Physics, alpha: number, source: string): InterpolationState {
  checkLive(physics, source);
  const s = internalsOf(physics).interpolation;
  if (s === null) throw new PhysicsInputError({ field: 'physics', problem: 'interpolation is off: call enableInterpolation(physics) before stepping', source });
  if (typeof alpha !== 'number' || !(alpha >= 0 && alpha <= 1)) {
    throw new PhysicsInputError({ field: 'alpha', problem: `must be a number in [0, 1] (the fixed stepper's alpha), got ${String(alpha)}`, source });
  }
  return s;
}

type Column = { readonly length: number } | undefined;

/** Throws unless `c` is an array-like of length ≥ `n` (`name` is its field in `out`). */
function checkColumn(name: string, c: Column, n: number, source: string): void {
  if (c === null || typeof c !== 'object' || typeof c.length !== 'number') throw new PhysicsInputError({ field: `out.${name}`, problem: 'must be an array indexed by entity id', source });
  if (c.length < n) throw new PhysicsInputError({ field: `out.${name}`, problem: `has length ${c.length}, needs at least ${n} (entity ids up to ${n - 1})`, source });
}

/** 1 when `out` has the four rotation arrays, 0 when none; throws when some but not all, or one is shorter than `n`. */
function checkStore(out: PoseStore, n: number, source: string): number {
  if (out === null || typeof out !== 'object') throw new PhysicsInputError({ field: 'out', problem: 'must be an object of arrays indexed by entity id ({ x, y, z } and optionally qx, qy, qz, qw)', source });
  checkColumn('x', out.x, n, source);
  checkColumn('y', out.y, n, source);
  checkColumn('z', out.z, n, source);
  if (out.qx === undefined && out.qy === undefined && out.qz === undefined && out.qw === undefined) return 0;
  checkColumn('qx', out.qx, n, source);
  checkColumn('qy', out.qy, n, source);
  checkColumn('qz', out.qz, n, source);
  checkColumn('qw', out.qw, n, source);
  return 1;
}

/**
 * Writes the pose of body `eid` at `alpha` between the last two ticks into `out` at index `eid`:
 * the position, and a box's rotation when `out` has rotation arrays (see {@link PoseStore}). `alpha`
 * is a number in [0, 1], e.g. the fixed stepper's `alpha`: 0 gives the pose at tick
 * `physics.tick − 1`, 1 the current pose. Throws `PhysicsInputError` (writing nothing) when
 * interpolation is off, `alpha` is outside [0, 1], `eid` is not a body, or `out` is too short.
 */
export function interpolatePose(physics: Physics, eid: number, alpha: number, out: PoseStore): void {
  const s = stateFor(physics, alpha, 'interpolatePose');
  const internal = internalsOf(physics);
  if (!(Number.isInteger(eid) && eid > 0 && eid <= internal.maxEid && (internal.flags[eid] & (SPHERE | BOX)) !== 0)) {
    throw new PhysicsInputError({ field: 'eid', problem: `entity ${String(eid)} is not a body (Position with Sphere or Box)`, source: 'interpolatePose' });
  }
  const rot = checkStore(out, eid + 1, 'interpolatePose');
  s.alpha[0] = alpha;
  writePose(physics, s, eid, out, rot);
}

/**
 * Writes the pose at `alpha` of every body into `out` (at each body's entity id; other entries are
 * left alone), as {@link interpolatePose} does for one, and returns the number of bodies written.
 * `out`'s arrays must be longer than the highest body id (checked first).
 */
export function interpolatePoses(physics: Physics, alpha: number, out: PoseStore): number {
  const s = stateFor(physics, alpha, 'interpolatePoses');
  const rot = checkStore(out, internalsOf(physics).maxEid + 1, 'interpolatePoses');
  s.alpha[0] = alpha;
  return writePoses(physics, s, out, rot);
}

function writePoses(physics: Physics, s: InterpolationState, out: PoseStore, rot: number): number {
  const { flags, maxEid } = internalsOf(physics);
  let n = 0;
  for (let e = 1; e <= maxEid; e++) {
    if ((flags[e] & (SPHERE | BOX)) === 0) continue;
    writePose(physics, s, e, out, rot);
    n++;
  }
  return n;
}

/** Writes body `e`'s pose at `s.alpha[0]` into `out` (and its rotation, if a box and `rot` is 1). */
function writePose(physics: Physics, s: InterpolationState, e: number, out: PoseStore, rot: number): void {
  const f = internalsOf(physics).flags[e];
  const { Position: P, Box: B } = physics.components;
  const tick = physics.tick;
  const prev = s.poses[(tick + 1) % 2];
  const o = STRIDE * e;
  const a = s.alpha[0];
  const b = 1 - a;
  // The previous pose, when it was taken at the previous tick and alpha < 1; else the current one.
  const lerp = (f & MOVING) !== 0 && a !== 1 && prev[o + TICK] === tick - 1;
  const x1 = P.x[e], y1 = P.y[e], z1 = P.z[e];
  if (!lerp) {
    out.x[e] = x1;
    out.y[e] = y1;
    out.z[e] = z1;
  } else {
    const x0 = prev[o], y0 = prev[o + 1], z0 = prev[o + 2];
    out.x[e] = a === 0 || x0 === x1 ? x0 : b * x0 + a * x1;
    out.y[e] = a === 0 || y0 === y1 ? y0 : b * y0 + a * y1;
    out.z[e] = a === 0 || z0 === z1 ? z0 : b * z0 + a * z1;
  }
  if (rot === 0 || (f & BOX) === 0) return;
  const qx1 = B.qx[e], qy1 = B.qy[e], qz1 = B.qz[e], qw1 = B.qw[e];
  const qx0 = prev[o + 3], qy0 = prev[o + 4], qz0 = prev[o + 5], qw0 = prev[o + 6];
  if (!lerp || qw0 !== qw0 || (qx0 === qx1 && qy0 === qy1 && qz0 === qz1 && qw0 === qw1)) {
    out.qx![e] = qx1;
    out.qy![e] = qy1;
    out.qz![e] = qz1;
    out.qw![e] = qw1;
  } else if (a === 0) {
    out.qx![e] = qx0;
    out.qy![e] = qy0;
    out.qz![e] = qz0;
    out.qw![e] = qw0;
  } else {
    // nlerp along the shorter arc: q1 negated when q0 · q1 < 0 (the same rotation).
    const t = qx0 * qx1 + qy0 * qy1 + qz0 * qz1 + qw0 * qw1 < 0 ? -a : a;
    const x = b * qx0 + t * qx1, y = b * qy0 + t * qy1, z = b * qz0 + t * qz1, w = b * qw0 + t * qw1;
    const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
    out.qx![e] = x * inv;
    out.qy![e] = y * inv;
    out.qz![e] = z * inv;
    out.qw![e] = w * inv;
  }
}
