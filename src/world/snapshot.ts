/**
 * Snapshots of the physics state in a caller-owned buffer, for rollback netcode, lockstep resyncs
 * and server → client state transfer: `snapshotSize`, `saveSnapshot`, `restoreSnapshot`.
 *
 * What a snapshot holds (everything that affects future ticks and the outputs of the last one):
 * - an 80-byte header: format tag and version, options, total length, the body count and a 64-bit
 *   checksum of the body set (entity ids and their kind: sphere / box / moving / sensor / filtered),
 *   the tick counter and the broadphase cell size;
 * - per body, in ascending entity id: Position (3 float64), Velocity when it has the Velocity
 *   component (3 float64), shape data (Sphere.radius: 1 float64; Box half extents and rotation:
 *   7 float64) unless left out by `options.shapes`, and CollisionFilter group and mask (2 uint32)
 *   when it has that component;
 * - the world contact list of the last tick (`physics.contacts`: 8 float64, 2 uint32 and a flags byte
 *   each, 73 bytes), the previous-tick pairs that decide began/persisting at the next tick
 *   (`internal.previous`, 8 bytes each) and the last tick's `ended` pairs (8 bytes each); `began`
 *   is rebuilt from the contact flags;
 * - the entities touching at the last tick (`internal.touching`) and their Contact data: 12 bytes
 *   each (entity id and whether it holds the Contact component, contact count, and the index of its
 *   primary contact in the saved contact list, from which the data is rebuilt bit for bit), or 84
 *   bytes when the data matches no saved contact (e.g. `contactComponent` was off at the last step);
 * - the bodies removed since the last step (`internal.purgeList`, 4 bytes each, with whether the
 *   entity still held Contact): the next step drops their pairs from the previous ones (no `ended`)
 *   and takes Contact off survivors that stopped being bodies, as it would have without the restore.

 * Bytes per body (no CollisionFilter; add 8 with one): moving sphere 56, sphere without Velocity
 * 32, moving box 104, static box 80 with the default `shapes: 'all'`; with `shapes: 'dynamic'` a
 * static box takes 24 (position only); with `shapes: 'none'` moving spheres and boxes take 48, static
 * ones 24; with `staticBoxes: false` static boxes take 0.
 *
 * Not included: the bitecs entities and their components (the entity set, Sensor tags, Velocity or
 * CollisionFilter presence): the game restores those with its own serialization (e.g.
 * `bitecs/serialization`) before `restoreSnapshot`, which checks that the body set matches and throws
 * `SnapshotMismatchError` otherwise; options and configuration (`dt`, `continuous`, `integrate`,
 * `validate`, `contactComponent`); broadphase grids and scratch (the static grid is rebuilt at the
 * next step); the order of entities in the game's bitecs queries of Contact; a Contact component the
 * game added by hand to an entity the physics does not track as touching.
 *
 * No allocation in steady state: typed-array views are created once per buffer (kept in a WeakMap)
 * and reused; an offset that is not a multiple of 8 bytes from the start of the ArrayBuffer goes
 * through a module scratch buffer (grown when needed) and is copied byte by byte, so keep snapshots
 * 8-aligned for speed. Restoring adds or removes the Contact component (bitecs calls) only where its
 * presence differs from the snapshot.
 * @module
 */
import { entityExists } from 'bitecs';
import { mixLane1, mixLane2 } from '../math/hashMixer.js';
import { HAS_CONTACT, holdsContact, releaseContactPresence, restoreContactPresence, writePrimary } from './contactComponent.js';
import { contactListReserve, idListPush, pairListPush } from './lists.js';
import { BodyFlags, ContactFlags, type Physics } from './types.js';

const { SPHERE, BOX, MOVING, SENSOR, FILTER } = BodyFlags;
const KIND = SPHERE | BOX | MOVING | SENSOR | FILTER;

/** Options of `snapshotSize` and `saveSnapshot`; the snapshot records them, `restoreSnapshot` reads them back. */
export interface SnapshotOptions {
  /**
   * Shape data to include: `'all'` (default) every body's radius or half extents and rotation;
   * `'dynamic'` all but static boxes' (a Box without Velocity); `'none'` no shape data. Shape data
   * left out is not restored: use it only for shapes the game never changes between a save and a
   * restore (or restores itself).
   */
  shapes?: 'all' | 'dynamic' | 'none';
  /**
   * Include static boxes (a Box without Velocity) at all: position, shape and filter. Default true.
   * With false they take no bytes and are not restored (they still count in the body-set check).
   */
  staticBoxes?: boolean;
}

/** Thrown by `restoreSnapshot` when the buffer is not a snapshot or the world's bodies differ from the snapshot's. */
export class SnapshotMismatchError extends Error {
  constructor(message: string) {
    super(`bitecs-collide: restoreSnapshot: ${message}`);
    this.name = 'SnapshotMismatchError';
  }
}

const MAGIC = 0x31534342; // "BCS1" little-endian
const VERSION = 1;
const HEADER_BYTES = 80;
const SHAPES_DYNAMIC = 1;
const SHAPES_NONE = 2;
const NO_STATIC = 4;
// Flag bits and markers stay below 2^30 so that V8 keeps every word read back a small integer
// (values from 2^30 up are heap numbers in unoptimised code). Entity ids are below 2^24.
const HAS_BIT = 0x20000000;
const NO_REF = 0x3fffffff;
const CONTACT_F64 = 8;
const EXPLICIT_F64 = 9;
const TOUCH_U32 = 3;
const CONTACT_BIT = 0x20000000;

// Header layout: uint32 words 0..13 (14, 15 zero), then float64 words 8 (tick) and 9 (cell size).
const H_MAGIC = 0;
const H_VERSION_OPTIONS = 1;
const H_TOTAL = 2;
const H_BODIES = 3;
const H_SUM1 = 4;
const H_SUM2 = 5;
const H_CONTACTS = 6;
const H_PREVIOUS = 7;
const H_ENDED = 8;
const H_TOUCHING = 9;
const H_EXPLICIT = 10;
const H_FILTERS = 11;
const H_BODY_F64 = 12;
const H_PURGE = 13;
const F_TICK = 8;
const F_CELL = 9;

// ---- Measurement of the current state (module scratch, no allocation) -------------------------

let mBodies = 0;
let mSum1 = 0;
let mSum2 = 0;
let mBodyF64 = 0;
let mFilters = 0;
let mExplicit = 0;

/** Marks by eid (scratch for restore). */
let markScratch = new Uint8Array(0);

function optionBits(o: SnapshotOptions | undefined): number {
  if (o === undefined) return 0;
  const s = o.shapes ?? 'all';
  if (s !== 'all' && s !== 'dynamic' && s !== 'none') throw new RangeError(`bitecs-collide: snapshot options.shapes must be 'all', 'dynamic' or 'none', got ${String(s)}`);
  return (s === 'dynamic' ? SHAPES_DYNAMIC : s === 'none' ? SHAPES_NONE : 0) | (o.staticBoxes === false ? NO_STATIC : 0);
}

function isStaticBox(f: number): boolean {
  return (f & BOX) !== 0 && (f & (MOVING | SPHERE)) === 0;
}

/** float64 words stored for a body with flags `f` (0 when left out). */
function bodyWords(f: number, bits: number): number {
  const stat = isStaticBox(f);
  if (stat && (bits & NO_STATIC) !== 0) return 0;
  let n = 3;
  if ((f & MOVING) !== 0) n += 3;
  if ((bits & SHAPES_NONE) === 0 && !(stat && (bits & SHAPES_DYNAMIC) !== 0)) {
    if ((f & SPHERE) !== 0) n += 1;
    if ((f & BOX) !== 0) n += 7;
  }
  return n;
}

/** Counts the bodies, their checksum, float64 words and filters under option bits `bits`. */
function measureBodies(physics: Physics, bits: number): void {
  const { flags, maxEid } = physics.internal;
  let bodies = 0;
  let words = 0;
  let filters = 0;
  // The body-set checksum: the two lanes of the hash mixer over (eid, kind) in ascending eid.
  let h1 = 0x2545f491;
  let h2 = 0x6c8e9cf5;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & (SPHERE | BOX)) === 0) continue;
    bodies++;
    h1 = mixLane1(h1, eid);
    h2 = mixLane2(h2, h1, eid);
    h1 = mixLane1(h1, f & KIND);
    h2 = mixLane2(h2, h1, f & KIND);
    const n = bodyWords(f, bits);
    words += n;
    if (n !== 0 && (f & FILTER) !== 0) filters++;
  }
  mBodies = bodies;
  mSum1 = h1 >>> 0;
  mSum2 = h2 >>> 0;
  mBodyF64 = words;
  mFilters = filters;
}

function sameBits(a: number, b: number): boolean {
  return a === b && (a !== 0 || 1 / a === 1 / b);
}

/** True when `eid`'s Contact data is what contact `i` gives it (sign +1 as `a`, −1 as `b`). */
function contactDataFrom(physics: Physics, eid: number, i: number, sign: number): boolean {
  const C = physics.components.Contact;
  const l = physics.contacts;
  return sameBits(C.nx[eid], Math.fround(sign * l.nx[i])) && sameBits(C.ny[eid], Math.fround(sign * l.ny[i])) &&
    sameBits(C.nz[eid], Math.fround(sign * l.nz[i])) && sameBits(C.depth[eid], Math.fround(l.depth[i])) &&
    sameBits(C.toi[eid], Math.fround(l.toi[i])) && sameBits(C.px[eid], l.px[i]) &&
    sameBits(C.py[eid], l.py[i]) && sameBits(C.pz[eid], l.pz[i]);
}

function ensureScratch(capacity: number): void {
  if (markScratch.length < capacity) markScratch = new Uint8Array(capacity);
}

/**
 * The contact-list index whose data the touching entity `e` holds (its primary contact, from
 * `internal.primary`), or −1 when its Contact data matches no contact of the list (for example when
 * the Contact component was off for the last step).
 */
function primaryRef(physics: Physics, e: number): number {
  const l = physics.contacts;
  const C = physics.components.Contact;
  const primary = physics.internal.primary;
  if (e >= primary.length) return -1;
  const i = primary[e];
  if (i >= l.count) return -1;
  if (l.a[i] === e && C.other[e] === l.b[i] && contactDataFrom(physics, e, i, 1)) return i;
  if (l.b[i] === e && C.other[e] === l.a[i] && contactDataFrom(physics, e, i, -1)) return i;
  return -1;
}

/** Counts the touching entities whose Contact data must be stored explicitly. */
function measureContacts(physics: Physics): void {
  const touching = physics.internal.touching;
  mExplicit = 0;
  for (let k = 0; k < touching.count; k++) {
    if (primaryRef(physics, touching.ids[k]) < 0) mExplicit++;
  }
}

// ---- Layout ------------------------------------------------------------------------------------

let oContactF64 = 0;
let oExplicitF64 = 0;
let oU32 = 0;
let oFilters = 0;
let oContactAB = 0;
let oPrevious = 0;
let oEnded = 0;
let oTouching = 0;
let oPurge = 0;
let oU8 = 0;
let oTotal = 0;

/** Byte offsets of every section (relative to the snapshot start) for the given counts. */
function layout(bodyF64: number, contacts: number, explicit: number, filters: number, previous: number, ended: number, touching: number, purge: number): void {
  oContactF64 = HEADER_BYTES + 8 * bodyF64;
  oExplicitF64 = oContactF64 + 8 * CONTACT_F64 * contacts;
  oU32 = oExplicitF64 + 8 * EXPLICIT_F64 * explicit;
  oFilters = oU32;
  oContactAB = oFilters + 8 * filters;
  oPrevious = oContactAB + 8 * contacts;
  oEnded = oPrevious + 8 * previous;
  oTouching = oEnded + 8 * ended;
  oPurge = oTouching + 4 * TOUCH_U32 * touching;
  oU8 = oPurge + 4 * purge;
  oTotal = 8 * Math.ceil((oU8 + contacts) / 8); // (no 32-bit bit operations: sizes may exceed 2 GB)
}

function measure(physics: Physics, bits: number): number {
  measureBodies(physics, bits);
  measureContacts(physics);
  const internal = physics.internal;
  layout(mBodyF64, physics.contacts.count, mExplicit, mFilters, internal.previous.count, physics.ended.count, internal.touching.count, internal.purgeList.count);
  return oTotal;
}

/**
 * Bytes `saveSnapshot` needs for the current state with these options (a multiple of 8). Grows with
 * the bodies and the live contacts; see the module documentation for the sizes. No allocation.
 */
export function snapshotSize(physics: Physics, options?: SnapshotOptions): number {
  return measure(physics, optionBits(options));
}

// ---- Buffer views ------------------------------------------------------------------------------

interface Views {
  f64: Float64Array;
  u32: Uint32Array;
  u8: Uint8Array;
}

const viewCache = new WeakMap<ArrayBufferLike, Views>();

function viewsOf(ab: ArrayBufferLike): Views {
  let v = viewCache.get(ab);
  if (v === undefined || v.u8.length !== ab.byteLength) {
    v = { f64: new Float64Array(ab, 0, ab.byteLength >>> 3), u32: new Uint32Array(ab, 0, ab.byteLength >>> 2), u8: new Uint8Array(ab) };
    viewCache.set(ab, v);
  }
  return v;
}

let scratchBuffer = new ArrayBuffer(0);
let scratchViews: Views = viewsOf(scratchBuffer);

function scratchFor(bytes: number): Views {
  if (scratchBuffer.byteLength < bytes) {
    let n = Math.max(1024, scratchBuffer.byteLength);
    while (n < bytes) n *= 2;
    scratchBuffer = new ArrayBuffer(n);
    scratchViews = viewsOf(scratchBuffer);
  }
  return scratchViews;
}

// Resolved target of the current call.
let tViews: Views = scratchViews;
let tBase = 0;
let tAvail = 0;
let tTargetU8: Uint8Array = scratchViews.u8;
let tTargetBase = 0;

function resolve(who: string, buffer: ArrayBuffer | Uint8Array, offset: number): boolean {
  let ab: ArrayBufferLike;
  let start: number;
  let length: number;
  if (buffer instanceof Uint8Array) {
    ab = buffer.buffer;
    start = buffer.byteOffset;
    length = buffer.byteLength;
  } else if (buffer instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && (buffer as unknown) instanceof SharedArrayBuffer)) {
    ab = buffer;
    start = 0;
    length = buffer.byteLength;
  } else {
    throw new TypeError(`bitecs-collide: ${who}: buffer must be an ArrayBuffer or a Uint8Array`);
  }
  if (!(Number.isInteger(offset) && offset >= 0 && offset <= length)) {
    throw new RangeError(`bitecs-collide: ${who}: offset must be an integer in 0..${length} (the buffer's byte length), got ${String(offset)}`);
  }
  const views = viewsOf(ab);
  tAvail = length - offset;
  tTargetU8 = views.u8;
  tTargetBase = start + offset;
  if ((tTargetBase & 7) === 0) {
    tViews = views;
    tBase = tTargetBase;
    return true;
  }
  return false;
}

// ---- Save --------------------------------------------------------------------------------------

/**
 * Writes the physics state into `buffer` at byte `offset` (default 0) and returns the number of
 * bytes written (`snapshotSize(physics, options)`). Throws `RangeError` when the buffer is too small
 * from that offset. The buffer belongs to the caller (e.g. a ring of per-tick buffers for rollback);
 * nothing is allocated in steady state. Save between ticks (after `step`), as the game saves its
 * own components.
 */
export function saveSnapshot(physics: Physics, buffer: ArrayBuffer | Uint8Array, offset = 0, options?: SnapshotOptions): number {
  const bits = optionBits(options);
  const aligned = resolve('saveSnapshot', buffer, offset);
  const total = measure(physics, bits);
  if (total > tAvail) {
    throw new RangeError(`bitecs-collide: saveSnapshot: the snapshot needs ${total} bytes but the buffer has ${tAvail} from offset ${offset}; size it with snapshotSize(physics)`);
  }
  if (!aligned) {
    tViews = scratchFor(total);
    tBase = 0;
  }
  write(physics, bits, total);
  if (!aligned) {
    const src = tViews.u8;
    const dst = tTargetU8;
    for (let i = 0; i < total; i++) dst[tTargetBase + i] = src[i];
  }
  return total;
}

function write(physics: Physics, bits: number, total: number): void {
  const { f64, u32, u8 } = tViews;
  const base = tBase;
  const h = base >>> 2;
  const internal = physics.internal;
  const list = physics.contacts;
  const { previous, touching, purgeList } = internal;
  const ended = physics.ended;
  u32[h + H_MAGIC] = MAGIC;
  u32[h + H_VERSION_OPTIONS] = (VERSION << 24) | bits;
  u32[h + H_TOTAL] = total;
  u32[h + H_BODIES] = mBodies;
  u32[h + H_SUM1] = mSum1;
  u32[h + H_SUM2] = mSum2;
  u32[h + H_CONTACTS] = list.count;
  u32[h + H_PREVIOUS] = previous.count;
  u32[h + H_ENDED] = ended.count;
  u32[h + H_TOUCHING] = touching.count;
  u32[h + H_EXPLICIT] = mExplicit;
  u32[h + H_FILTERS] = mFilters;
  u32[h + H_BODY_F64] = mBodyF64;
  u32[h + H_PURGE] = purgeList.count;
  u32[h + 14] = 0;
  u32[h + 15] = 0;
  f64[(base >>> 3) + F_TICK] = physics.tick;
  f64[(base >>> 3) + F_CELL] = internal.cellSize;

  // Bodies.
  const { flags, maxEid } = internal;
  const { Position: p, Velocity: v, Sphere: s, Box: b, CollisionFilter: cf } = physics.components;
  const noShapes = (bits & SHAPES_NONE) !== 0;
  const dynShapes = (bits & SHAPES_DYNAMIC) !== 0;
  const noStatic = (bits & NO_STATIC) !== 0;
  let j = (base + HEADER_BYTES) >>> 3;
  let fi = (base + oFilters) >>> 2;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & (SPHERE | BOX)) === 0) continue;
    const stat = (f & BOX) !== 0 && (f & (MOVING | SPHERE)) === 0;
    if (stat && noStatic) continue;
    f64[j++] = p.x[eid];
    f64[j++] = p.y[eid];
    f64[j++] = p.z[eid];
    if ((f & MOVING) !== 0) {
      f64[j++] = v.x[eid];
      f64[j++] = v.y[eid];
      f64[j++] = v.z[eid];
    }
    if (!noShapes && !(stat && dynShapes)) {
      if ((f & SPHERE) !== 0) f64[j++] = s.radius[eid];
      if ((f & BOX) !== 0) {
        f64[j++] = b.hx[eid];
        f64[j++] = b.hy[eid];
        f64[j++] = b.hz[eid];
        f64[j++] = b.qx[eid];
        f64[j++] = b.qy[eid];
        f64[j++] = b.qz[eid];
        f64[j++] = b.qw[eid];
      }
    }
    if ((f & FILTER) !== 0) {
      u32[fi++] = cf.group[eid];
      u32[fi++] = cf.mask[eid];
    }
  }

  // Contacts.
  const n = list.count;
  j = (base + oContactF64) >>> 3;
  let k = (base + oContactAB) >>> 2;
  const fl = base + oU8;
  for (let i = 0; i < n; i++) {
    f64[j++] = list.nx[i];
    f64[j++] = list.ny[i];
    f64[j++] = list.nz[i];
    f64[j++] = list.depth[i];
    f64[j++] = list.px[i];
    f64[j++] = list.py[i];
    f64[j++] = list.pz[i];
    f64[j++] = list.toi[i];
    u32[k++] = list.a[i];
    u32[k++] = list.b[i];
    u8[fl + i] = list.flags[i];
  }
  for (let i = fl + n; i < base + total; i++) u8[i] = 0;

  // Previous pairs and the bodies removed since the last step, as they are (the next step drops the
  // pairs of removed bodies and takes Contact off entities that stopped being bodies).
  k = (base + oPrevious) >>> 2;
  for (let i = 0; i < previous.count; i++) {
    u32[k++] = previous.a[i];
    u32[k++] = previous.b[i];
  }
  k = (base + oPurge) >>> 2;
  for (let i = 0; i < purgeList.count; i++) {
    const e = purgeList.ids[i];
    u32[k++] = (e | (holdsContact(physics, e) ? CONTACT_BIT : 0)) >>> 0;
  }
  k = (base + oEnded) >>> 2;
  for (let i = 0; i < ended.count; i++) {
    u32[k++] = ended.a[i];
    u32[k++] = ended.b[i];
  }

  // Touching entities: id | holds-Contact bit, count, primary contact index (or explicit data).
  const C = physics.components.Contact;
  k = (base + oTouching) >>> 2;
  j = (base + oExplicitF64) >>> 3;
  for (let t = 0; t < touching.count; t++) {
    const e = touching.ids[t];
    u32[k++] = (e | ((flags[e] & HAS_CONTACT) !== 0 ? HAS_BIT : 0)) >>> 0;
    u32[k++] = C.count[e];
    const ref = primaryRef(physics, e);
    if (ref >= 0) {
      u32[k++] = ref;
      continue;
    }
    u32[k++] = NO_REF;
    f64[j++] = C.other[e];
    f64[j++] = C.nx[e];
    f64[j++] = C.ny[e];
    f64[j++] = C.nz[e];
    f64[j++] = C.depth[e];
    f64[j++] = C.toi[e];
    f64[j++] = C.px[e];
    f64[j++] = C.py[e];
    f64[j++] = C.pz[e];
  }
}

// ---- Restore -----------------------------------------------------------------------------------

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
  const aligned = resolve('restoreSnapshot', buffer, offset);
  if (tAvail < HEADER_BYTES) throw new SnapshotMismatchError(`the buffer has ${tAvail} bytes from offset ${offset}, fewer than a snapshot header (${HEADER_BYTES})`);
  if (!aligned) {
    const dst = scratchFor(HEADER_BYTES).u8;
    for (let i = 0; i < HEADER_BYTES; i++) dst[i] = tTargetU8[tTargetBase + i];
    tViews = scratchViews;
    tBase = 0;
  }
  const h = tBase >>> 2;
  let u32 = tViews.u32;
  if (u32[h + H_MAGIC] !== MAGIC) throw new SnapshotMismatchError(`no snapshot at offset ${offset} (bad format tag)`);
  const vo = u32[h + H_VERSION_OPTIONS];
  if (vo >>> 24 !== VERSION) throw new SnapshotMismatchError(`snapshot format version ${vo >>> 24} is not supported (expected ${VERSION})`);
  const bits = vo & 0xff;
  const total = u32[h + H_TOTAL];
  const contacts = u32[h + H_CONTACTS];
  const previousCount = u32[h + H_PREVIOUS];
  const endedCount = u32[h + H_ENDED];
  const touchingCount = u32[h + H_TOUCHING];
  const explicit = u32[h + H_EXPLICIT];
  const filters = u32[h + H_FILTERS];
  const bodyF64 = u32[h + H_BODY_F64];
  const purgeCount = u32[h + H_PURGE];
  layout(bodyF64, contacts, explicit, filters, previousCount, endedCount, touchingCount, purgeCount);
  if (oTotal !== total || explicit > touchingCount) throw new SnapshotMismatchError('corrupt snapshot (inconsistent section sizes)');
  if (total > tAvail) throw new SnapshotMismatchError(`the snapshot is ${total} bytes but the buffer has ${tAvail} from offset ${offset}`);
  if (!aligned) {
    const dst = scratchFor(total).u8; // may replace the scratch buffer: copy from the start
    for (let i = 0; i < total; i++) dst[i] = tTargetU8[tTargetBase + i];
    tViews = scratchViews;
    tBase = 0;
    u32 = tViews.u32;
  }

  // Check the body set before changing anything.
  measureBodies(physics, bits);
  if (mBodies !== u32[h + H_BODIES] || mSum1 !== u32[h + H_SUM1] || mSum2 !== u32[h + H_SUM2]) {
    throw new SnapshotMismatchError(
      `the world's bodies differ from the snapshot's (${mBodies} bodies now, ${u32[h + H_BODIES]} saved, or different entity ids or kinds). ` +
      'Restore the entity set (ids and Sphere/Box/Velocity/Sensor/CollisionFilter components) to what it was at save time first.',
    );
  }
  if (mBodyF64 !== bodyF64 || mFilters !== filters) throw new SnapshotMismatchError('corrupt snapshot (body data size differs)');
  checkEntities(physics, contacts, touchingCount, purgeCount);

  readBodies(physics, bits);
  readContacts(physics, contacts, previousCount, endedCount);
  readContactComponent(physics, touchingCount, purgeCount);
  return total;
}

/**
 * The first bad record among `count` records of `stride` words from word `k` (entity id and flag
 * `bit` in the first word; with `contacts` >= 0, a contact index in the third), or −1. Loops never
 * throw: the error is built outside them (keeps V8's optimised loops allocation-free).
 */
function firstBadRecord(physics: Physics, k: number, count: number, stride: number, bit: number, contacts: number): number {
  const u32 = tViews.u32;
  const cap = physics.internal.capacity;
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
  if (e >= physics.internal.capacity || (word & bit) === 0) return new SnapshotMismatchError(`corrupt snapshot (entity ${e} or its contact index out of range)`);
  return new SnapshotMismatchError(`entity ${e} held the Contact component at save time but does not exist now`);
}

/** Checks the touching and removed-body records before anything changes. */
function checkEntities(physics: Physics, contacts: number, touchingCount: number, purgeCount: number): void {
  const kTouch = (tBase + oTouching) >>> 2;
  const kPurge = (tBase + oPurge) >>> 2;
  let t = firstBadRecord(physics, kTouch, touchingCount, TOUCH_U32, HAS_BIT, contacts);
  if (t >= 0) throw badRecordError(physics, tViews.u32[kTouch + TOUCH_U32 * t], HAS_BIT);
  t = firstBadRecord(physics, kPurge, purgeCount, 1, CONTACT_BIT, -1);
  if (t >= 0) throw badRecordError(physics, tViews.u32[kPurge + t], CONTACT_BIT);
}

function readBodies(physics: Physics, bits: number): void {
  const { f64, u32 } = tViews;
  const internal = physics.internal;
  const { flags, maxEid } = internal;
  const { Position: p, Velocity: v, Sphere: s, Box: b, CollisionFilter: cf } = physics.components;
  const noShapes = (bits & SHAPES_NONE) !== 0;
  const dynShapes = (bits & SHAPES_DYNAMIC) !== 0;
  const noStatic = (bits & NO_STATIC) !== 0;
  let j = (tBase + HEADER_BYTES) >>> 3;
  let fi = (tBase + oFilters) >>> 2;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & (SPHERE | BOX)) === 0) continue;
    const stat = (f & BOX) !== 0 && (f & (MOVING | SPHERE)) === 0;
    if (stat && noStatic) continue;
    p.x[eid] = f64[j++];
    p.y[eid] = f64[j++];
    p.z[eid] = f64[j++];
    if ((f & MOVING) !== 0) {
      v.x[eid] = f64[j++];
      v.y[eid] = f64[j++];
      v.z[eid] = f64[j++];
    }
    if (!noShapes && !(stat && dynShapes)) {
      if ((f & SPHERE) !== 0) s.radius[eid] = f64[j++];
      if ((f & BOX) !== 0) {
        b.hx[eid] = f64[j++];
        b.hy[eid] = f64[j++];
        b.hz[eid] = f64[j++];
        b.qx[eid] = f64[j++];
        b.qy[eid] = f64[j++];
        b.qz[eid] = f64[j++];
        b.qw[eid] = f64[j++];
      }
    }
    if ((f & FILTER) !== 0) {
      cf.group[eid] = u32[fi++];
      cf.mask[eid] = u32[fi++];
    }
  }
  const f0 = tBase >>> 3;
  // Integral values go back as small integers, as the library keeps them (a double where V8 holds a
  // small integer would change the objects' hidden class and deoptimise the step code).
  const tick = f64[f0 + F_TICK];
  physics.tick = tick <= 0x3fffffff ? tick | 0 : tick;
  const cell = f64[f0 + F_CELL];
  if (cell !== internal.cellSize) internal.cellSize = cell === 0 ? 0 : cell;
  // Re-bucket the static boxes at the next step whatever was written (their bounds may have moved,
  // and the static grid then depends on the restored state only, not on what came before).
  internal.staticDirty = true;
}

function readContacts(physics: Physics, n: number, previousCount: number, endedCount: number): void {
  const { f64, u32, u8 } = tViews;
  const list = physics.contacts;
  contactListReserve(list, n);
  let j = (tBase + oContactF64) >>> 3;
  let k = (tBase + oContactAB) >>> 2;
  const fl = tBase + oU8;
  const began = physics.began;
  began.count = 0;
  for (let i = 0; i < n; i++) {
    list.nx[i] = f64[j++];
    list.ny[i] = f64[j++];
    list.nz[i] = f64[j++];
    list.depth[i] = f64[j++];
    list.px[i] = f64[j++];
    list.py[i] = f64[j++];
    list.pz[i] = f64[j++];
    list.toi[i] = f64[j++];
    const a = u32[k++];
    const b = u32[k++];
    list.a[i] = a;
    list.b[i] = b;
    const flags = u8[fl + i];
    list.flags[i] = flags;
    if ((flags & ContactFlags.BEGAN) !== 0) pairListPush(began, a, b);
  }
  list.count = n;
  const internal = physics.internal;
  const previous = internal.previous;
  previous.count = 0;
  k = (tBase + oPrevious) >>> 2;
  for (let i = 0; i < previousCount; i++, k += 2) pairListPush(previous, u32[k], u32[k + 1]);
  const ended = physics.ended;
  ended.count = 0;
  k = (tBase + oEnded) >>> 2;
  for (let i = 0; i < endedCount; i++, k += 2) pairListPush(ended, u32[k], u32[k + 1]);
}

/**
 * Restores the touching list, the Contact data and counts, the removed-body list, and Contact
 * component presence: held by the saved touching entities that held it, and by saved removed-body
 * entities that still held it (the next step takes it off them, as it would have); taken off every
 * other entity that may hold it now (the current touching and removed-body entities).
 */
function readContactComponent(physics: Physics, touchingCount: number, purgeCount: number): void {
  const { f64, u32 } = tViews;
  const internal = physics.internal;
  const C = physics.components.Contact;
  const list = physics.contacts;
  const { flags, purgeList, purgeMark } = internal;
  ensureScratch(internal.capacity);
  const mark = markScratch;
  const kTouch = (tBase + oTouching) >>> 2;
  const kPurge = (tBase + oPurge) >>> 2;
  // Mark the entities that must hold Contact.
  for (let t = 0, k = kTouch; t < touchingCount; t++, k += TOUCH_U32) if ((u32[k] & HAS_BIT) !== 0) mark[u32[k] & ~HAS_BIT] = 1;
  for (let t = 0, k = kPurge; t < purgeCount; t++, k++) if ((u32[k] & CONTACT_BIT) !== 0) mark[u32[k] & ~CONTACT_BIT] = 1;
  releaseContactPresence(physics, mark);
  const old = internal.touching;
  purgeList.count = 0;
  for (let t = 0, k = kPurge; t < purgeCount; t++, k++) {
    const e = u32[k] & ~CONTACT_BIT;
    purgeMark[e] = 1;
    idListPush(purgeList, e);
  }
  // The saved touching entities and their Contact data.
  const next = internal.touchingNext;
  next.count = 0;
  let j = (tBase + oExplicitF64) >>> 3;
  for (let t = 0, k = kTouch; t < touchingCount; t++, k += TOUCH_U32) {
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
      C.other[e] = f64[j++];
      C.nx[e] = f64[j++];
      C.ny[e] = f64[j++];
      C.nz[e] = f64[j++];
      C.depth[e] = f64[j++];
      C.toi[e] = f64[j++];
      C.px[e] = f64[j++];
      C.py[e] = f64[j++];
      C.pz[e] = f64[j++];
    }
  }
  internal.touching = next;
  internal.touchingNext = old;
  restoreContactPresence(physics, mark);
}
