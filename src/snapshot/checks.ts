/**
 * The range checks `restoreSnapshot` runs on a snapshot's records before it writes anything (after
 * the header, checksum and body-set checks of reader.ts), so that even a snapshot that passes the
 * checksum by construction (or with `verify: false`) cannot put the world in a state no run could
 * reach, nor hand bitecs an entity word it rejects:
 * - removed bodies: an id 1..capacity − 1, each once, and an entity that exists when it held
 *   Contact (a joining client's world may never have had the removed body: no stricter bound);
 * - contacts: in strictly ascending (a, b) order; each id a body now or a removed body; a a sphere,
 *   b a box or a sphere with a higher id (unless one of them was removed since); flags BEGAN or
 *   PERSISTING, plus SENSOR; normal, depth, point finite and toi in [0, 1];
 * - ended pairs: in strictly ascending order, two different ids below the capacity, flags `REMOVED`
 *   or 0, and when 0 both ids bodies now or removed bodies;
 * - touching entities: an id 1..capacity − 1, each once, an entity that exists when it held Contact,
 *   its primary contact index a contact of that entity (or `NO_REF`, as many as the header says) and
 *   its explicit Contact data storable bit for bit (an integer `other`, float32 fields exact, finite).
 * Body values (positions, velocities, shapes, filters) are taken as they are: any value a world can
 * hold (`step` validates them when `validate` is on). Float fields are compared in the arrays (no
 * double crosses a call). Check loops return the first bad record and a reason code (`fault`); the
 * error is built outside them. No allocation except the marks array, grown with the capacity.
 * @module
 */
import { entityExists } from 'bitecs';
import { BodyFlags, ContactFlags, EndedFlags, type Physics } from '../physics/physicsTypes.js';
import type { SnapshotCursor } from './buffer.js';
import { SnapshotMismatchError } from './error.js';
import { CONTACT_BIT, CONTACT_F64, EXPLICIT_F64, HAS_BIT, NO_REF, TOUCH_U32, type SnapshotLayout } from './format.js';
import { internalsOf } from '../physics/internal.js';

const { SPHERE, BOX } = BodyFlags;
const CONTACT_FLAG_BITS = ContactFlags.BEGAN | ContactFlags.PERSISTING | ContactFlags.SENSOR;

// Reason codes of a bad record (slot 0 of `fault`), and their text.
const R_RANGE = 0;
const R_REPEAT = 1;
const R_ORDER = 2;
const R_NOT_BODY = 3;
const R_KIND = 4;
const R_FLAGS = 5;
const R_MISSING = 6;
const R_REF = 7;
const R_VALUE = 8;
const R_COUNT = 9;
const PROBLEMS = [
  'entity id out of range',
  'entity listed twice',
  'pairs out of (a, b) order or a pair of one entity',
  'entity is neither a body nor a body removed since the last step',
  'pair of the wrong body kinds or order (a sphere, then a box or a sphere with a higher id; or a box, then a box with a higher id)',
  'invalid flags',
  'held the Contact component at save time but does not exist now',
  'primary contact index out of range or not a contact of this entity',
  'value out of range (non-finite, toi outside [0, 1], or not storable exactly)',
  'the number of explicit Contact records differs from the header',
];

/**
 * The checks' reusable state: the reason code (slot 0 of `fault`) and the entity it concerns (slot 1,
 * or −1), marks (per entity id) and the current mark value.
 */
const state = { fault: new Int32Array(2), marks: new Uint32Array(0), epoch: 0 };

/** Mark value of the removed bodies this restore (the touching entities use `epoch + 1`). */
function newEpoch(capacity: number): number {
  if (state.marks.length < capacity) state.marks = new Uint32Array(capacity);
  if (state.epoch >= 0xfffffff0) {
    state.marks.fill(0);
    state.epoch = 0;
  }
  state.epoch += 2;
  return state.epoch;
}

function fail(field: string, index: number): SnapshotMismatchError {
  const e = state.fault[1];
  return new SnapshotMismatchError({ field, index, problem: `${e >= 0 ? `entity ${e} ` : ''}${PROBLEMS[state.fault[0]]}` });
}

/** Throws `SnapshotMismatchError` for the first bad record of any section (see the module doc). */
export function checkRecords(physics: Physics, c: SnapshotCursor, l: SnapshotLayout): void {
  const removed = newEpoch(internalsOf(physics).capacity);
  state.fault[1] = -1;
  let i = badRemoved(physics, c.u32, (c.base + l.purgeU32) >>> 2, l.purge, removed);
  if (i >= 0) throw fail('removed.entity', i);
  i = badPairs(physics, c, l, removed, CONTACT_PAIRS);
  if (i >= 0) throw fail(state.fault[0] === R_FLAGS ? 'contacts.flags' : 'contacts.pair', i);
  i = badContactData(c.f64, (c.base + l.contactF64) >>> 3, l.contacts);
  if (i >= 0) throw fail('contacts.data', i);
  i = badPairs(physics, c, l, removed, ENDED_PAIRS);
  if (i >= 0) throw fail(state.fault[0] === R_FLAGS ? 'ended.flags' : 'ended.pair', i);
  i = badTouching(physics, c, l, removed + 1);
  if (i >= 0) throw fail(state.fault[0] === R_REF || state.fault[0] === R_COUNT ? 'touching.primary' : 'touching.entity', i);
  i = badExplicit(c.f64, (c.base + l.explicitF64) >>> 3, l.explicit);
  if (i >= 0) throw fail('touching.data', i);
}

function bad(code: number): boolean {
  state.fault[0] = code;
  return true;
}

/** `bad(R_MISSING)` for entity `e`. */
function missing(e: number): boolean {
  state.fault[1] = e;
  return bad(R_MISSING);
}

/** Whether pair (a, b) is a pair of one entity or does not follow pair (pa, pb) in strictly ascending order. */
function outOfOrder(a: number, b: number, pa: number, pb: number): boolean {
  return a === b || a < pa || (a === pa && b <= pb);
}

/** Whether `e` (in range) is a body now or a body removed since the last step (marked `removed`). */
function bodyOrRemoved(flags: Uint8Array, marks: Uint32Array, e: number, removed: number): boolean {
  return (flags[e] & (SPHERE | BOX)) !== 0 || marks[e] === removed;
}

/** A bad removed-body record, or −1; marks the removed bodies with `removed`. */
function badRemoved(physics: Physics, u32: Uint32Array, k: number, count: number, removed: number): number {
  const { capacity } = internalsOf(physics);
  const marks = state.marks;
  for (let t = 0; t < count; t++, k++) {
    const word = u32[k];
    const e = (word & ~CONTACT_BIT) >>> 0;
    if ((e === 0 || e >= capacity) && bad(R_RANGE)) return t;
    if (marks[e] === removed && bad(R_REPEAT)) return t;
    if ((word & CONTACT_BIT) !== 0 && !entityExists(physics.world, e) && missing(e)) return t;
    marks[e] = removed;
  }
  return -1;
}

/** Whether contact pair (a, b) fits the narrowphase's pairs (ids in range, both checked as bodies). */
function contactPairFits(flags: Uint8Array, marks: Uint32Array, a: number, b: number, removed: number): boolean {
  if (!bodyOrRemoved(flags, marks, a, removed) || !bodyOrRemoved(flags, marks, b, removed)) return !bad(R_NOT_BODY);
  if (marks[a] === removed || marks[b] === removed) return true;
  const fa = flags[a], fb = flags[b];
  if ((fa & SPHERE) !== 0) return (fb & BOX) !== 0 || a < b || !bad(R_KIND);
  // Two boxes: the lower id first (one of them moved in the saved tick, but either may have stopped
  // since: its Velocity removed before the save).
  return ((fa & BOX) !== 0 && (fb & BOX) !== 0 && a < b) || !bad(R_KIND);
}

/** The two pair lists of a snapshot that `badPairs` walks. */
const CONTACT_PAIRS = 0;
const ENDED_PAIRS = 1;

/**
 * A bad pair or flags byte of the contact list (`CONTACT_PAIRS`) or the ended list (`ENDED_PAIRS`),
 * or −1. Both lists hold pairs of ids in range, in strictly ascending order.
 */
function badPairs(physics: Physics, c: SnapshotCursor, l: SnapshotLayout, removed: number, list: number): number {
  const { flags, capacity } = internalsOf(physics);
  const { u32, u8 } = c;
  const ended = list === ENDED_PAIRS;
  const fl = c.base + (ended ? l.endedFlagsU8 : l.flagsU8);
  const count = ended ? l.ended : l.contacts;
  let k = (c.base + (ended ? l.endedU32 : l.contactAB)) >>> 2;
  let pa = 0;
  let pb = 0;
  for (let i = 0; i < count; i++, k += 2) {
    const a = u32[k];
    const b = u32[k + 1];
    if ((a === 0 || b === 0 || a >= capacity || b >= capacity) && bad(R_RANGE)) return i;
    if (outOfOrder(a, b, pa, pb) && bad(R_ORDER)) return i;
    if (ended ? badEndedPair(flags, a, b, u8[fl + i], removed) : badContactPair(flags, a, b, u8[fl + i], removed)) return i;
    pa = a;
    pb = b;
  }
  return -1;
}

/** Whether contact pair (a, b) with flags byte `f` is bad (its fault set). */
function badContactPair(flags: Uint8Array, a: number, b: number, f: number, removed: number): boolean {
  if (!contactPairFits(flags, state.marks, a, b, removed)) return true;
  const began = f & (ContactFlags.BEGAN | ContactFlags.PERSISTING);
  return ((f & ~CONTACT_FLAG_BITS) !== 0 || (began !== ContactFlags.BEGAN && began !== ContactFlags.PERSISTING)) && bad(R_FLAGS);
}

/** Whether ended pair (a, b) with flags byte `f` is bad (its fault set): both bodies, unless REMOVED. */
function badEndedPair(flags: Uint8Array, a: number, b: number, f: number, removed: number): boolean {
  if ((f & ~EndedFlags.REMOVED) !== 0) return bad(R_FLAGS);
  const marks = state.marks;
  return f === 0 && !(bodyOrRemoved(flags, marks, a, removed) && bodyOrRemoved(flags, marks, b, removed)) && bad(R_NOT_BODY);
}

/** A contact with a non-finite normal, depth or point, or toi outside [0, 1], or −1. */
function badContactData(f64: Float64Array, j: number, count: number): number {
  for (let i = 0; i < count; i++, j += CONTACT_F64) {
    if (!(Number.isFinite(f64[j]) && Number.isFinite(f64[j + 1]) && Number.isFinite(f64[j + 2]) && Number.isFinite(f64[j + 3]) &&
      Number.isFinite(f64[j + 4]) && Number.isFinite(f64[j + 5]) && Number.isFinite(f64[j + 6]) && f64[j + 7] >= 0 && f64[j + 7] <= 1)) {
      state.fault[0] = R_VALUE;
      return i;
    }
  }
  return -1;
}

/** Whether primary contact index `ref` (`NO_REF` aside) is a saved contact of entity `e`. */
function refFits(c: SnapshotCursor, l: SnapshotLayout, e: number, ref: number): boolean {
  if (ref >= l.contacts) return false;
  const k = ((c.base + l.contactAB) >>> 2) + 2 * ref;
  return c.u32[k] === e || c.u32[k + 1] === e;
}

/** A bad touching record, or −1 (with the count of explicit records checked at the end). */
function badTouching(physics: Physics, c: SnapshotCursor, l: SnapshotLayout, touching: number): number {
  const { capacity } = internalsOf(physics);
  const u32 = c.u32;
  const marks = state.marks;
  let k = (c.base + l.touchingU32) >>> 2;
  let explicit = 0;
  for (let t = 0; t < l.touching; t++, k += TOUCH_U32) {
    const word = u32[k];
    const e = (word & ~HAS_BIT) >>> 0;
    const ref = u32[k + 2];
    if ((e === 0 || e >= capacity) && bad(R_RANGE)) return t;
    if (marks[e] === touching && bad(R_REPEAT)) return t;
    if (ref === NO_REF) explicit++;
    else if (!refFits(c, l, e, ref) && bad(R_REF)) return t;
    if ((word & HAS_BIT) !== 0 && !entityExists(physics.world, e) && missing(e)) return t;
    marks[e] = touching;
  }
  return explicit !== l.explicit && bad(R_COUNT) ? Math.max(0, l.touching - 1) : -1;
}

/** Whether float64 word `j` is exactly a finite float32 value. */
function float32At(f64: Float64Array, j: number): boolean {
  const v = f64[j];
  return Math.fround(v) === v && v - v === 0;
}

/** An explicit Contact record whose data the Contact stores cannot hold bit for bit, or −1. */
function badExplicit(f64: Float64Array, j: number, count: number): number {
  for (let i = 0; i < count; i++, j += EXPLICIT_F64) {
    const other = f64[j];
    const ok = Number.isInteger(other) && other >= 0 && other <= 0xffffffff &&
      float32At(f64, j + 1) && float32At(f64, j + 2) && float32At(f64, j + 3) && float32At(f64, j + 4) && float32At(f64, j + 5) &&
      Number.isFinite(f64[j + 6]) && Number.isFinite(f64[j + 7]) && Number.isFinite(f64[j + 8]);
    if (!ok) {
      state.fault[0] = R_VALUE;
      return i;
    }
  }
  return -1;
}
