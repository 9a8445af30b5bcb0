/**
 * The data behind `contactsOf` (see contactsOf.ts): per entity id, the count and start of its
 * contacts in `items` (indices into `physics.contacts`), rebuilt lazily. Kept apart from
 * contactsOf.ts so that the internal state of src/world can hold it without importing its users.
 * @module
 */

/** The index and its bookkeeping (internal). */
export interface ContactIndexState {
  count: Uint32Array;
  start: Uint32Array;
  items: Uint32Array;
  /** Whether the contact list changed since the last build (set by each tick and each restore). */
  stale: boolean;
  /** The entities with `count > 0`, to clear at the next build. */
  members: { count: number; ids: Uint32Array };
}

/** An empty index; its arrays are allocated at the first build. */
export function contactIndexCreate(): ContactIndexState {
  return { count: new Uint32Array(0), start: new Uint32Array(0), items: new Uint32Array(0), stale: true, members: { count: 0, ids: new Uint32Array(64) } };
}
