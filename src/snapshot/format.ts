/**
 * Snapshots of the physics state in a caller-owned buffer, for rollback netcode, lockstep resyncs
 * and server → client state transfer: `snapshotSize`, `saveSnapshot` (writer.ts), `restoreSnapshot`
 * (reader.ts). This module is the format: the byte layout below, its constants, and
 * `layoutSections`, which places the sections from their counts.
 *
 * What a snapshot holds (everything that affects future ticks and the outputs of the last one):
 * - an 88-byte header: format tag and version, options, total length, the body count and a 64-bit
 *   checksum of the body set (entity ids and their kind: sphere / box / moving / sensor / filtered / Response / Character),
 *   the section counts, a 64-bit checksum of the whole snapshot (checksum.ts), the tick counter,
 *   the broadphase cell size, and the static grid's margin policy (format version 6): the margin
 *   (length units), its cover bucket and whether a re-pick is due (see "The static margin" below);
 * - per body, in ascending entity id: Position (3 float64), Velocity when it has the Velocity
 *   component (3 float64), shape data (Sphere.radius: 1 float64; Box half extents and rotation:
 *   7 float64) unless left out by `options.shapes`, Response mode, restitution, mass, damping,
 *   gravity scale, the sleep state (seconds slow, asleep) and the jam mark (0 or 1: jammed at the
 *   last tick, response/jam.ts) (8 float64) when it has the Response component (collision response,
 *   format version 2; damping to asleep since version 4, the jam mark since version 5), the Character
 *   settings and outputs (13 float64: maxSlope, stepHeight, snapDistance, up x y z, gravityScale,
 *   mass, grounded, groundEid, ground normal x y z) when it has the Character component (format
 *   version 3), Material friction (1 float64) when it has the Material component (version 4), and
 *   CollisionFilter group and mask (2 uint32) when it has that component;
 * - the world contact list of the last tick (`physics.contacts`: 8 float64, 2 uint32 and a flags byte
 *   each, 73 bytes) and the last tick's `ended` pairs with their flags (2 uint32 and a flags byte,
 *   9 bytes each); `began` is rebuilt from the contact flags, and the previous-tick pairs that decide
 *   began/persisting at the next tick (`internal.contacts.previous`) from the contact pairs, which they equal
 *   after every narrowphase;
 * - the entities touching at the last tick (`internal.contacts.touching`) and their Contact data: 12 bytes
 *   each (entity id and whether it holds the Contact component, contact count, and the index of its
 *   primary contact in the saved contact list, from which the data is rebuilt bit for bit), or 84
 *   bytes when the data matches no saved contact (e.g. `contactComponent` was off at the last step);
 * - the bodies removed since the last step (`internal.purgeList`, 4 bytes each, with whether the
 *   entity still held Contact): the next step reports their pairs in `ended` with
 *   `EndedFlags.REMOVED` and takes Contact off survivors that stopped being bodies, as it would have without the restore.
 *
 * Bytes per body (no CollisionFilter; add 8 with one): moving sphere 56, sphere without Velocity
 * 32, moving box 104, static box 80 with the default `shapes: 'all'`; with `shapes: 'dynamic'` a
 * static box takes 24 (position only); with `shapes: 'none'` moving spheres and boxes take 48, static
 * ones 24; with `staticBoxes: false` static boxes take 0. A dynamic sphere (with Response) takes 64
 * more: 120 with shapes; a character 104 more: 160 with shapes; a body with Material 8 more.
 *
 * The response's per-tick state (local times, event queue, records) is rebuilt within each tick
 * from these: nothing of it outlives a tick but the jam mark, so the Response record is all a
 * snapshot needs for it.
 *
 * Not included: the bitecs entities and their components (the entity set, Sensor tags, Velocity or
 * CollisionFilter presence): the game restores those with its own serialization (e.g.
 * `bitecs/serialization`) before `restoreSnapshot`, which checks that the body set matches and throws
 * `SnapshotMismatchError` otherwise; options and configuration (`dt`, `continuous`, `integrate`,
 * `validate`, `contactComponent`); broadphase grids and scratch (the static grid is rebuilt from the
 * restored boxes, cell size and margin); the order of entities in the game's bitecs queries of
 * Contact; a Contact component the game added by hand to an entity the physics does not track as
 * touching.
 *
 * The static margin (version 6). The broadphase picks the static grid's margin from the size
 * statistics of a tick and keeps it, with hysteresis, until they drift or the static boxes change
 * (`updatePolicy`, step/findPairs.ts; grid/policy.ts). The margin decides the static grid's layout,
 * hence the order in which a query meets static boxes, and at time 0 (push-outs, equal-time hits)
 * that order decides the last bits of the result. A margin picked again from the sizes of the
 * restore's tick (as after a version-4 or 5 snapshot) may differ from the one the saving instance
 * still holds, so a joined replica or a rollback could step differently from the original run.
 * Version 6 keeps the policy's memory: the margin, its cover bucket (`BroadphaseState.marginBucket`)
 * and whether a re-pick was due at save time (`staticDirty`, or a static box written since it was
 * bucketed: the comparison checkStatic.ts makes at the next step). Restoring sets them and, unless
 * a re-pick is due, re-buckets the static boxes at once with the saved cell size and margin (or
 * keeps the static grid when it already holds the same boxes so), so that the next step compares
 * the boxes with the restored ones as the saving instance compares them with its own (a box the
 * game writes after the restore is noticed as it was in the original run; static geometry the
 * snapshot left out, `shapes`/`staticBoxes`, must be put back before the restore, docs/snapshots.md).
 *
 * Byte layout (the platform's byte order, little-endian everywhere in practice; offsets from the
 * snapshot start; each section right after the previous one, float64 sections first so that they
 * stay 8-aligned; `layoutSections` computes the offsets from the counts in the header):
 * - header, 88 bytes: uint32 words `H_*` 0..15 (7: `H_POLICY`), float64 words `F_TICK`, `F_CELL`,
 *   `F_MARGIN` (versions 4 and 5: 80 bytes, no `F_MARGIN`, word 7 zero);
 * - body records, float64: position x y z; velocity x y z (moving bodies); radius (spheres) or
 *   hx hy hz qx qy qz qw (boxes) when shapes are included; mode restitution mass damping
 *   gravityScale slow asleep jam (bodies with Response); the 13 Character words (characters); friction
 *   (bodies with Material); nothing for left-out static boxes;
 * - contact floats, 8 float64 per contact: nx ny nz depth px py pz toi;
 * - explicit Contact data, 9 float64 per such touching entity: other nx ny nz depth toi px py pz;
 * - filters, 2 uint32 per stored body with a CollisionFilter: group mask;
 * - contact pairs, ended pairs: 2 uint32 each (a b);
 * - touching, 3 uint32 per entity: id (+ `HAS_BIT` when it holds Contact), contact count, primary
 *   contact index or `NO_REF` (explicit data, in touching order);
 * - removed bodies, 1 uint32 per entity: id (+ `CONTACT_BIT` when it still holds Contact);
 * - contact flags, 1 uint8 per contact (`ContactFlags`); ended flags, 1 uint8 per ended pair
 *   (`EndedFlags`); then zeros up to a multiple of 8 bytes.
 *
 * Restoring verifies the checksum (unless `verify: false`) and range-checks every field before it
 * writes anything (reader.ts, checks.ts).
 *
 * No allocation in steady state: typed-array views are created once per buffer (kept in a WeakMap)
 * and reused; an offset that is not a multiple of 8 bytes from the start of the ArrayBuffer goes
 * through a scratch buffer (grown when needed) and is copied byte by byte, so keep snapshots
 * 8-aligned for speed (buffer.ts). Restoring adds or removes the Contact component (bitecs calls) only
 * where its presence differs from the snapshot.
 * @module
 */

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

/** Format tag: "BCS1" little-endian. */
export const MAGIC = 0x31534342;
/**
 * Format version, in the top byte of header word `H_VERSION_OPTIONS` (bits 8..23 zero). Version 2:
 * the snapshot checksum, ended flags, no previous-pair section, Response data per body. Version 3:
 * Character data per character (`CHARACTER_F64` float64 words). Version 4: Response damping, gravity
 * scale and sleep state, Material friction. Version 5: the jam mark in the Response record
 * (response/jam.ts). Version 6: the static margin policy in the header (`F_MARGIN`, `H_POLICY`;
 * the header grows from 80 to 88 bytes). Versions 4 and 5 are still read (`OLDEST_VERSION`);
 * other versions are rejected with a `SnapshotMismatchError` naming `header.version` (a snapshot is
 * state to resume from, taken and restored by the same build; re-save it with this version).
 */
export const VERSION = 6;
/**
 * The oldest format version still read. Versions 4 and 5 have the 80-byte header
 * (`HEADER_BYTES_V5`: no margin, word 7 zero): after restoring one the broadphase picks the static
 * margin afresh at the next step, as it did for them. Version 4's Response records have 7 float64
 * words (no jam mark; restored as 0).
 */
export const OLDEST_VERSION = 4;
/** float64 words of a body's Response record: mode restitution mass damping gravityScale slow asleep jam. */
export const RESPONSE_F64 = 8;
/**
 * float64 words of a character's Character data: maxSlope, stepHeight, snapDistance, up x y z,
 * gravityScale, mass, grounded, groundEid, ground normal x y z.
 */
export const CHARACTER_F64 = 13;
/** Header bytes of this version (6). */
export const HEADER_BYTES = 88;
/** Header bytes of versions 4 and 5 (no `F_MARGIN`): the smallest header the reader takes. */
export const HEADER_BYTES_V5 = 80;

/** Header bytes of format version `version` (one the reader takes: `OLDEST_VERSION` to `VERSION`). */
export function headerBytesOf(version: number): number {
  return version >= 6 ? HEADER_BYTES : HEADER_BYTES_V5;
}

// Option bits, in the low byte of header word `H_VERSION_OPTIONS`.
export const SHAPES_DYNAMIC = 1;
export const SHAPES_NONE = 2;
export const NO_STATIC = 4;
/** Every option bit. */
export const OPTION_BITS = SHAPES_DYNAMIC | SHAPES_NONE | NO_STATIC;
/**
 * Never in a header: set by the reader beside the option bits when it reads a version-4 snapshot,
 * whose Response records have 7 words (no jam mark). The census and the body walk read it.
 */
export const V4_RECORDS = 0x100;

// Flag bits and markers stay below 2^30 so that V8 keeps every word read back a small integer
// (values from 2^30 up are heap numbers in unoptimised code). Entity ids are below 2^24.
/** Touching record: the entity holds the Contact component. */
export const HAS_BIT = 0x20000000;
/** Touching record: its Contact data is stored explicitly (no primary contact index). */
export const NO_REF = 0x3fffffff;
/** Removed-body record: the entity still holds the Contact component. */
export const CONTACT_BIT = 0x20000000;
/** float64 words per contact, per explicit Contact record; uint32 words per touching record. */
export const CONTACT_F64 = 8;
export const EXPLICIT_F64 = 9;
export const TOUCH_U32 = 3;

// Header: uint32 words 0..15, then float64 words 8 (tick), 9 (cell size) and 10 (static margin, version 6).
export const H_MAGIC = 0;
export const H_VERSION_OPTIONS = 1;
export const H_TOTAL = 2;
export const H_BODIES = 3;
export const H_SUM1 = 4;
export const H_SUM2 = 5;
export const H_CONTACTS = 6;
/**
 * The static margin's policy state (version 6; zero in versions 4 and 5): `marginBucket` + 1 in
 * bits `POLICY_BUCKET` (0: no margin picked yet), `POLICY_PENDING` when a re-pick was due.
 */
export const H_POLICY = 7;
export const H_ENDED = 8;
export const H_TOUCHING = 9;
export const H_EXPLICIT = 10;
export const H_FILTERS = 11;
export const H_BODY_F64 = 12;
export const H_PURGE = 13;
/** The two lanes of the snapshot checksum (checksum.ts). */
export const H_CHECK1 = 14;
export const H_CHECK2 = 15;
export const F_TICK = 8;
export const F_CELL = 9;
/** The static grid's margin (length units: 0 up to the cell size, or up to 1 while the cell size is 0). */
export const F_MARGIN = 10;
/** Bits of `H_POLICY`: the margin's cover bucket + 1 (0 to the policy's bucket count, grid/policy.ts). */
export const POLICY_BUCKET = 0xffff;
/** Bit of `H_POLICY`: a re-pick of the cell size and margin was due at the next step. */
export const POLICY_PENDING = 0x10000;

/** Seeds of the body-set checksum (the two lanes of `math/hashMixer` over each body's id and kind). */
export const SUM_SEED1 = 0x2545f491;
export const SUM_SEED2 = 0x6c8e9cf5;

/** The option bits of `options` (0 for the defaults). Throws `RangeError` on an unknown `shapes`. */
export function optionBits(o: SnapshotOptions | undefined): number {
  if (o === undefined) return 0;
  const s = o.shapes ?? 'all';
  if (s !== 'all' && s !== 'dynamic' && s !== 'none') throw new RangeError(`bitecs-collide: snapshot options.shapes must be 'all', 'dynamic' or 'none', got ${String(s)}`);
  return (s === 'dynamic' ? SHAPES_DYNAMIC : s === 'none' ? SHAPES_NONE : 0) | (o.staticBoxes === false ? NO_STATIC : 0);
}

/**
 * The section counts of one snapshot (as in its header) and the byte offsets of its sections from
 * the snapshot start, set by `layoutSections`. One instance per writer or reader, reused (a class, so
 * that its number fields keep one hidden class).
 */
export class SnapshotLayout {
  /** Header bytes (`headerBytesOf` the version): the body records start there. */
  header = HEADER_BYTES;
  /** float64 words of the body records. */
  bodyF64 = 0;
  /** Body records with filter words. */
  filters = 0;
  contacts = 0;
  /** Touching entities whose Contact data is stored explicitly. */
  explicit = 0;
  ended = 0;
  touching = 0;
  /** Bodies removed since the last step. */
  purge = 0;
  contactF64 = 0;
  explicitF64 = 0;
  filterU32 = 0;
  contactAB = 0;
  endedU32 = 0;
  touchingU32 = 0;
  purgeU32 = 0;
  flagsU8 = 0;
  endedFlagsU8 = 0;
  /** Snapshot size in bytes (a multiple of 8). */
  total = 0;
}

/** Sets the section offsets and the total size of `l` from its header size and counts; returns the total. */
export function layoutSections(l: SnapshotLayout): number {
  l.contactF64 = l.header + 8 * l.bodyF64;
  l.explicitF64 = l.contactF64 + 8 * CONTACT_F64 * l.contacts;
  l.filterU32 = l.explicitF64 + 8 * EXPLICIT_F64 * l.explicit;
  l.contactAB = l.filterU32 + 8 * l.filters;
  l.endedU32 = l.contactAB + 8 * l.contacts;
  l.touchingU32 = l.endedU32 + 8 * l.ended;
  l.purgeU32 = l.touchingU32 + 4 * TOUCH_U32 * l.touching;
  l.flagsU8 = l.purgeU32 + 4 * l.purge;
  l.endedFlagsU8 = l.flagsU8 + l.contacts;
  l.total = 8 * Math.ceil((l.endedFlagsU8 + l.ended) / 8); // (no 32-bit bit operations: sizes may exceed 2 GB)
  return l.total;
}
