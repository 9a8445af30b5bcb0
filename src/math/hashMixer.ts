/**
 * A deterministic 64-bit hash of 32-bit integer words in two 32-bit lanes, shared by the physics
 * state hash and the snapshot body-set checksum. Each word v is mixed into both lanes by a
 * multiply-rotate step (multipliers from xxHash32), lane 2 taking in lane 1's new value:
 *   h1 ← rotl13((h1 ^ v) · 0x9e3779b1),  h2 ← rotl17((h2 ^ v) · 0x85ebca77) + h1   (mod 2^32);
 * `finish` is MurmurHash3's 32-bit finaliser (fmix32). Integer arithmetic only (Math.imul, shifts),
 * so the words are the same on every machine and JS engine.
 *
 * The lanes are int32 values the caller keeps (locals in a loop, so that they stay in registers):
 *   h1 = mixLane1(h1, v); h2 = mixLane2(h2, h1, v);
 * The functions are small enough for V8 to inline at every hot call site. A word is read modulo 2^32
 * (any uint32 or int32 value).
 * @module
 */

/** Lane h1 after mixing the word `v`. */
export function mixLane1(h1: number, v: number): number {
  const h = Math.imul(h1 ^ v, 0x9e3779b1);
  return (h << 13) | (h >>> 19);
}

/** Lane h2 after mixing the word `v`, given lane h1 after the same word (`mixLane1`). */
export function mixLane2(h2: number, h1: number, v: number): number {
  const h = Math.imul(h2 ^ v, 0x85ebca77);
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
