/**
 * Every contact of an entity: an index over the world contact list (`physics.contacts`) by entity.
 * The Contact component holds one primary contact per entity; a system that must see all of them
 * (a ball resting on a floor that reaches a wall in the same tick) reads them through this index.
 *
 * `contactsOf(physics)` returns the index of the last tick's contacts: for each entity id, `count`
 * contacts at `items[start[eid]] .. items[start[eid] + count[eid] - 1]`, each an index into
 * `physics.contacts`, ascending (so in (a, b) order). It is built by a counting sort over the contact
 * list (count per entity, prefix sums, placement: O(contacts), no allocation once its arrays have
 * grown), lazily: on the first call after a tick (or a `restoreSnapshot`), so a game that never calls
 * it pays nothing. `readContactOf` reads one of them with the normal turned toward the entity.
 *
 * Frame and units as the contact list: world frame, length units, toi a fraction of the tick.
 * @module
 */
import { doubledLength } from '../math/grow.js';
import { idListPush } from '../physics/idLists.js';
import { checkLive, internalsOf } from '../physics/internal.js';
import type { Physics } from '../physics/physicsTypes.js';
import type { ContactIndexState } from './contactsState.js';

/**
 * Contacts by entity: the contacts of entity `eid` are `items[start[eid] + k]` for k in
 * `0 .. count[eid] - 1` (indices into `physics.contacts`, ascending). `count[eid]` is 0 for an entity
 * without contacts (its `start` is then meaningless) and for ids beyond the arrays' length (read
 * `count[eid] ?? 0` or use {@link readContactOf}). The arrays are replaced when they grow: read them
 * through the index each time.
 */
export interface ContactIndex {
  readonly count: Uint32Array;
  readonly start: Uint32Array;
  readonly items: Uint32Array;
}

/**
 * The index of the last tick's contacts by entity (see {@link ContactIndex}), built on the first
 * call after each tick. Throws `PhysicsInputError` for a destroyed instance.
 */
export function contactsOf(physics: Physics): ContactIndex {
  checkLive(physics, 'contactsOf');
  const index = internalsOf(physics).contacts.index;
  if (index.stale) buildIndex(physics, index);
  return index;
}

/**
 * One contact of an entity, as `readContactOf` writes it: `other` (the other entity), `index` (into
 * `physics.contacts`), the unit normal `nx, ny, nz` pointing from `other` toward the entity (its
 * push-out direction, as in the Contact component), `depth`, the point `px, py, pz` (as in the world
 * list: on the pair's second body b, at the time of impact), `toi` and `flags` (`ContactFlags`),
 * all float64. Reuse one instance: its fields are doubles from the start, so writes allocate nothing.
 */
export class ContactOf {
  other = 0;
  index = 0;
  nx = 0.5; ny = 0.5; nz = 0.5;
  depth = 0.5;
  px = 0.5; py = 0.5; pz = 0.5;
  toi = 0.5;
  flags = 0;
}

/**
 * Writes the `k`-th contact (0-based, in (a, b) order) of entity `eid` in the last tick into `out`
 * and returns true, or returns false when `eid` has fewer than `k + 1` contacts:
 * `for (let k = 0; readContactOf(physics, eid, k, c); k++) { … }` visits them all.
 */
export function readContactOf(physics: Physics, eid: number, k: number, out: ContactOf): boolean {
  const index = contactsOf(physics);
  const n = index.count[eid];
  if (!(k >= 0 && k < n)) return false;
  const i = index.items[index.start[eid] + k];
  const list = physics.contacts;
  const sign = list.a[i] === eid ? 1 : -1;
  out.other = sign === 1 ? list.b[i] : list.a[i];
  out.index = i;
  out.nx = sign * list.nx[i];
  out.ny = sign * list.ny[i];
  out.nz = sign * list.nz[i];
  out.depth = list.depth[i];
  out.px = list.px[i];
  out.py = list.py[i];
  out.pz = list.pz[i];
  out.toi = list.toi[i];
  out.flags = list.flags[i];
  return true;
}

// The build: one loop per function (docs/internals.md, the idiom's third rule).

function buildIndex(physics: Physics, index: ContactIndexState): void {
  clearMembers(index);
  reserve(index, internalsOf(physics).capacity, 2 * physics.contacts.count);
  countContacts(physics, index);
  endOffsets(index);
  place(physics, index);
  index.stale = false;
}

/** Zeroes the counts of the last build's entities. */
function clearMembers(index: ContactIndexState): void {
  const { members, count } = index;
  for (let t = 0; t < members.count; t++) count[members.ids[t]] = 0;
  members.count = 0;
}

/** Grows the per-entity arrays to `capacity` and `items` to `slots` (doubling; zeroed, nothing to keep). */
function reserve(index: ContactIndexState, capacity: number, slots: number): void {
  if (index.count.length < capacity) {
    index.count = new Uint32Array(capacity);
    index.start = new Uint32Array(capacity);
  }
  if (index.items.length < slots) index.items = new Uint32Array(doubledLength(Math.max(64, index.items.length), slots));
  if (index.members.ids.length < slots) index.members.ids = new Uint32Array(doubledLength(index.members.ids.length, slots));
}

function countOne(index: ContactIndexState, e: number): void {
  if (index.count[e]++ === 0) idListPush(index.members, e);
}

function countContacts(physics: Physics, index: ContactIndexState): void {
  const list = physics.contacts;
  for (let i = 0; i < list.count; i++) {
    countOne(index, list.a[i]);
    countOne(index, list.b[i]);
  }
}

/** `start[e]` = the end of e's range (prefix sums over the entities in first-seen order). */
function endOffsets(index: ContactIndexState): void {
  const { members, count, start } = index;
  let end = 0;
  for (let t = 0; t < members.count; t++) {
    const e = members.ids[t];
    end += count[e];
    start[e] = end;
  }
}

/** Fills each range from its end, contacts in descending order, so `start[e]` ends at the beginning. */
function place(physics: Physics, index: ContactIndexState): void {
  const list = physics.contacts;
  const { start, items } = index;
  for (let i = list.count - 1; i >= 0; i--) {
    items[--start[list.a[i]]] = i;
    items[--start[list.b[i]]] = i;
  }
}
