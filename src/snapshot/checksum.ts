/**
 * The snapshot checksum: the two lanes of `math/hashMixer` (seeds `CHECK_SEED1`, `CHECK_SEED2`) over
 * every uint32 word of the snapshot in order, header included, except the two checksum words
 * themselves (`H_CHECK1`, `H_CHECK2`). A changed word changes lane 1 for certain (each mixing step
 * is a bijection of the lane for a fixed word and of the word for a fixed lane), so every
 * single-word corruption is caught; other corruptions escape with probability about 2^-64.
 * Integer arithmetic only; no allocation. Cost: one multiply-rotate pair per 4 bytes, in chunks
 * (`CHECK_CHUNK` words per call, so that V8 optimises the chunk function from full feedback).
 * @module
 */
import { LANE1, LANE2, mixLane1, mixLane2 } from '../math/hashMixer.js';
import { H_CHECK1, H_CHECK2 } from './format.js';

/** Seeds of the snapshot checksum lanes. */
export const CHECK_SEED1 = 0x5bd1e995;
export const CHECK_SEED2 = 0x1b873593;
/** Words mixed per call of the chunk loop. */
const CHECK_CHUNK = 4096;

/**
 * Sets `lanes[LANE1]`, `lanes[LANE2]` to the checksum of the `words` uint32 words of `u32` from
 * word `k0` (a snapshot start; `words` ≥ `H_CHECK2` + 1). Read the lanes as uint32 with `>>> 0`.
 */
export function snapshotChecksum(u32: Uint32Array, k0: number, words: number, lanes: Int32Array): void {
  lanes[LANE1] = CHECK_SEED1;
  lanes[LANE2] = CHECK_SEED2;
  mixWords(u32, k0, k0 + H_CHECK1, lanes);
  const end = k0 + words;
  for (let k = k0 + H_CHECK2 + 1; k < end; k += CHECK_CHUNK) mixWords(u32, k, Math.min(end, k + CHECK_CHUNK), lanes);
}

/** Mixes words `from..to − 1` into the lanes (kept in locals meanwhile). */
function mixWords(u32: Uint32Array, from: number, to: number, lanes: Int32Array): void {
  let h1 = lanes[LANE1];
  let h2 = lanes[LANE2];
  for (let k = from; k < to; k++) {
    const v = u32[k];
    h1 = mixLane1(h1, v);
    h2 = mixLane2(h2, h1, v);
  }
  lanes[LANE1] = h1;
  lanes[LANE2] = h2;
}
