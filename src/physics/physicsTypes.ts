/**
 * The physics instance: per-world storage, options and the contact output (its internal buffers are
 * in `internal.ts`, out of the public types).
 * @module
 */
import type { World } from 'bitecs';
import type { PhysicsComponents, Vec3Store } from '../../components/index.js';
import type { Vec3Like } from './readInput.js';

/** Options of `createPhysics`. */
export interface PhysicsOptions {
  /** Fixed step in seconds (> 0). Default 1/60. */
  dt?: number;
  /** Initial entity-id capacity of the component arrays; they grow by doubling. Default 1024. */
  capacity?: number;
  /**
   * Broadphase cell side in length units (> 0), fixed. Default: chosen from the spheres present
   * (three times their median swept size) and chosen again whenever that drifts by more than 2×.
   */
  cellSize?: number;
  /**
   * Most candidate contact pairs one tick may list (an integer > 0); beyond it `step` throws a
   * `PhysicsInputError` naming the count instead of running out of memory. Default: what fits in an
   * eighth of the machine's memory at 256 bytes per pair (`os.totalmem()` in Node,
   * `navigator.deviceMemory` in a browser, else 2 GB), at least 2^20.
   */
  contactBudget?: number;
  /** Swept (continuous) contacts over each tick's motion: no tunnelling. Default true. */
  continuous?: boolean;
  /** Move positions by velocity × dt after detection. Default true. */
  integrate?: boolean;
  /** Check positions, velocities and shapes at each step and throw `PhysicsInputError`. Default true. */
  validate?: boolean;
  /** Maintain the Contact component on touching entities. Default true. */
  contactComponent?: boolean;
  /**
   * Acceleration of dynamic bodies (spheres with Response), world frame, length units per second².
   * Applied to their velocity at the start of each tick (semi-implicit Euler). Default zero.
   */
  gravity?: Vec3Like;
  /**
   * Impacts resolved per dynamic body per tick (an integer >= 1); a body that reaches it stays at
   * its last impact for the rest of the tick (its leftover motion is dropped). Default 4.
   */
  maxIterations?: number;
  /**
   * Sleep of dynamic bodies (docs/response.md, "Sleep"): a dynamic sphere slower than `speed` (length
   * units per second, default 0.05) at the end of every tick for `time` seconds (default 0.5) falls
   * asleep (velocity 0, not moved, still an obstacle and in contact) until woken. Default: off (no
   * body sleeps); `{}` turns it on with the defaults.
   */
  sleep?: { speed?: number; time?: number };
  /** A game's own Position store (x, y, z arrays indexed by entity id) to use instead of ours. */
  position?: Vec3Store;
  /** A game's own Velocity store to use instead of ours. */
  velocity?: Vec3Store;
}

/** Flags of a contact in the world contact list. */
export const ContactFlags = {
  /** The pair was not touching in the previous tick. */
  BEGAN: 1,
  /** The pair was touching in the previous tick too. */
  PERSISTING: 2,
  /** At least one of the two bodies is a sensor. */
  SENSOR: 4,
} as const;

/** Flags of a pair in `physics.ended` (`ended.flags`). */
export const EndedFlags = {
  /**
   * The pair ended because one of its bodies (or both) stopped being a body since the previous tick:
   * its entity was removed, or its Position or shape component. Reported once, at the next
   * narrowphase; a recycled id's new pairs begin afresh (BEGAN), even with the same partner.
   */
  REMOVED: 1,
} as const;

/**
 * Every contact of the last tick in preallocated float64 arrays, sorted by (a, b).
 * In a sphere–box contact `a` is the sphere and `b` the box; in a sphere–sphere contact `a` is the
 * lower entity id. The normal points from b toward a; depth, point and toi follow the geometry API
 * (taken at the time of impact; the point is where it is in the world at that time).
 * Read entries `0 .. count - 1`; the arrays may be longer and are replaced when they grow; those of
 * `physics.contacts` may be other objects after any tick (read them through the list each time).
 */
export interface ContactList {
  count: number;
  a: Uint32Array;
  b: Uint32Array;
  nx: Float64Array;
  ny: Float64Array;
  nz: Float64Array;
  depth: Float64Array;
  px: Float64Array;
  py: Float64Array;
  pz: Float64Array;
  toi: Float64Array;
  /** Bits of {@link ContactFlags}. */
  flags: Uint8Array;
}

/** A list of entity pairs (a, b), sorted. */
export interface PairList {
  count: number;
  a: Uint32Array;
  b: Uint32Array;
}

/**
 * The pairs that stopped touching in the last tick, sorted by (a, b), each with a flags byte
 * ({@link EndedFlags}): 0 when the two bodies moved apart (or a filter or shape change separated
 * them), `REMOVED` when one of them stopped being a body.
 */
export interface EndedList extends PairList {
  /** Bits of {@link EndedFlags}. */
  flags: Uint8Array;
}

/**
 * The pairs that began touching in the last tick, sorted by (a, b), each with a flags byte: the
 * flags of its contact in `physics.contacts` ({@link ContactFlags}): `BEGAN` always, and `SENSOR`
 * when one of the two bodies is a sensor (a trigger enter, without a search of the contact list).
 */
export interface BeganList extends PairList {
  /** Bits of {@link ContactFlags} (`BEGAN`, and `SENSOR` for a sensor contact). */
  flags: Uint8Array;
}

/** A list of entity ids. */
export interface IdList {
  count: number;
  ids: Uint32Array;
}

/** Per-entity body flags (internal): the bits of `internal.flags[eid]`, one byte per entity. */
export const BodyFlags = {
  /** Has Position and Sphere: a sphere body. */
  SPHERE: 1,
  /** Has Position and Box: a box body. */
  BOX: 2,
  /** Has Velocity: swept over the tick (a body without it is static). */
  MOVING: 4,
  /** Has the Sensor tag: its contacts are reported and flagged, never resolved. */
  SENSOR: 8,
  /** Has the CollisionFilter component (otherwise group 1, mask 0xffffffff). */
  FILTER: 16,
  /**
   * Holds this instance's Contact component (set and cleared by src/contacts/contactComponent.ts when
   * its first contact begins and its last ends, and by a snapshot restore), so that a tick touches the
   * bitecs component only on those changes. Cleared with SPHERE or BOX when the entity stops being a
   * body (the next narrowphase then takes the component off a surviving entity).
   */
  HAS_CONTACT: 32,
  /** Has the Response component (dynamic when also SPHERE and MOVING). */
  RESPONSE: 64,
  /** Has the Character component (moved by src/character when also SPHERE and MOVING). */
  CHARACTER: 128,
} as const;

/** A physics instance bound to one bitecs world. Create it with `createPhysics(world, options)`. */
export interface Physics {
  readonly world: World;
  /** Component stores of this instance (Position/Velocity may be the game's own). */
  readonly components: PhysicsComponents;
  /** Fixed step in seconds. */
  dt: number;
  continuous: boolean;
  integrate: boolean;
  validate: boolean;
  contactComponent: boolean;
  /** Ticks stepped so far: advanced by each narrowphase run (one per tick), set by `restoreSnapshot`. */
  readonly tick: number;
  /** All contacts of the last tick, sorted by (a, b). */
  readonly contacts: ContactList;
  /**
   * Pairs that began touching in the last tick (sorted by (a, b)); `began.flags[i]` is the
   * contact's `ContactFlags` (`SENSOR` when one of the two bodies is a sensor).
   */
  readonly began: BeganList;
  /**
   * Pairs that stopped touching in the last tick (sorted by (a, b)); `ended.flags[i]` has
   * `EndedFlags.REMOVED` when the pair ended because a body was removed.
   */
  readonly ended: EndedList;
}
