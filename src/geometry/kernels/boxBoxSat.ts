/**
 * The separating axis test of two oriented boxes, static and swept, in b's frame (see
 * ./boxBoxFrame.ts for the frame and the scratch X). Internal: not part of the public API.
 *
 * The 15 axes (Gottschalk, Lin and Manocha, "OBBTree", SIGGRAPH 1996; Ericson, Real-Time Collision
 * Detection, 4.4.1), numbered i = 0 … 14: b's face normals e_j (i = j), a's face normals A_k
 * (i = 3 + k), and the edge directions' cross products L = e_j × A_k (i = 6 + 3j + k). On an axis L
 * the boxes project to intervals of radii rA = Σ ha_m |A_m·L| and rB = Σ hb_j |e_j·L| around the
 * projections of their centres, d = t·L apart; they are disjoint on L iff |d| > rA + rB, and the solids
 * (closed) are disjoint iff some axis has disjoint projections.
 *
 * Parallel edges: every axis is used as the vector L actually computed, and both radii and d are
 * direct dot products with that same L (not the usual identities such as A_m·(e_j × A_k) = ±A_n[j],
 * whose rounding is independent of L's). So each test is a true statement about the two boxes along
 * the direction L/|L|, with rounding errors of a few ulps of |L|·(|t| + Σh) — relative to |L|, however
 * small L is. A near-zero cross product (edges parallel up to rounding) is then a valid, if arbitrary,
 * direction and cannot report a separation of overlapping boxes beyond rounding; an exactly zero one
 * (exactly parallel edges, e.g. two boxes with the same rotation; or |L|² underflowing to 0, taken as
 * L = 0) gives 0 > 0, never a separation, and is not needed: the faces of the Minkowski difference
 * a − b have the normals e_j, A_k and e_j × A_k for non-parallel e_j, A_k only. Flat boxes (zero
 * half extents: rectangles, segments, points) are limits of boxes whose Minkowski difference has a
 * subset of those face normals, so the same 15 axes decide them exactly; the per-axis formulas have
 * no division and hold for zero extents.
 *
 * Swept (Ericson 5.5.8, "intersecting moving AABBs", on the 15 axes of two oriented boxes): a moves by
 * a translation, so on each axis d(s) = d0 + s·(d1 − d0) is linear in the fraction s of the motion
 * and the axis overlaps on one closed interval of s (empty, all of [0, 1], or bounded by the roots of
 * |d(s)| = r). The boxes touch at s iff every axis overlaps at s, so the first contact is the latest
 * entry over the axes, if it is not after the earliest exit. d1 is the projection of the end pose
 * computed as the static test computes a start, so an overlap of the static test at the end pose
 * always gives a hit (every axis then overlaps at s = 1).
 */
import { X, X_SLOTS } from './boxBoxFrame.js';

const { X_AXES, X_CONTACT, X_DEPTH, X_END, X_HALF_A, X_HALF_B, X_NORMAL, X_START, X_TOI, X_TOL } = X_SLOTS;

/**
 * Per-axis scratch, indexed by the axis number i (0 … 14): AXIS_START the projection d0 of a's
 * centre offset at the start, AXIS_END the same at the end (casts), AXIS_RADIUS the sum r = rA + rB
 * of the projected radii, AXIS_LENGTH2 = |L|² (1 for face normals, 0 for an edge pair exactly
 * parallel), all in units of |L| (the axes are not normalised).
 */
const AXIS_START = new Float64Array(15);
const AXIS_END = new Float64Array(15);
const AXIS_RADIUS = new Float64Array(15);
const AXIS_LENGTH2 = new Float64Array(15);

/**
 * The chosen contact axis, in named slots: SEL_AXIS its number (0 … 14), SEL_SIGN ±1 (the normal is
 * SEL_SIGN·L/|L|, from b toward a), SEL_START_SEPARATED 1 when an axis separates the start pose.
 */
export const SEL = new Int32Array(3);
const SEL_AXIS = 0, SEL_SIGN = 1, SEL_START_SEPARATED = 2;
/** The named slots of SEL, for other modules to copy into module-local constants. */
export const SEL_SLOTS = { SEL_AXIS, SEL_SIGN, SEL_START_SEPARATED } as const;

/**
 * Relative tolerance of the axis choice: an axis is taken over an earlier one in the order only when
 * its overlap is smaller by more than REL times the magnitudes it is computed from (rounding is
 * ~1e-15 of them), so that axes equal up to rounding resolve to the earlier one: b's faces, then a's
 * faces, then edge pairs (a face contact rather than the edge pair of that face's edges).
 */
const REL = 2 ** -40;

/** d0 (and d1) and r of b's face normal e_j. */
function faceB(j: number, swept: boolean): void {
  const r = X[X_HALF_B + j]
    + X[X_HALF_A] * Math.abs(X[X_AXES + j])
    + X[X_HALF_A + 1] * Math.abs(X[X_AXES + 3 + j])
    + X[X_HALF_A + 2] * Math.abs(X[X_AXES + 6 + j]);
  AXIS_RADIUS[j] = r;
  AXIS_START[j] = X[X_START + j];
  if (swept) AXIS_END[j] = X[X_END + j];
  AXIS_LENGTH2[j] = 1;
}

/** d0 (and d1) and r of a's face normal A_k. */
function faceA(k: number, swept: boolean): void {
  const o = X_AXES + 3 * k;
  const ax = X[o], ay = X[o + 1], az = X[o + 2];
  const i = 3 + k;
  AXIS_RADIUS[i] = X[X_HALF_A + k] + X[X_HALF_B] * Math.abs(ax) + X[X_HALF_B + 1] * Math.abs(ay) + X[X_HALF_B + 2] * Math.abs(az);
  AXIS_START[i] = X[X_START] * ax + X[X_START + 1] * ay + X[X_START + 2] * az;
  if (swept) AXIS_END[i] = X[X_END] * ax + X[X_END + 1] * ay + X[X_END + 2] * az;
  AXIS_LENGTH2[i] = 1;
}

/** d0 (and d1), r and |L|² of L = e_j × A_k, all as direct dot products with the computed L. */
function edge(j: number, k: number, swept: boolean): void {
  const o = X_AXES + 3 * k;
  const ax = X[o], ay = X[o + 1], az = X[o + 2];
  let lx = j === 0 ? 0 : j === 1 ? az : -ay;
  let ly = j === 0 ? -az : j === 1 ? 0 : ax;
  let lz = j === 0 ? ay : j === 1 ? -ax : 0;
  if (lx * lx + ly * ly + lz * lz === 0) {
    // |L|² underflows to 0 though L need not be 0 (components below 1e-162: edges parallel within
    // rounding): the axis as an exactly parallel pair, never separating, never chosen (its normal,
    // L / |L|, was NaN: a swept contact with a box rotated by a quaternion with a 5e-324 component).
    lx = 0;
    ly = 0;
    lz = 0;
  }
  let r = X[X_HALF_B] * Math.abs(lx) + X[X_HALF_B + 1] * Math.abs(ly) + X[X_HALF_B + 2] * Math.abs(lz);
  for (let m = 0; m < 3; m++) {
    if (m === k) continue; // A_k·L is exactly 0 as computed
    const p = X_AXES + 3 * m;
    r += X[X_HALF_A + m] * Math.abs(X[p] * lx + X[p + 1] * ly + X[p + 2] * lz);
  }
  const i = 6 + 3 * j + k;
  AXIS_RADIUS[i] = r;
  AXIS_START[i] = X[X_START] * lx + X[X_START + 1] * ly + X[X_START + 2] * lz;
  if (swept) AXIS_END[i] = X[X_END] * lx + X[X_END + 1] * ly + X[X_END + 2] * lz;
  AXIS_LENGTH2[i] = lx * lx + ly * ly + lz * lz;
}

/**
 * Whether axis i rules the query out: static, it separates the start pose; swept, it separates the
 * start and the end pose on the same side (then it separates every pose between). Records in
 * SEL_START_SEPARATED whether it separates the start.
 */
function rulesOut(i: number, swept: boolean): boolean {
  const r = AXIS_RADIUS[i], d0 = AXIS_START[i];
  const above = d0 > r, below = d0 < -r;
  if (above || below) SEL[SEL_START_SEPARATED] = 1;
  if (!swept) return above || below;
  const d1 = AXIS_END[i];
  return (above && d1 > r) || (below && d1 < -r);
}

/**
 * Projects both boxes on the 15 axes in order (b's faces, a's faces, edge pairs), stopping at the first
 * axis that rules the query out (see rulesOut); false then. `swept` also projects the end pose.
 */
export function projectAxes(swept: boolean): boolean {
  SEL[SEL_START_SEPARATED] = 0;
  for (let j = 0; j < 3; j++) {
    faceB(j, swept);
    if (rulesOut(j, swept)) return false;
  }
  for (let k = 0; k < 3; k++) {
    faceA(k, swept);
    if (rulesOut(3 + k, swept)) return false;
  }
  for (let j = 0; j < 3; j++) {
    for (let k = 0; k < 3; k++) {
      edge(j, k, swept);
      if (rulesOut(6 + 3 * j + k, swept)) return false;
    }
  }
  return true;
}

/** Whether the start pose overlaps (after projectAxes returned true). */
export function startOverlaps(): boolean {
  return SEL[SEL_START_SEPARATED] === 0;
}

/**
 * Per-axis values at the pose X_TOI (a fraction of the motion; 0 = the start), in units of length:
 * AXIS_OVERLAP the overlap (r − |d|)/|L| (Infinity for an exactly parallel edge pair), AXIS_ALLOWANCE
 * its rounding allowance REL·(r + |d0| + |d − d0|)/|L|; and, for the swept test, AXIS_ENTRY and AXIS_EXIT the
 * fractions of the motion at which the axis starts and stops overlapping (−Infinity: overlapping at
 * the start; Infinity: overlapping at the end).
 */
const AXIS_OVERLAP = new Float64Array(15);
const AXIS_ALLOWANCE = new Float64Array(15);
const AXIS_ENTRY = new Float64Array(15);
const AXIS_EXIT = new Float64Array(15);

/** Fills AXIS_OVERLAP and AXIS_ALLOWANCE at the pose X_TOI. */
function overlapsAtPose(): void {
  const s = X[X_TOI];
  for (let i = 0; i < 15; i++) {
    const l2 = AXIS_LENGTH2[i];
    if (l2 === 0) {
      AXIS_OVERLAP[i] = Infinity;
      AXIS_ALLOWANCE[i] = 0;
      continue;
    }
    const d0 = AXIS_START[i];
    const step = s === 0 ? 0 : s * (AXIS_END[i] - d0);
    const r = AXIS_RADIUS[i];
    const len = i < 6 ? 1 : Math.sqrt(l2);
    AXIS_OVERLAP[i] = (r - Math.abs(d0 + step)) / len;
    AXIS_ALLOWANCE[i] = (REL * (r + Math.abs(d0) + Math.abs(step))) / len;
  }
}

/**
 * The side (±1) of b that a's centre projects to on axis i at the pose X_TOI; where that projection is
 * b's centre's within rounding (REL of the magnitudes it comes from: two flat boxes meeting in one
 * plane), the side at the start, a's side when it came; + where that too is b's centre.
 */
function sideOf(i: number): number {
  const d0 = AXIS_START[i];
  const s = X[X_TOI];
  const step = s === 0 ? 0 : s * (AXIS_END[i] - d0);
  const d = d0 + step;
  const near = REL * (AXIS_RADIUS[i] + Math.abs(d0) + Math.abs(step));
  return d > near ? 1 : d < -near ? -1 : d0 < 0 ? -1 : 1;
}

/**
 * Writes the contact of axis i at the pose X_TOI: SEL_AXIS and SEL_SIGN (sideOf), X_NORMAL the unit
 * normal in b's frame, X_CONTACT a's centre at that pose and X_TOL the clipping tolerance of the
 * contact point (the axis's allowance).
 */
function writeAxis(i: number): void {
  const s = X[X_TOI];
  const sign = sideOf(i);
  SEL[SEL_AXIS] = i;
  SEL[SEL_SIGN] = sign;
  X[X_TOL] = AXIS_ALLOWANCE[i];
  for (let c = 0; c < 3; c++) X[X_NORMAL + c] = 0;
  if (i < 3) X[X_NORMAL + i] = sign;
  else if (i < 6) {
    const o = X_AXES + 3 * (i - 3);
    for (let c = 0; c < 3; c++) X[X_NORMAL + c] = sign * X[o + c];
  } else {
    const j = ((i - 6) / 3) | 0;
    const o = X_AXES + 3 * ((i - 6) % 3);
    const ax = X[o], ay = X[o + 1], az = X[o + 2];
    const f = sign / Math.sqrt(AXIS_LENGTH2[i]);
    X[X_NORMAL] = f * (j === 0 ? 0 : j === 1 ? az : -ay);
    X[X_NORMAL + 1] = f * (j === 0 ? -az : j === 1 ? 0 : ax);
    X[X_NORMAL + 2] = f * (j === 0 ? ay : j === 1 ? -ax : 0);
  }
  for (let c = 0; c < 3; c++) {
    const t0 = X[X_START + c];
    X[X_CONTACT + c] = s === 0 ? t0 : t0 + s * (X[X_END + c] - t0);
  }
}

/**
 * The static contact of an overlapping start pose (after projectAxes returned true): the axis of
 * least overlap (r − |d|)/|L| gives the minimum translation distance, since the minimum over all
 * directions is reached on a face normal of the Minkowski difference; among the axes whose overlap is
 * within their REL allowance of the least, the first in the order. Writes X_TOI = 0, X_DEPTH (that
 * axis's overlap, >= 0) and, through writeAxis, the axis, its sign, the normal, the pose and the
 * tolerance.
 */
export function selectStaticAxis(): void {
  X[X_TOI] = 0;
  overlapsAtPose();
  let least = Infinity;
  for (let i = 0; i < 15; i++) if (AXIS_OVERLAP[i] < least) least = AXIS_OVERLAP[i];
  let chosen = 0;
  while (chosen < 14 && !(AXIS_OVERLAP[chosen] <= least + AXIS_ALLOWANCE[chosen])) chosen++;
  X[X_DEPTH] = Math.max(0, AXIS_OVERLAP[chosen]);
  writeAxis(chosen);
}

/** Fills AXIS_ENTRY and AXIS_EXIT (after projectAxes(true) returned true). */
function entriesAndExits(): void {
  for (let i = 0; i < 15; i++) {
    const r = AXIS_RADIUS[i], d0 = AXIS_START[i], d1 = AXIS_END[i];
    if (d0 <= r && d0 >= -r) AXIS_ENTRY[i] = -Infinity;
    else {
      // Separated at the start on `side`; not at the end on that side (else ruled out): g1 <= 0 < g0.
      const side = d0 > 0 ? 1 : -1;
      const g0 = side * d0 - r;
      const g1 = side * d1 - r;
      AXIS_ENTRY[i] = g0 / (g0 - g1);
    }
    if (d1 <= r && d1 >= -r) AXIS_EXIT[i] = Infinity;
    else {
      // Beyond r on `side` at the end: a leaves the overlap through that side.
      const side = d1 > 0 ? 1 : -1;
      AXIS_EXIT[i] = (r - side * d0) / (side * d1 - side * d0);
    }
  }
}

/**
 * The swept test from a separated start (after projectAxes(true) returned true and the start pose does
 * not overlap): the first contact is the latest entry over the axes, a hit if it is not after the
 * earliest exit; it lies in (0, 1], as every entry is <= 1 (no axis separates both ends on one side).
 * The normal is that of the first axis in the order along which a approaches b and which touches at
 * the first contact (its overlap within its REL allowance of 0): the axis that enters last qualifies,
 * and so does a face already touching at the start that a moves into, which takes precedence over
 * an edge pair with the same direction up to rounding (exactly what equal axes must resolve to). Writes X_TOI, X_DEPTH = 0 and, through writeAxis, the axis, the
 * normal and the pose. False on a miss.
 */
export function sweepAxes(): boolean {
  entriesAndExits();
  let enter = -Infinity;
  let exit = Infinity;
  let last = 0;
  for (let i = 0; i < 15; i++) {
    if (AXIS_ENTRY[i] > enter) {
      enter = AXIS_ENTRY[i];
      last = i;
    }
    if (AXIS_EXIT[i] < exit) exit = AXIS_EXIT[i];
  }
  if (!(enter <= exit)) return false;
  X[X_TOI] = enter;
  X[X_DEPTH] = 0;
  overlapsAtPose();
  let chosen = 0;
  while (chosen < last && !(AXIS_OVERLAP[chosen] <= AXIS_ALLOWANCE[chosen] && approaching(chosen))) chosen++;
  writeAxis(chosen);
  return true;
}

/**
 * Whether a moves toward b along axis i over the step: the projection d moves toward b's centre from
 * a's side (sideOf). Not so for an axis along which the boxes only slide, e.g. the common normal of
 * two coplanar rectangles.
 */
function approaching(i: number): boolean {
  return sideOf(i) * (AXIS_END[i] - AXIS_START[i]) < 0;
}
