/**
 * The rollback ring: the physics state of the last `depth` saved ticks in one buffer, for
 * client-side prediction with rollback (docs/netcode.md). Each frame is a snapshot in the format of
 * format.ts, written by the snapshot writer into its own slot of the ring's buffer (8-aligned, so the
 * writer and reader use the buffer's own views) and restored by `restoreSnapshot` with
 * `verify: false`: the frames never leave the process, so the ring writes no checksum (its two
 * header words are zero) and checks none, which saves one pass over the frame's words on each side;
 * the range checks and the body-set check still run before anything is written.
 *
 * Slots have one size, `slotBytes`, a multiple of 8; when a frame needs more (the world grew, or
 * more contacts than ever), the buffer is replaced by one with the slot size doubled until the frame
 * fits and the held frames are copied over: the only allocation after creation.
 *
 * Frames are kept in save order with strictly increasing ticks: saving tick t first drops every
 * held frame of tick ≥ t (after a rollback to t − 1 the re-simulated frames replace the predicted
 * ones), then, when the ring is full, the oldest. Frames are whole, not deltas against the previous
 * frame: in the arena 38–41 % of a frame's 8-byte words change every tick (bench/rollback.ts), so
 * a delta would still hold about 40 % of the bytes, while saving would read the previous frame too and a
 * restore would replay deltas.
 * @module
 */
import { doubledLength } from '../math/grow.js';
import { PhysicsInputError } from '../physics/errors.js';
import { describe } from '../physics/readInput.js';
import { keepPoses } from '../debug/interpolation.js';
import { checkLive, internalsOf } from '../physics/internal.js';
import type { Physics } from '../physics/physicsTypes.js';
import { restoreSnapshot, type RestoreOptions } from './reader.js';
import { saveSnapshotWithin, snapshotSize } from './writer.js';

/** A ring of the last `depth` saved physics states (see `createRollbackRing`). */
export interface RollbackRing {
  /** Most frames held. */
  readonly depth: number;
  /** Tick of the oldest frame held, −1 when empty. */
  readonly oldestTick: number;
  /** Tick of the newest frame held, −1 when empty. */
  readonly newestTick: number;
  /** Bytes of the newest frame saved (a snapshot of the state at that tick), 0 before the first save. */
  readonly frameBytes: number;
  /** Frames held (0 .. depth). */
  readonly count: number;
}

/** The key of a ring's state: its fields are read through the getters below and written only here. */
const STATE = Symbol('rollbackRing');

/** A ring's state (the public fields of `RollbackRing` are read from it). */
interface RingState {
  /** The instance the ring saves and restores. */
  readonly physics: Physics;
  readonly depth: number;
  oldestTick: number;
  newestTick: number;
  frameBytes: number;
  count: number;
  /** Bytes of each slot (a multiple of 8); slot i starts at byte i × slotBytes of `buffer`. */
  slotBytes: number;
  buffer: Uint8Array;
  /** Per slot: the tick saved in it, and its frame's bytes. */
  ticks: Float64Array;
  sizes: Int32Array;
  /** Slot of the oldest frame. */
  head: number;
}

/**
 * The ring handed to the game: its public fields are getters (an assignment to one throws in strict
 * code and is ignored otherwise), its state sits behind a symbol, so a game cannot put the ring's
 * counts out of step with its buffer.
 */
class Ring implements RollbackRing {
  readonly [STATE]: RingState;
  constructor(physics: Physics, depth: number, slotBytes: number) {
    this[STATE] = {
      physics, depth, oldestTick: -1, newestTick: -1, frameBytes: 0, count: 0, slotBytes,
      buffer: new Uint8Array(depth * slotBytes), ticks: new Float64Array(depth), sizes: new Int32Array(depth), head: 0,
    };
    Object.freeze(this);
  }
  get depth(): number { return this[STATE].depth; }
  get oldestTick(): number { return this[STATE].oldestTick; }
  get newestTick(): number { return this[STATE].newestTick; }
  get frameBytes(): number { return this[STATE].frameBytes; }
  get count(): number { return this[STATE].count; }
}

/** Most frames a ring holds (a rollback window of 18 minutes at 60 Hz). */
export const MAX_ROLLBACK_DEPTH = 65536;
/** The smallest slot, bytes. */
const MIN_SLOT = 1024;
/** Restores of the ring skip the checksum (the ring writes none). */
const TRUSTED: RestoreOptions = { verify: false };

/**
 * Creates a rollback ring for `physics` holding up to `depth` frames (an integer in
 * 1 .. 65,536), in one buffer allocated now with room for a quarter more than the current state per
 * frame (grown by doubling only when a frame needs more: the world grew). Throws
 * `PhysicsInputError` (field `depth`) for a bad depth.
 */
export function createRollbackRing(physics: Physics, depth: number): RollbackRing {
  checkLive(physics, 'createRollbackRing');
  if (!(Number.isInteger(depth) && depth >= 1 && depth <= MAX_ROLLBACK_DEPTH)) {
    throw new PhysicsInputError({ field: 'depth', problem: `must be an integer in 1..${MAX_ROLLBACK_DEPTH}, got ${String(depth)}`, source: 'createRollbackRing' });
  }
  const need = snapshotSize(physics);
  return new Ring(physics, depth, doubledLength(MIN_SLOT, need + (need >>> 2)));
}

function ringOf(physics: Physics, ring: RollbackRing, source: string): RingState {
  checkLive(physics, source);
  if (!(ring instanceof Ring)) throw new PhysicsInputError({ field: 'ring', problem: 'must be a ring made by createRollbackRing', source });
  const r = ring[STATE];
  if (r.physics !== physics) throw new PhysicsInputError({ field: 'ring', problem: 'was created for another physics instance', source });
  return r;
}

/** Sets the public oldest / newest ticks from the held frames. */
function publish(r: RingState): void {
  if (r.count === 0) {
    r.oldestTick = -1;
    r.newestTick = -1;
  } else {
    r.oldestTick = r.ticks[r.head];
    r.newestTick = r.ticks[(r.head + r.count - 1) % r.depth];
  }
}

/** Replaces the buffer by one whose slots hold `need` bytes (slot size doubled), copying the held frames. */
function grow(r: RingState, need: number): void {
  const slot = doubledLength(r.slotBytes, need);
  const next = new Uint8Array(r.depth * slot);
  for (let i = 0, s = r.head; i < r.count; i++, s = (s + 1) % r.depth) {
    next.set(r.buffer.subarray(s * r.slotBytes, s * r.slotBytes + r.sizes[s]), s * slot);
  }
  r.buffer = next;
  r.slotBytes = slot;
}

/**
 * Stores the state of `physics` at its current tick (`physics.tick`; call it after a step, when the
 * game saves its own state for that tick). First drops every held frame of a tick ≥ `physics.tick`
 * (the re-simulation after a rollback replaces them), then the oldest frame when the ring is full.
 * The frame holds what `saveSnapshot` writes (default options), without the checksum. No allocation
 * unless the frame outgrows the slots (the world grew).
 */
export function saveRollback(physics: Physics, ring: RollbackRing): void {
  const r = ringOf(physics, ring, 'saveRollback');
  const tick = physics.tick;
  while (r.count > 0 && r.ticks[(r.head + r.count - 1) % r.depth] >= tick) r.count--;
  if (r.count === r.depth) {
    r.head = (r.head + 1) % r.depth;
    r.count--;
  }
  const slot = (r.head + r.count) % r.depth;
  let bytes = saveSnapshotWithin(physics, r.buffer, slot * r.slotBytes, r.slotBytes, false);
  if (bytes < 0) {
    grow(r, -bytes);
    bytes = saveSnapshotWithin(physics, r.buffer, slot * r.slotBytes, r.slotBytes, false);
  }
  r.ticks[slot] = tick;
  r.sizes[slot] = bytes;
  r.count++;
  r.frameBytes = bytes;
  publish(r);
}

/**
 * Drops every held frame (the ring is then empty, its ticks −1; the buffer is kept). For a desync:
 * after the state was replaced from elsewhere (a snapshot from the server), the held frames belong
 * to another timeline.
 */
export function clearRollback(ring: RollbackRing): void {
  if (!(ring instanceof Ring)) throw new PhysicsInputError({ field: 'ring', problem: 'must be a ring made by createRollbackRing', source: 'clearRollback' });
  const r = ring[STATE];
  r.count = 0;
  r.head = 0;
  r.frameBytes = 0;
  publish(r);
}

/** The slot holding `tick`, or −1 (newest first: rollbacks go back a few ticks). */
function slotOf(r: RingState, tick: number): number {
  for (let i = r.count - 1; i >= 0; i--) {
    const s = (r.head + i) % r.depth;
    if (r.ticks[s] === tick) return s;
  }
  return -1;
}

/**
 * Restores the state saved at `tick`: afterwards `physics.tick === tick` and stepping on gives
 * bit for bit what the original run gave from that tick with the same inputs. Throws
 * `PhysicsInputError` (field `tick`, naming the ticks held) when the ring holds no frame of that
 * tick, and `SnapshotMismatchError` (field `bodies`) when the world's bodies (entity ids, shape
 * kinds, Velocity / Sensor / CollisionFilter / Response presence) are not those of that tick:
 * restore the game's own entities and components first. Either way nothing is changed. Frames newer
 * than `tick` stay in the ring until the next save (of tick + 1 after a re-simulated step) drops
 * them. No checksum is verified; no allocation. With render interpolation enabled, the restored
 * poses become those of `tick`, from which the next step interpolates.
 */
export function restoreRollback(physics: Physics, ring: RollbackRing, tick: number): void {
  const r = ringOf(physics, ring, 'restoreRollback');
  const integer = typeof tick === 'number' && Number.isInteger(tick);
  const slot = integer ? slotOf(r, tick) : -1;
  if (slot < 0) {
    const held = r.count === 0 ? 'it is empty (saveRollback after each step)'
      : r.count === r.newestTick - r.oldestTick + 1 ? `it holds ticks ${r.oldestTick}..${r.newestTick}`
        : `it holds ${r.count} frames from tick ${r.oldestTick} to ${r.newestTick}`;
    // A string '4' is not tick 4: say what is wrong with the argument rather than "no frame of tick 4".
    const problem = integer ? `no frame of tick ${tick} in the rollback ring: ${held}` : `must be an integer tick, got ${describe(tick)} (the rollback ring: ${held})`;
    throw new PhysicsInputError({ field: 'tick', problem, source: 'restoreRollback' });
  }
  restoreSnapshot(physics, r.buffer, slot * r.slotBytes, TRUSTED);
  // With render interpolation on, the restored poses are those of `tick`: the next step interpolates from them.
  if (internalsOf(physics).interpolation !== null) keepPoses(physics);
}
