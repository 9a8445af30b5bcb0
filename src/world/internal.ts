/**
 * The internal state of a physics instance, kept out of the public types: it hangs off the instance
 * under a module-private symbol (as bitECS hides its world internals behind `$internal`), and the
 * modules of src/world reach it through {@link internalsOf}. Tests that need it import it from here.
 * @module
 */
import type { Grid, QueryOut } from '../broadphase/grid.js';
import { PhysicsInputError } from './errors.js';
import type { IdList, PairList, Physics } from './types.js';

/** The key of the internal state on a physics instance. */
export const INTERNAL: unique symbol = Symbol('bitecs-collide.internal');

/** Internal buffers of a physics instance. */
export interface PhysicsInternal {
  capacity: number;
  /** Highest entity id that has been a body (scan bound). */
  maxEid: number;
  flags: Uint8Array;
  /** Body flags of entities removed since the last narrowphase. */
  purgeMark: Uint8Array;
  /** Per entity: index in `contacts` of its primary contact this tick (valid while touching). */
  primary: Uint32Array;
  purgeList: IdList;
  cellSize: number;
  staticGrid: Grid;
  staticDirty: boolean;
  dynamicGrid: Grid;
  query: QueryOut;
  /** Candidate pairs from the broadphase, sorted by (a, b). */
  pairs: PairList;
  /** Previous tick's contact pairs. */
  previous: PairList;
  /** Entities holding the Contact component. */
  touching: IdList;
  /** Scratch: entities touching this tick. */
  touchingNext: IdList;
  unobserve: Array<() => void>;
  /** Set by `destroyPhysics`: every helper and step then throws. */
  destroyed: boolean;
}

/** A physics instance as src/world builds it: the public fields and the internal state. */
export type PhysicsState = Physics & { readonly [INTERNAL]: PhysicsInternal };

/** The internal state of `physics`. */
export function internalsOf(physics: Physics): PhysicsInternal {
  return (physics as PhysicsState)[INTERNAL];
}

/** Sets the tick counter (the one writer: the narrowphase counts ticks, a snapshot restores them). */
export function setTick(physics: Physics, tick: number): void {
  (physics as { tick: number }).tick = tick;
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
