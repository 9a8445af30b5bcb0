/**
 * The internal state of a physics instance, kept out of the public types: it hangs off the instance
 * under a module-private symbol (as bitECS hides its world internals behind `$internal`), and the
 * modules of the library reach it through {@link internalsOf}. Tests that need it import it from here.
 * @module
 */
import type { Grid } from '../grid/grid.js';
import type { SizeStats } from '../grid/policy.js';
import type { QueryOut } from '../grid/query.js';
import type { ContactsState } from '../contacts/contactsState.js';
import { PhysicsInputError } from './errors.js';
import type { ResponseState } from '../response/responseState.js';
import type { PhysicsComponents } from '../../components/index.js';
import type { IdList, PairList, Physics } from './physicsTypes.js';
import type { QueryState } from '../queries/queryState.js';

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
  /** Level-0 cell side of both grids (length units); 0 until chosen (see src/grid/policy.ts). */
  cellSize: number;
  /** Whether `cellSize` was given as an option (then never re-chosen). */
  cellSizeFixed: boolean;
  /** Extents of this tick's spheres, for the cell size policy. */
  sizes: SizeStats;
  /** Median and cover buckets of `sizes` (slots B_MEDIAN, B_COVER of policy.ts). */
  buckets: Int32Array;
  /** Size bucket the cell side was chosen for (−1: none), and the margin's cover bucket. */
  cellBucket: number;
  marginBucket: number;
  /** Nonzero when this tick's scan saw a moving box. */
  movingBoxes: number;
  /** Nonzero when this tick's scan found that some sphere may collide with another (groups meet masks). */
  sphereSphere: number;
  /** Deepest time split of a moving body this tick (log2 of the body count, see slices.ts). */
  sliceCap: number;
  /** Most candidate pairs one tick may list (`PhysicsOptions.contactBudget`). */
  contactBudget: number;
  staticGrid: Grid;
  /**
   * The inputs each static box was bucketed from, by static grid slot (`STATIC_INPUTS` per box:
   * Position x, y, z, Box hx, hy, hz, qx, qy, qz, qw), compared at every step to notice direct writes.
   */
  staticInputs: Float64Array;
  staticDirty: boolean;
  dynamicGrid: Grid;
  query: QueryOut;
  /** The broadphase's work counters of the last tick (slots `WORK_*`), deterministic. */
  work: Float64Array;
  /** Candidate pairs from the broadphase, sorted by (a, b). */
  pairs: PairList;
  /** Scratch of the broadphase: this tick's box–box candidate pairs before the merge (boxPairs.ts). */
  boxPairs: PairList;
  /**
   * The contacts module's state (src/contacts/contactsState.ts): previous pairs, touching entities,
   * primary contacts, the contacts-by-entity index. Not the contact list (that is `physics.contacts`).
   */
  contacts: ContactsState;
  /** Gravity of dynamic bodies (x, y, z; length units per second²). */
  gravity: Float64Array;
  /** 1 when `gravity` is not zero (an integer flag: read by once-per-tick code). */
  gravityOn: number;
  /** Impacts resolved per dynamic body per tick. */
  maxIterations: number;
  /** Entities holding the Response component (the response runs only when > 0). */
  responseCount: number;
  /** Buffers of the collision response (created at its first tick). */
  response: ResponseState | null;
  unobserve: Array<() => void>;
  /** Set by `destroyPhysics`: every helper and step then throws. */
  destroyed: boolean;
  /** The world queries' state (src/queries), created by the first query. */
  queries?: QueryState;
  /**
   * Set by everything that can move, resize, add or remove a body between ticks (helpers, observers,
   * `markStaticDirty`, a snapshot restore): the queries rebuild their grid of current poses.
   */
  queryDirty?: boolean;
}

/** Numbers per box in `staticInputs`. */
export const STATIC_INPUTS = 10;

/** Slot of `work`: candidate pairs listed. */
export const WORK_CANDIDATES = 0;
/** Slot of `work`: grid buckets looked up by the queries (both grids). */
export const WORK_CELLS_VISITED = 1;
/** Slot of `work`: grid entries examined by the queries (both grids). */
export const WORK_ITEMS_VISITED = 2;
/** Slot of `work`: grid queries (one per sphere slice). */
export const WORK_QUERIES = 3;
/** Slot of `work`: dynamic grid items (one per moving-body slice). */
export const WORK_SLICES = 4;
/** Slot of `work`: static grid rebuilds since the instance was created (cumulative). */
export const WORK_REBUILDS = 5;
/** Number of slots of `work`. */
export const WORK_SLOTS = 6;

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
 * Throws `PhysicsInputError` when `physics` was destroyed (`destroyPhysics`): its observers are gone,
 * so bodies added to it would be ignored and their writes land beyond its stores. `source` names
 * the function called (undefined for `step` and the systems).
 */
export function checkLive(physics: Physics, source: string | undefined): void {
  if (internalsOf(physics).destroyed) {
    throw new PhysicsInputError({ field: 'physics', problem: 'this instance was destroyed by destroyPhysics; create a new one with createPhysics', source });
  }
}
