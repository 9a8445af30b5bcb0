/**
 * Debug drawing: line segments for every body and, optionally, every contact normal, written into a
 * caller-owned buffer shaped for a three.js `LineSegments` BufferGeometry (as Rapier's
 * `world.debugRender()`, cannon-es-debugger and Jolt's debug renderer offer).
 *
 * Frame and units: world frame, the physics' length unit; positions are the bodies' current poses
 * (after the last integration: no interpolation), rounded to float32. Colours are linear RGB in [0, 1].
 *
 * Shapes:
 * - sphere: three great circles, in the planes through its centre parallel to the world's xy, yz and
 *   zx planes, each a polygon of `sphereSegments` segments (default {@link DEBUG_SPHERE_SEGMENTS}),
 *   whose vertices lie on the sphere;
 * - box: its 12 edges, rotated by the box's normalised quaternion (the one the broadphase and
 *   narrowphase use, `boxRotation`);
 * - contact: one segment from the contact point along the normal (from b toward a), of length
 *   `contactLength` (default {@link DEBUG_CONTACT_LENGTH} length units).
 *
 * Deterministic: no trigonometry. The unit circle table of each segment count is built once, on first
 * use, by bisecting the quarter circle (the midpoint of two unit vectors, normalised: additions,
 * multiplications, divisions and square roots, which IEEE 754 rounds exactly in every engine).
 *
 * Allocation: none in steady state. The buffer grows by doubling, once per call before any segment is
 * written, when it is too small; a segment count's circle table is allocated on its first use.
 * @module
 */
import { doubledLength } from '../math/grow.js';
import { quatToMatrix } from '../math/quat.js';
import { boxRotation } from '../physics/bodyReads.js';
import { internalsOf } from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';

const { SPHERE, BOX, MOVING, SENSOR } = BodyFlags;

/** Segments per great circle of a sphere, by default: a sphere draws 3 × 16 = 48 segments. */
export const DEBUG_SPHERE_SEGMENTS = 16;
/** Length of a drawn contact normal by default, in length units. */
export const DEBUG_CONTACT_LENGTH = 0.5;

/**
 * A caller-owned line buffer, ready for a three.js `LineSegments`: `positions` is the `position`
 * attribute (item size 3) and `colors` the `color` attribute (item size 3) of its BufferGeometry, and
 * `geometry.setDrawRange(0, 2 * count)` draws what the last call wrote. Both arrays are replaced (by
 * arrays twice as long) when a call needs more room: compare them with the attribute's array and
 * rebuild the attribute when they differ.
 */
export interface DebugLines {
  /** Segments written by the last `debugRender` call; their vertices are 0 .. 2·count − 1. */
  count: number;
  /** x, y, z of each vertex, two vertices per segment, world frame, float32. Length ≥ 6·count. */
  positions: Float32Array;
  /** r, g, b of each vertex, in [0, 1]; the same length as `positions`. */
  colors: Float32Array;
}

/** An RGB colour, each channel in [0, 1]. */
export type DebugColor = readonly [number, number, number];

/** Colours of the drawn items; each is optional and falls back to its default. */
export interface DebugColors {
  /** Spheres (default light grey-blue 0.6, 0.75, 0.9). */
  sphere?: DebugColor;
  /** Boxes without Velocity (default grey 0.55, 0.55, 0.55). */
  staticBox?: DebugColor;
  /** Boxes with Velocity (default orange 1, 0.6, 0.2). */
  movingBox?: DebugColor;
  /** Sensor bodies of either shape (default green 0.3, 0.9, 0.4). */
  sensor?: DebugColor;
  /** Contact normals (default red 1, 0.25, 0.25). */
  contact?: DebugColor;
}

/** Options of `debugRender`. Reuse one object across frames: reading it allocates nothing. */
export interface DebugRenderOptions {
  /** Draw every body (default true). */
  bodies?: boolean;
  /** Draw every contact of `physics.contacts` as its normal from its point (default false). */
  contacts?: boolean;
  /** Length of a drawn contact normal, length units (default {@link DEBUG_CONTACT_LENGTH}). */
  contactLength?: number;
  /** Segments per great circle of a sphere: 4, 8, 16, 32 or 64 (default {@link DEBUG_SPHERE_SEGMENTS}). */
  sphereSegments?: number;
  colors?: DebugColors;
}

/** Creates an empty line buffer with room for `capacity` segments (default 1024); it grows by doubling. */
export function createDebugLines(capacity = 1024): DebugLines {
  const n = Math.max(1, Math.floor(capacity));
  return { count: 0, positions: new Float32Array(6 * n), colors: new Float32Array(6 * n) };
}

/**
 * The former name of {@link createDebugLines} (every constructor of the API is now `createX`).
 * @deprecated Use `createDebugLines`; this alias is removed in the next release.
 */
export const debugLinesCreate: (capacity?: number) => DebugLines = createDebugLines;

// ---------------------------------------------------------------------------------------------
// Circle tables: for n segments, cos and sin of 2πk/n for k = 0 .. n (entry n repeats entry 0).

const circleTables = new Map<number, Float64Array>();

/** The n + 1 points (cos, sin) of the unit circle at 2πk/n, interleaved, built once per n. */
function circleTable(n: number): Float64Array {
  let t = circleTables.get(n);
  if (t !== undefined) return t;
  if (!(n === 4 || n === 8 || n === 16 || n === 32 || n === 64)) {
    throw new RangeError(`bitecs-collide: debugRender sphereSegments must be 4, 8, 16, 32 or 64, got ${n}`);
  }
  // The first quadrant, k = 0 .. n/4, by bisection from (1, 0) and (0, 1).
  const q = n / 4;
  const cx = new Float64Array(q + 1);
  const sy = new Float64Array(q + 1);
  cx[0] = 1;
  sy[q] = 1;
  for (let step = q; step > 1; step /= 2) {
    for (let k = step / 2; k < q; k += step) {
      const x = cx[k - step / 2] + cx[k + step / 2], y = sy[k - step / 2] + sy[k + step / 2];
      const len = Math.sqrt(x * x + y * y);
      cx[k] = x / len;
      sy[k] = y / len;
    }
  }
  // The other quadrants by symmetry: exact.
  t = new Float64Array(2 * (n + 1));
  for (let k = 0; k <= n; k++) {
    const quadrant = Math.floor(k / q) % 4, j = k % q;
    const c = cx[j], s = sy[j];
    t[2 * k] = quadrant === 0 ? c : quadrant === 1 ? -s : quadrant === 2 ? -c : s;
    t[2 * k + 1] = quadrant === 0 ? s : quadrant === 1 ? c : quadrant === 2 ? -s : -c;
  }
  circleTables.set(n, t);
  return t;
}

// ---------------------------------------------------------------------------------------------
// Scratch, in named slots: the segment being written (S_FROM, S_TO: x, y, z each), the colour of
// the current item (S_COLOR: r, g, b), the current sphere (S_CENTER, S_RADIUS) and box (S_CENTER,
// S_AXES: the three rotated half axes, x, y, z each); S_RADIUS also holds a contact normal's length.

const S = new Float64Array(22);
/** A box's unit rotation (x, y, z, w), per call. */
const ROTATION = new Float64Array(4);
/** A box's rotation matrix, row-major (quatToMatrix). */
const MATRIX = new Float64Array(9);
const S_FROM = 0, S_TO = 3, S_COLOR = 6, S_CENTER = 9, S_RADIUS = 12, S_AXES = 13;

/** Default colours, in the order of the palette slots below. */
const DEFAULT_COLORS: readonly DebugColor[] = [
  [0.6, 0.75, 0.9],
  [0.55, 0.55, 0.55],
  [1, 0.6, 0.2],
  [0.3, 0.9, 0.4],
  [1, 0.25, 0.25],
];
const COLOR_KEYS = ['sphere', 'staticBox', 'movingBox', 'sensor', 'contact'] as const;
const C_SPHERE = 0, C_STATIC_BOX = 1, C_MOVING_BOX = 2, C_SENSOR = 3, C_CONTACT = 4;
/** The palette of the current call: r, g, b per slot. */
const palette = new Float64Array(3 * DEFAULT_COLORS.length);

function loadPalette(colors: DebugColors | undefined): void {
  for (let i = 0; i < COLOR_KEYS.length; i++) {
    const c = colors?.[COLOR_KEYS[i]] ?? DEFAULT_COLORS[i];
    palette[3 * i] = c[0];
    palette[3 * i + 1] = c[1];
    palette[3 * i + 2] = c[2];
  }
}

function useColor(slot: number): void {
  S[S_COLOR] = palette[3 * slot];
  S[S_COLOR + 1] = palette[3 * slot + 1];
  S[S_COLOR + 2] = palette[3 * slot + 2];
}

/** Appends the segment S_FROM → S_TO in the colour S_COLOR (room was made beforehand). */
function pushSegment(out: DebugLines): void {
  const o = 6 * out.count;
  const p = out.positions, c = out.colors;
  p[o] = S[S_FROM];
  p[o + 1] = S[S_FROM + 1];
  p[o + 2] = S[S_FROM + 2];
  p[o + 3] = S[S_TO];
  p[o + 4] = S[S_TO + 1];
  p[o + 5] = S[S_TO + 2];
  for (let v = 0; v < 6; v += 3) {
    c[o + v] = S[S_COLOR];
    c[o + v + 1] = S[S_COLOR + 1];
    c[o + v + 2] = S[S_COLOR + 2];
  }
  out.count++;
}

/** Makes room for `segments` segments, doubling the arrays (contents are not kept: all is rewritten). */
function reserve(out: DebugLines, segments: number): void {
  const cap = Math.floor(Math.min(out.positions.length, out.colors.length) / 6);
  if (segments <= cap) return;
  const n = doubledLength(Math.max(1, cap), segments);
  out.positions = new Float32Array(6 * n);
  out.colors = new Float32Array(6 * n);
}

// ---------------------------------------------------------------------------------------------
// Shapes

/**
 * The great circle of the sphere at S_CENTER, S_RADIUS in the plane of world axes u and v
 * (0 = x, 1 = y, 2 = z): point k is centre + r·(cos θk · e_u + sin θk · e_v).
 */
function pushCircle(out: DebugLines, table: Float64Array, n: number, u: number, v: number): void {
  const r = S[S_RADIUS];
  for (let k = 0; k < n; k++) {
    S[S_FROM] = S[S_CENTER];
    S[S_FROM + 1] = S[S_CENTER + 1];
    S[S_FROM + 2] = S[S_CENTER + 2];
    S[S_TO] = S[S_CENTER];
    S[S_TO + 1] = S[S_CENTER + 1];
    S[S_TO + 2] = S[S_CENTER + 2];
    S[S_FROM + u] += r * table[2 * k];
    S[S_FROM + v] += r * table[2 * k + 1];
    S[S_TO + u] += r * table[2 * k + 2];
    S[S_TO + v] += r * table[2 * k + 3];
    pushSegment(out);
  }
}

function pushSphere(physics: Physics, eid: number, out: DebugLines, table: Float64Array, n: number): void {
  const p = physics.components.Position;
  S[S_CENTER] = p.x[eid];
  S[S_CENTER + 1] = p.y[eid];
  S[S_CENTER + 2] = p.z[eid];
  S[S_RADIUS] = physics.components.Sphere.radius[eid];
  pushCircle(out, table, n, 0, 1);
  pushCircle(out, table, n, 1, 2);
  pushCircle(out, table, n, 2, 0);
}

/**
 * Writes the box's rotated half axes to S_AXES: column j of the rotation matrix of its normalised
 * quaternion (x, y, z, w), times the half extent along local axis j.
 */
function loadBoxAxes(physics: Physics, eid: number): void {
  const b = physics.components.Box;
  boxRotation(physics, eid, ROTATION);
  quatToMatrix(ROTATION, 0, MATRIX, 0);
  const hx = b.hx[eid], hy = b.hy[eid], hz = b.hz[eid];
  for (let i = 0; i < 3; i++) {
    S[S_AXES + i] = hx * MATRIX[3 * i];
    S[S_AXES + 3 + i] = hy * MATRIX[3 * i + 1];
    S[S_AXES + 6 + i] = hz * MATRIX[3 * i + 2];
  }
}

/** Writes corner `k` of the box to slot `o` (S_FROM or S_TO): bit j of k set = + half axis j. */
function corner(k: number, o: number): void {
  for (let i = 0; i < 3; i++) {
    const a = S[S_AXES + i], b = S[S_AXES + 3 + i], c = S[S_AXES + 6 + i];
    S[o + i] = S[S_CENTER + i] + ((k & 1) !== 0 ? a : -a) + ((k & 2) !== 0 ? b : -b) + ((k & 4) !== 0 ? c : -c);
  }
}

function pushBox(physics: Physics, eid: number, out: DebugLines): void {
  const p = physics.components.Position;
  S[S_CENTER] = p.x[eid];
  S[S_CENTER + 1] = p.y[eid];
  S[S_CENTER + 2] = p.z[eid];
  loadBoxAxes(physics, eid);
  // The 12 edges: for each axis bit, the 4 corners without it joined to the same corner with it.
  for (let bit = 1; bit <= 4; bit *= 2) {
    for (let k = 0; k < 8; k++) {
      if ((k & bit) !== 0) continue;
      corner(k, S_FROM);
      corner(k | bit, S_TO);
      pushSegment(out);
    }
  }
}

/** Appends each contact's normal from its point, S_RADIUS long. */
function pushContacts(physics: Physics, out: DebugLines): void {
  const c = physics.contacts;
  useColor(C_CONTACT);
  for (let i = 0; i < c.count; i++) {
    S[S_FROM] = c.px[i];
    S[S_FROM + 1] = c.py[i];
    S[S_FROM + 2] = c.pz[i];
    S[S_TO] = c.px[i] + S[S_RADIUS] * c.nx[i];
    S[S_TO + 1] = c.py[i] + S[S_RADIUS] * c.ny[i];
    S[S_TO + 2] = c.pz[i] + S[S_RADIUS] * c.nz[i];
    pushSegment(out);
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * Writes line segments for every body (in ascending entity id: a sphere's three great circles, a
 * box's 12 rotated edges) and, with `contacts: true`, every contact of the last tick (its normal from
 * its point, `contactLength` long) into `out`, from segment 0; sets `out.count`. World frame, length
 * units, float32; colours RGB in [0, 1] by kind (sensor, sphere, static box, moving box, contact).
 * A body with both shapes is drawn as a sphere, as the physics treats it.
 *
 * Allocates nothing once `out` is large enough (it doubles when it is not; see {@link DebugLines})
 * and the segment count's circle table exists. Deterministic: the same state gives the same bits.
 * Throws `RangeError` for an unsupported `sphereSegments`. Returns `out`.
 */
export function debugRender(physics: Physics, out: DebugLines, options?: DebugRenderOptions): DebugLines {
  const bodies = options?.bodies ?? true;
  const contacts = options?.contacts ?? false;
  const n = options?.sphereSegments ?? DEBUG_SPHERE_SEGMENTS;
  const table = circleTable(n);
  const { flags, maxEid } = internalsOf(physics);
  let spheres = 0, boxes = 0;
  if (bodies) {
    for (let eid = 1; eid <= maxEid; eid++) {
      const f = flags[eid];
      if ((f & SPHERE) !== 0) spheres++;
      else if ((f & BOX) !== 0) boxes++;
    }
  }
  reserve(out, 3 * n * spheres + 12 * boxes + (contacts ? physics.contacts.count : 0));
  out.count = 0;
  loadPalette(options?.colors);
  if (bodies) {
    for (let eid = 1; eid <= maxEid; eid++) {
      const f = flags[eid];
      if ((f & (SPHERE | BOX)) === 0) continue;
      const sphere = (f & SPHERE) !== 0;
      useColor((f & SENSOR) !== 0 ? C_SENSOR : sphere ? C_SPHERE : (f & MOVING) !== 0 ? C_MOVING_BOX : C_STATIC_BOX);
      if (sphere) pushSphere(physics, eid, out, table, n);
      else pushBox(physics, eid, out);
    }
  }
  if (contacts) {
    S[S_RADIUS] = options?.contactLength ?? DEBUG_CONTACT_LENGTH;
    pushContacts(physics, out);
  }
  return out;
}
