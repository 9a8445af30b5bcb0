/**
 * `addCharacter(physics, options)`: creates a character (a sphere body moved by the character
 * controller, src/character/moveCharacters.ts) and `setCharacter`, the `set(Character, …)` writer.
 * World frame; lengths in the caller's unit; angles in radians.
 * @module
 */
import { addComponent, addEntity } from 'bitecs';
import { PhysicsInputError } from '../physics/errors.js';
import { checkLive } from '../physics/internal.js';
import type { Physics } from '../physics/physicsTypes.js';
import { describe, readBits, readRadius, readVector, vectorField, type Vec3Like } from '../physics/readInput.js';
import { CHARACTER_SETTINGS, DEFAULT_STEP_FRACTION, isCharacterSetting, readSettings, S_SLOTS, S_SNAP, S_STEP, writeSettings } from './characterSettings.js';

/** Options of {@link addCharacter}. */
export interface CharacterOptions {
  /** Centre, world frame, length units. */
  position: Vec3Like;
  /** Radius > 0, length units. */
  radius: number;
  /** Steepest ground in radians from `up`, in [0, π/2]; steeper surfaces are walls. Default π/4 (45°). */
  maxSlope?: number;
  /** Highest ledge climbed when walking into it while grounded (length units >= 0). Default radius / 2. */
  stepHeight?: number;
  /** Drop below which a grounded character stays on the ground (length units >= 0). Default radius / 2. */
  snapDistance?: number;
  /** Up direction (world frame, normalised when stored). Default +y: `[0, 1, 0]`. */
  up?: Vec3Like;
  /** Factor on the physics gravity (`PhysicsOptions.gravity`) while airborne. Default 1. */
  gravityScale?: number;
  /** Collision group bits (default 1). */
  group?: number;
  /** Collision mask bits (default 0xffffffff). */
  mask?: number;
  /** Mass > 0 for pushing dynamic spheres; default infinite (pushes them kinematically). */
  mass?: number;
}

const KEYS: ReadonlySet<string> = new Set(['position', 'radius', 'group', 'mask', 'maxSlope', 'stepHeight', 'snapDistance', 'up', 'gravityScale', 'mass']);
const ARG_POSITION = vectorField('position', ['position.x', 'position.y', 'position.z']);
const SOURCE = 'addCharacter';
/** Validated input (per call: nothing is kept). */
const position = new Float64Array(3);
const settings = new Float64Array(S_SLOTS);

/**
 * Creates a character and returns its entity id: an entity with Position, Velocity (zero: the game
 * writes the desired velocity each tick), Sphere, Character (and CollisionFilter when `group` or
 * `mask` is given). Throws `PhysicsInputError` on bad input, an unknown option key included
 * (nothing is created then). See docs/character.md.
 */
export function addCharacter(physics: Physics, o: CharacterOptions): number {
  checkLive(physics, SOURCE);
  if (o === null || typeof o !== 'object') throw new PhysicsInputError({ field: 'options', problem: `must be an options object, got ${describe(o)}`, source: SOURCE });
  for (const k in o) {
    if (!KEYS.has(k)) throw new PhysicsInputError({ field: k, problem: `is not an option of ${SOURCE} (options: ${[...KEYS].join(', ')})`, source: SOURCE });
  }
  readVector(o.position, 3, position, ARG_POSITION, SOURCE, -1);
  const r = readRadius(o.radius, SOURCE, -1, 'radius');
  if (!(r > 0)) throw new PhysicsInputError({ field: 'radius', problem: `must be > 0, got ${r}`, source: SOURCE });
  const group = o.group === undefined ? -1 : readBits(o.group, SOURCE, -1, 'group');
  const mask = o.mask === undefined ? -1 : readBits(o.mask, SOURCE, -1, 'mask');
  readSettings(o, settings, SOURCE, -1, '');
  if (!(settings[S_STEP] === settings[S_STEP])) settings[S_STEP] = DEFAULT_STEP_FRACTION * r;
  if (!(settings[S_SNAP] === settings[S_SNAP])) settings[S_SNAP] = DEFAULT_STEP_FRACTION * r;
  const { world, components: c } = physics;
  const eid = addEntity(world);
  addComponent(world, eid, c.Position);
  c.Position.x[eid] = position[0];
  c.Position.y[eid] = position[1];
  c.Position.z[eid] = position[2];
  addComponent(world, eid, c.Velocity);
  c.Velocity.x[eid] = 0;
  c.Velocity.y[eid] = 0;
  c.Velocity.z[eid] = 0;
  if (group >= 0 || mask >= 0) {
    addComponent(world, eid, c.CollisionFilter);
    if (group >= 0) c.CollisionFilter.group[eid] = group;
    if (mask >= 0) c.CollisionFilter.mask[eid] = mask;
  }
  addComponent(world, eid, c.Sphere);
  c.Sphere.radius[eid] = r;
  addComponent(world, eid, c.Character);
  writeSettings(physics, eid, settings);
  return eid;
}

/**
 * The `set(Character, data)` writer: `data` is `{maxSlope?, stepHeight?, snapDistance?, up?,
 * gravityScale?, mass?}` (the outputs `grounded`, `groundEid`, `nx, ny, nz` are the physics'); every
 * given field is checked, then written. A Character added by a plain `addComponent` has the defaults
 * of `addCharacter` for the sphere radius it has then (stepHeight and snapDistance 0 without one).
 */
export function setCharacter(physics: Physics, eid: number, data: unknown): void {
  const source = 'set(Character)';
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new PhysicsInputError({ eid, field: 'data', problem: `must be {maxSlope?, stepHeight?, snapDistance?, up?, gravityScale?, mass?}, got ${describe(data)}`, source });
  }
  for (const k in data) {
    if (!isCharacterSetting(k)) throw new PhysicsInputError({ eid, field: k, problem: `is not a setting of Character (${CHARACTER_SETTINGS})`, source });
  }
  readSettings(data, settings, source, eid, 'Character.');
  writeSettings(physics, eid, settings);
}
