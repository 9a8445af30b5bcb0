/**
 * The Contact component's data: each touching entity's primary contact (earliest toi, then the
 * deepest, then the first in (a, b) order) and its contact count, computed from the world contact
 * list, then the structural changes: the component is added when an entity's first contact begins
 * and removed when its last ends. Also the Contact presence part of `restoreSnapshot`
 * ({@link releaseContactPresence}, {@link restoreContactPresence}).
 * @module
 */
import { addComponent, entityExists, hasComponent, removeComponent } from 'bitecs';
import { idListPush } from '../physics/idLists.js';
import { BodyFlags, type IdList, type Physics } from '../physics/physicsTypes.js';
import { internalsOf } from '../physics/internal.js';

const { HAS_CONTACT } = BodyFlags;

/**
 * Counts contact `i` for `eid` and makes it the primary when it is earlier (toi), or as early and
 * deeper, than the current one (compared in float64 through the list index kept in `primary`).
 */
function offer(physics: Physics, eid: number, other: number, i: number, sign: number, next: IdList): void {
  const C = physics.components.Contact;
  const list = physics.contacts;
  const primary = internalsOf(physics).contacts.primary;
  const n = C.count[eid];
  if (n === 0) idListPush(next, eid);
  C.count[eid] = n === 0xffffffff ? n : n + 1;
  if (n > 0) {
    const best = primary[eid];
    const toi = list.toi[i];
    const bestToi = list.toi[best];
    if (toi > bestToi || (toi === bestToi && list.depth[i] <= list.depth[best])) return;
  }
  writePrimary(physics, eid, other, i, sign);
}

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
 * Recomputes Contact data for every entity touching this tick. Afterwards `internal.contacts.touchingNext`
 * lists the entities touching now, and entities of `internal.contacts.touching` (last tick's) with
 * `Contact.count[eid] === 0` stopped touching ({@link applyContactComponent} acts on both).
 */
export function updateContactData(physics: Physics): void {
  const { touching, touchingNext } = internalsOf(physics).contacts;
  const C = physics.components.Contact;
  for (let i = 0; i < touching.count; i++) C.count[touching.ids[i]] = 0;
  touchingNext.count = 0;
  const list = physics.contacts;
  for (let i = 0; i < list.count; i++) {
    offer(physics, list.a[i], list.b[i], i, 1, touchingNext);
    offer(physics, list.b[i], list.a[i], i, -1, touchingNext);
  }
}

/** Makes this tick's touching list the previous one. */
function swapTouching(physics: Physics): void {
  const state = internalsOf(physics).contacts;
  const t = state.touching;
  state.touching = state.touchingNext;
  state.touchingNext = t;
}

/**
 * Adds the Contact component to entities that began touching and removes it from those that
 * stopped (the only structural changes; persisting contacts only update data).
 */
export function applyContactComponent(physics: Physics): void {
  const { world } = physics;
  const Contact = physics.components.Contact;
  const internal = internalsOf(physics);
  const { touching, touchingNext } = internal.contacts;
  for (let i = 0; i < touchingNext.count; i++) {
    const eid = touchingNext.ids[i];
    // hasComponent (a bit test) also notices a Contact the game removed by hand: it comes back.
    if ((internal.flags[eid] & HAS_CONTACT) !== 0 && hasComponent(world, eid, Contact)) continue;
    addComponent(world, eid, Contact);
    internal.flags[eid] |= HAS_CONTACT;
  }
  for (let i = 0; i < touching.count; i++) {
    const eid = touching.ids[i];
    if (Contact.count[eid] !== 0 || (internal.flags[eid] & HAS_CONTACT) === 0) continue;
    internal.flags[eid] &= ~HAS_CONTACT;
    removeComponent(world, eid, Contact);
  }
  swapTouching(physics);
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
