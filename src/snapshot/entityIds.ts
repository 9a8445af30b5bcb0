/**
 * What a client joining a running world needs besides a physics snapshot: the same entity ids, and
 * the same bodies on them. bitecs 0.4 cannot create an entity with a chosen id (`addEntity` hands out
 * the most recently removed id first, then a new one above the highest so far), and
 * `restoreSnapshot` only restores the data of a world whose bodies already have the saved ids. Two
 * manifests, each written into a caller-owned buffer (little-endian, self-describing):
 *
 * - **Entity ids** (`entityIdsSize` / `saveEntityIds` / `restoreEntityIds`): the world's entity
 *   index — the highest id ever handed out, and the ids removed since, in the order `addEntity`
 *   will recycle them. Every other id up to the highest is alive. 16 bytes + 4 per removed id.
 *   Restoring into a fresh world creates ids 1 … highest and removes the free ones in reverse recycle
 *   order, so the same ids are alive and the next `addEntity` calls return the same ids as they would
 *   in the saved world (recycled ones first, then new ones).
 * - **Bodies** (`bodyManifestSize` / `saveBodyManifest` / `restoreBodyManifest`): in ascending
 *   entity id, each body's id and kind (sphere or box, and whether it has Velocity, Sensor,
 *   CollisionFilter, Response, Material). 8 bytes + 4 per body. Restoring adds those components to the
 *   (existing) entities with zero data; `restoreSnapshot` then writes the data (the Response mode,
 *   restitution and mass travel in the snapshot's body records, format version 2, like every other
 *   body value: the manifest only says which components a body has).
 *
 * Manifest versions: the body manifest's format tag ends in its version digit. Version 2 ("BCB2",
 * written since the collision response) has the Response bit; version 1 ("BCB1") had none and is
 * still read (its bodies have no Response: a version-1 manifest of a world with dynamic spheres
 * came from a writer that dropped them, and the snapshot's body-set check then rejects the join).
 * Version 3 ("BCB3") adds the Character bit, version 4 ("BCB4", since friction) the Material bit;
 * versions 1 to 3 are still read (no Material).
 * Any other version is rejected with an `EntityManifestError` naming it.
 *
 * A join is: `createWorld()`, `restoreEntityIds`, `createPhysics` (same options as the server),
 * `restoreBodyManifest`, `restoreSnapshot`. The game's own components are the game's to send (e.g.
 * with `bitecs/serialization`). Only bitecs's default entity index is supported (no versioning).
 *
 * Reads the world's entity index through bitecs's exported `$internal` (there is no public accessor
 * for the recycle order). Not for per-tick code: each call allocates a DataView, and restoring makes
 * bitecs allocate its bookkeeping of every entity.
 * @module
 */
import { $internal, addComponent, addEntity, entityExists, hasComponent, removeEntity, type World } from 'bitecs';
import { ensureCapacity } from '../physics/createPhysics.js';
import type { Physics } from '../physics/physicsTypes.js';

/** Thrown by `restoreEntityIds` / `restoreBodyManifest` for a bad manifest or a world that cannot take it. */
export class EntityManifestError extends Error {
  constructor(source: string, message: string) {
    super(`bitecs-collide: ${source}: ${message}`);
    this.name = 'EntityManifestError';
  }
}

const IDS_MAGIC = 0x31454342; // "BCE1" little-endian
/** "BCB" plus the version digit in the top byte ("BCB2" little-endian is 0x32424342). */
const BODIES_TAG = 0x424342;
const BODIES_VERSION = 4;
const BODIES_MAGIC = BODIES_TAG | ((0x30 + BODIES_VERSION) << 24);
const IDS_HEADER = 16;
const BODIES_HEADER = 8;
/** Body kind bits of the body manifest (its own format, independent of the physics internals). */
const K_SPHERE = 1;
const K_BOX = 2;
const K_VELOCITY = 4;
const K_SENSOR = 8;
const K_FILTER = 16;
/** Since version 2. */
const K_RESPONSE = 32;
/** Since version 3. */
const K_CHARACTER = 64;
/** Since version 4. */
const K_MATERIAL = 128;
/** Every kind bit a manifest of version 1 / 2 / 3 / 4 may hold. */
const KINDS_V1 = 31;
const KINDS_V2 = 63;
const KINDS_V3 = 127;
const KINDS_V4 = 255;
const ID_BITS = 24;
const ID_MASK = (1 << ID_BITS) - 1;

/** The fields of bitecs 0.4's entity index that the manifest reads. */
interface EntityIndexView {
  aliveCount: number;
  dense: number[];
  maxId: number;
  versioning: boolean;
}

function entityIndexOf(world: World, source: string): EntityIndexView {
  const index = (world as { [$internal]?: { entityIndex?: EntityIndexView } })[$internal]?.entityIndex;
  if (index === undefined || !Array.isArray(index.dense)) throw new EntityManifestError(source, 'not a bitecs 0.4 world');
  if (index.versioning) throw new EntityManifestError(source, 'worlds with entity id versioning are not supported');
  return index;
}

function viewOf(buffer: ArrayBuffer | Uint8Array, offset: number, bytes: number, source: string): DataView {
  const ab = buffer instanceof Uint8Array ? buffer.buffer : buffer;
  const base = buffer instanceof Uint8Array ? buffer.byteOffset : 0;
  const length = buffer.byteLength;
  if (!(Number.isInteger(offset) && offset >= 0)) throw new RangeError(`bitecs-collide: ${source}: offset must be an integer >= 0, got ${offset}`);
  if (offset + bytes > length) {
    throw new RangeError(`bitecs-collide: ${source}: needs ${bytes} bytes from offset ${offset}, the buffer has ${Math.max(0, length - offset)}`);
  }
  return new DataView(ab, base + offset, bytes);
}

function available(buffer: ArrayBuffer | Uint8Array, offset: number): number {
  return Math.max(0, buffer.byteLength - offset);
}

// ---- Entity ids --------------------------------------------------------------------------------

/** Bytes `saveEntityIds` writes for `world` now: 16 + 4 per removed (recyclable) id. */
export function entityIdsSize(world: World): number {
  const index = entityIndexOf(world, 'entityIdsSize');
  return IDS_HEADER + 4 * (index.maxId - index.aliveCount);
}

/**
 * Writes the world's entity ids (highest id, removed ids in recycle order) into `buffer` at byte
 * `offset` (default 0); returns the bytes written (`entityIdsSize(world)`). Throws RangeError when
 * the buffer is too small.
 */
export function saveEntityIds(world: World, buffer: ArrayBuffer | Uint8Array, offset = 0): number {
  const index = entityIndexOf(world, 'saveEntityIds');
  const free = index.maxId - index.aliveCount;
  const bytes = IDS_HEADER + 4 * free;
  const v = viewOf(buffer, offset, bytes, 'saveEntityIds');
  v.setUint32(0, IDS_MAGIC, true);
  v.setUint32(4, index.maxId, true);
  v.setUint32(8, index.aliveCount, true);
  v.setUint32(12, free, true);
  // dense[aliveCount] is the id the next addEntity recycles, then dense[aliveCount + 1], …
  for (let i = 0; i < free; i++) v.setUint32(IDS_HEADER + 4 * i, index.dense[index.aliveCount + i], true);
  return bytes;
}

/**
 * Recreates the saved entity ids in `world`, which must be fresh (no entity ever created): the same
 * ids are alive afterwards, none has a component, and the next `addEntity` calls return the ids the
 * saved world would (its removed ids in recycle order, then new ones). Returns the bytes read.
 * Throws `EntityManifestError` before changing anything when the manifest is corrupt or the world
 * is not fresh. Allocates bitecs's bookkeeping of each id (one-off, at join time).
 */
export function restoreEntityIds(world: World, buffer: ArrayBuffer | Uint8Array, offset = 0): number {
  const source = 'restoreEntityIds';
  const index = entityIndexOf(world, source);
  if (index.maxId !== 0) throw new EntityManifestError(source, `the world must be fresh, but it has already handed out ids up to ${index.maxId}`);
  if (available(buffer, offset) < IDS_HEADER) throw new EntityManifestError(source, `no entity-id manifest at offset ${offset} (fewer than ${IDS_HEADER} bytes)`);
  const head = viewOf(buffer, offset, IDS_HEADER, source);
  if (head.getUint32(0, true) !== IDS_MAGIC) throw new EntityManifestError(source, `no entity-id manifest at offset ${offset} (bad format tag)`);
  const maxId = head.getUint32(4, true);
  const alive = head.getUint32(8, true);
  const free = head.getUint32(12, true);
  if (alive + free !== maxId || maxId > ID_MASK) throw new EntityManifestError(source, 'corrupt manifest (inconsistent counts)');
  const bytes = IDS_HEADER + 4 * free;
  if (available(buffer, offset) < bytes) throw new EntityManifestError(source, `the manifest is ${bytes} bytes but the buffer has ${available(buffer, offset)} from offset ${offset}`);
  const v = viewOf(buffer, offset, bytes, source);
  const seen = new Uint8Array(maxId + 1);
  for (let i = 0; i < free; i++) {
    const id = v.getUint32(IDS_HEADER + 4 * i, true);
    if (id < 1 || id > maxId || seen[id] !== 0) throw new EntityManifestError(source, `corrupt manifest (removed id ${id} out of range or repeated)`);
    seen[id] = 1;
  }
  for (let id = 1; id <= maxId; id++) {
    const got = addEntity(world);
    if (got !== id) throw new EntityManifestError(source, `bitecs handed out id ${got} where ${id} was expected`);
  }
  // Removing pushes an id on top of the recycle stack: remove the last to be recycled first.
  for (let i = free - 1; i >= 0; i--) removeEntity(world, v.getUint32(IDS_HEADER + 4 * i, true));
  return bytes;
}

// ---- Bodies ------------------------------------------------------------------------------------

/** The kind bits of `eid` (0 when it is not a body: no Position, or neither Sphere nor Box). */
function kindOf(physics: Physics, eid: number): number {
  const { world, components: c } = physics;
  if (!hasComponent(world, eid, c.Position)) return 0;
  let k = (hasComponent(world, eid, c.Sphere) ? K_SPHERE : 0) | (hasComponent(world, eid, c.Box) ? K_BOX : 0);
  if (k === 0) return 0;
  if (hasComponent(world, eid, c.Velocity)) k |= K_VELOCITY;
  if (hasComponent(world, eid, c.Sensor)) k |= K_SENSOR;
  if (hasComponent(world, eid, c.CollisionFilter)) k |= K_FILTER;
  if (hasComponent(world, eid, c.Response)) k |= K_RESPONSE;
  if (hasComponent(world, eid, c.Character)) k |= K_CHARACTER;
  if (hasComponent(world, eid, c.Material)) k |= K_MATERIAL;
  return k;
}

function countBodies(physics: Physics, source: string): number {
  const maxId = entityIndexOf(physics.world, source).maxId;
  let n = 0;
  for (let eid = 1; eid <= maxId; eid++) if (entityExists(physics.world, eid) && kindOf(physics, eid) !== 0) n++;
  return n;
}

/** Bytes `saveBodyManifest` writes for the current bodies: 8 + 4 per body. */
export function bodyManifestSize(physics: Physics): number {
  return BODIES_HEADER + 4 * countBodies(physics, 'bodyManifestSize');
}

/**
 * Writes every body's entity id and kind (sphere / box; Velocity, Sensor, CollisionFilter, Response,
 * Character, Material presence), in ascending id, into `buffer` at byte `offset` (default 0), as a version-4 manifest;
 * returns the bytes written (`bodyManifestSize(physics)`). Entity ids must be below 2^24.
 */
export function saveBodyManifest(physics: Physics, buffer: ArrayBuffer | Uint8Array, offset = 0): number {
  const source = 'saveBodyManifest';
  const count = countBodies(physics, source);
  const bytes = BODIES_HEADER + 4 * count;
  const v = viewOf(buffer, offset, bytes, source);
  v.setUint32(0, BODIES_MAGIC, true);
  v.setUint32(4, count, true);
  const maxId = entityIndexOf(physics.world, source).maxId;
  let at = BODIES_HEADER;
  for (let eid = 1; eid <= maxId; eid++) {
    if (!entityExists(physics.world, eid)) continue;
    const k = kindOf(physics, eid);
    if (k === 0) continue;
    if (eid > ID_MASK) throw new RangeError(`bitecs-collide: ${source}: entity id ${eid} is not below 2^${ID_BITS}`);
    v.setUint32(at, (eid | (k << ID_BITS)) >>> 0, true);
    at += 4;
  }
  return bytes;
}

/**
 * The kind bits a body manifest with format tag `tag` may hold (version 1, 2 or 3); throws
 * `EntityManifestError` for another tag or version.
 */
function kindsOfVersion(tag: number, offset: number, source: string): number {
  if ((tag & 0xffffff) !== BODIES_TAG) throw new EntityManifestError(source, `no body manifest at offset ${offset} (bad format tag)`);
  const version = (tag >>> 24) - 0x30;
  if (version === 1) return KINDS_V1;
  if (version === 2) return KINDS_V2;
  if (version === 3) return KINDS_V3;
  if (version === BODIES_VERSION) return KINDS_V4;
  throw new EntityManifestError(source, `body manifest version ${version >= 0 && version <= 9 ? version : `tag 0x${(tag >>> 0).toString(16)}`} is not supported (this version reads 1 to ${BODIES_VERSION})`);
}

/**
 * Adds the saved bodies' components to their entities in `physics.world` (which must exist and not
 * be bodies yet, e.g. right after `restoreEntityIds`): Position, then Velocity, CollisionFilter and
 * Sensor where saved, then Sphere or Box, then Response and Character where saved (the order of
 * `addSphere`, `addCharacter`) —
 * with zero data (identity rotation) for `restoreSnapshot` to overwrite. Also grows the physics
 * arrays to the world's highest entity id: a snapshot taken right after a body was removed names
 * that body (its `ended` pairs and removed-body records), and its id may be above every body left.
 * Reads manifests of versions 1 to 4. Returns the bytes read. Throws `EntityManifestError` before changing anything when the
 * manifest is corrupt or of another version, or an entity is missing or already a body.
 */
export function restoreBodyManifest(physics: Physics, buffer: ArrayBuffer | Uint8Array, offset = 0): number {
  const source = 'restoreBodyManifest';
  if (available(buffer, offset) < BODIES_HEADER) throw new EntityManifestError(source, `no body manifest at offset ${offset} (fewer than ${BODIES_HEADER} bytes)`);
  const head = viewOf(buffer, offset, BODIES_HEADER, source);
  const kinds = kindsOfVersion(head.getUint32(0, true), offset, source);
  const count = head.getUint32(4, true);
  const bytes = BODIES_HEADER + 4 * count;
  if (available(buffer, offset) < bytes) throw new EntityManifestError(source, `the manifest is ${bytes} bytes but the buffer has ${available(buffer, offset)} from offset ${offset}`);
  const v = viewOf(buffer, offset, bytes, source);
  const { world, components: c } = physics;
  let last = 0;
  for (let i = 0; i < count; i++) {
    const word = v.getUint32(BODIES_HEADER + 4 * i, true);
    const eid = word & ID_MASK;
    const k = word >>> ID_BITS;
    if (eid <= last || (k & (K_SPHERE | K_BOX)) === 0 || (k & ~kinds) !== 0) throw new EntityManifestError(source, `corrupt manifest (record ${i}: entity ${eid}, kind ${k})`);
    last = eid;
  }
  for (let i = 0; i < count; i++) {
    const eid = v.getUint32(BODIES_HEADER + 4 * i, true) & ID_MASK;
    if (!entityExists(world, eid)) throw new EntityManifestError(source, `entity ${eid} does not exist (restore the entity ids first)`);
    if (kindOf(physics, eid) !== 0) throw new EntityManifestError(source, `entity ${eid} is already a body`);
  }
  ensureCapacity(physics, entityIndexOf(world, source).maxId);
  for (let i = 0; i < count; i++) {
    const word = v.getUint32(BODIES_HEADER + 4 * i, true);
    const eid = word & ID_MASK;
    const k = word >>> ID_BITS;
    addComponent(world, eid, c.Position);
    if ((k & K_VELOCITY) !== 0) addComponent(world, eid, c.Velocity);
    if ((k & K_FILTER) !== 0) addComponent(world, eid, c.CollisionFilter);
    if ((k & K_SENSOR) !== 0) addComponent(world, eid, c.Sensor);
    if ((k & K_SPHERE) !== 0) addComponent(world, eid, c.Sphere);
    if ((k & K_BOX) !== 0) addComponent(world, eid, c.Box);
    if ((k & K_RESPONSE) !== 0) addComponent(world, eid, c.Response);
    if ((k & K_CHARACTER) !== 0) addComponent(world, eid, c.Character);
    if ((k & K_MATERIAL) !== 0) addComponent(world, eid, c.Material);
  }
  return bytes;
}
