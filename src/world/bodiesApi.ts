/**
 * Convenience helpers that create and edit bodies with validation at the moment of setting: a bad
 * value throws `PhysicsInputError` naming the helper, the entity (once there is one) and the field.
 *
 * One argument convention everywhere: vectors are `Vec3Like` (`{x, y, z}` or `[x, y, z]`), rotations
 * `QuatLike` (`{x, y, z, w}` or `[x, y, z, w]`, local → world). World frame; lengths in the caller's
 * unit, velocities in length units per second. The helpers allocate nothing themselves (pass a
 * reused object or array in per-tick code; a fresh literal per call is the caller's allocation).
 * @module
 */
import { addComponent, addEntity, removeEntity } from 'bitecs';
import { PhysicsInputError } from './errors.js';
import { BodyFlags, type Physics } from './types.js';
import { internalsOf } from './internal.js';

/** A vector as an object or a 3-element array. */
export type Vec3Like = { x: number; y: number; z: number } | readonly [number, number, number];
/** A quaternion as an object or a 4-element array (x, y, z, w). */
export type QuatLike = { x: number; y: number; z: number; w: number } | readonly [number, number, number, number];

/** Options shared by `addSphere` and `addBox`. */
export interface BodyOptions {
  /** Centre, world frame, length units. */
  position: Vec3Like;
  /** Velocity in length units per second; omit for a body that does not move (a static box). */
  velocity?: Vec3Like;
  /** Report contacts but flag them as sensor contacts. */
  sensor?: boolean;
  /** Collision group bits (default 1). */
  group?: number;
  /** Collision mask bits (default 0xffffffff). */
  mask?: number;
}

export interface SphereOptions extends BodyOptions {
  /** Radius >= 0, length units. */
  radius: number;
}

export interface BoxOptions extends BodyOptions {
  /** Half extents >= 0 along the box's local axes, length units. */
  halfExtents: Vec3Like;
  /**
   * Unit quaternion local → world; default identity (axis-aligned). Stored as given (a non-unit one
   * is normalised where it is used), so writing the same numbers into the Box component directly
   * gives bit-identical results.
   */
  rotation?: QuatLike;
}

/** How a vector argument is named in errors and what it accepts (module constants: no allocation). */
interface VectorField {
  /** The whole argument, e.g. `position` or `Box.rotation`. */
  readonly whole: string;
  /** Each component, e.g. `position.x` or `Box.hx`. */
  readonly parts: readonly string[];
  /** Components must be >= 0 (sizes). */
  readonly nonNegative: boolean;
}

const field = (whole: string, parts: readonly string[], nonNegative = false): VectorField => ({ whole, parts, nonNegative });
const ARG_POSITION = field('position', ['position.x', 'position.y', 'position.z']);
const ARG_VELOCITY = field('velocity', ['velocity.x', 'velocity.y', 'velocity.z']);
const ARG_HALF = field('halfExtents', ['halfExtents.x', 'halfExtents.y', 'halfExtents.z'], true);
const ARG_ROTATION = field('rotation', ['rotation.x', 'rotation.y', 'rotation.z', 'rotation.w']);
const POSITION = field('Position', ['Position.x', 'Position.y', 'Position.z']);
const VELOCITY = field('Velocity', ['Velocity.x', 'Velocity.y', 'Velocity.z']);
const HALF = field('Box', ['Box.hx', 'Box.hy', 'Box.hz'], true);
const ROTATION = field('Box.rotation', ['Box.qx', 'Box.qy', 'Box.qz', 'Box.qw']);
const KEYS = ['x', 'y', 'z', 'w'] as const;

/** Scratch of the helpers: a validated vector or quaternion (read fully before anything is written). */
const tmp = new Float64Array(4);
const position = new Float64Array(3);
const velocity = new Float64Array(3);
const half = new Float64Array(3);

function describe(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/**
 * Reads the first `n` components of `v` into `out` and checks them (finite; >= 0 for sizes).
 * Throws `PhysicsInputError` naming `source`, `eid` and the field before writing anything.
 */
function readVector(v: unknown, n: number, out: Float64Array, f: VectorField, source: string, eid: number): void {
  if (v === null || typeof v !== 'object') {
    const form = n === 3 ? '{x, y, z} or [x, y, z]' : '{x, y, z, w} or [x, y, z, w]';
    throw new PhysicsInputError({ eid, field: f.whole, problem: `must be ${form}, got ${describe(v)}`, source });
  }
  const array = Array.isArray(v);
  for (let i = 0; i < n; i++) {
    const c: unknown = array ? (v as readonly unknown[])[i] : (v as Record<string, unknown>)[KEYS[i]];
    if (typeof c !== 'number' || !Number.isFinite(c) || (f.nonNegative && !(c >= 0))) {
      const what = f.nonNegative ? 'a finite number >= 0' : 'a finite number';
      throw new PhysicsInputError({ eid, field: f.parts[i], problem: `must be ${what}, got ${describe(c)}`, source });
    }
    out[i] = c;
  }
}

/** Reads a rotation into `tmp` and rejects a zero quaternion. */
function readRotation(q: unknown, f: VectorField, source: string, eid: number): void {
  readVector(q, 4, tmp, f, source, eid);
  const n2 = tmp[0] * tmp[0] + tmp[1] * tmp[1] + tmp[2] * tmp[2] + tmp[3] * tmp[3];
  if (!(n2 > 1e-12)) {
    throw new PhysicsInputError({ eid, field: f.whole, problem: 'quaternion has length 0 (identity is [0, 0, 0, 1])', source });
  }
}

function readRadius(r: unknown, source: string, eid: number, name: string): number {
  if (typeof r !== 'number' || !(r >= 0) || r === Infinity) {
    throw new PhysicsInputError({ eid, field: name, problem: `must be a finite number >= 0, got ${describe(r)}`, source });
  }
  return r;
}

function writeVec3(store: { x: { [i: number]: number }; y: { [i: number]: number }; z: { [i: number]: number } }, eid: number, v: Float64Array): void {
  store.x[eid] = v[0];
  store.y[eid] = v[1];
  store.z[eid] = v[2];
}

/** Creates the entity with Position, Velocity (when given), filter, sensor and then `shape`. */
function addBody(physics: Physics, source: string, o: BodyOptions, shape: object): number {
  const { world, components: c } = physics;
  readVector(o.position, 3, position, ARG_POSITION, source, -1);
  if (o.velocity !== undefined) readVector(o.velocity, 3, velocity, ARG_VELOCITY, source, -1);
  const eid = addEntity(world);
  addComponent(world, eid, c.Position);
  writeVec3(c.Position, eid, position);
  if (o.velocity !== undefined) {
    addComponent(world, eid, c.Velocity);
    writeVec3(c.Velocity, eid, velocity);
  }
  if (o.group !== undefined || o.mask !== undefined) {
    addComponent(world, eid, c.CollisionFilter);
    c.CollisionFilter.group[eid] = o.group ?? 1;
    c.CollisionFilter.mask[eid] = o.mask ?? 0xffffffff;
  }
  if (o.sensor) addComponent(world, eid, c.Sensor);
  addComponent(world, eid, shape);
  return eid;
}

/** Creates a sphere body and returns its entity id. Throws `PhysicsInputError` on bad input. */
export function addSphere(physics: Physics, o: SphereOptions): number {
  const r = readRadius(o.radius, 'addSphere', -1, 'radius');
  const S = physics.components.Sphere;
  const eid = addBody(physics, 'addSphere', o, S);
  S.radius[eid] = r;
  return eid;
}

/** Creates a box body (static when it has no velocity) and returns its entity id. */
export function addBox(physics: Physics, o: BoxOptions): number {
  readVector(o.halfExtents, 3, half, ARG_HALF, 'addBox', -1);
  if (o.rotation !== undefined) readRotation(o.rotation, ARG_ROTATION, 'addBox', -1);
  else {
    tmp[0] = tmp[1] = tmp[2] = 0;
    tmp[3] = 1;
  }
  const B = physics.components.Box;
  const eid = addBody(physics, 'addBox', o, B);
  B.hx[eid] = half[0];
  B.hy[eid] = half[1];
  B.hz[eid] = half[2];
  B.qx[eid] = tmp[0];
  B.qy[eid] = tmp[1];
  B.qz[eid] = tmp[2];
  B.qw[eid] = tmp[3];
  internalsOf(physics).staticDirty = true;
  return eid;
}

function checkBody(physics: Physics, eid: number, source: string, name: string): void {
  if ((internalsOf(physics).flags[eid] & (BodyFlags.SPHERE | BodyFlags.BOX)) === 0) {
    throw new PhysicsInputError({ eid, field: name, problem: 'is not a body of this physics instance', source });
  }
}

/** Sets a body's position (world frame, length units; validated); re-buckets static boxes at the next step. */
export function setPosition(physics: Physics, eid: number, p: Vec3Like): void {
  checkBody(physics, eid, 'setPosition', 'Position');
  readVector(p, 3, tmp, POSITION, 'setPosition', eid);
  writeVec3(physics.components.Position, eid, tmp);
  if ((internalsOf(physics).flags[eid] & BodyFlags.BOX) !== 0) internalsOf(physics).staticDirty = true;
}

/** Sets a body's velocity (length units per second; validated), adding the Velocity component if it has none. */
export function setVelocity(physics: Physics, eid: number, v: Vec3Like): void {
  checkBody(physics, eid, 'setVelocity', 'Velocity');
  readVector(v, 3, tmp, VELOCITY, 'setVelocity', eid);
  const { world, components: c } = physics;
  if ((internalsOf(physics).flags[eid] & BodyFlags.MOVING) === 0) addComponent(world, eid, c.Velocity);
  writeVec3(c.Velocity, eid, tmp);
}

/** Sets a sphere's radius (length units, validated >= 0). */
export function setRadius(physics: Physics, eid: number, radius: number): void {
  checkBody(physics, eid, 'setRadius', 'Sphere.radius');
  physics.components.Sphere.radius[eid] = readRadius(radius, 'setRadius', eid, 'Sphere.radius');
}

/** Sets a box's half extents (length units, validated >= 0) and re-buckets static boxes at the next step. */
export function setHalfExtents(physics: Physics, eid: number, halfExtents: Vec3Like): void {
  checkBody(physics, eid, 'setHalfExtents', 'Box');
  readVector(halfExtents, 3, tmp, HALF, 'setHalfExtents', eid);
  const B = physics.components.Box;
  B.hx[eid] = tmp[0];
  B.hy[eid] = tmp[1];
  B.hz[eid] = tmp[2];
  internalsOf(physics).staticDirty = true;
}

/** Sets a box's rotation (validated: finite, non-zero; stored as given) and re-buckets static boxes. */
export function setRotation(physics: Physics, eid: number, rotation: QuatLike): void {
  checkBody(physics, eid, 'setRotation', 'Box.rotation');
  readRotation(rotation, ROTATION, 'setRotation', eid);
  const B = physics.components.Box;
  B.qx[eid] = tmp[0];
  B.qy[eid] = tmp[1];
  B.qz[eid] = tmp[2];
  B.qw[eid] = tmp[3];
  internalsOf(physics).staticDirty = true;
}

/** Removes a body's entity from the world; it never appears in a later contact. */
export function removeBody(physics: Physics, eid: number): void {
  removeEntity(physics.world, eid);
}
