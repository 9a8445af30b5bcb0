/**
 * The Contact component's data: each touching entity's primary contact (earliest toi, then the
 * deepest, then the first in (a, b) order) and its contact count, computed from the world contact
 * list, then the structural changes: the component is added when an entity's first contact begins
 * and removed when its last ends. Also the Contact presence part of `restoreSnapshot`
 * ({@link releaseContactPresence}, {@link restoreContactPresence}).
 * @module
 */
import { $internal, addComponent, entityExists, hasComponent, removeComponent } from 'bitecs';
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
  const direct = directWorld(physics);
  if (direct !== null) addDirect(physics, state.touchingNext, direct);
  else addContact(physics, state.touchingNext);
  // An entity that stopped touching had all its pairs end this tick, so the ended pairs name every
  // one when last tick's touching list came from last tick's pairs: this stage ran at the previous
  // diff. Otherwise (the component was off meanwhile, or a restore), every entity of that list.
  // (Read again: the adds register Contact with bitecs at the first tick, and a game's observer
  // called by bitecs there may have registered a query.)
  const directNow = directWorld(physics);
  if (state.appliedAt !== state.diffs - 1) removeContact(physics, state.touching);
  else if (directNow !== null) removeEndedDirect(physics, physics.ended, directNow);
  else removeEnded(physics, physics.ended);
  state.appliedAt = state.diffs;
  const t = state.touching;
  state.touching = state.touchingNext;
  state.touchingNext = t;
}

/** The part of bitecs 0.4's world state (`world[$internal]`) that a structural change of a component writes. */
interface WorldInternals {
  componentMap: Map<object, { generationId: number; bitflag: number; queries: Set<unknown> }>;
  entityMasks: number[][];
  entityComponents: Map<number, Set<object>>;
}

/**
 * The world's bitecs state when a structural change of Contact is only its two writes, else null.
 * For a registered component that is not a relation and that no query holds (a query or an
 * observer naming Contact in any term registers one), bitecs 0.4's `addComponent(world, eid, C)`
 * of a live entity without it sets C's bit in `entityMasks[generationId][eid]` and adds C to
 * `entityComponents.get(eid)`, and `removeComponent` undoes both: the rest (the checks, the query
 * updates, the relation and set-data cases) does nothing then. Writing those two directly measured
 * 0.915 of the tick's instructions at 10,000 spheres (the calls cost about 11,000 instructions per
 * change with their allocation) and 0.95 of its CPU time (docs/benchmarks.md). Reading bitecs's
 * private layout is checked here, once per tick; any other shape takes the public calls.
 */
function directWorld(physics: Physics): WorldInternals | null {
  const ctx = (physics.world as unknown as { [$internal]?: Partial<WorldInternals> })[$internal];
  if (ctx === undefined || !(ctx.componentMap instanceof Map) || !(ctx.entityComponents instanceof Map) || !Array.isArray(ctx.entityMasks)) return null;
  const reg = ctx.componentMap.get(physics.components.Contact);
  if (reg === undefined || !(reg.queries instanceof Set) || reg.queries.size !== 0) return null;
  if (typeof reg.bitflag !== 'number' || !Array.isArray(ctx.entityMasks[reg.generationId])) return null;
  return ctx as WorldInternals;
}

/** {@link addContact} through {@link directWorld}'s two writes (public calls for an entity bitecs does not know). */
function addDirect(physics: Physics, next: IdList, ctx: WorldInternals): void {
  const Contact = physics.components.Contact;
  const reg = ctx.componentMap.get(Contact)!;
  const masks = ctx.entityMasks[reg.generationId];
  const bit = reg.bitflag;
  const sets = ctx.entityComponents;
  const flags = internalsOf(physics).flags;
  const ids = next.ids;
  for (let t = 0; t < next.count; t++) {
    const eid = ids[t];
    // The mask bit also tells a Contact the game removed by hand: it comes back.
    if ((flags[eid] & HAS_CONTACT) !== 0 && (masks[eid] & bit) !== 0) continue;
    flags[eid] |= HAS_CONTACT;
    if ((masks[eid] & bit) !== 0) continue;
    const set = sets.get(eid);
    if (set === undefined) addComponent(physics.world, eid, Contact); // not alive: bitecs throws
    else {
      masks[eid] |= bit;
      set.add(Contact);
    }
  }
}

/** {@link removeEnded} through {@link directWorld}'s two writes. */
function removeEndedDirect(physics: Physics, ended: EndedList, ctx: WorldInternals): void {
  const Contact = physics.components.Contact;
  const reg = ctx.componentMap.get(Contact)!;
  const masks = ctx.entityMasks[reg.generationId];
  const bit = reg.bitflag;
  const sets = ctx.entityComponents;
  const count = Contact.count;
  const flags = internalsOf(physics).flags;
  for (let k = 0; k < 2 * ended.count; k++) {
    const eid = (k & 1) === 0 ? ended.a[k >> 1] : ended.b[k >> 1];
    if (count[eid] !== 0 || (flags[eid] & HAS_CONTACT) === 0) continue;
    flags[eid] &= ~HAS_CONTACT;
    if ((masks[eid] & bit) === 0) continue;
    const set = sets.get(eid);
    if (set === undefined) removeComponent(physics.world, eid, Contact); // not alive: bitecs throws
    else {
      masks[eid] &= ~bit;
      set.delete(Contact);
    }
  }
}

/** Adds Contact to the entities of `next` that lack it (bitecs calls). */
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

/** Removes Contact from the entities of the ended pairs that touch nothing now (bitecs calls). */
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
