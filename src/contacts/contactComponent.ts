/**
 * The Contact component's data: each touching entity's primary contact (earliest toi, then the
 * deepest, then the first in (a, b) order) and its contact count, computed from the world contact
 * list, then the structural changes: the component is added when an entity's first contact begins
 * and removed when its last ends. Also the Contact presence part of `restoreSnapshot`
 * ({@link releaseContactPresence}, {@link restoreContactPresence}).
 * @module
 */
import { addComponent, entityExists, hasComponent, removeComponent } from 'bitecs';
import { idListReserve } from '../physics/idLists.js';
import { BodyFlags, type ContactList, type EndedList, type IdList, type Physics } from '../physics/physicsTypes.js';
import { internalsOf } from '../physics/internal.js';

const { HAS_CONTACT } = BodyFlags;

/**
 * Makes contact `i` of the world list `eid`'s primary: its Contact data, with the normal negated
 * (`sign` −1) when `eid` is the pair's b, so that it points toward `eid`.
 */
export function writePrimary(physics: Physics, eid: number, other: number, i: number, sign: number): void {
  const C = physics.components.Contact;
  const list = physics.contacts;
  internalsOf(physics).contacts.primary[eid] = i;
  C.other[eid] = other;
  C.nx[eid] = sign * list.nx[i];
  C.ny[eid] = sign * list.ny[i];
  C.nz[eid] = sign * list.nz[i];
  C.depth[eid] = list.depth[i];
  C.px[eid] = list.px[i];
  C.py[eid] = list.py[i];
  C.pz[eid] = list.pz[i];
  C.toi[eid] = list.toi[i];
}

/**
 * Recomputes Contact data for every entity touching this tick: its contact count and its primary
 * contact (earliest toi, then the deepest, then the first in (a, b) order). Afterwards
 * `internal.contacts.touchingNext` lists the entities touching now, in the order of their first
 * contact, and entities of `internal.contacts.touching` (last tick's) with `Contact.count[eid] === 0`
 * stopped touching ({@link applyContactComponent} acts on both).
 *
 * Two passes: one over the contacts counts them per entity and keeps each entity's primary as an
 * index into the list; one over the touching entities writes each one's data once.
 */
export function updateContactData(physics: Physics): void {
  const internal = internalsOf(physics);
  const state = internal.contacts;
  const C = physics.components.Contact;
  const list = physics.contacts;
  clearCounts(C.count, state.touching);
  const next = state.touchingNext;
  // At most two entities per contact, and each below the capacity: grown here, outside the loop.
  idListReserve(next, Math.min(2 * list.count, internal.capacity));
  next.count = countContacts(list, C.count, state.primary, next.ids);
  writePrimaries(physics, next);
}

/** Sets the contact counts of `touching` (last tick's touching entities) to 0. */
function clearCounts(count: Uint32Array, touching: IdList): void {
  const ids = touching.ids;
  for (let t = 0; t < touching.count; t++) count[ids[t]] = 0;
}

/**
 * Counts each contact for both its entities (saturating at 2^32 − 1) and keeps in `primary` the
 * index of each one's primary contact: contact `i` replaces the current one `p` unless it is later
 * (`toi[i] > toi[p]`), or as early and not deeper, compared in float64 in the list. Appends each
 * entity at its first contact to `ids`; returns how many it appended. Every count it reads is 0 for
 * an entity not yet met this tick (`clearCounts`).
 */
function countContacts(list: ContactList, count: Uint32Array, primary: Uint32Array, ids: Uint32Array): number {
  const la = list.a, lb = list.b, toi = list.toi, depth = list.depth;
  let k = 0;
  for (let i = 0; i < list.count; i++) {
    const a = la[i];
    const b = lb[i];
    const t = toi[i];
    const d = depth[i];
    const na = count[a];
    if (na === 0) {
      ids[k++] = a;
      primary[a] = i;
    } else {
      const p = primary[a];
      if (!(t > toi[p] || (t === toi[p] && d <= depth[p]))) primary[a] = i;
    }
    count[a] = na === 0xffffffff ? na : na + 1;
    const nb = count[b];
    if (nb === 0) {
      ids[k++] = b;
      primary[b] = i;
    } else {
      const p = primary[b];
      if (!(t > toi[p] || (t === toi[p] && d <= depth[p]))) primary[b] = i;
    }
    count[b] = nb === 0xffffffff ? nb : nb + 1;
  }
  return k;
}

/** Writes the Contact data of each entity of `next` from its primary contact. */
function writePrimaries(physics: Physics, next: IdList): void {
  const C = physics.components.Contact;
  const { other, nx, ny, nz, depth, px, py, pz, toi } = C;
  const list = physics.contacts;
  const la = list.a, lb = list.b;
  const lnx = list.nx, lny = list.ny, lnz = list.nz, ldepth = list.depth, lpx = list.px, lpy = list.py, lpz = list.pz, ltoi = list.toi;
  const primary = internalsOf(physics).contacts.primary;
  const ids = next.ids;
  for (let t = 0; t < next.count; t++) {
    const e = ids[t];
    const i = primary[e];
    const a = la[i];
    // As the pair's b, the normal is negated to point toward e.
    const sign = a === e ? 1 : -1;
    other[e] = a === e ? lb[i] : a;
    nx[e] = sign * lnx[i];
    ny[e] = sign * lny[i];
    nz[e] = sign * lnz[i];
    depth[e] = ldepth[i];
    px[e] = lpx[i];
    py[e] = lpy[i];
    pz[e] = lpz[i];
    toi[e] = ltoi[i];
  }
}

/**
 * Adds the Contact component to entities that began touching and removes it from those that
 * stopped (the only structural changes; persisting contacts only update data), then makes this
 * tick's touching list the previous one.
 */
export function applyContactComponent(physics: Physics): void {
  const state = internalsOf(physics).contacts;
  addContact(physics, state.touchingNext);
  // An entity that stopped touching had all its pairs end this tick, so the ended pairs name every
  // one when last tick's touching list came from last tick's pairs: this stage ran at the previous
  // diff. Otherwise (the component was off meanwhile, or a restore), every entity of that list.
  if (state.appliedAt === state.diffs - 1) removeEnded(physics, physics.ended);
  else removeContact(physics, state.touching);
  state.appliedAt = state.diffs;
  const t = state.touching;
  state.touching = state.touchingNext;
  state.touchingNext = t;
}

/** Adds Contact to the entities of `next` that lack it. */
function addContact(physics: Physics, next: IdList): void {
  const { world } = physics;
  const Contact = physics.components.Contact;
  // The flags and the Contact arrays are read through their owners after each bitecs call: a game's
  // observer may add bodies there, and growing the capacity replaces the arrays.
  const internal = internalsOf(physics);
  const ids = next.ids;
  for (let t = 0; t < next.count; t++) {
    const eid = ids[t];
    // hasComponent (a bit test) also notices a Contact the game removed by hand: it comes back.
    if ((internal.flags[eid] & HAS_CONTACT) !== 0 && hasComponent(world, eid, Contact)) continue;
    addComponent(world, eid, Contact);
    internal.flags[eid] |= HAS_CONTACT;
  }
}

/** Removes Contact from the entities of the ended pairs that touch nothing now. */
function removeEnded(physics: Physics, ended: EndedList): void {
  const { world } = physics;
  const Contact = physics.components.Contact;
  const internal = internalsOf(physics);
  for (let k = 0; k < ended.count; k++) {
    const a = ended.a[k];
    if (Contact.count[a] === 0 && (internal.flags[a] & HAS_CONTACT) !== 0) {
      internal.flags[a] &= ~HAS_CONTACT;
      removeComponent(world, a, Contact);
    }
    const b = ended.b[k];
    if (Contact.count[b] === 0 && (internal.flags[b] & HAS_CONTACT) !== 0) {
      internal.flags[b] &= ~HAS_CONTACT;
      removeComponent(world, b, Contact);
    }
  }
}

/** Removes Contact from the entities of `touching` (last tick's) that touch nothing now. */
function removeContact(physics: Physics, touching: IdList): void {
  const { world } = physics;
  const Contact = physics.components.Contact;
  const internal = internalsOf(physics);
  const ids = touching.ids;
  for (let t = 0; t < touching.count; t++) {
    const eid = ids[t];
    if (Contact.count[eid] !== 0 || (internal.flags[eid] & HAS_CONTACT) === 0) continue;
    internal.flags[eid] &= ~HAS_CONTACT;
    removeComponent(world, eid, Contact);
  }
}

/** Whether entity `e` exists and holds this physics instance's Contact component (bitecs). */
export function holdsContact(physics: Physics, e: number): boolean {
  return entityExists(physics.world, e) && hasComponent(physics.world, e, physics.components.Contact);
}

/**
 * First half of restoring Contact presence from a snapshot: takes the Contact component off every
 * entity that may hold it now — last tick's touching entities and the bodies removed since the last
 * step — unless `keep[e]` is 1, and resets their contact counts, HAS_CONTACT flags and removal
 * marks. The caller (`restoreSnapshot`) then rebuilds `internal.contacts.touching`, the Contact data and
 * `internal.purgeList`, and calls {@link restoreContactPresence}.
 */
export function releaseContactPresence(physics: Physics, keep: Uint8Array): void {
  // The restored touching list need not come from the restored pairs: the next stage checks it all.
  internalsOf(physics).contacts.appliedAt = -1;
  releaseTouching(physics, keep);
  releaseRemoved(physics, keep);
}

/**
 * Second half: adds the Contact component to the entities marked in `keep` (1) that lack it, among
 * the restored touching entities then the restored removed bodies, in list order, and clears their
 * marks (every mark the caller set is on one of those lists, so `keep` is all 0 afterwards).
 */
export function restoreContactPresence(physics: Physics, keep: Uint8Array): void {
  const internal = internalsOf(physics);
  addKept(physics, keep, internal.contacts.touching);
  addKept(physics, keep, internal.purgeList);
}

// One loop per function, at its end (docs/internals.md, the idiom's third rule).

function releaseTouching(physics: Physics, keep: Uint8Array): void {
  const C = physics.components.Contact;
  const { flags, contacts: { touching } } = internalsOf(physics);
  for (let t = 0; t < touching.count; t++) {
    const e = touching.ids[t];
    C.count[e] = 0;
    flags[e] &= ~HAS_CONTACT;
    if (keep[e] === 0 && holdsContact(physics, e)) removeComponent(physics.world, e, C);
  }
}

function releaseRemoved(physics: Physics, keep: Uint8Array): void {
  const C = physics.components.Contact;
  const { purgeList, purgeMark } = internalsOf(physics);
  for (let t = 0; t < purgeList.count; t++) {
    const e = purgeList.ids[t];
    purgeMark[e] = 0;
    if (keep[e] === 0 && holdsContact(physics, e)) removeComponent(physics.world, e, C);
  }
}

function addKept(physics: Physics, keep: Uint8Array, list: IdList): void {
  const C = physics.components.Contact;
  for (let t = 0; t < list.count; t++) {
    const e = list.ids[t];
    if (keep[e] === 0) continue;
    keep[e] = 0;
    if (!hasComponent(physics.world, e, C)) addComponent(physics.world, e, C);
  }
}
