/**
 * Saving a snapshot: `snapshotSize` and `saveSnapshot`. The byte layout is documented in format.ts;
 * the body and contact records are walked by walkRecords.ts. Positions and contact points are in the
 * world frame and the caller's length unit, velocities in length units per second, as in the
 * components; every value is stored bit for bit (float64, or the store's own integer type).
 * @module
 */
import { LANE1, LANE2 } from '../math/hashMixer.js';
import { holdsContact } from '../contacts/contactComponent.js';
import { BodyFlags, type EndedList, type IdList, type Physics } from '../physics/physicsTypes.js';
import { commitWrite, openBuffer, SnapshotCursor, stageWrite } from './buffer.js';
import { CENSUS_BODIES, CENSUS_BODY_F64, CENSUS_FILTERS, createCensus, takeCensus } from './census.js';
import { snapshotChecksum } from './checksum.js';
import {
  CONTACT_BIT, EXPLICIT_F64, F_CELL, F_MARGIN, F_TICK, H_BODIES, H_BODY_F64, H_CHECK1, H_CHECK2, H_CONTACTS, H_ENDED, H_EXPLICIT,
  H_FILTERS, H_MAGIC, H_POLICY, H_PURGE, H_SUM1, H_SUM2, H_TOTAL, H_TOUCHING, H_VERSION_OPTIONS, HAS_BIT, layoutSections, MAGIC,
  NO_REF, optionBits, POLICY_PENDING, SnapshotLayout, TOUCH_U32, VERSION, type SnapshotOptions,
} from './format.js';
import { copyBodyRecords, copyContactData, copyContactRecords, TO_SNAPSHOT } from './walkRecords.js';
import { internalsOf } from '../physics/internal.js';
import { staticWritten } from '../step/checkStatic.js';

/** The writer's reusable state (created once: no allocation per call). */
const cursor = new SnapshotCursor();
const layout = new SnapshotLayout();
const census = createCensus();
const lanes = new Int32Array(2);
/** Per touching entity, its primary contact index or −1 (set by `measure`, read by `writeTouching`). */
const scratch = { refs: new Int32Array(64) };

// Contact data compared bit for bit (equal values, and the same sign of zero) with what a contact of
// the list gives it. The helpers read both values from the arrays: no double is passed to a call.

/** `stored[e]` is `fround(sign × list[i])` (a float32 field of Contact). */
function sameF32(stored: Float32Array, e: number, list: Float64Array, i: number, sign: number): boolean {
  const a = stored[e];
  const b = Math.fround(sign * list[i]);
  return a === b && (a !== 0 || 1 / a === 1 / b);
}

/** `stored[e]` is `list[i]` (a float64 field of Contact). */
function sameF64(stored: Float64Array, e: number, list: Float64Array, i: number): boolean {
  const a = stored[e];
  const b = list[i];
  return a === b && (a !== 0 || 1 / a === 1 / b);
}

/** True when `eid`'s Contact data is what contact `i` gives it (sign +1 as `a`, −1 as `b`). */
function contactDataFrom(physics: Physics, eid: number, i: number, sign: number): boolean {
  const C = physics.components.Contact;
  const l = physics.contacts;
  return sameF32(C.nx, eid, l.nx, i, sign) && sameF32(C.ny, eid, l.ny, i, sign) && sameF32(C.nz, eid, l.nz, i, sign) &&
    sameF32(C.depth, eid, l.depth, i, 1) && sameF32(C.toi, eid, l.toi, i, 1) &&
    sameF64(C.px, eid, l.px, i) && sameF64(C.py, eid, l.py, i) && sameF64(C.pz, eid, l.pz, i);
}

/**
 * The contact-list index whose data the touching entity `e` holds (its primary contact, from
 * `internal.contacts.primary`), or −1 when its Contact data matches no contact of the list (for
 * example when the Contact component was off for the last step).
 */
function primaryRef(physics: Physics, e: number): number {
  const l = physics.contacts;
  const C = physics.components.Contact;
  const primary = internalsOf(physics).contacts.primary;
  if (e >= primary.length) return -1;
  const i = primary[e];
  if (i >= l.count) return -1;
  // As a (sign +1) or as b (−1) of the pair (never both: a pair joins two entities).
  const sign = l.a[i] === e ? 1 : l.b[i] === e ? -1 : 0;
  if (sign === 0 || C.other[e] !== (sign > 0 ? l.b[i] : l.a[i])) return -1;
  return contactDataFrom(physics, e, i, sign) ? i : -1;
}

/**
 * Sets `refs[t]` to the primary contact index of each touching entity `touching.ids[t]` (or −1) and
 * returns how many have none (their Contact data is stored explicitly).
 */
function countExplicit(physics: Physics, touching: IdList, refs: Int32Array): number {
  let n = 0;
  for (let t = 0; t < touching.count; t++) {
    const ref = primaryRef(physics, touching.ids[t]);
    refs[t] = ref;
    if (ref < 0) n++;
  }
  return n;
}

/** Takes the census and the counts of the current state into `layout`; returns the snapshot size. */
function measure(physics: Physics, bits: number): number {
  takeCensus(physics, bits, census);
  const internal = internalsOf(physics);
  const touching = internal.contacts.touching;
  if (scratch.refs.length < touching.count) scratch.refs = new Int32Array(Math.max(2 * scratch.refs.length, touching.count));
  layout.bodyF64 = census[CENSUS_BODY_F64];
  layout.filters = census[CENSUS_FILTERS];
  layout.contacts = physics.contacts.count;
  layout.explicit = countExplicit(physics, touching, scratch.refs);
  layout.ended = physics.ended.count;
  layout.touching = touching.count;
  layout.purge = internal.purgeList.count;
  return layoutSections(layout);
}

/**
 * Bytes `saveSnapshot` needs for the current state with these options (a multiple of 8). Grows with
 * the bodies and the live contacts; see the format documentation for the sizes. No allocation.
 */
export function snapshotSize(physics: Physics, options?: SnapshotOptions): number {
  return measure(physics, optionBits(options));
}

/**
 * Writes the physics state into `buffer` at byte `offset` (default 0) and returns the number of
 * bytes written (`snapshotSize(physics, options)`). Throws `RangeError` when the buffer is too small
 * from that offset. The buffer belongs to the caller (e.g. a ring of per-tick buffers for rollback);
 * nothing is allocated in steady state. Save between ticks (after `step`), as the game saves its
 * own components. The snapshot ends its header with a 64-bit checksum of all its bytes, which
 * `restoreSnapshot` verifies.
 */
export function saveSnapshot(physics: Physics, buffer: ArrayBuffer | Uint8Array, offset = 0, options?: SnapshotOptions): number {
  const bits = optionBits(options);
  openBuffer(cursor, 'saveSnapshot', buffer, offset);
  const total = measure(physics, bits);
  if (total > cursor.avail) {
    throw new RangeError(`bitecs-collide: saveSnapshot: the snapshot needs ${total} bytes but the buffer has ${cursor.avail} from offset ${offset}; size it with snapshotSize(physics)`);
  }
  writeMeasured(physics, bits, total, true);
  return total;
}

/**
 * For the rollback ring (rollback.ts): writes the snapshot (default options) into `buffer` from
 * byte `offset` when it fits in `room` bytes and returns its size; otherwise writes nothing and
 * returns minus the bytes it needs. One census of the bodies either way. With `checksum` false the
 * two checksum words are written as zeros (a frame that never leaves the process is restored with
 * `verify: false`), saving one pass over the snapshot's words.
 */
export function saveSnapshotWithin(physics: Physics, buffer: Uint8Array, offset: number, room: number, checksum: boolean): number {
  openBuffer(cursor, 'saveRollback', buffer, offset);
  const total = measure(physics, 0);
  if (total > room || total > cursor.avail) return -total;
  writeMeasured(physics, 0, total, checksum);
  return total;
}

/** Writes the snapshot measured by `measure` (`total` bytes, option `bits`) at the cursor. */
function writeMeasured(physics: Physics, bits: number, total: number, checksum: boolean): void {
  stageWrite(cursor, total);
  writeHeader(physics, bits);
  copyBodyRecords(physics, cursor, layout, bits, TO_SNAPSHOT);
  copyContactRecords(physics.contacts, cursor, layout, TO_SNAPSHOT);
  const u8 = cursor.u8;
  for (let i = cursor.base + layout.flagsU8 + layout.contacts; i < cursor.base + total; i++) u8[i] = 0;
  // Ended pairs and removed bodies as they are (the next step reports the pairs of removed bodies
  // as ended, REMOVED, and takes Contact off entities that stopped being bodies).
  const { u32, base } = cursor;
  writeEnded(physics.ended, u32, (base + layout.endedU32) >>> 2, u8, base + layout.endedFlagsU8);
  writeRemoved(physics, u32, (base + layout.purgeU32) >>> 2);
  writeTouching(physics);
  if (checksum) {
    snapshotChecksum(u32, base >>> 2, total >>> 2, lanes);
    u32[(base >>> 2) + H_CHECK1] = lanes[LANE1];
    u32[(base >>> 2) + H_CHECK2] = lanes[LANE2];
  } else {
    u32[(base >>> 2) + H_CHECK1] = 0;
    u32[(base >>> 2) + H_CHECK2] = 0;
  }
  commitWrite(cursor, total);
}

function writeHeader(physics: Physics, bits: number): void {
  const { f64, u32, base } = cursor;
  const h = base >>> 2;
  u32[h + H_MAGIC] = MAGIC;
  u32[h + H_VERSION_OPTIONS] = (VERSION << 24) | bits;
  u32[h + H_TOTAL] = layout.total;
  u32[h + H_BODIES] = census[CENSUS_BODIES];
  u32[h + H_SUM1] = census[LANE1];
  u32[h + H_SUM2] = census[LANE2];
  u32[h + H_CONTACTS] = layout.contacts;
  // The static margin's policy (see format.ts): a re-pick is due when the static grid is marked for
  // re-bucketing or a static box was written since it was bucketed (the next step notices it).
  const bp = internalsOf(physics).broadphase;
  u32[h + H_POLICY] = (bp.marginBucket + 1) | (bp.staticDirty || staticWritten(physics) ? POLICY_PENDING : 0);
  u32[h + H_ENDED] = layout.ended;
  u32[h + H_TOUCHING] = layout.touching;
  u32[h + H_EXPLICIT] = layout.explicit;
  u32[h + H_FILTERS] = layout.filters;
  u32[h + H_BODY_F64] = layout.bodyF64;
  u32[h + H_PURGE] = layout.purge;
  f64[(base >>> 3) + F_TICK] = physics.tick;
  f64[(base >>> 3) + F_CELL] = bp.cellSize;
  f64[(base >>> 3) + F_MARGIN] = bp.staticGrid.margin;
}

/** Writes the ended pairs from uint32 word `k` (a, b each) and their flags from byte `fl`. */
function writeEnded(list: EndedList, u32: Uint32Array, k: number, u8: Uint8Array, fl: number): void {
  for (let i = 0; i < list.count; i++, k += 2) {
    u32[k] = list.a[i];
    u32[k + 1] = list.b[i];
    u8[fl + i] = list.flags[i];
  }
}

/** The bodies removed since the last step, from uint32 word `k`, with whether each still holds Contact. */
function writeRemoved(physics: Physics, u32: Uint32Array, k: number): void {
  const purgeList = internalsOf(physics).purgeList;
  for (let i = 0; i < purgeList.count; i++) {
    const e = purgeList.ids[i];
    u32[k + i] = (e | (holdsContact(physics, e) ? CONTACT_BIT : 0)) >>> 0;
  }
}

/** Touching entities: id | holds-Contact bit, count, primary contact index (or explicit data). */
function writeTouching(physics: Physics): void {
  const { f64, u32, base } = cursor;
  const { flags, contacts: { touching } } = internalsOf(physics);
  const C = physics.components.Contact;
  const refs = scratch.refs;
  let k = (base + layout.touchingU32) >>> 2;
  let j = (base + layout.explicitF64) >>> 3;
  for (let t = 0; t < touching.count; t++, k += TOUCH_U32) {
    const e = touching.ids[t];
    const ref = refs[t];
    u32[k] = (e | ((flags[e] & BodyFlags.HAS_CONTACT) !== 0 ? HAS_BIT : 0)) >>> 0;
    u32[k + 1] = C.count[e];
    u32[k + 2] = ref >= 0 ? ref : NO_REF;
    if (ref < 0) {
      copyContactData(physics, e, f64, j, TO_SNAPSHOT);
      j += EXPLICIT_F64;
    }
  }
}
