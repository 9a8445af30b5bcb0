/**
 * The frame of the box–box queries. Internal: not part of the public API.
 *
 * Frame: b's local frame, origin at b's centre, axes along b's edges, so that b is the axis-aligned
 * set |x_j| <= hb_j. a's axes in that frame are the columns A_0, A_1, A_2 of the rotation matrix of
 * the relative rotation conj(qb)·qa (a quaternion product, so two boxes with the same rotation get
 * exactly the identity and exactly parallel edges); a's centre relative to b's is t = Rbᵀ(ca − cb),
 * with Rb the rotation matrix of qb (Gottschalk, Lin and Manocha, "OBBTree", SIGGRAPH 1996, 4;
 * Ericson, Real-Time Collision Detection, 4.4.1: both boxes in one box's frame).
 *
 * No allocation: every number travels through the module-level scratch `X` (named slots), never as an
 * argument or a return value, so that no double is boxed, inlined or not.
 */
import type { BoxShape, Quat, Vec3 } from '../types.js';
import { isAxisAligned } from './boxFrame.js';

/**
 * Scratch of the box–box kernels, in named slots (a vector takes three slots from its slot's index
 * on, a matrix nine, column by column), all in b's frame unless named otherwise:
 * - inputs: X_AXES a's unit axes (axis k at X_AXES + 3k), X_START a's centre relative to b's at the
 *   start, X_END the same at the end of the motion (casts), X_HALF_A and X_HALF_B the half extents;
 *   X_ROT_B b's rotation matrix (world direction of b's axis j at X_ROT_B + 3j), X_QUAT a quaternion
 *   (x, y, z, w) being turned into a matrix;
 * - results: X_CONTACT a's centre at the contact pose, X_NORMAL the unit normal (from b toward a),
 *   X_POINT the contact point (on b's surface), X_DEPTH the depth, X_TOI the time of impact,
 *   X_TOL the tolerance of the contact-point clipping (a length).
 */
export const X = new Float64Array(48);
const X_AXES = 0, X_ROT_B = 9, X_START = 18, X_END = 21, X_HALF_A = 24, X_HALF_B = 27, X_QUAT = 30;
const X_CONTACT = 34, X_NORMAL = 37, X_POINT = 40, X_DEPTH = 43, X_TOI = 44, X_TOL = 45;
/** The named slots of X, for other modules to copy into module-local constants (see `V_SLOTS`). */
export const X_SLOTS = {
  X_AXES, X_ROT_B, X_START, X_END, X_HALF_A, X_HALF_B, X_QUAT, X_CONTACT, X_NORMAL, X_POINT, X_DEPTH, X_TOI, X_TOL,
} as const;

/** Whether b of the loaded query has a rotation (else b's frame is the world frame shifted). */
let bRotated = false;

/** x·0 is 0 for finite x and NaN for NaN and ±Infinity, so the sum is 0 exactly when all are finite. */
function finiteVec(v: Vec3): boolean {
  return v.x * 0 + v.y * 0 + v.z * 0 === 0;
}

function finiteBox(box: BoxShape): boolean {
  const q = box.rotation;
  if (q !== undefined && !(q.x * 0 + q.y * 0 + q.z * 0 + q.w * 0 === 0)) return false;
  return finiteVec(box.center) && finiteVec(box.halfExtents);
}

/** Writes the rotation matrix of the unit quaternion X[X_QUAT..+3] (columns: the rotated axes) to X[o..o+8]. */
function quatMatrix(o: number): void {
  const x = X[X_QUAT], y = X[X_QUAT + 1], z = X[X_QUAT + 2], w = X[X_QUAT + 3];
  X[o] = 1 - 2 * (y * y + z * z);
  X[o + 1] = 2 * (x * y + z * w);
  X[o + 2] = 2 * (x * z - y * w);
  X[o + 3] = 2 * (x * y - z * w);
  X[o + 4] = 1 - 2 * (x * x + z * z);
  X[o + 5] = 2 * (y * z + x * w);
  X[o + 6] = 2 * (x * z + y * w);
  X[o + 7] = 2 * (y * z - x * w);
  X[o + 8] = 1 - 2 * (x * x + y * y);
}

function identity(o: number): void {
  for (let i = 0; i < 9; i++) X[o + i] = i % 4 === 0 ? 1 : 0;
}

/** X[X_QUAT] = conj(qb)·qa (qa's rotation seen from b's frame); either may be the identity. */
function relativeQuat(qa: Quat, qb: Quat | undefined): void {
  if (qb === undefined) {
    X[X_QUAT] = qa.x;
    X[X_QUAT + 1] = qa.y;
    X[X_QUAT + 2] = qa.z;
    X[X_QUAT + 3] = qa.w;
    return;
  }
  const px = -qb.x, py = -qb.y, pz = -qb.z, pw = qb.w;
  X[X_QUAT] = pw * qa.x + qa.w * px + (py * qa.z - pz * qa.y);
  X[X_QUAT + 1] = pw * qa.y + qa.w * py + (pz * qa.x - px * qa.z);
  X[X_QUAT + 2] = pw * qa.z + qa.w * pz + (px * qa.y - py * qa.x);
  X[X_QUAT + 3] = pw * qa.w - (px * qa.x + py * qa.y + pz * qa.z);
}

/** X[o..o+2] = Rbᵀ X[o..o+2] (a world vector into b's frame), when b is rotated. */
function toFrameB(o: number): void {
  if (!bRotated) return;
  const x = X[o], y = X[o + 1], z = X[o + 2];
  for (let j = 0; j < 3; j++) {
    const c = X_ROT_B + 3 * j;
    X[o + j] = X[c] * x + X[c + 1] * y + X[c + 2] * z;
  }
}

/** X[o..o+2] = Rb X[o..o+2] (a vector of b's frame into the world), when b is rotated. */
function toWorld(o: number): void {
  if (!bRotated) return;
  const x = X[o], y = X[o + 1], z = X[o + 2];
  const r = X_ROT_B;
  X[o] = X[r] * x + X[r + 3] * y + X[r + 6] * z;
  X[o + 1] = X[r + 1] * x + X[r + 4] * y + X[r + 7] * z;
  X[o + 2] = X[r + 2] * x + X[r + 5] * y + X[r + 8] * z;
}

/**
 * Loads a box–box query into X: a's axes (X_AXES), a's centre relative to b's at the start (X_START)
 * and, with a motion, at the end: (ca + motion) − cb (X_END), computed as a static query of a moved
 * by the motion would compute its start, so that the two agree to the last bit; the half extents.
 * Returns false, loading nothing useful, when any input is NaN or infinite.
 */
export function loadBoxBox(a: BoxShape, b: BoxShape, motion: Vec3 | undefined): boolean {
  if (!finiteBox(a) || !finiteBox(b) || (motion !== undefined && !finiteVec(motion))) return false;
  const qa = a.rotation, qb = b.rotation;
  bRotated = !isAxisAligned(qb);
  if (bRotated) {
    X[X_QUAT] = (qb as Quat).x;
    X[X_QUAT + 1] = (qb as Quat).y;
    X[X_QUAT + 2] = (qb as Quat).z;
    X[X_QUAT + 3] = (qb as Quat).w;
    quatMatrix(X_ROT_B);
  }
  if (!isAxisAligned(qa)) {
    relativeQuat(qa as Quat, bRotated ? qb : undefined);
    quatMatrix(X_AXES);
  } else if (bRotated) {
    // a axis-aligned: its axes in b's frame are the rows of Rb, i.e. the matrix of conj(qb).
    X[X_QUAT] = -X[X_QUAT];
    X[X_QUAT + 1] = -X[X_QUAT + 1];
    X[X_QUAT + 2] = -X[X_QUAT + 2];
    quatMatrix(X_AXES);
  } else identity(X_AXES);
  const ca = a.center, cb = b.center;
  X[X_START] = ca.x - cb.x;
  X[X_START + 1] = ca.y - cb.y;
  X[X_START + 2] = ca.z - cb.z;
  toFrameB(X_START);
  if (motion !== undefined) {
    X[X_END] = ca.x + motion.x - cb.x;
    X[X_END + 1] = ca.y + motion.y - cb.y;
    X[X_END + 2] = ca.z + motion.z - cb.z;
    toFrameB(X_END);
  }
  const ha = a.halfExtents, hb = b.halfExtents;
  X[X_HALF_A] = ha.x;
  X[X_HALF_A + 1] = ha.y;
  X[X_HALF_A + 2] = ha.z;
  X[X_HALF_B] = hb.x;
  X[X_HALF_B + 1] = hb.y;
  X[X_HALF_B + 2] = hb.z;
  return true;
}

/** v = X[o..o+2]. */
function store(v: Vec3, o: number): void {
  v.x = X[o];
  v.y = X[o + 1];
  v.z = X[o + 2];
}

/**
 * Writes X_NORMAL and X_POINT (b's frame) as world vectors to `out.normal` and `out.point`, reading
 * b's centre before writing anything (`out` may share objects with the inputs).
 */
export function writeBoxBoxWorld(b: BoxShape, out: { normal: Vec3; point: Vec3 }): void {
  toWorld(X_NORMAL);
  toWorld(X_POINT);
  X[X_POINT] += b.center.x;
  X[X_POINT + 1] += b.center.y;
  X[X_POINT + 2] += b.center.z;
  store(out.normal, X_NORMAL);
  store(out.point, X_POINT);
}
