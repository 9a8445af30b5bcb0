/**
 * A deterministic 64-bit hash of 32-bit integer words in two 32-bit lanes, shared by the physics
 * state hash and the snapshot body-set checksum. Each word v is mixed into both lanes by a
 * multiply-rotate step (multipliers from xxHash32), lane 2 taking in lane 1's new value:
 *   h1 ← rotl13((h1 ^ v) · 0x9e3779b1),  h2 ← rotl17((h2 ^ v) · 0x85ebca77) + h1   (mod 2^32);
 * `finish` is MurmurHash3's 32-bit finaliser (fmix32). Integer arithmetic only (Math.imul, shifts),
 * so the words are the same on every machine and JS engine. A word is read modulo 2^32 (any uint32
 * or int32 value).
 *
 * Two forms of the same step, both allocation-free and small enough for V8 to inline:
 * - `mixInt(lanes, v)` with the lanes in a caller-owned Int32Array (slots `LANE1`, `LANE2`), for
 *   hashes spread over several functions (the state hash);
 * - `h1 = mixLane1(h1, v); h2 = mixLane2(h2, h1, v);` with the lanes in locals, for one tight loop
 *   (the snapshot checksum): they stay in registers instead of going through memory every word.
 * `mixInt` is written out rather than calling the lane steps: nested inlining uses up V8's inlining
 * budget sooner, and the state hash, with its many mixing sites, ran 2× slower when it did.
 * @module
 */

/** Slot of lane h1 in a lanes array. */
export const LANE1 = 0;
/** Slot of lane h2 in a lanes array. */
export const LANE2 = 1;

const M1 = 0x9e3779b1;
const M2 = 0x85ebca77;

/** A lanes array for `seedHash` and `mixInt` (two int32 slots). */
export function createHashLanes(): Int32Array {
  return new Int32Array(2);
}

/** Starts a hash: sets the lanes to the seeds (taken modulo 2^32). */
export function seedHash(lanes: Int32Array, seed1: number, seed2: number): void {
  lanes[LANE1] = seed1;
  lanes[LANE2] = seed2;
}

/** Mixes the 32-bit word `v` into both lanes of `lanes`. */
export function mixInt(lanes: Int32Array, v: number): void {
  let h1 = Math.imul(lanes[LANE1] ^ v, M1);
  h1 = (h1 << 13) | (h1 >>> 19);
  let h2 = Math.imul(lanes[LANE2] ^ v, M2);
  h2 = (h2 << 17) | (h2 >>> 15);
  lanes[LANE1] = h1;
  lanes[LANE2] = (h2 + h1) | 0;
}

/** Lane h1 after mixing the word `v`. */
export function mixLane1(h1: number, v: number): number {
  const h = Math.imul(h1 ^ v, M1);
  return (h << 13) | (h >>> 19);
}

/** Lane h2 after mixing the word `v`, given lane h1 after the same word (`mixLane1`). */
export function mixLane2(h2: number, h1: number, v: number): number {
  const h = Math.imul(h2 ^ v, M2);
  return (((h << 17) | (h >>> 15)) + h1) | 0;
}

/** MurmurHash3's fmix32 of the 32-bit word `h`, as an unsigned 32-bit integer. */
export function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
