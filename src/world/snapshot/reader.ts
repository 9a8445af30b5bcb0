/**
 * Restoring a snapshot: `restoreSnapshot` and `SnapshotMismatchError`. The byte layout is
 * documented in format.ts; the body and contact records are walked by records.ts (the same walks
 * as the writer's, in the other direction). Everything is checked before anything is written: the
 * format tag, version and section sizes, the body set against the world's, and every entity id and
 * contact index of the touching and removed-body records. The Contact component's presence is
 * restored by contactComponent.ts.
 * @module
 */
import { entityExists } from 'bitecs';
import { LANE1, LANE2 } from '../../math/hashMixer.js';
import { HAS_CONTACT, releaseContactPresence, restoreContactPresence, writePrimary } from '../contactComponent.js';
import { contactListReserve, idListPush, pairListPush } from '../lists.js';
import { ContactFlags, type ContactList, type IdList, type PairList, type Physics } from '../types.js';
import { openBuffer, SnapshotCursor, stageRead } from './buffer.js';
import { CENSUS_BODIES, CENSUS_BODY_F64, CENSUS_FILTERS, createCensus, takeCensus } from './census.js';
import {
  CONTACT_BIT, EXPLICIT_F64, F_CELL, F_TICK, H_BODIES, H_BODY_F64, H_CONTACTS, H_ENDED, H_EXPLICIT, H_FILTERS, H_MAGIC,
  H_PREVIOUS, H_PURGE, H_SUM1, H_SUM2, H_TOTAL, H_TOUCHING, H_VERSION_OPTIONS, HAS_BIT, HEADER_BYTES, layoutSections,
  MAGIC, NO_REF, SnapshotLayout, TOUCH_U32, VERSION,
} from './format.js';
import { copyBodyRecords, copyContactData, copyContactRecords, FROM_SNAPSHOT } from './records.js';
import { internalsOf, setTick } from '../internal.js';

/** Thrown by `restoreSnapshot` when the buffer is not a snapshot or the world's bodies differ from the snapshot's. */
export class SnapshotMismatchError extends Error {
  constructor(message: string) {
    super(`bitecs-collide: restoreSnapshot: ${message}`);
    this.name = 'SnapshotMismatchError';
  }
}

/** The reader's reusable state (created once: no allocation per call in steady state). */
const cursor = new SnapshotCursor();
/** The counts read from the header, and the sections they give. */
const saved = new SnapshotLayout();
const census = createCensus();
/** Per entity id: 1 when the entity must hold the Contact component after the restore. */
const presence = { keep: new Uint8Array(0) };

/**
 * Restores the physics state saved by `saveSnapshot` from `buffer` at byte `offset` (default 0)
 * and returns the number of bytes read. Restores the data of existing entities only: the world must
 * have the same bodies (entity ids, shape kinds, Velocity / Sensor / CollisionFilter presence) as at
 * save time — the game restores its own entities and components first (bitecs serialization) — or
 * it throws `SnapshotMismatchError` before changing anything. The Contact component is added to or
 * removed from entities so that its presence matches the snapshot. Afterwards the physics state,
 * `tick`, `contacts`, `began`, `ended` and the Contact data are as at save time, and stepping gives
 * bit-identical results to the original run. No allocation in steady state.
 */
export function restoreSnapshot(physics: Physics, buffer: ArrayBuffer | Uint8Array, offset = 0): number {
  openBuffer(cursor, 'restoreSnapshot', buffer, offset);
  if (cursor.avail < HEADER_BYTES) throw new SnapshotMismatchError(`the buffer has ${cursor.avail} bytes from offset ${offset}, fewer than a snapshot header (${HEADER_BYTES})`);
  stageRead(cursor, HEADER_BYTES);
  const bits = readHeader(offset);
  stageRead(cursor, saved.total);
  checkBodySet(physics, bits);
  checkEntities(physics);

  copyBodyRecords(physics, cursor, saved, bits, FROM_SNAPSHOT);
  readTickAndCell(physics);
  readContacts(physics);
  readTouching(physics);
  return saved.total;
}

/** Checks the header and reads its counts into `saved` (with their sections); returns the option bits. */
function readHeader(offset: number): number {
  const u32 = cursor.u32;
  const h = cursor.base >>> 2;
  if (u32[h + H_MAGIC] !== MAGIC) throw new SnapshotMismatchError(`no snapshot at offset ${offset} (bad format tag)`);
  const vo = u32[h + H_VERSION_OPTIONS];
  if (vo >>> 24 !== VERSION) throw new SnapshotMismatchError(`snapshot format version ${vo >>> 24} is not supported (expected ${VERSION})`);
  const total = u32[h + H_TOTAL];
  saved.contacts = u32[h + H_CONTACTS];
  saved.previous = u32[h + H_PREVIOUS];
  saved.ended = u32[h + H_ENDED];
  saved.touching = u32[h + H_TOUCHING];
  saved.explicit = u32[h + H_EXPLICIT];
  saved.filters = u32[h + H_FILTERS];
  saved.bodyF64 = u32[h + H_BODY_F64];
  saved.purge = u32[h + H_PURGE];
  if (layoutSections(saved) !== total || saved.explicit > saved.touching) throw new SnapshotMismatchError('corrupt snapshot (inconsistent section sizes)');
  if (total > cursor.avail) throw new SnapshotMismatchError(`the snapshot is ${total} bytes but the buffer has ${cursor.avail} from offset ${offset}`);
  return vo & 0xff;
}

/** Checks that the world's body set is the snapshot's (count and checksum), and its record sizes. */
function checkBodySet(physics: Physics, bits: number): void {
  const u32 = cursor.u32;
  const h = cursor.base >>> 2;
  takeCensus(physics, bits, census);
  const bodies = census[CENSUS_BODIES];
  if (bodies !== u32[h + H_BODIES] || census[LANE1] >>> 0 !== u32[h + H_SUM1] || census[LANE2] >>> 0 !== u32[h + H_SUM2]) {
    throw new SnapshotMismatchError(
      `the world's bodies differ from the snapshot's (${bodies} bodies now, ${u32[h + H_BODIES]} saved, or different entity ids or kinds). ` +
      'Restore the entity set (ids and Sphere/Box/Velocity/Sensor/CollisionFilter components) to what it was at save time first.',
    );
  }
  if (census[CENSUS_BODY_F64] !== saved.bodyF64 || census[CENSUS_FILTERS] !== saved.filters) throw new SnapshotMismatchError('corrupt snapshot (body data size differs)');
}

/**
 * The first bad record among `count` records of `stride` words from word `k` (entity id and flag
 * `bit` in the first word; with `contacts` >= 0, a contact index in the third), or −1. Loops never
 * throw: the error is built outside them (keeps V8's optimised loops allocation-free).
 */
function firstBadRecord(physics: Physics, k: number, count: number, stride: number, bit: number, contacts: number): number {
  const u32 = cursor.u32;
  const cap = internalsOf(physics).capacity;
  const world = physics.world;
  for (let t = 0; t < count; t++, k += stride) {
    const word = u32[k];
    const e = word & ~bit;
    if (e >= cap || (contacts >= 0 && u32[k + 2] !== NO_REF && u32[k + 2] >= contacts)) return t;
    if ((word & bit) !== 0 && !entityExists(world, e)) return t;
  }
  return -1;
}

function badRecordError(physics: Physics, word: number, bit: number): SnapshotMismatchError {
  const e = word & ~bit;
  if (e >= internalsOf(physics).capacity || (word & bit) === 0) return new SnapshotMismatchError(`corrupt snapshot (entity ${e} or its contact index out of range)`);
  return new SnapshotMismatchError(`entity ${e} held the Contact component at save time but does not exist now`);
}

/** Checks the touching and removed-body records before anything changes. */
function checkEntities(physics: Physics): void {
  const kTouch = (cursor.base + saved.touchingU32) >>> 2;
  const kPurge = (cursor.base + saved.purgeU32) >>> 2;
  let t = firstBadRecord(physics, kTouch, saved.touching, TOUCH_U32, HAS_BIT, saved.contacts);
  if (t >= 0) throw badRecordError(physics, cursor.u32[kTouch + TOUCH_U32 * t], HAS_BIT);
  t = firstBadRecord(physics, kPurge, saved.purge, 1, CONTACT_BIT, -1);
  if (t >= 0) throw badRecordError(physics, cursor.u32[kPurge + t], CONTACT_BIT);
}

function readTickAndCell(physics: Physics): void {
  const f64 = cursor.f64;
  const internal = internalsOf(physics);
  const f0 = cursor.base >>> 3;
  // Integral values go back as small integers, as the library keeps them (a double where V8 holds a
  // small integer would change the objects' hidden class and deoptimise the step code).
  const tick = f64[f0 + F_TICK];
  setTick(physics, tick <= 0x3fffffff ? tick | 0 : tick);
  const cell = f64[f0 + F_CELL];
  if (cell !== internal.cellSize) internal.cellSize = cell === 0 ? 0 : cell;
  // Re-bucket the static boxes at the next step whatever was written (their bounds may have moved,
  // and the static grid then depends on the restored state only, not on what came before).
  internal.staticDirty = true;
  internal.queryDirty = true;
}

/** The contact list, `began` (from the contact flags), the previous pairs and `ended`. */
function readContacts(physics: Physics): void {
  const list = physics.contacts;
  contactListReserve(list, saved.contacts);
  copyContactRecords(list, cursor, saved, FROM_SNAPSHOT);
  list.count = saved.contacts;
  rebuildBegan(list, physics.began);
  readPairs(internalsOf(physics).previous, cursor.u32, (cursor.base + saved.previousU32) >>> 2, saved.previous);
  readPairs(physics.ended, cursor.u32, (cursor.base + saved.endedU32) >>> 2, saved.ended);
}

// (Each loop below ends its function: code after a long loop would run without type feedback in
// V8's on-stack-replaced loop code and deoptimise there on every call.)

function rebuildBegan(list: ContactList, began: PairList): void {
  began.count = 0;
  for (let i = 0; i < list.count; i++) if ((list.flags[i] & ContactFlags.BEGAN) !== 0) pairListPush(began, list.a[i], list.b[i]);
}

/** Sets `list` to the `count` pairs from uint32 word `k` (a, b each). */
function readPairs(list: PairList, u32: Uint32Array, k: number, count: number): void {
  list.count = 0;
  for (let i = 0; i < count; i++, k += 2) pairListPush(list, u32[k], u32[k + 1]);
}

/** Sets `keep[e]` for the `count` records of `stride` words from word `k` whose first word has `bit`. */
function markKept(keep: Uint8Array, u32: Uint32Array, k: number, count: number, stride: number, bit: number): void {
  for (let t = 0; t < count; t++, k += stride) if ((u32[k] & bit) !== 0) keep[u32[k] & ~bit] = 1;
}

/** Sets the removed-body list (and marks) to the `count` records from uint32 word `k`. */
function readRemoved(physics: Physics, u32: Uint32Array, k: number, count: number): void {
  const { purgeList, purgeMark } = internalsOf(physics);
  purgeList.count = 0;
  for (let t = 0; t < count; t++, k++) {
    const e = u32[k] & ~CONTACT_BIT;
    purgeMark[e] = 1;
    idListPush(purgeList, e);
  }
}

/**
 * Restores the touching list, the Contact data and counts, the removed-body list, and Contact
 * component presence: held by the saved touching entities that held it, and by saved removed-body
 * entities that still held it (the next step takes it off them, as it would have); taken off every
 * other entity that may hold it now (the current touching and removed-body entities).
 */
function readTouching(physics: Physics): void {
  const internal = internalsOf(physics);
  const u32 = cursor.u32;
  if (presence.keep.length < internal.capacity) presence.keep = new Uint8Array(internal.capacity);
  const keep = presence.keep;
  const kTouch = (cursor.base + saved.touchingU32) >>> 2;
  const kPurge = (cursor.base + saved.purgeU32) >>> 2;
  markKept(keep, u32, kTouch, saved.touching, TOUCH_U32, HAS_BIT);
  markKept(keep, u32, kPurge, saved.purge, 1, CONTACT_BIT);
  releaseContactPresence(physics, keep);
  readRemoved(physics, u32, kPurge, saved.purge);
  const old = internal.touching;
  internal.touchingNext.count = 0;
  readTouchingRecords(physics, internal.touchingNext, kTouch);
  internal.touching = internal.touchingNext;
  internal.touchingNext = old;
  restoreContactPresence(physics, keep);
}

/** Pushes the saved touching entities to `next` and restores their Contact flags, counts and data. */
function readTouchingRecords(physics: Physics, next: IdList, k: number): void {
  const { f64, u32 } = cursor;
  const flags = internalsOf(physics).flags;
  const C = physics.components.Contact;
  const list = physics.contacts;
  let j = (cursor.base + saved.explicitF64) >>> 3;
  for (let t = 0; t < saved.touching; t++, k += TOUCH_U32) {
    const word = u32[k];
    const e = word & ~HAS_BIT;
    const ref = u32[k + 2];
    idListPush(next, e);
    if ((word & HAS_BIT) !== 0) flags[e] |= HAS_CONTACT;
    C.count[e] = u32[k + 1];
    if (ref !== NO_REF) {
      const a = list.a[ref];
      if (a === e) writePrimary(physics, e, list.b[ref], ref, 1);
      else writePrimary(physics, e, a, ref, -1);
    } else {
      copyContactData(physics, e, f64, j, FROM_SNAPSHOT);
      j += EXPLICIT_F64;
    }
  }
}
