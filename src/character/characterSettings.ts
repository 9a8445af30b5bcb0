/**
 * The character controller's settings: their defaults, their checks and the writers behind
 * `addCharacter` and `set(Character, …)`. Every value is read and checked before any is written (a
 * bad one throws `PhysicsInputError` naming the field and leaves the stored values as they were).
 *
 * Units: `maxSlope` in radians in [0, π/2]; `stepHeight`, `snapDistance` in length units >= 0;
 * `up` a non-zero vector (stored normalised, world frame); `gravityScale` a finite factor; `mass`
 * > 0 (or 0 / Infinity for an infinite mass: the character pushes dynamic spheres kinematically).
 * @module
 */
import { PhysicsInputError } from '../physics/errors.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import { internalsOf } from '../physics/internal.js';
import { describe, readVector, vectorField } from '../physics/readInput.js';

/** Default `maxSlope`: 45° in radians. */
export const DEFAULT_MAX_SLOPE = Math.PI / 4;
/** Default `stepHeight` and `snapDistance`, as a fraction of the radius. */
export const DEFAULT_STEP_FRACTION = 0.5;

/** The setting keys of `set(Character, …)` (the outputs are written by the physics only). */
const SETTING_KEYS: ReadonlySet<string> = new Set(['maxSlope', 'stepHeight', 'snapDistance', 'up', 'gravityScale', 'mass']);

/** Whether `k` is a setting of Character (a key `set(Character, …)` and `addCharacter` take). */
export function isCharacterSetting(k: string): boolean {
  return SETTING_KEYS.has(k);
}

/** The settings' names, for error messages. */
export const CHARACTER_SETTINGS = 'maxSlope, stepHeight, snapDistance, up, gravityScale, mass';

/** Slots of {@link readSettings}'s output: the value, or NaN when not given. */
export const S_MAX_SLOPE = 0, S_STEP = 1, S_SNAP = 2, S_UP = 3, S_GRAVITY = 6, S_MASS = 7, S_SLOTS = 8;

const UP = vectorField('up', ['up.x', 'up.y', 'up.z']);
const upIn = new Float64Array(3);

interface SettingsData {
  maxSlope?: unknown;
  stepHeight?: unknown;
  snapDistance?: unknown;
  up?: unknown;
  gravityScale?: unknown;
  mass?: unknown;
}

function fail(eid: number, field: string, problem: string, source: string): never {
  throw new PhysicsInputError({ eid, field, problem, source });
}

/**
 * Reads and checks the settings present in `d` into `out` (slots `S_*`; NaN where absent); `prefix`
 * names the fields (`''` for addCharacter's options, `'Character.'` for set()).
 */
export function readSettings(d: SettingsData, out: Float64Array, source: string, eid: number, prefix: string): void {
  out.fill(NaN);
  const { maxSlope, stepHeight, snapDistance, up, gravityScale, mass } = d;
  if (maxSlope !== undefined) {
    if (typeof maxSlope !== 'number' || !(maxSlope >= 0 && maxSlope <= Math.PI / 2)) fail(eid, `${prefix}maxSlope`, `must be radians in [0, π/2], got ${describe(maxSlope)}`, source);
    out[S_MAX_SLOPE] = maxSlope;
  }
  if (stepHeight !== undefined) out[S_STEP] = readLength(stepHeight, `${prefix}stepHeight`, source, eid);
  if (snapDistance !== undefined) out[S_SNAP] = readLength(snapDistance, `${prefix}snapDistance`, source, eid);
  if (up !== undefined) {
    readVector(up, 3, upIn, prefix === '' ? UP : vectorField('Character.up', ['Character.upX', 'Character.upY', 'Character.upZ']), source, eid);
    // Not Math.hypot (implementation-approximated): the components are divided by the largest
    // one first, so that no square overflows or underflows (a valid [1e308, 1e308, 0] normalises),
    // and the same bits come out on every engine.
    const m = Math.max(Math.abs(upIn[0]), Math.abs(upIn[1]), Math.abs(upIn[2]));
    if (!(m > 0 && m !== Infinity)) fail(eid, `${prefix}up`, `must be a non-zero finite vector, got ${describe(up)}`, source);
    const ux = upIn[0] / m, uy = upIn[1] / m, uz = upIn[2] / m;
    const len = Math.sqrt(ux * ux + uy * uy + uz * uz);
    out[S_UP] = ux / len;
    out[S_UP + 1] = uy / len;
    out[S_UP + 2] = uz / len;
  }
  if (gravityScale !== undefined) {
    if (typeof gravityScale !== 'number' || !Number.isFinite(gravityScale)) fail(eid, `${prefix}gravityScale`, `must be a finite number, got ${describe(gravityScale)}`, source);
    out[S_GRAVITY] = gravityScale;
  }
  if (mass !== undefined) {
    if (typeof mass !== 'number' || !(mass >= 0)) fail(eid, `${prefix}mass`, `must be a number > 0 (0 or Infinity: infinite), got ${describe(mass)}`, source);
    out[S_MASS] = mass === Infinity ? 0 : mass;
  }
}

function readLength(v: unknown, field: string, source: string, eid: number): number {
  if (typeof v !== 'number' || !(v >= 0) || v === Infinity) fail(eid, field, `must be a finite number >= 0 (length units), got ${describe(v)}`, source);
  return v;
}

/** Writes the settings of `s` (slots `S_*`) that are not NaN to `eid`'s Character. */
export function writeSettings(physics: Physics, eid: number, s: Float64Array): void {
  const C = physics.components.Character;
  if (s[S_MAX_SLOPE] === s[S_MAX_SLOPE]) C.maxSlope[eid] = s[S_MAX_SLOPE];
  if (s[S_STEP] === s[S_STEP]) C.stepHeight[eid] = s[S_STEP];
  if (s[S_SNAP] === s[S_SNAP]) C.snapDistance[eid] = s[S_SNAP];
  if (s[S_UP] === s[S_UP]) {
    C.upX[eid] = s[S_UP];
    C.upY[eid] = s[S_UP + 1];
    C.upZ[eid] = s[S_UP + 2];
  }
  if (s[S_GRAVITY] === s[S_GRAVITY]) C.gravityScale[eid] = s[S_GRAVITY];
  if (s[S_MASS] === s[S_MASS]) C.mass[eid] = s[S_MASS];
}

/**
 * Writes the defaults of a new Character on `eid` (called when the component is added): maxSlope
 * 45°, stepHeight and snapDistance half the sphere's radius at that moment (0 without a Sphere yet),
 * up +y, gravityScale 1, infinite mass, airborne.
 */
export function writeCharacterDefaults(physics: Physics, eid: number): void {
  const C = physics.components.Character;
  const r = physics.components.Sphere.radius[eid];
  C.maxSlope[eid] = DEFAULT_MAX_SLOPE;
  C.stepHeight[eid] = DEFAULT_STEP_FRACTION * r;
  C.snapDistance[eid] = DEFAULT_STEP_FRACTION * r;
  C.upX[eid] = 0;
  C.upY[eid] = 1;
  C.upZ[eid] = 0;
  C.gravityScale[eid] = 1;
  C.mass[eid] = 0;
  C.grounded[eid] = 0;
  C.groundEid[eid] = 0;
  C.nx[eid] = 0;
  C.ny[eid] = 0;
  C.nz[eid] = 0;
}

/** How far from 1 the length of a Character's stored `up` may be (set() and addCharacter store it normalised). */
const UP_LENGTH_TOLERANCE = 1e-9;

function badSetting(eid: number, field: string, problem: string): never {
  throw new PhysicsInputError({ eid, field: `Character.${field}`, problem });
}

/**
 * The check of every Character's settings, run by the scan stage with `physics.validate` when there
 * are characters, before anything of the tick is written: the stores are public, so a game may
 * write `Character.maxSlope[eid]` directly, and a NaN or an out-of-range value there would otherwise
 * make the character silently lose the ground (NaN slope, zero `up`) or move it to NaN (a NaN
 * `gravityScale`). Same ranges as `set(Character, …)`; `up` must be a unit vector (world frame;
 * `set(Character, { up })` normalises it). Throws `PhysicsInputError` naming the entity and field.
 */
export function checkCharacters(physics: Physics): void {
  const { flags, maxEid } = internalsOf(physics);
  const C = physics.components.Character;
  const CHAR = BodyFlags.CHARACTER;
  for (let e = 1; e <= maxEid; e++) {
    if ((flags[e] & CHAR) === 0) continue;
    const slope = C.maxSlope[e], step = C.stepHeight[e], snap = C.snapDistance[e], g = C.gravityScale[e], m = C.mass[e];
    const ux = C.upX[e], uy = C.upY[e], uz = C.upZ[e];
    const len2 = ux * ux + uy * uy + uz * uz;
    if (slope >= 0 && slope <= Math.PI / 2 && step >= 0 && step !== Infinity && snap >= 0 && snap !== Infinity
      && g - g === 0 && m >= 0 && m !== Infinity && Math.abs(len2 - 1) <= UP_LENGTH_TOLERANCE) continue;
    if (!(slope >= 0 && slope <= Math.PI / 2)) badSetting(e, 'maxSlope', `must be radians in [0, π/2], got ${slope}`);
    if (!(step >= 0 && step !== Infinity)) badSetting(e, 'stepHeight', `must be a finite number >= 0 (length units), got ${step}`);
    if (!(snap >= 0 && snap !== Infinity)) badSetting(e, 'snapDistance', `must be a finite number >= 0 (length units), got ${snap}`);
    if (!(g - g === 0)) badSetting(e, 'gravityScale', `must be a finite number, got ${g}`);
    if (!(m >= 0 && m !== Infinity)) badSetting(e, 'mass', `must be a finite number >= 0 (0: infinite), got ${m}`);
    badSetting(e, 'up', `must be a unit vector (set(Character, { up }) normalises it), got [${ux}, ${uy}, ${uz}]`);
  }
}
