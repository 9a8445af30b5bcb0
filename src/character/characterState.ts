/**
 * The character controller's state, owned by the physics instance (`internalsOf(physics).character`,
 * created at the first tick with a character): the candidate obstacles of the character being moved
 * and the contacts of this tick's characters before they are merged into `physics.contacts`. Nothing
 * in it outlives a tick (the per-character state that does, grounded and the ground, is in the
 * Character component), so a snapshot needs none of it.
 * @module
 */
import { createQueryOut, type QueryOut } from '../grid/query.js';
import { createContactList } from '../physics/idLists.js';
import type { ContactList } from '../physics/physicsTypes.js';

export interface CharacterState {
  /** Candidate obstacles of the character being moved: entity ids, ascending (count = `near.count`). */
  near: QueryOut;
  /** This tick's character contacts, in the order found (merged into `physics.contacts` at the end). */
  list: ContactList;
  /** Indices into `list`, sorted by (a, b) for the merge; −1 marks a pair the list already has. */
  order: Int32Array;
  /** Bounds of the candidate query (minX, minY, minZ, maxX, maxY, maxZ). */
  bounds: Float64Array;
  /** Work counters of the last tick (slots `CW_*`), deterministic. */
  work: Float64Array;
}

/** Slot of `work`: characters moved. */
export const CW_CHARACTERS = 0;
/** Slot of `work`: casts run. */
export const CW_CASTS = 1;
/** Slot of `work`: candidate obstacles examined (after the filters). */
export const CW_CANDIDATES = 2;
/** Slot of `work`: steps climbed. */
export const CW_STEPS = 3;
export const CW_SLOTS = 4;

export function createCharacterState(): CharacterState {
  return { near: createQueryOut(), list: createContactList(), order: new Int32Array(64), bounds: new Float64Array(6), work: new Float64Array(CW_SLOTS) };
}
