/**
 * Stand-in for the library's rollback ring until it lands on main (same names and meaning):
 * `saveRollback` stores the state at `physics.tick` (dropping any newer frame: they belong to a
 * future that was just rewritten), `restoreRollback` restores the frame of `tick` or throws.
 * Frames are `saveSnapshot` bytes; a frame grows (doubling) when the body set grew.
 */
import { restoreSnapshot, saveSnapshot, snapshotSize, type Physics } from '../../src/index.js';

export interface RollbackRing {
  readonly depth: number;
  oldestTick: number;
  newestTick: number;
  frameBytes: number;
  count: number;
  frames: Uint8Array[];
}

export function createRollbackRing(physics: Physics, depth: number): RollbackRing {
  const frameBytes = snapshotSize(physics);
  return { depth, oldestTick: -1, newestTick: -1, frameBytes, count: 0, frames: Array.from({ length: depth }, () => new Uint8Array(frameBytes)) };
}

export function saveRollback(physics: Physics, ring: RollbackRing): void {
  const t = physics.tick;
  const k = t % ring.depth;
  const need = snapshotSize(physics);
  if (ring.frames[k].byteLength < need) ring.frames[k] = new Uint8Array(Math.max(need, 2 * ring.frames[k].byteLength));
  saveSnapshot(physics, ring.frames[k], 0);
  if (ring.count === 0 || t < ring.oldestTick || t > ring.newestTick + 1) {
    ring.oldestTick = t;
    ring.count = 1;
  } else {
    ring.count = Math.min(ring.depth, t - ring.oldestTick + 1);
    ring.oldestTick = t - ring.count + 1;
  }
  ring.newestTick = t;
}

export function restoreRollback(physics: Physics, ring: RollbackRing, tick: number): void {
  if (ring.count === 0 || tick < ring.oldestTick || tick > ring.newestTick) {
    throw new Error(`restoreRollback: tick ${tick} is not held (ring holds ${ring.oldestTick} … ${ring.newestTick})`);
  }
  restoreSnapshot(physics, ring.frames[tick % ring.depth], 0, { verify: false });
}
