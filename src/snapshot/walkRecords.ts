/**
 * The snapshot records that the writer and the reader both walk, each walk written once with a
 * direction: `TO_SNAPSHOT` copies every field from the physics stores into the snapshot (save),
 * `FROM_SNAPSHOT` from the snapshot back into the stores (restore). Field order and sections are the
 * byte layout of format.ts; values are copied bit for bit (float64 words, or uint32 for filters and
 * pairs; Contact data, float32 in its component, widens exactly to float64).
 *
 * Speed: the copy helpers are small enough for V8 to inline at every call site; the direction is
 * tested once per group of 1–4 fields (a predicted branch). The body walk runs in chunks of entity
 * ids (`LOOP_CHUNK`, census.ts). No allocation.
 * @module
 */
import { BodyFlags, type ContactList, type Physics } from '../physics/physicsTypes.js';
import type { SnapshotCursor } from './buffer.js';
import { bodyWords, isStaticBox, LOOP_CHUNK } from './census.js';
import { CHARACTER_F64, CONTACT_F64, NO_STATIC, RESPONSE_F64, SHAPES_DYNAMIC, SHAPES_NONE, V4_RECORDS, type SnapshotLayout } from './format.js';
import { internalsOf } from '../physics/internal.js';

const { SPHERE, BOX, MOVING, FILTER, RESPONSE, CHARACTER } = BodyFlags;

/** Walk direction: physics stores → snapshot (save). */
export const TO_SNAPSHOT = 0;
/** Walk direction: snapshot → physics stores (restore). */
export const FROM_SNAPSHOT = 1;

/** A store indexed by entity id or list index (typed arrays, or a game's own Position arrays). */
interface Store {
  [i: number]: number;
}

// Field copies between stores (at index i) and consecutive snapshot words from j. Fields go in
// groups of 1, 3 or 4 so that a walk tests its direction once per group, not once per field.

function f64x1(a: Store, i: number, f64: Float64Array, j: number, dir: number): void {
  if (dir === TO_SNAPSHOT) f64[j] = a[i];
  else a[i] = f64[j];
}

function f64x3(a: Store, b: Store, c: Store, i: number, f64: Float64Array, j: number, dir: number): void {
  if (dir === TO_SNAPSHOT) {
    f64[j] = a[i];
    f64[j + 1] = b[i];
    f64[j + 2] = c[i];
  } else {
    a[i] = f64[j];
    b[i] = f64[j + 1];
    c[i] = f64[j + 2];
  }
}

function f64x4(a: Store, b: Store, c: Store, d: Store, i: number, f64: Float64Array, j: number, dir: number): void {
  f64x3(a, b, c, i, f64, j, dir);
  if (dir === TO_SNAPSHOT) f64[j + 3] = d[i];
  else d[i] = f64[j + 3];
}

function u32x2(a: Uint32Array, b: Uint32Array, i: number, u32: Uint32Array, k: number, dir: number): void {
  if (dir === TO_SNAPSHOT) {
    u32[k] = a[i];
    u32[k + 1] = b[i];
  } else {
    a[i] = u32[k];
    b[i] = u32[k + 1];
  }
}

/**
 * Copies a Contact data field (float32, uint32 or float64 store) ↔ float64 word `j` (its own
 * helper: the mixed array types stay out of the body walk's type feedback).
 */
function contactField(store: Store, i: number, f64: Float64Array, j: number, dir: number): void {
  if (dir === TO_SNAPSHOT) f64[j] = store[i];
  else store[i] = f64[j];
}

/**
 * Copies character `eid`'s Character data ↔ the `CHARACTER_F64` float64 words from `j` (format
 * version 3): maxSlope, stepHeight, snapDistance, up x y z, gravityScale, mass, grounded, groundEid,
 * ground normal x y z (its own helper: the uint8 and uint32 fields stay out of the body walk's
 * type feedback).
 */
function characterRecord(physics: Physics, eid: number, f64: Float64Array, j: number, dir: number): void {
  const ch = physics.components.Character;
  f64x3(ch.maxSlope, ch.stepHeight, ch.snapDistance, eid, f64, j, dir);
  f64x3(ch.upX, ch.upY, ch.upZ, eid, f64, j + 3, dir);
  if (dir === TO_SNAPSHOT) {
    f64[j + 6] = ch.gravityScale[eid];
    f64[j + 7] = ch.mass[eid];
    f64[j + 8] = ch.grounded[eid];
    f64[j + 9] = ch.groundEid[eid];
  } else {
    ch.gravityScale[eid] = f64[j + 6];
    ch.mass[eid] = f64[j + 7];
    ch.grounded[eid] = f64[j + 8];
    ch.groundEid[eid] = f64[j + 9];
  }
  f64x3(ch.nx, ch.ny, ch.nz, eid, f64, j + 10, dir);
}

/**
 * Walks the body records in ascending entity id (option bits `bits`): position; velocity when
 * moving; radius or half extents and rotation unless shapes are left out; Response mode,
 * restitution, mass, damping, gravity scale, the sleep state (seconds slow, asleep 0 or 1; 0 0
 * with sleep off, and not read then) and the jam mark (0 or 1; absent with `V4_RECORDS`, then
 * restored as 0) (float64) with the Response component; the Character data
 * (float64) with the Character component; friction with the Material component; filter group and mask in
 * the filter section. The census of `bits` must match the layout's body counts.
 */
export function copyBodyRecords(physics: Physics, c: SnapshotCursor, l: SnapshotLayout, bits: number, dir: number): void {
  const { flags, maxEid } = internalsOf(physics);
  c.nextF64 = (c.base + l.header) >>> 3;
  c.nextU32 = (c.base + l.filterU32) >>> 2;
  for (let from = 1; from <= maxEid; from += LOOP_CHUNK) bodyChunk(physics, flags, from, Math.min(maxEid, from + LOOP_CHUNK - 1), c, bits, dir);
}

/** The body records of entity ids `from..to`, from the walk position `c.nextF64`, `c.nextU32`. */
function bodyChunk(physics: Physics, flags: Uint8Array, from: number, to: number, c: SnapshotCursor, bits: number, dir: number): void {
  const { Position: p, Velocity: v, Sphere: s, Box: b, CollisionFilter: cf, Response: r, Material: m } = physics.components;
  const noShapes = (bits & SHAPES_NONE) !== 0;
  const dynShapes = (bits & SHAPES_DYNAMIC) !== 0;
  const noStatic = (bits & NO_STATIC) !== 0;
  const { sleep, hasMaterial, response } = internalsOf(physics);
  // The jam marks: restoring needs the response state with room for every id (`reserveJam`, reader.ts).
  const jam = response === null ? null : response.jam;
  const v4 = (bits & V4_RECORDS) !== 0;
  const { f64, u32 } = c;
  let j = c.nextF64;
  let k = c.nextU32;
  for (let eid = from; eid <= to; eid++) {
    const f = flags[eid];
    if ((f & (SPHERE | BOX)) === 0) continue;
    const stat = isStaticBox(f);
    if (stat && noStatic) continue;
    f64x3(p.x, p.y, p.z, eid, f64, j, dir);
    j += 3;
    if ((f & MOVING) !== 0) {
      f64x3(v.x, v.y, v.z, eid, f64, j, dir);
      j += 3;
    }
    if (!noShapes && !(stat && dynShapes)) {
      if ((f & SPHERE) !== 0) f64x1(s.radius, eid, f64, j++, dir);
      if ((f & BOX) !== 0) {
        f64x3(b.hx, b.hy, b.hz, eid, f64, j, dir);
        f64x4(b.qx, b.qy, b.qz, b.qw, eid, f64, j + 3, dir);
        j += 7;
      }
    }
    if ((f & RESPONSE) !== 0) {
      f64x3(r.mode, r.restitution, r.mass, eid, f64, j, dir);
      f64x1(r.damping, eid, f64, j + 3, dir);
      f64x1(r.gravityScale, eid, f64, j + 4, dir);
      if (sleep !== null) {
        f64x1(sleep.slow, eid, f64, j + 5, dir);
        f64x1(sleep.asleep, eid, f64, j + 6, dir);
      } else if (dir === TO_SNAPSHOT) f64[j + 5] = f64[j + 6] = 0;
      if (v4) {
        if (jam !== null) jam[eid] = 0;
        j += RESPONSE_F64 - 1;
      } else {
        if (jam !== null) f64x1(jam, eid, f64, j + 7, dir);
        else if (dir === TO_SNAPSHOT) f64[j + 7] = 0;
        j += RESPONSE_F64;
      }
    }
    if ((f & CHARACTER) !== 0) {
      characterRecord(physics, eid, f64, j, dir);
      j += CHARACTER_F64;
    }
    if (hasMaterial[eid] !== 0) f64x1(m.friction, eid, f64, j++, dir);
    if ((f & FILTER) !== 0) {
      u32x2(cf.group, cf.mask, eid, u32, k, dir);
      k += 2;
    }
  }
  c.nextF64 = j;
  c.nextU32 = k;
}

/**
 * The index (in ascending entity id, among the stored body records) of the first record whose jam
 * mark is neither 0 nor 1, or −1 (always −1 with `V4_RECORDS`: no marks); its entity id in
 * `out[0]`. The body records start after the header of `l`. Reads the records only; run before any write.
 */
export function badJamMark(physics: Physics, c: SnapshotCursor, l: SnapshotLayout, bits: number, out: Int32Array): number {
  if ((bits & V4_RECORDS) !== 0) return -1;
  const { flags, maxEid, hasMaterial } = internalsOf(physics);
  const f64 = c.f64;
  let j = (c.base + l.header) >>> 3;
  let record = 0;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & (SPHERE | BOX)) === 0) continue;
    const n = bodyWords(f, hasMaterial[eid], bits);
    if (n === 0) continue;
    if ((f & RESPONSE) !== 0) {
      // The jam mark is the Response record's last word; only the Character data and friction follow it.
      const m = f64[j + n - 1 - ((f & CHARACTER) !== 0 ? CHARACTER_F64 : 0) - hasMaterial[eid]];
      if (m !== 0 && m !== 1) {
        out[0] = eid;
        return record;
      }
    }
    j += n;
    record++;
  }
  return -1;
}

/**
 * Walks the first `l.contacts` contacts of `list`: normal, depth, point and toi in the contact
 * floats, the pair in the contact pairs, the flags byte in the contact flags. Restoring needs room
 * for them in `list` (`contactListReserve`) and sets `list.count` afterwards.
 */
export function copyContactRecords(list: ContactList, c: SnapshotCursor, l: SnapshotLayout, dir: number): void {
  const { f64, u32, u8 } = c;
  let j = (c.base + l.contactF64) >>> 3;
  let k = (c.base + l.contactAB) >>> 2;
  const fl = c.base + l.flagsU8;
  for (let i = 0; i < l.contacts; i++, j += CONTACT_F64, k += 2) {
    f64x4(list.nx, list.ny, list.nz, list.depth, i, f64, j, dir);
    f64x4(list.px, list.py, list.pz, list.toi, i, f64, j + 4, dir);
    u32x2(list.a, list.b, i, u32, k, dir);
    if (dir === TO_SNAPSHOT) u8[fl + i] = list.flags[i];
    else list.flags[i] = u8[fl + i];
  }
}

/** Copies entity `e`'s Contact data ↔ the explicit Contact record at float64 word `j`. */
export function copyContactData(physics: Physics, e: number, f64: Float64Array, j: number, dir: number): void {
  const C = physics.components.Contact;
  contactField(C.other, e, f64, j, dir);
  contactField(C.nx, e, f64, j + 1, dir);
  contactField(C.ny, e, f64, j + 2, dir);
  contactField(C.nz, e, f64, j + 3, dir);
  contactField(C.depth, e, f64, j + 4, dir);
  contactField(C.toi, e, f64, j + 5, dir);
  contactField(C.px, e, f64, j + 6, dir);
  contactField(C.py, e, f64, j + 7, dir);
  contactField(C.pz, e, f64, j + 8, dir);
}
