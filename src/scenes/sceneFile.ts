/**
 * Scene files: plain JSON descriptions of a few bodies, shared by the headless runner
 * (`npm start -- --scene FILE`, which reads the file in src/cli/loadSceneFile.ts), the tests and the
 * benchmarks. This module parses and validates the JSON text; `buildScene.ts` puts a scene into a world.
 *
 * Format (units: the caller's length unit and seconds; frame: world):
 *
 * ```json
 * { "dt": 0.016666666666666666,
 *   "bodies": [
 *     { "id": 7, "shape": "sphere", "position": [0, 2, 0], "radius": 1, "velocity": [0, -1, 0] },
 *     { "id": 9, "shape": "box", "position": [0, 0, 0], "halfExtents": [2, 1, 2], "rotation": [0, 0, 0, 1] }
 *   ] }
 * ```
 *
 * - `dt`: optional fixed step in seconds (> 0), default 1/60.
 * - `description`: optional free text.
 * - `id`: the user's own id, a non-negative integer, unique in the file, echoed in contacts.
 * - `velocity`: optional (omitted = the body does not move; a box without velocity is static).
 * - `rotation`: optional quaternion (x, y, z, w), local → world, default identity: exactly what
 *   `addBox` accepts (finite components, not all zero; any length, normalised, e.g. `[1e-7, 0, 0, 0]`
 *   is a half turn about x); an all-zero one is an error.
 * Unknown fields and keys given twice in one object are errors (they are usually typos). Spheres
 * collide with spheres and boxes, boxes with boxes when at least one of the two moves (default
 * collision filters).
 *
 * Contacts are reported with the users' ids: in a sphere–box contact `a` is the sphere and `b` the
 * box; in a sphere–sphere or box–box contact (for boxes: at least one of the two has a velocity)
 * `a` is the lower user id, whatever the order of the bodies in the file. The normal points from b
 * toward a; the point is on b's surface at the time of impact (for two spheres:
 * centre_b(toi) + normal·r_b).
 * @module
 */
import { PhysicsInputError } from '../physics/errors.js';
import { readRotation as checkRotation, vectorField } from '../physics/readInput.js';

export type Vec3Tuple = [number, number, number];
export type QuatTuple = [number, number, number, number];

export interface SceneSphere {
  id: number;
  shape: 'sphere';
  position: Vec3Tuple;
  radius: number;
  velocity?: Vec3Tuple;
}

export interface SceneBox {
  id: number;
  shape: 'box';
  position: Vec3Tuple;
  halfExtents: Vec3Tuple;
  rotation?: QuatTuple;
  velocity?: Vec3Tuple;
}

export type SceneBody = SceneSphere | SceneBox;

export interface Scene {
  /** Fixed step, seconds. */
  dt: number;
  bodies: SceneBody[];
  description?: string;
}

/** One contact of a tick, with user ids (see the module comment for the conventions). */
export interface SceneContact {
  a: number;
  b: number;
  toi: number;
  depth: number;
  normal: Vec3Tuple;
  point: Vec3Tuple;
}

/** A problem with a scene file; the message names the file, the body (index and id) and the field. */
export class SceneFileError extends Error {
  readonly file: string;
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'SceneFileError';
    this.file = file;
  }
}

const TOP_FIELDS = ['dt', 'bodies', 'description'];
const SPHERE_FIELDS = ['id', 'shape', 'position', 'radius', 'velocity'];
const BOX_FIELDS = ['id', 'shape', 'position', 'halfExtents', 'rotation', 'velocity'];

/** Validation context: file name and the body being read (for messages). */
interface Where {
  file: string;
  body: string;
}

function fail(where: Where, field: string, problem: string): never {
  const prefix = where.body ? `${where.body}: ` : '';
  throw new SceneFileError(where.file, `${prefix}${field}: ${problem}`);
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (v === null) return 'null';
  return typeof v === 'object' ? 'an object' : String(v);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkFields(where: Where, obj: Record<string, unknown>, allowed: string[]): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) fail(where, key, `unknown field (allowed: ${allowed.join(', ')})`);
  }
}

function readNumbers(where: Where, field: string, v: unknown, n: number, min = -Infinity): number[] {
  if (!Array.isArray(v) || v.length !== n) fail(where, field, `must be an array of ${n} numbers, got ${describe(v)}`);
  const what = min === 0 ? 'a finite number >= 0' : 'a finite number';
  v.forEach((c, i) => {
    if (typeof c !== 'number' || !Number.isFinite(c) || c < min) fail(where, `${field}[${i}]`, `must be ${what}, got ${describe(c)}`);
  });
  return v.slice() as number[];
}

function readRadius(where: Where, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) fail(where, 'radius', `must be a finite number >= 0, got ${describe(v)}`);
  return v;
}

/** How `readRotation` names the field to the shared check (its message is rethrown as a `SceneFileError`). */
const ROTATION_FIELD = vectorField('rotation', ['rotation[0]', 'rotation[1]', 'rotation[2]', 'rotation[3]']);

/**
 * A box's rotation: exactly the quaternions `addBox` accepts (finite components, not all zero, any
 * length: `addBox` and `step` normalise it), through the helpers' own check.
 */
function readRotation(where: Where, v: unknown): QuatTuple {
  const q = readNumbers(where, 'rotation', v, 4) as QuatTuple;
  try {
    checkRotation(q, new Float64Array(4), ROTATION_FIELD, 'scene file', -1);
  } catch (e) {
    if (e instanceof PhysicsInputError) fail(where, e.field, e.problem);
    throw e;
  }
  return q;
}

function readId(where: Where, v: unknown, seen: Map<number, number>, index: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) fail(where, 'id', `must be a non-negative integer, got ${describe(v)}`);
  const first = seen.get(v);
  if (first !== undefined) fail(where, 'id', `duplicate id ${v} (also bodies[${first}])`);
  seen.set(v, index);
  return v;
}

function readBody(file: string, v: unknown, index: number, seen: Map<number, number>): SceneBody {
  const where: Where = { file, body: `bodies[${index}]` };
  if (!isPlainObject(v)) fail(where, 'body', `must be an object, got ${describe(v)}`);
  const id = readId(where, v.id, seen, index);
  where.body = `bodies[${index}] (id ${id})`;
  if (v.shape !== 'sphere' && v.shape !== 'box') fail(where, 'shape', `must be "sphere" or "box", got ${describe(v.shape)}`);
  checkFields(where, v, v.shape === 'sphere' ? SPHERE_FIELDS : BOX_FIELDS);
  const position = readNumbers(where, 'position', v.position, 3) as Vec3Tuple;
  const velocity = v.velocity === undefined ? undefined : (readNumbers(where, 'velocity', v.velocity, 3) as Vec3Tuple);
  const withVelocity = velocity ? { velocity } : {};
  if (v.shape === 'sphere') return { id, shape: 'sphere', position, radius: readRadius(where, v.radius), ...withVelocity };
  const halfExtents = readNumbers(where, 'halfExtents', v.halfExtents, 3, 0) as Vec3Tuple;
  const rotation = v.rotation === undefined ? undefined : readRotation(where, v.rotation);
  return { id, shape: 'box', position, halfExtents, ...(rotation ? { rotation } : {}), ...withVelocity };
}

/** One open object or array of `duplicateKey`'s scan. */
interface Open {
  /** The object's keys so far, or null for an array. */
  keys: Set<string> | null;
  /** Path of this value, e.g. `bodies[1]` ('' for the top level). */
  path: string;
  /** Current key (objects) or element index (arrays). */
  key: string;
  index: number;
}

function childPath(top: Open | undefined): string {
  if (top === undefined) return '';
  if (top.keys === null) return `${top.path}[${top.index}]`;
  return top.path === '' ? top.key : `${top.path}.${top.key}`;
}

/**
 * The path of the first key that appears twice in one object of the valid JSON `text` (e.g.
 * `bodies[0].radius`), or undefined. `JSON.parse` silently keeps the last of duplicate keys; a
 * scene file with one is rejected instead. One pass, no recursion (any nesting depth).
 */
export function duplicateKey(text: string): string | undefined {
  const stack: Open[] = [];
  let expectKey = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '{' || c === '[') {
      stack.push({ keys: c === '{' ? new Set() : null, path: childPath(top), key: '', index: 0 });
      expectKey = c === '{';
      i++;
    } else if (c === '}' || c === ']') {
      stack.pop();
      i++;
    } else if (c === ',') {
      if (top.keys === null) top.index++;
      else expectKey = true;
      i++;
    } else if (c === '"') {
      const start = i++;
      while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      if (expectKey && top.keys !== null) {
        const key = JSON.parse(text.slice(start, i)) as string;
        if (top.keys.has(key)) return top.path === '' ? key : `${top.path}.${key}`;
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
    } else {
      i++; // whitespace, ':', and the characters of numbers and literals
    }
  }
  return undefined;
}

/** Parses and validates scene JSON text. Throws `SceneFileError` naming the file, body and field. */
export function parseScene(text: string, file = '<scene>'): Scene {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new SceneFileError(file, `invalid JSON: ${(e as Error).message}`);
  }
  const dup = duplicateKey(text);
  if (dup !== undefined) throw new SceneFileError(file, `${dup}: key given twice in one object (JSON would silently keep the last)`);
  const where: Where = { file, body: '' };
  if (!isPlainObject(data)) fail(where, 'scene', `must be a JSON object with "bodies", got ${describe(data)}`);
  checkFields(where, data, TOP_FIELDS);
  const dt = data.dt ?? 1 / 60;
  if (typeof dt !== 'number' || !Number.isFinite(dt) || dt <= 0) fail(where, 'dt', `must be a finite number > 0 (seconds), got ${describe(dt)}`);
  if (data.description !== undefined && typeof data.description !== 'string') fail(where, 'description', 'must be a string');
  if (!Array.isArray(data.bodies)) fail(where, 'bodies', `must be an array of bodies, got ${describe(data.bodies)}`);
  const seen = new Map<number, number>();
  const bodies = data.bodies.map((b: unknown, i: number) => readBody(file, b, i, seen));
  return { dt, bodies, ...(typeof data.description === 'string' ? { description: data.description } : {}) };
}
