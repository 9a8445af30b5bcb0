/**
 * Restoring a snapshot: `restoreSnapshot`. The byte layout is documented in format.ts; the body and
 * contact records are walked by walkRecords.ts (the same walks as the writer's, in the other
 * direction). Everything is checked before anything is written, each failure a
 * `SnapshotMismatchError` naming the field: the format tag, version, options and section sizes, the
 * checksum of the whole snapshot (unless `verify: false`), the tick, cell size and static margin
 * policy, the body set against the world's, and every record (checks.ts). The Contact component's
 * presence is restored by contactComponent.ts. Versions 4 and 5 (80-byte header, no margin policy)
 * are read too (format.ts, `OLDEST_VERSION`).
 * @module
 */
import { LANE1, LANE2 } from '../math/hashMixer.js';
import { releaseContactPresence, restoreContactPresence, writePrimary } from '../contacts/contactComponent.js';
import { contactListReserve, flaggedPairListPush, idListPush, pairListPush } from '../physics/idLists.js';
import { BodyFlags, ContactFlags, type BeganList, type ContactList, type EndedList, type IdList, type PairList, type Physics } from '../physics/physicsTypes.js';
import { openBuffer, SnapshotCursor, stageRead } from './buffer.js';
import { CENSUS_BODIES, CENSUS_BODY_F64, CENSUS_FILTERS, createCensus, takeCensus } from './census.js';
import { checkRecords } from './checks.js';
import { snapshotChecksum } from './checksum.js';
import { SnapshotMismatchError } from './error.js';
import {
  CONTACT_BIT, EXPLICIT_F64, F_CELL, F_MARGIN, F_TICK, H_BODIES, H_BODY_F64, H_CHECK1, H_CHECK2, H_CONTACTS, H_ENDED, H_EXPLICIT,
  H_FILTERS, H_MAGIC, H_POLICY, H_PURGE, H_SUM1, H_SUM2, H_TOTAL, H_TOUCHING, H_VERSION_OPTIONS, HAS_BIT, HEADER_BYTES_V5,
  headerBytesOf, layoutSections, MAGIC, NO_REF, OLDEST_VERSION, OPTION_BITS, POLICY_BUCKET, POLICY_PENDING, SHAPES_DYNAMIC,
  SHAPES_NONE, SnapshotLayout, TOUCH_U32, V4_RECORDS, VERSION,
} from './format.js';
import { badJamMark, copyBodyRecords, copyContactData, copyContactRecords, FROM_SNAPSHOT } from './walkRecords.js';
import { reserveJam } from '../response/jam.js';
import { internalsOf, setTick } from '../physics/internal.js';
import { restoreSleep } from '../response/sleep.js';
import { gridSetMargin } from '../grid/grid.js';
import { BUCKETS } from '../grid/policy.js';
import { rebucketStatic } from '../step/findPairs.js';
import { staticWritten } from '../step/checkStatic.js';

export { SnapshotMismatchError };

/** Options of `restoreSnapshot`. */
export interface RestoreOptions {
  /**
   * Verify the snapshot's checksum before restoring (default true). `false` skips it for snapshots
   * that never left the process (e.g. a rollback ring in memory) and saves one pass over the bytes
   * (measured in docs/snapshots.md); the range checks still run, so a corrupted snapshot cannot
   * crash the restore or leave it half done, but a changed value within its range is then restored.
   */
  verify?: boolean;
}

/** The reader's reusable state (created once: no allocation per call in steady state). */
const cursor = new SnapshotCursor();
/** The counts read from the header, and the sections they give. */
const saved = new SnapshotLayout();
const census = createCensus();
const lanes = new Int32Array(2);
/** The entity of a bad jam mark (`badJamMark`). */
const jamFault = new Int32Array(1);
/** Per entity id: 1 when the entity must hold the Contact component after the restore. */
const presence = { keep: new Uint8Array(0) };
/** The smallest positive normal float64. */
const MIN_NORMAL = 2.2250738585072014e-308;

/**
 * Restores the physics state saved by `saveSnapshot` from `buffer` at byte `offset` (default 0)
 * and returns the number of bytes read. Restores the data of existing entities only: the world must
 * have the same bodies (entity ids, shape kinds, Velocity / Sensor / CollisionFilter presence) as at
 * save time — the game restores its own entities and components first (bitecs serialization) — or
 * it throws `SnapshotMismatchError` before changing anything; so does a corrupted snapshot (checksum
 * or a field out of range; `error.field` names it). The Contact component is added to or removed
 * from entities so that its presence matches the snapshot. Afterwards the physics state, `tick`,
 * `contacts`, `began`, `ended` and the Contact data are as at save time, and stepping gives
 * bit-identical results to the original run (for a version-6 snapshot; after a version-4 or 5 one,
 * which holds no static margin, the next step picks the margin again, and can differ in the last
 * bits where the original kept an older one). No allocation in steady state.
 */
export function restoreSnapshot(physics: Physics, buffer: ArrayBuffer | Uint8Array, offset = 0, options?: RestoreOptions): number {
  openBuffer(cursor, 'restoreSnapshot', buffer, offset);
  // The smallest header (versions 4 and 5) holds the version and the counts; the total checked
  // against the buffer covers the rest of a longer one.
  if (cursor.avail < HEADER_BYTES_V5) throw mismatch('buffer', `the buffer has ${cursor.avail} bytes from offset ${offset}, fewer than a snapshot header (${HEADER_BYTES_V5})`);
  stageRead(cursor, HEADER_BYTES_V5);
  const version = readHeader(offset);
  stageRead(cursor, saved.total);
  if (options?.verify !== false) verifyChecksum();
  const bits = checkHeader(version) | (version === 4 ? V4_RECORDS : 0);
  checkTickAndCell();
  if (version >= 6) checkPolicy();
  checkBodySet(physics, bits);
  checkRecords(physics, cursor, saved);
  const jammed = badJamMark(physics, cursor, saved, bits, jamFault);
  if (jammed >= 0) throw new SnapshotMismatchError({ field: 'bodies.jam', index: jammed, problem: `entity ${jamFault[0]}: its jam mark must be 0 or 1` });
  reserveJam(internalsOf(physics));

  copyBodyRecords(physics, cursor, saved, bits, FROM_SNAPSHOT);
  readTickAndCell(physics, version);
  readContacts(physics);
  readTouching(physics);
  const sleep = internalsOf(physics).sleep;
  if (sleep !== null) restoreSleep(physics, sleep);
  return saved.total;
}

function mismatch(field: string, problem: string): SnapshotMismatchError {
  return new SnapshotMismatchError({ field, problem });
}

/**
 * Checks the format tag, version and total, and reads the header size and counts into `saved`
 * (with their sections); returns the version.
 */
function readHeader(offset: number): number {
  const u32 = cursor.u32;
  const h = cursor.base >>> 2;
  if (u32[h + H_MAGIC] !== MAGIC) throw mismatch('header.magic', `no snapshot at offset ${offset} (bad format tag)`);
  const version = u32[h + H_VERSION_OPTIONS] >>> 24;
  if (version < OLDEST_VERSION || version > VERSION) {
    throw mismatch('header.version', `snapshot format version ${version} is not supported (expected ${OLDEST_VERSION} to ${VERSION})`);
  }
  saved.header = headerBytesOf(version);
  const total = u32[h + H_TOTAL];
  saved.contacts = u32[h + H_CONTACTS];
  saved.ended = u32[h + H_ENDED];
  saved.touching = u32[h + H_TOUCHING];
  saved.explicit = u32[h + H_EXPLICIT];
  saved.filters = u32[h + H_FILTERS];
  saved.bodyF64 = u32[h + H_BODY_F64];
  saved.purge = u32[h + H_PURGE];
  if (layoutSections(saved) !== total) throw mismatch('header.total', `${total} bytes is not the size the section counts give (${saved.total})`);
  if (total > cursor.avail) throw mismatch('buffer', `the snapshot is ${total} bytes but the buffer has ${cursor.avail} from offset ${offset}`);
  return version;
}

/** Compares the checksum of the snapshot's bytes with the one in its header. */
function verifyChecksum(): void {
  const u32 = cursor.u32;
  const h = cursor.base >>> 2;
  snapshotChecksum(u32, h, saved.total >>> 2, lanes);
  if (lanes[LANE1] >>> 0 !== u32[h + H_CHECK1] || lanes[LANE2] >>> 0 !== u32[h + H_CHECK2]) {
    throw mismatch('checksum', 'the snapshot is corrupted (its checksum does not match its bytes)');
  }
}

/**
 * Checks the option bits, the counts that relate and, before version 6, that word 7 (the margin
 * policy since) is zero; returns the option bits.
 */
function checkHeader(version: number): number {
  const u32 = cursor.u32;
  const h = cursor.base >>> 2;
  const bits = u32[h + H_VERSION_OPTIONS] & 0xffffff;
  if ((bits & ~OPTION_BITS) !== 0 || (bits & (SHAPES_DYNAMIC | SHAPES_NONE)) === (SHAPES_DYNAMIC | SHAPES_NONE)) {
    throw mismatch('header.options', `invalid option bits 0x${bits.toString(16)}`);
  }
  if ((version < 6 && u32[h + H_POLICY] !== 0) || saved.explicit > saved.touching || saved.filters > u32[h + H_BODIES]) {
    throw mismatch('header.counts', 'inconsistent section counts');
  }
  return bits;
}

/** The tick must be a non-negative integer, the cell size 0 (not chosen yet) or positive, finite and normal. */
function checkTickAndCell(): void {
  const f0 = cursor.base >>> 3;
  const tick = cursor.f64[f0 + F_TICK];
  if (!(Number.isSafeInteger(tick) && tick >= 0)) throw mismatch('tick', `must be a non-negative integer, got ${tick}`);
  const cell = cursor.f64[f0 + F_CELL];
  if (!(cell === 0 || (cell >= MIN_NORMAL && cell < Infinity))) throw mismatch('cellSize', `must be 0 or positive, finite and normal, got ${cell}`);
}

/**
 * The static margin policy (version 6), as the broadphase keeps it (`updatePolicy`, step/findPairs.ts):
 * the cover bucket −1 (none picked yet) to the last bucket of grid/policy.ts; the margin 0 without
 * a bucket, else 0 or positive and at most the cell size (1 while it is 0): `marginFor` caps it so.
 */
function checkPolicy(): void {
  const word = cursor.u32[(cursor.base >>> 2) + H_POLICY];
  const bucket = (word & POLICY_BUCKET) - 1;
  if ((word & ~(POLICY_BUCKET | POLICY_PENDING)) !== 0 || bucket >= BUCKETS) {
    throw mismatch('marginBucket', `must be -1 to ${BUCKETS - 1} with no other bits set, got the header word 0x${word.toString(16)}`);
  }
  const f0 = cursor.base >>> 3;
  const margin = cursor.f64[f0 + F_MARGIN];
  const cell = cursor.f64[f0 + F_CELL] || 1;
  if (!(margin === 0 || (margin > 0 && margin <= cell && bucket >= 0))) {
    throw mismatch('staticMargin', `must be 0, or with a margin bucket positive and at most the cell size (${cell}), got ${margin}`);
  }
}

/** Checks that the world's body set is the snapshot's (count and checksum), and its record sizes. */
function checkBodySet(physics: Physics, bits: number): void {
  const u32 = cursor.u32;
  const h = cursor.base >>> 2;
  takeCensus(physics, bits, census);
  const bodies = census[CENSUS_BODIES];
  if (bodies !== u32[h + H_BODIES] || census[LANE1] >>> 0 !== u32[h + H_SUM1] || census[LANE2] >>> 0 !== u32[h + H_SUM2]) {
    throw mismatch(
      'bodies',
      `the world's bodies differ from the snapshot's (${bodies} bodies now, ${u32[h + H_BODIES]} saved, or different entity ids or kinds). ` +
      'Restore the entity set (ids and Sphere/Box/Velocity/Sensor/CollisionFilter/Response components) to what it was at save time first.',
    );
  }
  if (census[CENSUS_BODY_F64] !== saved.bodyF64 || census[CENSUS_FILTERS] !== saved.filters) throw mismatch('header.counts', 'the body data size differs from the body set\'s');
}

/**
 * The tick, the cell size and the static margin policy; the static grid then depends on the
 * restored state only, not on what came before. Version 6: the saved margin, its bucket and the
 * pending re-pick (format.ts, "The static margin"); unless a re-pick is due, the static boxes are
 * re-bucketed now, with the saved cell size and margin, and their inputs recorded, so that the next
 * step's `checkStatic` notices a box written after the restore as the saving instance would have.
 * Versions 4 and 5: no margin saved: the next step picks it afresh (re-bucketing the boxes), from
 * no margin and no bucket (not the margin this instance held before the restore).
 */
function readTickAndCell(physics: Physics, version: number): void {
  const f64 = cursor.f64;
  const internal = internalsOf(physics);
  const bp = internal.broadphase;
  const f0 = cursor.base >>> 3;
  // Integral values go back as small integers, as the library keeps them (a double where V8 holds a
  // small integer would change the objects' hidden class and deoptimise the step code).
  const tick = f64[f0 + F_TICK];
  setTick(physics, tick <= 0x3fffffff ? tick | 0 : tick);
  const cell = f64[f0 + F_CELL];
  // The static grid is already what re-bucketing would make of the restored boxes when it was built
  // (no re-bucketing due) with the saved cell size and margin from boxes equal to them (checked
  // below): the usual rollback, the same level restored again and again, rebuilds nothing.
  const built = version >= 6 && !bp.staticDirty && cell === bp.cellSize && f64[f0 + F_MARGIN] === bp.staticGrid.margin;
  if (cell !== bp.cellSize) bp.cellSize = cell === 0 ? 0 : cell;
  internal.queryDirty = true;
  // A restore between runBroadphase and runNarrowphase: the narrowphase tests the pairs itself.
  internal.writes++;
  // (The margin, a double, is written only when it changes, as the cell size: no allocation when a
  // rollback loop restores the same frame again.)
  if (version < 6) {
    if (bp.staticGrid.margin !== 0) gridSetMargin(bp.staticGrid, 0);
    bp.marginBucket = -1;
    bp.staticDirty = true;
    return;
  }
  const word = cursor.u32[(cursor.base >>> 2) + H_POLICY];
  if (f64[f0 + F_MARGIN] !== bp.staticGrid.margin) gridSetMargin(bp.staticGrid, f64[f0 + F_MARGIN]);
  bp.marginBucket = (word & POLICY_BUCKET) - 1;
  // (Overwrites the mark `restoreBodyManifest` or the game's body edits left: the saved one decides.)
  bp.staticDirty = (word & POLICY_PENDING) !== 0;
  if (bp.staticDirty || (built && !staticWritten(physics))) return;
  rebucketStatic(physics);
  bp.staticUnchecked = true;
}

/** The contact list, `began` (its pairs and flags from the contact flags), the previous pairs (the contact pairs) and `ended`. */
function readContacts(physics: Physics): void {
  const list = physics.contacts;
  contactListReserve(list, saved.contacts);
  copyContactRecords(list, cursor, saved, FROM_SNAPSHOT);
  list.count = saved.contacts;
  rebuildBegan(list, physics.began);
  rebuildPrevious(list, internalsOf(physics).contacts.previous);
  readEnded(physics.ended, cursor.u32, (cursor.base + saved.endedU32) >>> 2, cursor.u8, cursor.base + saved.endedFlagsU8);
}

// Each loop below ends its function (docs/internals.md, the idiom's third rule).

function rebuildBegan(list: ContactList, began: BeganList): void {
  began.count = 0;
  for (let i = 0; i < list.count; i++) if ((list.flags[i] & ContactFlags.BEGAN) !== 0) flaggedPairListPush(began, list.a[i], list.b[i], list.flags[i]);
}

function rebuildPrevious(list: ContactList, previous: PairList): void {
  previous.count = 0;
  for (let i = 0; i < list.count; i++) pairListPush(previous, list.a[i], list.b[i]);
}

/** Sets `list` to the saved ended pairs from uint32 word `k` (a, b each), flags from byte `fl`. */
function readEnded(list: EndedList, u32: Uint32Array, k: number, u8: Uint8Array, fl: number): void {
  list.count = 0;
  for (let i = 0; i < saved.ended; i++, k += 2) flaggedPairListPush(list, u32[k], u32[k + 1], u8[fl + i]);
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
  const state = internal.contacts;
  const old = state.touching;
  state.touchingNext.count = 0;
  readTouchingRecords(physics, state.touchingNext, kTouch);
  state.touching = state.touchingNext;
  state.touchingNext = old;
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
    if ((word & HAS_BIT) !== 0) flags[e] |= BodyFlags.HAS_CONTACT;
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
