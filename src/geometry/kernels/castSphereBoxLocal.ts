/**
 * The swept sphere–box core, in the box's local frame (see ./boxFrame.ts for the frame and the
 * scratch K). Internal: not part of the public API.
 */
import { END_CHECK } from './endCheck.js';
import { CENTER, fillContactLocal, K, MOTION, OTHER, withinBoxLocal } from './boxFrame.js';
import { E, enterCapsule, T } from './entryTime.js';

/** Slab-test scratch: [t0, t1] and, in S[2], the axis that set t0 (−1: none). */
const S = new Float64Array(3);

/** Clips [S[0], S[1]] by the slab |c + t·m| <= h + r of one local axis; false when the ray misses it. */
function clipSlab(axis: number): boolean {
  const c = K[CENTER + axis];
  const m = K[MOTION + axis];
  const e = K[14 + axis] + K[17];
  if (m === 0) return c >= -e && c <= e;
  let ta = (-e - c) / m;
  let tb = (e - c) / m;
  if (ta > tb) {
    const s = ta;
    ta = tb;
    tb = s;
  }
  if (ta > S[0]) {
    S[0] = ta;
    S[2] = axis;
  }
  if (tb < S[1]) S[1] = tb;
  return S[0] <= S[1];
}

/**
 * Entry time (to E[T]) into the capsule around the box edge parallel to `axis` whose other two
 * coordinates are ±h with the signs (sx, sy, sz) of the entry point, for the local ray c + t·m.
 */
function enterEdge(axis: number, sx: number, sy: number, sz: number): void {
  const i = axis === 0 ? 1 : 0;
  const j = axis === 2 ? 1 : 2;
  const si = i === 0 ? sx : sy;
  const sj = j === 1 ? sy : sz;
  E[0] = K[CENTER + i] - si * K[14 + i];
  E[1] = K[CENTER + j] - sj * K[14 + j];
  E[2] = K[CENTER + axis];
  E[3] = K[MOTION + i];
  E[4] = K[MOTION + j];
  E[5] = K[MOTION + axis];
  E[6] = K[17];
  E[7] = K[14 + axis];
  enterCapsule();
}

/** The entry point c + t·m, t = S[0], on the grown box (clamped onto it against rounding) to K[OTHER..]. */
function entryPoint(): void {
  const t = S[0];
  for (let a = 0; a < 3; a++) {
    const e = K[14 + a] + K[17];
    const p = K[CENTER + a] + t * K[MOTION + a];
    K[OTHER + a] = p < -e ? -e : p > e ? e : p;
  }
}

/** How many local axes the point K[OTHER..] is outside the box on (bit i set for axis i). */
function outsideBits(): number {
  let bits = 0;
  for (let a = 0; a < 3; a++) {
    const p = K[OTHER + a];
    if (p < -K[14 + a] || p > K[14 + a]) bits |= 1 << a;
  }
  return bits;
}

/** A face hit at t: normal = the entered face's outward normal, point = entry point projected onto it. */
function writeFaceHit(axis: number): void {
  const s = K[MOTION + axis] < 0 ? 1 : -1;
  for (let a = 0; a < 3; a++) {
    const h = K[14 + a];
    const p = K[OTHER + a];
    K[a] = a === axis ? s : 0;
    K[4 + a] = a === axis ? s * h : p < -h ? -h : p > h ? h : p;
  }
  K[3] = 0;
}

/** Writes the end-of-step centre c + m to K[OTHER..]. */
function endPoint(): void {
  for (let a = 0; a < 3; a++) K[OTHER + a] = K[CENTER + a] + K[MOTION + a];
}

/**
 * Entry time (to E[T]) through the one face the start is outside of only by rounding (inside the
 * grown box yet not touching): when moving toward that face, the time its gap closes.
 */
function roundingFaceEntry(bits: number): void {
  const axis = bits === 1 ? 0 : bits === 2 ? 1 : bits === 4 ? 2 : -1;
  E[T] = Infinity;
  if (axis < 0) return;
  const p = K[CENTER + axis];
  const m = K[MOTION + axis];
  if (!(p * m < 0)) return;
  const gap = Math.abs(p) - K[14 + axis] - K[17];
  E[T] = gap > 0 ? gap / Math.abs(m) : 0;
}

/**
 * The sweep in the box frame (Ericson, Real-Time Collision Detection, 5.5.7, "intersecting moving
 * sphere against AABB"): the sphere's centre as a ray c + t·m, t in [0, 1], against the box grown
 * by r on every side (the Minkowski sum's bounding box). Where the ray enters that grown box decides:
 * on a face region (outside the original box on at most one axis) the entry is the contact; on an
 * edge region the contact is the entry into the capsule of radius r around that edge; on a vertex
 * region it is the earliest entry into the three capsules meeting at the vertex.
 * Reads K[8..17]; writes K[7] = toi and K[0..6] = local normal, depth 0 and point; false on a miss.
 */
export function castSphereBoxLocal(): boolean {
  if (withinBoxLocal(CENTER)) {
    fillContactLocal(CENTER);
    K[7] = 0;
    return true;
  }
  S[0] = 0;
  S[1] = 1;
  S[2] = -1;
  if (!clipSlab(0) || !clipSlab(1) || !clipSlab(2)) return false;
  let t = S[0];
  const axis = S[2] | 0;
  entryPoint();
  const bits = outsideBits();
  const sx = K[OTHER] < 0 ? -1 : 1;
  const sy = K[OTHER + 1] < 0 ? -1 : 1;
  const sz = K[OTHER + 2] < 0 ? -1 : 1;
  if ((bits & (bits - 1)) === 0 && axis >= 0) {
    // Face region: the entry is the contact.
    writeFaceHit(axis);
  } else {
    if (bits === 7) {
      enterEdge(0, sx, sy, sz);
      t = E[T];
      enterEdge(1, sx, sy, sz);
      if (E[T] < t) t = E[T];
      enterEdge(2, sx, sy, sz);
      if (E[T] < t) t = E[T];
    } else if (bits === 3 || bits === 5 || bits === 6) {
      enterEdge(bits === 6 ? 0 : bits === 5 ? 1 : 2, sx, sy, sz);
      t = E[T];
    } else {
      roundingFaceEntry(bits);
      t = E[T];
    }
    if (!(t <= 1)) return false;
  }
  if (t >= END_CHECK) {
    endPoint();
    if (!withinBoxLocal(OTHER)) return false;
  }
  if (!((bits & (bits - 1)) === 0 && axis >= 0)) {
    for (let a = 0; a < 3; a++) K[OTHER + a] = K[CENTER + a] + t * K[MOTION + a];
    fillContactLocal(OTHER);
  }
  K[3] = 0;
  K[7] = t;
  return true;
}
