/**
 * The state of the contacts module, owned by the physics instance (`internal.contacts`, created by
 * `createPhysics` through {@link createContactsState}): what one tick's contact list is compared with
 * at the next (the previous pairs, the touching entities and their primary contacts) and the
 * contacts-by-entity index behind `contactsOf`. Written by the contact diff and the Contact component
 * stages of each tick and by `restoreSnapshot`; read by `contactsOf` and `saveSnapshot`.
 * @module
 */
import { growArray } from '../math/grow.js';
import { createIdList, createPairList } from '../physics/idLists.js';
import type { IdList, PairList } from '../physics/physicsTypes.js';

/**
 * The index behind `contactsOf` (contactsOf.ts): per entity id, the count and start of its contacts in
 * `items` (indices into `physics.contacts`), rebuilt lazily.
 */
export interface ContactIndexState {
  count: Uint32Array;
  start: Uint32Array;
  items: Uint32Array;
  /** Whether the contact list changed since the last build (set by each tick and each restore). */
  stale: boolean;
  /** The entities with `count > 0`, to clear at the next build. */
  members: IdList;
}

/** The contacts module's state of one physics instance. */
export interface ContactsState {
  /** The last tick's contact pairs, sorted by (a, b): the next tick's began / persisting / ended diff. */
  previous: PairList;
  /** Scratch of the contact diff: the pairs it writes while it reads `previous` (swapped with it). */
  previousNext: PairList;
  /** The entities holding the Contact component (those touching at the last tick). */
  touching: IdList;
  /** Ticks diffed so far (`diffContacts` counts them). */
  diffs: number;
  /** The value of `diffs` when the Contact component stage last ran (−1: never, or a restore since). */
  appliedAt: number;
  /** Scratch of the Contact component stage: the entities touching this tick (swapped with `touching`). */
  touchingNext: IdList;
  /**
   * Per entity id (below `internal.capacity`): the index in `physics.contacts` of its primary contact
   * this tick, valid while it is touching.
   */
  primary: Uint32Array;
  /** Contacts by entity (`contactsOf`), rebuilt lazily after each tick or restore. */
  index: ContactIndexState;
}

/**
 * Empty contact state with per-entity room for ids below `capacity`; the index allocates at its
 * first build.
 */
export function createContactsState(capacity: number): ContactsState {
  return {
    previous: createPairList(),
    previousNext: createPairList(),
    touching: createIdList(),
    touchingNext: createIdList(),
    diffs: 0,
    appliedAt: -1,
    primary: new Uint32Array(capacity),
    index: {
      count: new Uint32Array(0), start: new Uint32Array(0), items: new Uint32Array(0), stale: true, members: createIdList(),
    },
  };
}

/** Grows the per-entity arrays to `capacity` ids, keeping their contents (`ensureCapacity` calls it). */
export function growContactsState(state: ContactsState, capacity: number): void {
  if (state.primary.length < capacity) state.primary = growArray(state.primary, capacity);
}
