/**
 * bitecs 0.4 `set()` support: `onSet` handlers on the physics components, so that
 * `addComponent(world, eid, set(Position, {x, y, z}))`, `addComponents(world, eid, set(…), set(…))`,
 * `addEntity(world, set(…))` and `setComponent(world, eid, Sphere, {radius})` write the values,
 * validated like the helpers (a bad value throws `PhysicsInputError` with source `set(Name)` and
 * leaves the stored values as they were). World frame; lengths in the caller's unit, velocities in
 * length units per second.
 *
 * The data each component takes:
 * - Position, Velocity: `{x, y, z}` (no other own key) or `[x, y, z]`.
 * - Sphere: `{radius}`.
 * - Box: `{halfExtents?, rotation?}` (Vec3Like, QuatLike) or the store's own fields
 *   `{hx?, hy?, hz?, qx?, qy?, qz?, qw?}` (the four q's together); fields left out keep their values
 *   (a new box: zero half extents, identity rotation).
 * - CollisionFilter: `{group?, mask?}` (32 bits each; a new filter: group 1, mask 0xffffffff).
 * - Response: `{mode?, restitution?, mass?, damping?, gravityScale?}`.
 * - Material: `{friction}`.
 *
 * Adding `set()` support to another component: write a {@link SetWriter} for it (read and check all
 * of the data first, then write; throw `PhysicsInputError` with source `set(Name)`) and add one line
 * `Name: writer` to {@link SET_WRITERS}; `createPhysics` registers every entry for the instance's
 * own store of that name.
 *
 * Cost: bitecs calls a set handler only when data comes with the component, so a game that never
 * uses `set()` pays nothing per tick (unlike an onAdd/onRemove observer, a set handler adds no work
 * to plain adds and removes). A game's own Position/Velocity store (options.position / velocity)
 * gets no handler: its set() data is the game's business.
 * @module
 */
import { observe, onSet } from 'bitecs';
import { ResponseMode, type PhysicsComponents } from '../../components/index.js';
import { PhysicsInputError } from './errors.js';
import { BodyFlags, type Physics } from './physicsTypes.js';
import { internalsOf } from './internal.js';
import { bodyWritten } from './bodies.js';
import { setCharacter } from '../character/addCharacter.js';
import { describe, readBits, readRadius, readRotation, readVector, vectorField } from './readInput.js';

const POSITION = vectorField('Position', ['Position.x', 'Position.y', 'Position.z']);
const VELOCITY = vectorField('Velocity', ['Velocity.x', 'Velocity.y', 'Velocity.z']);
const HALF = vectorField('Box.halfExtents', ['Box.hx', 'Box.hy', 'Box.hz'], true);
const ROTATION = vectorField('Box.rotation', ['Box.qx', 'Box.qy', 'Box.qz', 'Box.qw']);

const SPHERE_KEYS = new Set(['radius']);
const BOX_KEYS = new Set(['halfExtents', 'rotation', 'hx', 'hy', 'hz', 'qx', 'qy', 'qz', 'qw']);
const FILTER_KEYS = new Set(['group', 'mask']);

/** Validated values, read fully before anything is written (per-call scratch: nothing is kept). */
const vec = new Float64Array(3);
const quat = new Float64Array(4);

/** Throws unless `data` is an object whose keys are all in `keys` (a typo would be ignored otherwise). */
function checkRecord(data: unknown, keys: Set<string>, source: string, eid: number, form: string): asserts data is Record<string, unknown> {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new PhysicsInputError({ eid, field: 'data', problem: `must be ${form}, got ${describe(data)}`, source });
  }
  for (const k in data) {
    if (!keys.has(k)) throw new PhysicsInputError({ eid, field: k, problem: `is not a field of ${form}`, source });
  }
}

function readFlat(v: unknown, source: string, eid: number, name: string, nonNegative: boolean): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || (nonNegative && !(v >= 0))) {
    const what = nonNegative ? 'a finite number >= 0' : 'a finite number';
    throw new PhysicsInputError({ eid, field: name, problem: `must be ${what}, got ${describe(v)}`, source });
  }
  return v;
}

const BOX_FORM = '{halfExtents?, rotation?} or {hx?, hy?, hz?, qx?, qy?, qz?, qw?}';

/**
 * Reads a Box set's data into `vec` / `quat`; returns which of them it writes: hx, hy, hz (bits 0..2)
 * and the rotation (bit 3).
 */
function readBox(d: unknown, eid: number): number {
  const source = 'set(Box)';
  checkRecord(d, BOX_KEYS, source, eid, BOX_FORM);
  let boxWrites = 0;
  const flatHalf = d.hx !== undefined || d.hy !== undefined || d.hz !== undefined;
  if (d.halfExtents !== undefined) {
    if (flatHalf) throw new PhysicsInputError({ eid, field: 'halfExtents', problem: 'give halfExtents or hx, hy, hz, not both', source });
    readVector(d.halfExtents, 3, vec, HALF, source, eid);
    boxWrites = 7;
  } else if (flatHalf) {
    const h = [d.hx, d.hy, d.hz];
    for (let i = 0; i < 3; i++) {
      if (h[i] === undefined) continue;
      vec[i] = readFlat(h[i], source, eid, HALF.parts[i], true);
      boxWrites |= 1 << i;
    }
  }
  const q = [d.qx, d.qy, d.qz, d.qw];
  const flatRotation = q.some((v) => v !== undefined);
  if (d.rotation !== undefined) {
    if (flatRotation) throw new PhysicsInputError({ eid, field: 'rotation', problem: 'give rotation or qx, qy, qz, qw, not both', source });
    readRotation(d.rotation, quat, ROTATION, source, eid);
    boxWrites |= 8;
  } else if (flatRotation) {
    if (!q.every((v) => v !== undefined)) {
      throw new PhysicsInputError({ eid, field: 'Box.rotation', problem: 'qx, qy, qz and qw go together (a quaternion is all four)', source });
    }
    readRotation(q, quat, ROTATION, source, eid);
    boxWrites |= 8;
  }
  if (boxWrites === 0) throw new PhysicsInputError({ eid, field: 'data', problem: `must be ${BOX_FORM} with at least one field, got {}`, source });
  return boxWrites;
}

/**
 * A body's pose or shape was written (as the helpers do in src/physics/bodies.ts): the world
 * queries rebuild their structure at the next query, and for a box (`box`) the broadphase re-buckets
 * the static boxes at the next step.
 */
function shapeChanged(physics: Physics, box: boolean): void {
  const internal = internalsOf(physics);
  internal.queryDirty = true;
  internal.writes++;
  if (box) internal.broadphase.staticDirty = true;
}

/**
 * Writes the data of one `set(Component, data)` (or `setComponent`) to entity `eid`, after bitecs
 * has added the component (its onAdd observers, e.g. the capacity growth, have run). Reads and checks
 * all of `data` before writing any of it; throws `PhysicsInputError` (source `set(Name)`) for bad
 * data, leaving the stored values as they were.
 */
export type SetWriter = (physics: Physics, eid: number, data: unknown) => void;

function setBox(physics: Physics, eid: number, data: unknown): void {
  const boxWrites = readBox(data, eid);
  const B = physics.components.Box;
  if ((boxWrites & 1) !== 0) B.hx[eid] = vec[0];
  if ((boxWrites & 2) !== 0) B.hy[eid] = vec[1];
  if ((boxWrites & 4) !== 0) B.hz[eid] = vec[2];
  if ((boxWrites & 8) !== 0) {
    B.qx[eid] = quat[0];
    B.qy[eid] = quat[1];
    B.qz[eid] = quat[2];
    B.qw[eid] = quat[3];
  }
  shapeChanged(physics, true);
}

function setSphere(physics: Physics, eid: number, data: unknown): void {
  checkRecord(data, SPHERE_KEYS, 'set(Sphere)', eid, '{radius}');
  physics.components.Sphere.radius[eid] = readRadius(data.radius, 'set(Sphere)', eid, 'Sphere.radius');
  shapeChanged(physics, false);
}

function setFilter(physics: Physics, eid: number, data: unknown): void {
  const source = 'set(CollisionFilter)';
  checkRecord(data, FILTER_KEYS, source, eid, '{group?, mask?}');
  const group = data.group === undefined ? -1 : readBits(data.group, source, eid, 'CollisionFilter.group');
  const mask = data.mask === undefined ? -1 : readBits(data.mask, source, eid, 'CollisionFilter.mask');
  const F = physics.components.CollisionFilter;
  if (group >= 0) F.group[eid] = group;
  if (mask >= 0) F.mask[eid] = mask;
  internalsOf(physics).writes++;
}

/**
 * Throws unless every own key of a `{x, y, z}` object is x, y or z (a typo such as `zz` would be
 * ignored otherwise). Inherited keys are not data (a vector class may put flags on its prototype).
 */
function checkVec3Keys(data: unknown, source: string, eid: number): void {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return;
  for (const k in data) {
    if (k !== 'x' && k !== 'y' && k !== 'z' && Object.prototype.hasOwnProperty.call(data, k)) {
      throw new PhysicsInputError({ eid, field: k, problem: 'is not a field of {x, y, z}', source });
    }
  }
}

function writeVec3(physics: Physics, eid: number, data: unknown, moving: boolean): void {
  const store = moving ? physics.components.Velocity : physics.components.Position;
  const source = moving ? 'set(Velocity)' : 'set(Position)';
  checkVec3Keys(data, source, eid);
  readVector(data, 3, vec, moving ? VELOCITY : POSITION, source, eid);
  store.x[eid] = vec[0];
  store.y[eid] = vec[1];
  store.z[eid] = vec[2];
  bodyWritten(physics, eid);
  if (!moving) shapeChanged(physics, (internalsOf(physics).flags[eid] & BodyFlags.BOX) !== 0);
}

const RESPONSE_KEYS = new Set(['mode', 'restitution', 'mass', 'damping', 'gravityScale']);
const RESPONSE_FORM = '{mode?, restitution?, mass?, damping?, gravityScale?}';
const MATERIAL_KEYS = new Set(['friction']);
const MODE_NAMES: Readonly<Record<string, number>> = { stop: ResponseMode.STOP, slide: ResponseMode.SLIDE, bounce: ResponseMode.BOUNCE };

/** A mode given as 'stop' | 'slide' | 'bounce' or as a ResponseMode value. */
function readMode(v: unknown, eid: number): number {
  if (typeof v === 'string' && Object.prototype.hasOwnProperty.call(MODE_NAMES, v)) return MODE_NAMES[v];
  if (v === ResponseMode.STOP || v === ResponseMode.SLIDE || v === ResponseMode.BOUNCE) return v;
  throw new PhysicsInputError({ eid, field: 'Response.mode', problem: `must be 'stop', 'slide', 'bounce' or a ResponseMode value, got ${describe(v)}`, source: 'set(Response)' });
}

/**
 * Response: every given field checked (restitution in [0, 1], mass finite >= 0, 0 = by radius³,
 * damping finite >= 0, gravityScale finite), then written.
 */
function setResponse(physics: Physics, eid: number, data: unknown): void {
  const source = 'set(Response)';
  checkRecord(data, RESPONSE_KEYS, source, eid, RESPONSE_FORM);
  const mode = data.mode === undefined ? -1 : readMode(data.mode, eid);
  const e = data.restitution === undefined ? -1 : readFlat(data.restitution, source, eid, 'Response.restitution', true);
  if (e > 1) throw new PhysicsInputError({ eid, field: 'Response.restitution', problem: `must be a number in [0, 1], got ${e}`, source });
  const mass = data.mass === undefined ? -1 : readFlat(data.mass, source, eid, 'Response.mass', true);
  const damping = data.damping === undefined ? -1 : readFlat(data.damping, source, eid, 'Response.damping', true);
  if (data.gravityScale !== undefined) readFlat(data.gravityScale, source, eid, 'Response.gravityScale', false);
  const R = physics.components.Response;
  if (mode >= 0) R.mode[eid] = mode;
  if (e >= 0) R.restitution[eid] = e;
  if (mass >= 0) R.mass[eid] = mass;
  if (damping >= 0) R.damping[eid] = damping;
  if (data.gravityScale !== undefined) R.gravityScale[eid] = data.gravityScale as number;
}

/** Material: `{friction}`, a finite number >= 0. */
function setMaterial(physics: Physics, eid: number, data: unknown): void {
  const source = 'set(Material)';
  checkRecord(data, MATERIAL_KEYS, source, eid, '{friction}');
  physics.components.Material.friction[eid] = readFlat(data.friction, source, eid, 'Material.friction', true);
}

const setPosition: SetWriter = (physics, eid, data) => writeVec3(physics, eid, data, false);
const setVelocity: SetWriter = (physics, eid, data) => writeVec3(physics, eid, data, true);

/**
 * The `set()` writer of each physics component that takes data (Contact has none: the physics
 * writes it; Sensor is a tag). One line per component; a new component adds its own.
 */
export const SET_WRITERS: { readonly [K in keyof PhysicsComponents]?: SetWriter } = {
  Position: setPosition,
  Velocity: setVelocity,
  Sphere: setSphere,
  Box: setBox,
  CollisionFilter: setFilter,
  Response: setResponse,
  Material: setMaterial,
  Character: setCharacter,
};

/**
 * Registers the {@link SET_WRITERS} of `physics` on its world, for the stores the instance created
 * (`own`; a game's own Position/Velocity is skipped). Returns the functions that unregister them.
 */
export function registerSetHandlers(physics: Physics, own: PhysicsComponents): Array<() => void> {
  const { world, components } = physics;
  const off: Array<() => void> = [];
  for (const name of Object.keys(SET_WRITERS) as Array<keyof PhysicsComponents>) {
    const write = SET_WRITERS[name];
    const store = components[name];
    // A game's own store (options.position / velocity) is the game's business.
    if (write === undefined || store !== own[name]) continue;
    off.push(observe(world, onSet(store), (eid: number, data: unknown) => write(physics, eid, data)));
  }
  return off;
}
