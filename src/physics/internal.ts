/**
 * The internal state of a physics instance, kept out of the public types: it hangs off the instance
 * under a module-private symbol (as bitECS hides its world internals behind `$internal`), and the
 * modules of the library reach it through {@link internalsOf}. Tests that need it import it from here.
 * @module
 */
import type { ContactsState } from '../contacts/contactsState.js';
import { PhysicsInputError } from './errors.js';
import type { ResponseState } from '../response/responseState.js';
import type { SleepState } from '../response/sleep.js';
import type { BroadphaseState } from '../step/broadphaseState.js';
import type { PhysicsComponents } from '../../components/index.js';
import type { IdList, Physics } from './physicsTypes.js';
import type { QueryState } from '../queries/queryState.js';
import type { CharacterState } from '../character/characterState.js';
import type { InterpolationState } from '../debug/interpolation.js';

/** The key of the internal state on a physics instance. */
export const INTERNAL: unique symbol = Symbol('bitecs-collide.internal');

/** Internal buffers of a physics instance. */
export interface PhysicsInternal {
  /** Entity ids below it fit every physics-owned array (grown by `ensureCapacity`, createPhysics.ts). */
  capacity: number;
  /** The component stores this instance created (a game's own Position / Velocity are not among them). */
  own: PhysicsComponents;
  /** Highest entity id that has been a body (scan bound). */
  maxEid: number;
  flags: Uint8Array;
  /** Body flags of entities removed since the last narrowphase. */
  purgeMark: Uint8Array;
  purgeList: IdList;
  /**
   * The broadphase's state (src/step/broadphaseState.ts): the cell-size policy, the static and
   * dynamic grids, the candidate pairs and the work counters.
   */
  broadphase: BroadphaseState;
  /**
   * The contacts module's state (src/contacts/contactsState.ts): previous pairs, touching entities,
   * primary contacts, the contacts-by-entity index. Not the contact list (that is `physics.contacts`).
   */
  contacts: ContactsState;
  /** Gravity of dynamic bodies (x, y, z; length units per second²). */
  gravity: Float64Array;
  /** 1 when `gravity` is not zero (an integer flag: read by once-per-tick code). */
  gravityOn: number;
  /**
   * The dynamic bodies' Velocity before this tick's gravity (3 slots per entity id; step/gravity.ts),
   * restored when a later stage of the broadphase throws. Created at the first tick with gravity.
   */
  gravityUndo?: Float64Array;
  /** Impacts resolved per dynamic body per tick. */
  maxIterations: number;
  /** Entities holding the Response component (the response runs only when > 0). */
  responseCount: number;
  /** Buffers of the collision response (created at its first tick). */
  response: ResponseState | null;
  /** Sleep of dynamic bodies (src/response/sleep.ts); null with the `sleep` option off. */
  sleep: SleepState | null;
  /** Per entity: 1 while it holds the Material component (its friction is read; otherwise μ = 0). */
  hasMaterial: Uint8Array;
  /** Entities holding the Character component (the character stage runs only when > 0). */
  characterCount: number;
  /** Buffers of the character controller (src/character, created at its first tick). */
  character: CharacterState | null;
  unobserve: Array<() => void>;
  /** Set by `destroyPhysics`: every helper and step then throws. */
  destroyed: boolean;
  /** The render interpolation's previous poses (src/debug/interpolation.ts) while enabled, else null. */
  interpolation: InterpolationState | null;
  /** The world queries' state (src/queries), created by the first query. */
  queries?: QueryState;
  /**
   * Set by everything that can move, resize, add or remove a body between ticks (helpers, observers,
   * `markStaticDirty`, a snapshot restore): the queries rebuild their grid of current poses.
   */
  queryDirty?: boolean;
  /**
   * Counts the game's writes of bodies through the helpers and bitecs `set()` (poses, velocities,
   * shapes, filters) and bodies gaining or losing a component: the narrowphase takes the
   * broadphase's tested contacts over only when none happened between the two (testPairs.ts).
   */
  writes: number;
}

/** A physics instance as `createPhysics` builds it: the public fields and the internal state. */
export type PhysicsState = Physics & { readonly [INTERNAL]: PhysicsInternal };

/** The internal state of `physics`. */
export function internalsOf(physics: Physics): PhysicsInternal {
  return (physics as PhysicsState)[INTERNAL];
}

/**
 * Sets the tick counter (the one writer: the narrowphase counts ticks, a snapshot restores them).
 * Both replace the contact list, so the contacts-by-entity index is marked for a rebuild.
 */
export function setTick(physics: Physics, tick: number): void {
  (physics as { tick: number }).tick = tick;
  internalsOf(physics).contacts.index.stale = true;
}

/**
 * Throws `PhysicsInputError` when `physics` is not an instance made by `createPhysics`, or was
 * destroyed (`destroyPhysics`): its observers are gone,
 * so bodies added to it would be ignored and their writes land beyond its stores. `source` names
 * the function called (undefined for `step` and the systems).
 */
export function checkLive(physics: Physics, source: string | undefined): void {
  // Not a Physics at all (undefined, null, a number, another object): a clear error instead of a
  // TypeError from reading the internals.
  const internal = physics !== null && typeof physics === 'object' ? (physics as PhysicsState)[INTERNAL] : undefined;
  if (internal === undefined) {
    const got = physics === null ? 'null' : typeof physics === 'object' ? 'an object that is not one' : typeof physics;
    throw new PhysicsInputError({ field: 'physics', problem: `must be the instance createPhysics returned, got ${got}`, source });
  }
  if (internal.destroyed) {
    throw new PhysicsInputError({ field: 'physics', problem: 'this instance was destroyed by destroyPhysics; create a new one with createPhysics', source });
  }
}
