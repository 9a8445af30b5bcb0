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
import { ResponseMode } from '../../components/index.js';
import { PhysicsInputError } from './errors.js';
import { BodyFlags, type Physics } from './physicsTypes.js';
import { checkLive, internalsOf } from './internal.js';
import { wake } from '../response/sleep.js';
import { clearJam } from '../response/jam.js';
import { readBits, readRadius, readRotation, readVector, vectorField as field, type QuatLike, type Vec3Like } from './readInput.js';

export type { QuatLike, Vec3Like } from './readInput.js';

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
  /**
   * Coulomb friction coefficient >= 0 (the Material component); a pair uses √(μa μb). Default: no
   * Material (μ = 0).
   */
  friction?: number;
}

export interface SphereOptions extends BodyOptions {
  /** Radius >= 0, length units. */
  radius: number;
  /**
   * Collision response: the physics moves the sphere and deflects it at impacts (`'stop'`,
   * `'slide'` or `'bounce'`, see `ResponseMode`). Needs a velocity (a sphere without one is not
   * moved). Default: none (the game reacts itself).
   */
  response?: 'stop' | 'slide' | 'bounce';
  /** Restitution in [0, 1] for `'bounce'` and sphere–sphere impacts. Default 1 for 'bounce', else 0. */
  restitution?: number;
  /** Mass > 0 for sphere–sphere impacts. Default: proportional to radius³. */
  mass?: number;
  /** Linear damping >= 0 per second: v *= 1 / (1 + dt·damping) each tick. Default 0. Needs a response. */
  damping?: number;
  /** Factor on the world's gravity (finite; 0 floats, negative rises). Default 1. Needs a response. */
  gravityScale?: number;
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

const ARG_POSITION = field('position', ['position.x', 'position.y', 'position.z']);
const ARG_VELOCITY = field('velocity', ['velocity.x', 'velocity.y', 'velocity.z']);
const ARG_HALF = field('halfExtents', ['halfExtents.x', 'halfExtents.y', 'halfExtents.z'], true);
const ARG_ROTATION = field('rotation', ['rotation.x', 'rotation.y', 'rotation.z', 'rotation.w']);
const POSITION = field('Position', ['Position.x', 'Position.y', 'Position.z']);
const VELOCITY = field('Velocity', ['Velocity.x', 'Velocity.y', 'Velocity.z']);
const HALF = field('Box', ['Box.hx', 'Box.hy', 'Box.hz'], true);
const ROTATION = field('Box.rotation', ['Box.qx', 'Box.qy', 'Box.qz', 'Box.qw']);

/** Scratch of the helpers: a validated vector or quaternion (read fully before anything is written). */
const tmp = new Float64Array(4);
const position = new Float64Array(3);
const velocity = new Float64Array(3);
const half = new Float64Array(3);

function writeVec3(store: { x: { [i: number]: number }; y: { [i: number]: number }; z: { [i: number]: number } }, eid: number, v: Float64Array): void {
  store.x[eid] = v[0];
  store.y[eid] = v[1];
  store.z[eid] = v[2];
}

const { SPHERE, BOX, MOVING } = BodyFlags;
const DEFAULT_GROUP = 1;
const DEFAULT_MASK = 0xffffffff;

/** The options `addSphere` takes (`SphereOptions`); any other key throws. */
const SPHERE_KEYS: ReadonlySet<string> = new Set(['position', 'velocity', 'sensor', 'group', 'mask', 'friction', 'radius', 'response', 'restitution', 'mass', 'damping', 'gravityScale']);
/** The options `addBox` takes (`BoxOptions`); any other key throws. */
const BOX_KEYS: ReadonlySet<string> = new Set(['position', 'velocity', 'sensor', 'group', 'mask', 'friction', 'halfExtents', 'rotation']);

/**
 * Throws `PhysicsInputError` naming the first key of `o` that `source` does not take (a typo such as
 * `reponse` would otherwise be ignored and make another body). A `for…in` over a small options
 * object allocates nothing (measured: 0.05 B per call over 10^6 calls with reused objects).
 */
function checkKeys(o: object, keys: ReadonlySet<string>, source: string): void {
  for (const k in o) {
    if (!keys.has(k)) throw new PhysicsInputError({ field: k, problem: `is not an option of ${source} (options: ${[...keys].join(', ')})`, source });
  }
}

/** Checks what `addSphere` / `addBox` share (before anything is created) into the scratch above. */
function readBody(physics: Physics, source: string, o: BodyOptions, keys: ReadonlySet<string>): void {
  checkLive(physics, source);
  if (o === null || typeof o !== 'object') {
    throw new PhysicsInputError({ field: 'options', problem: `must be an options object, got ${String(o)}`, source });
  }
  checkKeys(o, keys, source);
  readVector(o.position, 3, position, ARG_POSITION, source, -1);
  if (o.velocity !== undefined) readVector(o.velocity, 3, velocity, ARG_VELOCITY, source, -1);
  if (o.group !== undefined) readBits(o.group, source, -1, 'group');
  if (o.mask !== undefined) readBits(o.mask, source, -1, 'mask');
  const mu = o.friction;
  if (mu !== undefined && !(typeof mu === 'number' && mu >= 0 && mu !== Infinity)) {
    throw new PhysicsInputError({ field: 'friction', problem: `must be a finite number >= 0, got ${String(mu)}`, source });
  }
}

/** Creates the entity with Position, Velocity (when given), filter, sensor and then `shape`. */
function addBody(physics: Physics, o: BodyOptions, shape: object): number {
  const { world, components: c } = physics;
  const eid = addEntity(world);
  addComponent(world, eid, c.Position);
  writeVec3(c.Position, eid, position);
  if (o.velocity !== undefined) {
    addComponent(world, eid, c.Velocity);
    writeVec3(c.Velocity, eid, velocity);
  }
  if (o.group !== undefined || o.mask !== undefined) {
    addComponent(world, eid, c.CollisionFilter);
    c.CollisionFilter.group[eid] = o.group ?? DEFAULT_GROUP;
    c.CollisionFilter.mask[eid] = o.mask ?? DEFAULT_MASK;
  }
  if (o.sensor) addComponent(world, eid, c.Sensor);
  if (o.friction !== undefined) {
    addComponent(world, eid, c.Material);
    c.Material.friction[eid] = o.friction;
  }
  addComponent(world, eid, shape);
  return eid;
}

/**
 * Creates a sphere body and returns its entity id. Throws `PhysicsInputError` on bad input, an
 * unknown option key included (nothing is created then).
 */
export function addSphere(physics: Physics, o: SphereOptions): number {
  readBody(physics, 'addSphere', o, SPHERE_KEYS);
  const r = readRadius(o.radius, 'addSphere', -1, 'radius');
  const mode = readResponse(o);
  const S = physics.components.Sphere;
  const eid = addBody(physics, o, S);
  S.radius[eid] = r;
  if (mode >= 0) {
    const R = physics.components.Response;
    // After the add: its observer writes every field's default (createPhysics.ts).
    addComponent(physics.world, eid, R);
    R.mode[eid] = mode;
    R.restitution[eid] = o.restitution ?? (mode === ResponseMode.BOUNCE ? 1 : 0);
    R.mass[eid] = o.mass ?? 0;
    if (o.damping !== undefined) R.damping[eid] = o.damping;
    if (o.gravityScale !== undefined) R.gravityScale[eid] = o.gravityScale;
  }
  return eid;
}

const MODES = { stop: ResponseMode.STOP, slide: ResponseMode.SLIDE, bounce: ResponseMode.BOUNCE } as const;

/** Checks the response options of `addSphere`; returns the ResponseMode value, or -1 for none. */
function readResponse(o: SphereOptions): number {
  const source = 'addSphere';
  const { response, restitution, mass, damping, gravityScale } = o;
  if (response === undefined) {
    const field = restitution !== undefined ? 'restitution' : mass !== undefined ? 'mass' : damping !== undefined ? 'damping' : gravityScale !== undefined ? 'gravityScale' : '';
    if (field !== '') throw new PhysicsInputError({ field, problem: "needs a response ('stop', 'slide' or 'bounce')", source });
    return -1;
  }
  if (damping !== undefined && !(typeof damping === 'number' && damping >= 0 && damping !== Infinity)) {
    throw new PhysicsInputError({ field: 'damping', problem: `must be a finite number >= 0 (per second), got ${String(damping)}`, source });
  }
  if (gravityScale !== undefined && !(typeof gravityScale === 'number' && Number.isFinite(gravityScale))) {
    throw new PhysicsInputError({ field: 'gravityScale', problem: `must be a finite number, got ${String(gravityScale)}`, source });
  }
  if (!Object.prototype.hasOwnProperty.call(MODES, response)) {
    throw new PhysicsInputError({ field: 'response', problem: `must be 'stop', 'slide' or 'bounce', got ${JSON.stringify(response)}`, source });
  }
  if (restitution !== undefined && !(typeof restitution === 'number' && restitution >= 0 && restitution <= 1)) {
    throw new PhysicsInputError({ field: 'restitution', problem: `must be a number in [0, 1], got ${String(restitution)}`, source });
  }
  if (mass !== undefined && !(typeof mass === 'number' && mass > 0 && mass !== Infinity)) {
    throw new PhysicsInputError({ field: 'mass', problem: `must be a finite number > 0, got ${String(mass)}`, source });
  }
  return MODES[response];
}

/**
 * Creates a box body (static when it has no velocity) and returns its entity id. Throws
 * `PhysicsInputError` on bad input, an unknown option key included (`response` is for spheres:
 * boxes have no collision response); nothing is created then.
 */
export function addBox(physics: Physics, o: BoxOptions): number {
  readBody(physics, 'addBox', o, BOX_KEYS);
  readVector(o.halfExtents, 3, half, ARG_HALF, 'addBox', -1);
  if (o.rotation !== undefined) readRotation(o.rotation, tmp, ARG_ROTATION, 'addBox', -1);
  else {
    tmp[0] = tmp[1] = tmp[2] = 0;
    tmp[3] = 1;
  }
  const eid = addBody(physics, o, physics.components.Box);
  writeHalfExtents(physics, eid, half);
  writeRotation(physics, eid, tmp);
  return eid;
}

/** Writes a box's half extents from `h[0..2]`; static boxes re-bucket at the next step, queries see it. */
function writeHalfExtents(physics: Physics, eid: number, h: Float64Array): void {
  const B = physics.components.Box;
  B.hx[eid] = h[0];
  B.hy[eid] = h[1];
  B.hz[eid] = h[2];
  boxMoved(physics);
}

/** Writes a box's rotation from `q[0..3]` (x, y, z, w); static boxes re-bucket at the next step. */
function writeRotation(physics: Physics, eid: number, q: Float64Array): void {
  const B = physics.components.Box;
  B.qx[eid] = q[0];
  B.qy[eid] = q[1];
  B.qz[eid] = q[2];
  B.qw[eid] = q[3];
  boxMoved(physics);
}

/** A box moved, turned or resized between ticks: the static grid and the query grid rebuild. */
function boxMoved(physics: Physics): void {
  const internals = internalsOf(physics);
  internals.broadphase.staticDirty = true;
  internals.queryDirty = true;
  internals.writes++;
}

/**
 * Throws unless `eid` is a body of this live instance with one of the `shape` flags (SPHERE, BOX or
 * both): naming the shape it has when it is a body of the other shape.
 */
function checkBody(physics: Physics, eid: number, source: string, name: string, shape: number): void {
  checkLive(physics, source);
  const flags = internalsOf(physics).flags;
  const f = Number.isInteger(eid) && eid >= 0 && eid < flags.length ? flags[eid] : 0;
  if ((f & (SPHERE | BOX)) === 0) {
    throw new PhysicsInputError({ eid, field: name, problem: 'is not a body of this physics instance', source });
  }
  if ((f & shape) === 0) {
    const is = (f & SPHERE) !== 0 ? 'a sphere' : 'a box';
    const applies = shape === SPHERE ? 'spheres' : 'boxes';
    throw new PhysicsInputError({ eid, field: name, problem: `is ${is}: ${source} applies to ${applies} only`, source });
  }
}

/** Sets a body's position (world frame, length units; validated); re-buckets static boxes at the next step. */
export function setPosition(physics: Physics, eid: number, p: Vec3Like): void {
  checkBody(physics, eid, 'setPosition', 'Position', SPHERE | BOX);
  readVector(p, 3, tmp, POSITION, 'setPosition', eid);
  writeVec3(physics.components.Position, eid, tmp);
  bodyWritten(physics, eid);
  if ((internalsOf(physics).flags[eid] & BOX) !== 0) boxMoved(physics);
  else internalsOf(physics).queryDirty = true;
}

/** Sets a body's velocity (length units per second; validated), adding the Velocity component if it has none. */
export function setVelocity(physics: Physics, eid: number, v: Vec3Like): void {
  checkBody(physics, eid, 'setVelocity', 'Velocity', SPHERE | BOX);
  readVector(v, 3, tmp, VELOCITY, 'setVelocity', eid);
  const { world, components: c } = physics;
  if ((internalsOf(physics).flags[eid] & MOVING) === 0) addComponent(world, eid, c.Velocity);
  writeVec3(c.Velocity, eid, tmp);
  bodyWritten(physics, eid);
}

/**
 * After the game wrote body `eid`'s Position or Velocity (the helpers, bitecs `set()`): it wakes
 * when it sleeps, loses its jam mark (src/response/jam.ts), and the write is counted
 * (`PhysicsInternal.writes`: the narrowphase then tests the pairs itself, src/step/testPairs.ts).
 */
export function bodyWritten(physics: Physics, eid: number): void {
  const internal = internalsOf(physics);
  if (internal.sleep !== null) wake(internal.sleep, eid);
  clearJam(internal, eid);
  internal.writes++;
}

/** Wakes `eid` when sleep is on and it sleeps (src/response/sleep.ts). */
function wakeIfAsleep(physics: Physics, eid: number): void {
  const sleep = internalsOf(physics).sleep;
  if (sleep !== null) wake(sleep, eid);
}

/**
 * Wakes a sleeping dynamic body (with the `sleep` option; see docs/response.md, "Sleep"): from the
 * next tick it is moved by the physics again, and its time below the sleep speed starts from 0.
 * Does nothing for an awake body or with sleep off; throws `PhysicsInputError` when `eid` is not a
 * body of this instance. Writing its Position or Velocity through `setPosition`, `setVelocity` or
 * bitecs `set()` wakes it too, and so does a non-zero Velocity written directly.
 */
export function wakeBody(physics: Physics, eid: number): void {
  checkBody(physics, eid, 'wakeBody', 'eid', SPHERE | BOX);
  wakeIfAsleep(physics, eid);
}

/** Sets a sphere's radius (length units, validated >= 0). Throws for a box. */
export function setRadius(physics: Physics, eid: number, radius: number): void {
  checkBody(physics, eid, 'setRadius', 'Sphere.radius', SPHERE);
  physics.components.Sphere.radius[eid] = readRadius(radius, 'setRadius', eid, 'Sphere.radius');
  internalsOf(physics).queryDirty = true;
  internalsOf(physics).writes++;
}

/**
 * Sets a box's half extents (length units, validated >= 0) and re-buckets static boxes at the next
 * step. Throws for a sphere.
 */
export function setHalfExtents(physics: Physics, eid: number, halfExtents: Vec3Like): void {
  checkBody(physics, eid, 'setHalfExtents', 'Box', BOX);
  readVector(halfExtents, 3, tmp, HALF, 'setHalfExtents', eid);
  writeHalfExtents(physics, eid, tmp);
}

/**
 * Sets a box's rotation (validated: finite, not all zero; stored as given) and re-buckets static
 * boxes. Throws for a sphere.
 */
export function setRotation(physics: Physics, eid: number, rotation: QuatLike): void {
  checkBody(physics, eid, 'setRotation', 'Box.rotation', BOX);
  readRotation(rotation, tmp, ROTATION, 'setRotation', eid);
  writeRotation(physics, eid, tmp);
}

/**
 * Removes a body's entity from the world; it never appears in a later contact. Throws
 * `PhysicsInputError` when `eid` is not a body of this instance (use bitecs `removeEntity` for
 * other entities).
 */
export function removeBody(physics: Physics, eid: number): void {
  checkBody(physics, eid, 'removeBody', 'eid', SPHERE | BOX);
  removeEntity(physics.world, eid);
}
