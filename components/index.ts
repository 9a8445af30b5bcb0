/**
 * Physics components in bitecs 0.4 typed-array (structure-of-arrays) storage, indexed by entity id.
 *
 * Units: positions in the caller's length unit (metres in the examples), velocities in length units
 * per second, time in seconds. Frame: world frame. A box's rotation (qx, qy, qz, qw) is a unit
 * quaternion from its local frame to the world (identity = axis-aligned).
 *
 * Storage belongs to one physics instance (see `createPhysics`), never to module globals, so one
 * process can run many independent worlds. Arrays grow by doubling when an entity id reaches the
 * capacity: the component objects keep their identity but their array fields are replaced, so read
 * `Position.x[eid]` through the component each time rather than caching `Position.x`.
 * @module
 */
import { growArray, type Growable } from '../src/math/grow.js';

/** Anything indexable like `store.x[eid]`: our Float64Arrays, or a game's own arrays. */
export interface Vec3Store {
  x: { [eid: number]: number; readonly length: number };
  y: { [eid: number]: number; readonly length: number };
  z: { [eid: number]: number; readonly length: number };
}

/** Position (x, y, z) of a body's centre, world frame, length units. */
export interface PositionComponent extends Vec3Store {}
/** Velocity (x, y, z), world frame, length units per second. */
export interface VelocityComponent extends Vec3Store {}

/** A sphere (a circle in 2D) of `radius` >= 0 (length units) centred at the entity's Position. */
export interface SphereComponent {
  radius: Float64Array;
}

/**
 * A box centred at the entity's Position: half extents (hx, hy, hz) >= 0 along its local axes, and
 * the unit rotation quaternion (qx, qy, qz, qw) from local to world; identity (0, 0, 0, 1) is
 * axis-aligned. A rectangle (2D) is a box rotated about z only.
 */
export interface BoxComponent {
  hx: Float64Array;
  hy: Float64Array;
  hz: Float64Array;
  qx: Float64Array;
  qy: Float64Array;
  qz: Float64Array;
  qw: Float64Array;
}

/**
 * The entity's primary contact this tick (the earliest toi, then the deepest), present only while
 * the entity touches something.
 * - `other`: the other entity id.
 * - `nx, ny, nz`: unit normal pointing from the other body toward this entity (push-out direction).
 * - `depth`: overlap distance at the time of impact (0 when the contact was found by a sweep, toi > 0).
 * - `px, py, pz`: the contact point in the world at the time of impact (on the surface of the pair's
 *   second body b, as in the world contact list).
 * - `toi`: fraction of the tick in [0, 1] at which the two first touch (0 = touching at its start).
 * - `count`: how many contacts this entity has this tick (uint32).
 * Normal, depth and toi are float32 (display and gameplay precision); the point is float64. The world
 * contact list (`physics.contacts`) has every contact in float64; `readContactOf` / `contactsOf`
 * read every contact of one entity.
 */
export interface ContactComponent {
  other: Uint32Array;
  nx: Float32Array;
  ny: Float32Array;
  nz: Float32Array;
  depth: Float32Array;
  px: Float64Array;
  py: Float64Array;
  pz: Float64Array;
  toi: Float32Array;
  count: Uint32Array;
}

/**
 * Collision filtering: two bodies are tested only when (groupA & maskB) !== 0 and
 * (groupB & maskA) !== 0. Bodies without this component use group 1 and mask 0xffffffff.
 */
export interface CollisionFilterComponent {
  group: Uint32Array;
  mask: Uint32Array;
}

/**
 * Collision response of a dynamic sphere (a sphere with Position, Sphere, Velocity and Response: the
 * physics moves it and changes its Velocity; see docs/response.md).
 * - `mode`: a {@link ResponseMode} value: what the sphere does when it hits an obstacle.
 * - `restitution`: in [0, 1], the fraction of the normal speed kept by `BOUNCE` (and, mixed as the
 *   larger of the two, in sphere–sphere impacts).
 * - `mass`: > 0, used in sphere–sphere impacts; 0 means proportional to radius³ (1 for radius 0).
 * - `damping`: linear damping c >= 0 per second: after gravity each tick, v *= 1 / (1 + dt·c) (as
 *   Box2D v2.4 and Rapier define it). Default 0.
 * - `gravityScale`: the factor on the world's gravity for this body (any finite number: 0 floats,
 *   negative rises). Default 1: written when the component is added.
 */
export interface ResponseComponent {
  mode: Uint8Array;
  restitution: Float64Array;
  mass: Float64Array;
  damping: Float64Array;
  gravityScale: Float64Array;
}

/**
 * Surface material of a sphere or box (dynamic or not): `friction`, the Coulomb coefficient μ >= 0
 * (dimensionless). A pair's coefficient is √(μa μb), as Box2D mixes it; a body without Material has
 * μ = 0, so a pair with one such body has no friction. See docs/response.md.
 */
export interface MaterialComponent {
  friction: Float64Array;
}

/**
 * A character controller's settings and outputs (src/character; docs/character.md). A character is a
 * sphere body (Position, Sphere, Velocity) with this component: the `moveCharacters` stage moves it
 * by collide-and-slide instead of the integration. Settings (written by `addCharacter` and
 * `set(Character, …)`):
 * - `maxSlope`: radians in [0, π/2]: a surface whose normal is within it of `up` is ground;
 * - `stepHeight`, `snapDistance`: length units >= 0 (ledges climbed; drop kept grounded);
 * - `upX, upY, upZ`: the unit up vector (world frame);
 * - `gravityScale`: factor on the physics gravity while airborne;
 * - `mass`: > 0 for pushing dynamic spheres, 0 = infinite (kinematic).
 * Outputs (after each step): `grounded` 0/1, `groundEid` (0 when airborne), `nx, ny, nz` the unit
 * ground normal (zero when airborne).
 */
export interface CharacterComponent {
  maxSlope: Float64Array;
  stepHeight: Float64Array;
  snapDistance: Float64Array;
  upX: Float64Array;
  upY: Float64Array;
  upZ: Float64Array;
  gravityScale: Float64Array;
  mass: Float64Array;
  grounded: Uint8Array;
  groundEid: Uint32Array;
  nx: Float64Array;
  ny: Float64Array;
  nz: Float64Array;
}

/** Values of `Response.mode`. */
export const ResponseMode = {
  /** Stays touching at the impact point; its velocity becomes zero. */
  STOP: 0,
  /** The velocity component into the surface is removed; the rest goes on along it (collide-and-slide). */
  SLIDE: 1,
  /** The normal velocity component is reflected and scaled by restitution: v' = v − (1 + e)(v·n)n. */
  BOUNCE: 2,
} as const;

/** One of the {@link ResponseMode} values. */
export type ResponseModeValue = (typeof ResponseMode)[keyof typeof ResponseMode];

/** The components of one physics instance. Sensor is a tag (no data). */
export interface PhysicsComponents {
  Position: PositionComponent;
  Velocity: VelocityComponent;
  Sphere: SphereComponent;
  Box: BoxComponent;
  Contact: ContactComponent;
  CollisionFilter: CollisionFilterComponent;
  /** Collision response: makes a moving sphere dynamic (moved and deflected by the physics). */
  Response: ResponseComponent;
  /** Friction coefficient of a sphere or box (see {@link MaterialComponent}). */
  Material: MaterialComponent;
  /** Character controller: makes a moving sphere a character (moved by collide-and-slide). */
  Character: CharacterComponent;
  /** Tag: contacts involving a sensor are reported and flagged, never resolved. */
  Sensor: Record<string, never>;
}

/** Replaces every typed-array field of `store` with a copy of length `capacity`. */
export function growStore(store: object, capacity: number): void {
  const s = store as Record<string, unknown>;
  for (const key of Object.keys(s)) {
    const a = s[key];
    if (ArrayBuffer.isView(a) && (a as Growable).length < capacity) s[key] = growArray(a as Growable, capacity);
  }
}

/**
 * x, y, z columns of float64 indexed by entity id. A class rather than an object literal, so that
 * V8 never shares its hidden class with `{x, y, z}` number vectors (which would box their writes).
 */
export class Vec3Columns implements Vec3Store {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  constructor(capacity: number) {
    this.x = new Float64Array(capacity);
    this.y = new Float64Array(capacity);
    this.z = new Float64Array(capacity);
  }
}

/** Creates the component stores of one physics instance with room for entity ids below `capacity`. */
export function createComponents(capacity: number): PhysicsComponents {
  const f64 = () => new Float64Array(capacity);
  const f32 = () => new Float32Array(capacity);
  return {
    Position: new Vec3Columns(capacity),
    Velocity: new Vec3Columns(capacity),
    Sphere: { radius: f64() },
    Box: { hx: f64(), hy: f64(), hz: f64(), qx: f64(), qy: f64(), qz: f64(), qw: f64() },
    Contact: {
      other: new Uint32Array(capacity), nx: f32(), ny: f32(), nz: f32(), depth: f32(),
      px: f64(), py: f64(), pz: f64(), toi: f32(), count: new Uint32Array(capacity),
    },
    CollisionFilter: { group: new Uint32Array(capacity), mask: new Uint32Array(capacity) },
    Response: { mode: new Uint8Array(capacity), restitution: f64(), mass: f64(), damping: f64(), gravityScale: f64() },
    Material: { friction: f64() },
    Character: {
      maxSlope: f64(), stepHeight: f64(), snapDistance: f64(), upX: f64(), upY: f64(), upZ: f64(),
      gravityScale: f64(), mass: f64(), grounded: new Uint8Array(capacity), groundEid: new Uint32Array(capacity),
      nx: f64(), ny: f64(), nz: f64(),
    },
    Sensor: {},
  };
}
