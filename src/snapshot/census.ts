/**
 * The census of a world's body set, taken by `snapshotSize` / `saveSnapshot` (recorded in the header)
 * and by `restoreSnapshot` (checked against the header before anything is written): the number of
 * bodies, a 64-bit checksum of their entity ids and kinds, and the size of their records under the
 * snapshot options.
 *
 * The checksum is the two lanes of `math/hashMixer` (seeds `SUM_SEED1`, `SUM_SEED2`) over each
 * body's entity id, then its kind flags (sphere / box / moving / sensor / filtered / Response / Character, and Material), in ascending id.
 * @module
 */
import { LANE1, LANE2, mixLane1, mixLane2 } from '../math/hashMixer.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import { CHARACTER_F64, NO_STATIC, RESPONSE_F64, SHAPES_DYNAMIC, SHAPES_NONE, SUM_SEED1, SUM_SEED2, V4_RECORDS } from './format.js';
import { internalsOf } from '../physics/internal.js';

const { SPHERE, BOX, MOVING, SENSOR, FILTER } = BodyFlags;
const KIND = SPHERE | BOX | MOVING | SENSOR | FILTER | BodyFlags.RESPONSE | BodyFlags.CHARACTER;

/**
 * Entity ids per call of a chunk loop (the census, the body walk): short calls of one chunk function
 * instead of one long loop (measured: save and restore 1.3–2× slower as one long call; the third
 * rule of the performance idiom in docs/internals.md).
 */
export const LOOP_CHUNK = 1024;

/** A static box: a Box without Velocity. */
export function isStaticBox(f: number): boolean {
  return (f & BOX) !== 0 && (f & (MOVING | SPHERE)) === 0;
}

/**
 * float64 words of the record of a body with flags `f` (and `material` 1 when it holds Material)
 * under option bits `bits` (0 when left out; with `V4_RECORDS`, a Response record of 7 words).
 */
export function bodyWords(f: number, material: number, bits: number): number {
  const stat = isStaticBox(f);
  if (stat && (bits & NO_STATIC) !== 0) return 0;
  let n = 3;
  if ((f & MOVING) !== 0) n += 3;
  if ((bits & SHAPES_NONE) === 0 && !(stat && (bits & SHAPES_DYNAMIC) !== 0)) {
    if ((f & SPHERE) !== 0) n += 1;
    if ((f & BOX) !== 0) n += 7;
  }
  if ((f & BodyFlags.RESPONSE) !== 0) n += (bits & V4_RECORDS) !== 0 ? RESPONSE_F64 - 1 : RESPONSE_F64;
  if ((f & BodyFlags.CHARACTER) !== 0) n += CHARACTER_F64;
  if (material !== 0) n += 1;
  return n;
}

/** Slot of the body count in a census array (slots `LANE1`, `LANE2` hold the checksum lanes). */
export const CENSUS_BODIES = 2;
/** Slot of the float64 words of the body records. */
export const CENSUS_BODY_F64 = 3;
/** Slot of the body records with filter words. */
export const CENSUS_FILTERS = 4;

/** A census array for `takeCensus`: int32 slots `LANE1`, `LANE2` (of `math/hashMixer`) and `CENSUS_*`. */
export function createCensus(): Int32Array {
  return new Int32Array(5);
}

/**
 * Takes the census of the body set under option bits `bits` into `census`: the body count, the
 * checksum (the hash mixer's two lanes over each body's entity id and kind flags, in ascending id;
 * read them as uint32 with `>>> 0`), the float64 words of the records and the records with a filter.
 */
export function takeCensus(physics: Physics, bits: number, census: Int32Array): void {
  const { flags, maxEid, hasMaterial } = internalsOf(physics);
  census[LANE1] = SUM_SEED1;
  census[LANE2] = SUM_SEED2;
  census[CENSUS_BODIES] = 0;
  census[CENSUS_BODY_F64] = 0;
  census[CENSUS_FILTERS] = 0;
  for (let from = 1; from <= maxEid; from += LOOP_CHUNK) censusChunk(flags, hasMaterial, from, Math.min(maxEid, from + LOOP_CHUNK - 1), bits, census);
}

/** The census of entity ids `from..to`, added to `census` (lanes and counts in locals meanwhile). */
function censusChunk(flags: Uint8Array, hasMaterial: Uint8Array, from: number, to: number, bits: number, census: Int32Array): void {
  let h1 = census[LANE1];
  let h2 = census[LANE2];
  let bodies = census[CENSUS_BODIES];
  let words = census[CENSUS_BODY_F64];
  let filters = census[CENSUS_FILTERS];
  for (let eid = from; eid <= to; eid++) {
    const f = flags[eid];
    if ((f & (SPHERE | BOX)) === 0) continue;
    bodies++;
    h1 = mixLane1(h1, eid);
    h2 = mixLane2(h2, h1, eid);
    // The kind: the flags, and Material as bit 8 (the flags byte is full).
    const kind = (f & KIND) | (hasMaterial[eid] << 8);
    h1 = mixLane1(h1, kind);
    h2 = mixLane2(h2, h1, kind);
    const n = bodyWords(f, hasMaterial[eid], bits);
    words += n;
    if (n !== 0 && (f & FILTER) !== 0) filters++;
  }
  census[LANE1] = h1;
  census[LANE2] = h2;
  census[CENSUS_BODIES] = bodies;
  census[CENSUS_BODY_F64] = words;
  census[CENSUS_FILTERS] = filters;
}

