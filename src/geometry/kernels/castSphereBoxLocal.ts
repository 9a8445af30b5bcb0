/**
 * The swept sphere–box core, in the box's local frame (see ./boxFrame.ts for the frame and the
 * scratch K). Internal: not part of the public API.
 */
import { END_CHECK } from './endCheck.js';
import { fillContactLocal, K, K_SLOTS, loadedFinite, withinBoxLocal } from './boxFrame.js';
import { E, E_SLOTS, enterCapsule } from './entryTime.js';

const { E_HALF_LENGTH, E_MOTION, E_RADIUS, E_START, E_TIME } = E_SLOTS;
const { K_CENTER, K_DEPTH, K_HALF, K_MOTION, K_NORMAL, K_OTHER, K_POINT, K_RADIUS, K_TOI } = K_SLOTS;

/**
 * Slab-test scratch, in named slots: S_T0 and S_T1 the ray's parameter interval [t0, t1] inside the
 * slabs clipped so far, S_AXIS the axis whose slab set t0 (−1: none, t0 is the step's start).
 */
const S = new Float64Array(3);
const S_T0 = 0, S_T1 = 1, S_AXIS = 2;

/** Clips [t0, t1] by the slab |c + t·m| <= h + r of one local axis; false when the ray misses it. */
function clipSlab(axis: number): boolean {
  const c = K[K_CENTER + axis];
  const m = K[K_MOTION + axis];
  const e = K[K_HALF + axis] + K[K_RADIUS];
  if (m === 0) return c >= -e && c <= e;
  let ta = (-e - c) / m;
  let tb = (e - c) / m;
  if (ta > tb) {
    const s = ta;
    ta = tb;
    tb = s;
  }
  if (ta > S[S_T0]) {
    S[S_T0] = ta;
    S[S_AXIS] = axis;
  }
  if (tb < S[S_T1]) S[S_T1] = tb;
  return S[S_T0] <= S[S_T1];
}

/**
 * Entry time (to E[E_TIME]) into the capsule around the box edge parallel to `axis` whose other two
 * coordinates are ±h with the signs (sx, sy, sz) of the entry point, for the local ray c + t·m.
 */
function enterEdge(axis: number, sx: number, sy: number, sz: number): void {
  const i = axis === 0 ? 1 : 0;
  const j = axis === 2 ? 1 : 2;
  const si = i === 0 ? sx : sy;
  const sj = j === 1 ? sy : sz;
  E[E_START] = K[K_CENTER + i] - si * K[K_HALF + i];
  E[E_START + 1] = K[K_CENTER + j] - sj * K[K_HALF + j];
  E[E_START + 2] = K[K_CENTER + axis];
  E[E_MOTION] = K[K_MOTION + i];
  E[E_MOTION + 1] = K[K_MOTION + j];
  E[E_MOTION + 2] = K[K_MOTION + axis];
  E[E_RADIUS] = K[K_RADIUS];
  E[E_HALF_LENGTH] = K[K_HALF + axis];
  enterCapsule();
}

/** The entry point c + t·m, t = t0, on the grown box (clamped onto it against rounding) to K_OTHER. */
function entryPoint(): void {
  const t = S[S_T0];
  for (let a = 0; a < 3; a++) {
    const e = K[K_HALF + a] + K[K_RADIUS];
    const p = K[K_CENTER + a] + t * K[K_MOTION + a];
    K[K_OTHER + a] = p < -e ? -e : p > e ? e : p;
  }
}

/** How many local axes the point K_OTHER is outside the box on (bit i set for axis i). */
function outsideBits(): number {
  let bits = 0;
  for (let a = 0; a < 3; a++) {
    const p = K[K_OTHER + a];
    if (p < -K[K_HALF + a] || p > K[K_HALF + a]) bits |= 1 << a;
  }
  return bits;
}

/** A face hit at t: normal = the entered face's outward normal, point = entry point projected onto it. */
function writeFaceHit(axis: number): void {
  const s = K[K_MOTION + axis] < 0 ? 1 : -1;
  for (let a = 0; a < 3; a++) {
    const h = K[K_HALF + a];
    const p = K[K_OTHER + a];
    K[K_NORMAL + a] = a === axis ? s : 0;
    K[K_POINT + a] = a === axis ? s * h : p < -h ? -h : p > h ? h : p;
  }
  K[K_DEPTH] = 0;
}

/**
 * Writes the end-of-step centre c + m to K_OTHER; false as soon as it is farther than r from the box
 * along one axis (then {@link withinBoxLocal} is false there too, with the same rounding), which
 * settles most misses without the full test.
 */
function endPoint(): boolean {
  const r = K[K_RADIUS];
  for (let a = 0; a < 3; a++) {
    const p = K[K_CENTER + a] + K[K_MOTION + a];
    const h = K[K_HALF + a];
    if (p - h > r || -p - h > r) return false;
    K[K_OTHER + a] = p;
  }
  return true;
}

/**
 * Entry time (to E[E_TIME]) through the one face the start is outside of only by rounding (inside the
 * grown box yet not touching): when moving toward that face, the time its gap closes.
 */
function roundingFaceEntry(bits: number): void {
  const axis = bits === 1 ? 0 : bits === 2 ? 1 : bits === 4 ? 2 : -1;
  E[E_TIME] = Infinity;
  if (axis < 0) return;
  const p = K[K_CENTER + axis];
  const m = K[K_MOTION + axis];
  // moving toward that face (signs compared directly: the product p·m can underflow to 0)
  if (!(p < 0 ? m > 0 : p > 0 && m < 0)) return;
  const gap = Math.abs(p) - K[K_HALF + axis] - K[K_RADIUS];
  E[E_TIME] = gap > 0 ? gap / Math.abs(m) : 0;
}

/**
 * The sweep in the box frame (Ericson, Real-Time Collision Detection, 5.5.7, "intersecting moving
 * sphere against AABB"): the sphere's centre as a ray c + t·m, t in [0, 1], against the box grown
 * by r on every side (the Minkowski sum's bounding box). Where the ray enters that grown box decides:
 * on a face region (outside the original box on at most one axis) the entry is the contact; on an
 * edge region the contact is the entry into the capsule of radius r around that edge; on a vertex
 * region it is the earliest entry into the three capsules meeting at the vertex.
 * Touching or overlapping at the start gives toi 0 and the static contact. An entry within rounding
 * of the step's end (toi >= END_CHECK), or none found by the sweep, is decided by the static test at
 * the end pose, so that a sphere touching the box exactly at the end of the step hits (toi 1, the
 * static contact there) whatever the rounding of the entry time. A hit needs every input finite (the
 * end pose c + m is NaN or infinite when the centre or the motion is; withinBoxLocal checks the rest).
 * Reads K_CENTER, K_MOTION, K_HALF and K_RADIUS; writes K_TOI and the local K_NORMAL, K_DEPTH = 0
 * and K_POINT; false on a miss.
 */
export function castSphereBoxLocal(): boolean {
  if (withinBoxLocal(K_CENTER)) {
    fillContactLocal(K_CENTER);
    K[K_TOI] = 0;
    return loadedFinite();
  }
  S[S_T0] = 0;
  S[S_T1] = 1;
  S[S_AXIS] = -1;
  let entered = clipSlab(0) && clipSlab(1) && clipSlab(2);
  let t = S[S_T0];
  let face = false;
  if (entered) {
    const axis = S[S_AXIS] | 0;
    entryPoint();
    const bits = outsideBits();
    face = (bits & (bits - 1)) === 0 && axis >= 0;
    if (face) {
      writeFaceHit(axis);
    } else {
      const sx = K[K_OTHER] < 0 ? -1 : 1;
      const sy = K[K_OTHER + 1] < 0 ? -1 : 1;
      const sz = K[K_OTHER + 2] < 0 ? -1 : 1;
      if (bits === 7) {
        enterEdge(0, sx, sy, sz);
        t = E[E_TIME];
        enterEdge(1, sx, sy, sz);
        if (E[E_TIME] < t) t = E[E_TIME];
        enterEdge(2, sx, sy, sz);
        if (E[E_TIME] < t) t = E[E_TIME];
      } else if (bits === 3 || bits === 5 || bits === 6) {
        enterEdge(bits === 6 ? 0 : bits === 5 ? 1 : 2, sx, sy, sz);
        t = E[E_TIME];
      } else {
        roundingFaceEntry(bits);
        t = E[E_TIME];
      }
      entered = t <= 1;
    }
  }
  if (!entered || t >= END_CHECK) {
    if (!endPoint() || !withinBoxLocal(K_OTHER)) return false;
    if (!entered) {
      // no entry found: touching at the end pose is a hit at toi 1 with the static contact there
      fillContactLocal(K_OTHER);
      K[K_DEPTH] = 0;
      K[K_TOI] = 1;
      return true;
    }
  }
  if (!face) {
    for (let a = 0; a < 3; a++) K[K_OTHER + a] = K[K_CENTER + a] + t * K[K_MOTION + a];
    fillContactLocal(K_OTHER);
  }
  K[K_DEPTH] = 0;
  K[K_TOI] = t;
  return loadedFinite();
}
