/**
 * Convenience helpers that create and edit bodies with validation at the moment of setting: a bad
 * value throws `PhysicsInputError` naming the entity (or the helper) and the field.
 * Vectors may be given as `{x, y, z}` or `[x, y, z]`; rotation as `{x, y, z, w}` or `[x, y, z, w]`.
 * @module
 */
import { addComponent, addEntity, removeEntity } from 'bitecs';
import { PhysicsInputError } from './errors.js';
import { BodyFlags, type Physics } from './types.js';

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

function comp(v: Vec3Like | QuatLike, i: number, key: 'x' | 'y' | 'z' | 'w'): number {
  return Array.isArray(v) ? (v as readonly number[])[i] : (v as Record<string, number>)[key];
}

function readVec3(who: string, field: string, v: Vec3Like | undefined, out: Float64Array): void {
  if (v === undefined || v === null || typeof v !== 'object') throw new PhysicsInputError(-1, `${who}: ${field}`, 'must be {x, y, z} or [x, y, z]');
  const keys = ['x', 'y', 'z'] as const;
  for (let i = 0; i < 3; i++) {
    const c = comp(v, i, keys[i]);
    if (typeof c !== 'number' || !Number.isFinite(c)) {
      throw new PhysicsInputError(-1, `${who}: ${field}.${keys[i]}`, `must be a finite number, got ${String(c)}`);
    }
    out[i] = c;
  }
}

const tmp = new Float64Array(4);

function checkNonNegative(who: string, field: string, v: unknown): number {
  if (typeof v !== 'number' || !(v >= 0) || v === Infinity) throw new PhysicsInputError(-1, `${who}: ${field}`, `must be a finite number >= 0, got ${String(v)}`);
  return v;
}

function readQuat(who: string, q: QuatLike): void {
  const keys = ['x', 'y', 'z', 'w'] as const;
  let n2 = 0;
  for (let i = 0; i < 4; i++) {
    const c = comp(q, i, keys[i]);
    if (typeof c !== 'number' || !Number.isFinite(c)) throw new PhysicsInputError(-1, `${who}: rotation.${keys[i]}`, `must be a finite number, got ${String(c)}`);
    tmp[i] = c;
    n2 += c * c;
  }
  if (!(n2 > 1e-12)) throw new PhysicsInputError(-1, `${who}: rotation`, 'quaternion has length 0 (identity is [0, 0, 0, 1])');
}

function addBody(physics: Physics, who: string, o: BodyOptions, shape: object): number {
  const { world, components: c } = physics;
  const pos = new Float64Array(3);
  readVec3(who, 'position', o.position, pos);
  const vel = new Float64Array(3);
  if (o.velocity !== undefined) readVec3(who, 'velocity', o.velocity, vel);
  const eid = addEntity(world);
  addComponent(world, eid, c.Position);
  c.Position.x[eid] = pos[0];
  c.Position.y[eid] = pos[1];
  c.Position.z[eid] = pos[2];
  if (o.velocity !== undefined) {
    addComponent(world, eid, c.Velocity);
    c.Velocity.x[eid] = vel[0];
    c.Velocity.y[eid] = vel[1];
    c.Velocity.z[eid] = vel[2];
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
  const r = checkNonNegative('addSphere', 'radius', o.radius);
  const S = physics.components.Sphere;
  const eid = addBody(physics, 'addSphere', o, S);
  S.radius[eid] = r;
  return eid;
}

/** Creates a box body (static when it has no velocity) and returns its entity id. */
export function addBox(physics: Physics, o: BoxOptions): number {
  const h = new Float64Array(3);
  readVec3('addBox', 'halfExtents', o.halfExtents, h);
  for (let i = 0; i < 3; i++) checkNonNegative('addBox', `halfExtents.${'xyz'[i]}`, h[i]);
  if (o.rotation !== undefined) readQuat('addBox', o.rotation);
  else tmp.set([0, 0, 0, 1]);
  const B = physics.components.Box;
  const q0 = tmp[0], q1 = tmp[1], q2 = tmp[2], q3 = tmp[3];
  const eid = addBody(physics, 'addBox', o, B);
  B.hx[eid] = h[0];
  B.hy[eid] = h[1];
  B.hz[eid] = h[2];
  B.qx[eid] = q0;
  B.qy[eid] = q1;
  B.qz[eid] = q2;
  B.qw[eid] = q3;
  physics.internal.staticDirty = true;
  return eid;
}

function checkBody(physics: Physics, eid: number, who: string): void {
  if ((physics.internal.flags[eid] & (BodyFlags.SPHERE | BodyFlags.BOX)) === 0) {
    throw new PhysicsInputError(eid, who, 'is not a body of this physics instance');
  }
}

function checkFinite3(eid: number, field: string, x: number, y: number, z: number): void {
  const v = [x, y, z];
  for (let i = 0; i < 3; i++) {
    if (typeof v[i] !== 'number' || !Number.isFinite(v[i])) throw new PhysicsInputError(eid, `${field}.${'xyz'[i]}`, `must be a finite number, got ${String(v[i])}`);
  }
}

/** Sets a body's position (validated); re-buckets static boxes at the next step. */
export function setPosition(physics: Physics, eid: number, x: number, y: number, z: number): void {
  checkBody(physics, eid, 'Position');
  checkFinite3(eid, 'Position', x, y, z);
  const p = physics.components.Position;
  p.x[eid] = x;
  p.y[eid] = y;
  p.z[eid] = z;
  if ((physics.internal.flags[eid] & BodyFlags.BOX) !== 0) physics.internal.staticDirty = true;
}

/** Sets a body's velocity (validated), adding the Velocity component if it has none. */
export function setVelocity(physics: Physics, eid: number, x: number, y: number, z: number): void {
  checkBody(physics, eid, 'Velocity');
  checkFinite3(eid, 'Velocity', x, y, z);
  const { world, components: c } = physics;
  if ((physics.internal.flags[eid] & BodyFlags.MOVING) === 0) addComponent(world, eid, c.Velocity);
  c.Velocity.x[eid] = x;
  c.Velocity.y[eid] = y;
  c.Velocity.z[eid] = z;
}

/** Sets a sphere's radius (validated, >= 0). */
export function setRadius(physics: Physics, eid: number, radius: number): void {
  checkBody(physics, eid, 'Sphere.radius');
  if (!(typeof radius === 'number' && radius >= 0 && radius !== Infinity)) throw new PhysicsInputError(eid, 'Sphere.radius', `must be a finite number >= 0, got ${String(radius)}`);
  physics.components.Sphere.radius[eid] = radius;
}

/** Sets a box's half extents (validated, >= 0) and re-buckets static boxes at the next step. */
export function setHalfExtents(physics: Physics, eid: number, hx: number, hy: number, hz: number): void {
  checkBody(physics, eid, 'Box');
  const v = [hx, hy, hz];
  for (let i = 0; i < 3; i++) {
    if (!(typeof v[i] === 'number' && v[i] >= 0 && v[i] !== Infinity)) throw new PhysicsInputError(eid, `Box.h${'xyz'[i]}`, `must be a finite number >= 0, got ${String(v[i])}`);
  }
  const B = physics.components.Box;
  B.hx[eid] = hx;
  B.hy[eid] = hy;
  B.hz[eid] = hz;
  physics.internal.staticDirty = true;
}

/** Sets a box's rotation (validated: finite, non-zero; stored as given) and re-buckets static boxes. */
export function setRotation(physics: Physics, eid: number, q: QuatLike): void {
  checkBody(physics, eid, 'Box.rotation');
  try {
    readQuat(`entity ${eid}`, q);
  } catch (e) {
    throw new PhysicsInputError(eid, 'Box.rotation', (e as Error).message.replace(/^.*rotation[.\w]*: /, ''));
  }
  const B = physics.components.Box;
  B.qx[eid] = tmp[0];
  B.qy[eid] = tmp[1];
  B.qz[eid] = tmp[2];
  B.qw[eid] = tmp[3];
  physics.internal.staticDirty = true;
}

/** Removes a body's entity from the world; it never appears in a later contact. */
export function removeBody(physics: Physics, eid: number): void {
  removeEntity(physics.world, eid);
}
