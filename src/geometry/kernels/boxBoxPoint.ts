/**
 * The contact point of two boxes on the chosen axis, in b's frame (see ./boxBoxFrame.ts for the frame
 * and the scratch X, ./boxBoxSat.ts for the axis). Internal: not part of the public API.
 *
 * The point always lies on b's surface:
 * - face axis (a face normal of b or of a; the "reference" face is that box's face toward the other
 *   box): the "incident" face of the other box is its face most opposed to the reference face. The
 *   incident face is clipped to the reference face's side planes and to the reference face's plane
 *   (keeping what is not above it, within the clipping tolerance), and the point is the mean of the
 *   clipped polygon's vertices, moved onto b's surface: onto the reference face when it is b's (along
 *   the normal), else it already lies on b's incident face. This is the reference-face clipping of
 *   Box2D and ODE (Ericson, Real-Time Collision Detection, 8.3; Catto, "Contact Manifolds", GDC 2007),
 *   reduced to one point. When that polygon is empty (only in deep overlaps, or when touching within
 *   rounding), the other faces of the incident box that face the reference face are tried in turn,
 *   then the incident box's vertex deepest along the normal is used (for a, projected and clamped
 *   onto b's reference face).
 * - edge axis (e_j × A_k): the point of b's edge along e_j closest to a's edge along A_k, the two edges
 *   being the boxes' supporting edges along the normal (Ericson 5.1.9, closest points of two segments).
 * When the boxes touch (depth 0, every cast hit) the point is a point where they touch.
 */
import { X, X_SLOTS } from './boxBoxFrame.js';
import { SEL, SEL_SLOTS } from './boxBoxSat.js';

const { X_AXES, X_CONTACT, X_HALF_A, X_HALF_B, X_NORMAL, X_POINT, X_TOL } = X_SLOTS;
const { SEL_AXIS, SEL_SIGN } = SEL_SLOTS;

/**
 * Contact-point scratch, in named slots: C_HALF the reference box's half extents, C_LIMIT the limit of
 * the plane being clipped against, C_SUM the sum of the clipped polygon's vertices, C_ALONG the
 * components A_k·normal of a's axes along the normal (b's are the normal's own components); C_FACE,
 * C_FACE_U and C_FACE_V a face's centre and half edge vectors; C_EDGE the segment parameters u (on
 * b's edge) and v (on a's edge), C_EDGE_MID the midpoint of a's edge.
 */
const C = new Float64Array(24);
const C_HALF = 0, C_LIMIT = 3, C_SUM = 4, C_ALONG = 7, C_FACE = 10, C_FACE_U = 13, C_FACE_V = 16, C_EDGE = 19, C_EDGE_MID = 21;
/** Polygons being clipped: up to 16 vertices (x, y, z) each, in the reference box's frame. */
const POLY = new Float64Array(48);
const POLY_OUT = new Float64Array(48);
/**
 * The reference face of the clipping, in named slots: R_AXIS the reference box's axis normal to it,
 * R_SIGN its side (the face is x[R_AXIS] = R_SIGN·h[R_AXIS]; the incident box lies toward −R_SIGN);
 * R_FACE the axis of the incident face that was clipped.
 */
const R = new Int32Array(3);
const R_AXIS = 0, R_SIGN = 1, R_FACE = 2;

/**
 * Clips the polygon of `n` vertices in `src` to R_SIGN' · x[c] <= C_LIMIT (sigma = ±1), into `dst`;
 * returns the vertex count. Vertices on the plane are kept once; a crossing vertex gets x[c] exactly
 * on the plane (Sutherland–Hodgman).
 */
function clipPlane(src: Float64Array, dst: Float64Array, n: number, c: number, sigma: number): number {
  const limit = C[C_LIMIT];
  let m = 0;
  for (let i = 0; i < n; i++) {
    const p = 3 * i;
    const q = i + 1 === n ? 0 : p + 3;
    const dp = sigma * src[p + c] - limit;
    const dq = sigma * src[q + c] - limit;
    if (dp <= 0) {
      dst[3 * m] = src[p];
      dst[3 * m + 1] = src[p + 1];
      dst[3 * m + 2] = src[p + 2];
      m++;
    }
    if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
      const u = dp / (dp - dq);
      for (let e = 0; e < 3; e++) dst[3 * m + e] = src[p + e] + u * (src[q + e] - src[p + e]);
      dst[3 * m + c] = sigma * limit;
      m++;
    }
  }
  return m;
}

/**
 * Clips the quadrilateral in POLY to the reference face's four side planes (|x[m]| <= h[m]) and to
 * its plane (R_SIGN·x[R_AXIS] <= h[R_AXIS] + X_TOL), adds its vertices to C_SUM; returns their count.
 */
function clipIncident(): number {
  const axis = R[R_AXIS];
  let n = 4;
  let src = POLY;
  let dst = POLY_OUT;
  for (let side = 0; side < 5 && n > 0; side++) {
    const c = side < 4 ? (axis + 1 + (side >> 1)) % 3 : axis;
    const sigma = side < 4 ? (side & 1 ? -1 : 1) : R[R_SIGN];
    C[C_LIMIT] = side < 4 ? C[C_HALF + c] : C[C_HALF + c] + X[X_TOL];
    n = clipPlane(src, dst, n, c, sigma);
    const t = src;
    src = dst;
    dst = t;
  }
  for (let i = 0; i < n; i++) {
    for (let e = 0; e < 3; e++) C[C_SUM + e] += src[3 * i + e];
  }
  return n;
}

/** POLY = the quadrilateral c ± u ± v (in order around it) from C_FACE, C_FACE_U and C_FACE_V. */
function faceFromScratch(): void {
  for (let e = 0; e < 3; e++) {
    const c = C[C_FACE + e], u = C[C_FACE_U + e], v = C[C_FACE_V + e];
    POLY[e] = c + u + v;
    POLY[3 + e] = c - u + v;
    POLY[6 + e] = c - u - v;
    POLY[9 + e] = c + u - v;
  }
}

/** POLY = the face of a with outward normal sigma·A_k, in b's frame. */
function faceOfA(k: number, sigma: number): void {
  const m = (k + 1) % 3, l = (k + 2) % 3;
  const ok = X_AXES + 3 * k, om = X_AXES + 3 * m, ol = X_AXES + 3 * l;
  const hk = sigma * X[X_HALF_A + k], hm = X[X_HALF_A + m], hl = X[X_HALF_A + l];
  for (let e = 0; e < 3; e++) {
    C[C_FACE + e] = X[X_CONTACT + e] + hk * X[ok + e];
    C[C_FACE_U + e] = hm * X[om + e];
    C[C_FACE_V + e] = hl * X[ol + e];
  }
  faceFromScratch();
}

/** POLY = the face of b with outward normal sigma·e_i, in a's frame (y_q = A_q·(x − a's centre)). */
function faceOfB(i: number, sigma: number): void {
  const m = (i + 1) % 3, l = (i + 2) % 3;
  const hm = X[X_HALF_B + m], hl = X[X_HALF_B + l];
  for (let q = 0; q < 3; q++) {
    const o = X_AXES + 3 * q;
    C[C_FACE + q] = (sigma * X[X_HALF_B + i] - X[X_CONTACT + i]) * X[o + i]
      - X[X_CONTACT + m] * X[o + m] - X[X_CONTACT + l] * X[o + l];
    C[C_FACE_U + q] = hm * X[o + m];
    C[C_FACE_V + q] = hl * X[o + l];
  }
  faceFromScratch();
}

/** Clamps X_POINT onto b's face x[i] = sigma·hb_i. */
function ontoFaceOfB(i: number, sigma: number): void {
  for (let e = 0; e < 3; e++) {
    const h = X[X_HALF_B + e];
    const p = X[X_POINT + e];
    X[X_POINT + e] = e === i ? sigma * h : p < -h ? -h : p > h ? h : p;
  }
}

/** C_ALONG = the components of a's axes along the normal. */
function alongNormal(): void {
  for (let k = 0; k < 3; k++) {
    const o = X_AXES + 3 * k;
    C[C_ALONG + k] = X[o] * X[X_NORMAL] + X[o + 1] * X[X_NORMAL + 1] + X[o + 2] * X[X_NORMAL + 2];
  }
}

/** −1 when axis k of a points along the normal, else +1: the side of a's faces facing −normal. */
function againstA(k: number): number {
  return C[C_ALONG + k] > 0 ? -1 : 1;
}

/** +1 when axis i of b points along the normal (or across it), else −1: the side of b facing +normal. */
function alongB(i: number): number {
  return X[X_NORMAL + i] < 0 ? -1 : 1;
}

/**
 * Index (0 … 2) of the axis of a (`ofB` false) or of b whose component along the normal is the
 * largest in magnitude (the first of equals), other than `skip` and `skip2` (−1: none) and other than
 * the zero ones; −1 when none is left.
 */
function steepest(ofB: boolean, skip: number, skip2: number): number {
  let best = -1;
  let size = 0;
  for (let k = 0; k < 3; k++) {
    if (k === skip || k === skip2) continue;
    const c = Math.abs(ofB ? X[X_NORMAL + k] : C[C_ALONG + k]);
    if (c > size) {
      size = c;
      best = k;
    }
  }
  return best;
}

/**
 * Clips the incident box's faces toward the reference face (R and C_HALF set): b's faces (`ofB`) or
 * a's, the steepest along the normal first, until one leaves a non-empty polygon. Its vertex sum is
 * in C_SUM and the face's axis in R_FACE; returns the vertex count (0: every face clipped away).
 */
function clipIncidentFaces(ofB: boolean): number {
  C[C_SUM] = C[C_SUM + 1] = C[C_SUM + 2] = 0;
  let first = -1;
  let second = -1;
  for (let attempt = 0; attempt < 3; attempt++) {
    const face = steepest(ofB, first, second);
    if (face < 0) return 0;
    if (attempt === 0) first = face;
    else second = face;
    if (ofB) faceOfB(face, alongB(face));
    else faceOfA(face, againstA(face));
    const n = clipIncident();
    if (n > 0) {
      R[R_FACE] = face;
      return n;
    }
  }
  return 0;
}

/** The reference face is b's face along the normal (axis j, side s): clip a's faces facing it. */
function pointOnFaceOfB(j: number, s: number): void {
  R[R_AXIS] = j;
  R[R_SIGN] = s;
  for (let e = 0; e < 3; e++) C[C_HALF + e] = X[X_HALF_B + e];
  const n = clipIncidentFaces(false);
  if (n > 0) {
    for (let e = 0; e < 3; e++) X[X_POINT + e] = C[C_SUM + e] / n;
  } else {
    // a's vertex deepest along −normal.
    for (let e = 0; e < 3; e++) X[X_POINT + e] = X[X_CONTACT + e];
    for (let k = 0; k < 3; k++) {
      const sigma = againstA(k) * X[X_HALF_A + k];
      for (let e = 0; e < 3; e++) X[X_POINT + e] += sigma * X[X_AXES + 3 * k + e];
    }
  }
  ontoFaceOfB(j, s);
}

/** The reference face is a's face toward b (axis k of a, the normal's side s): clip b's faces, in a's frame. */
function pointOnFaceOfA(k: number, s: number): void {
  R[R_AXIS] = k;
  R[R_SIGN] = -s;
  for (let e = 0; e < 3; e++) C[C_HALF + e] = X[X_HALF_A + e];
  const n = clipIncidentFaces(true);
  if (n === 0) {
    // b's vertex deepest along +normal (a vertex of b: on its surface).
    for (let e = 0; e < 3; e++) X[X_POINT + e] = alongB(e) * X[X_HALF_B + e];
    return;
  }
  // Back from a's frame: x = a's centre + Σ y_q A_q, then onto b's incident face.
  for (let e = 0; e < 3; e++) X[X_POINT + e] = X[X_CONTACT + e];
  for (let q = 0; q < 3; q++) {
    const y = C[C_SUM + q] / n;
    for (let e = 0; e < 3; e++) X[X_POINT + e] += y * X[X_AXES + 3 * q + e];
  }
  const face = R[R_FACE];
  ontoFaceOfB(face, alongB(face));
}

/**
 * Edge pair e_j × A_k: b's edge along e_j with the other coordinates ±hb on the normal's side, a's
 * edge along A_k through a's centre moved by ∓ha_m A_m against the normal; the point of b's edge
 * closest to a's edge. The edges are not parallel (|L| > 0).
 */
function pointOnEdges(j: number, k: number): void {
  // Midpoint q0 of a's edge, in b's frame.
  for (let e = 0; e < 3; e++) C[C_EDGE_MID + e] = X[X_CONTACT + e];
  for (let m = 0; m < 3; m++) {
    if (m === k) continue;
    const sigma = againstA(m) * X[X_HALF_A + m];
    for (let e = 0; e < 3; e++) C[C_EDGE_MID + e] += sigma * X[X_AXES + 3 * m + e];
  }
  // b's edge midpoint p0: coordinate j is 0, the others ±hb.
  const o = X_AXES + 3 * k;
  let f = 0; // A_k · (p0 − q0)
  let cj = 0; // e_j · (p0 − q0)
  let denom = 0; // |e_j × A_k|², the sum of A_k's other two components squared (no cancellation)
  for (let e = 0; e < 3; e++) {
    const p = e === j ? 0 : alongB(e) * X[X_HALF_B + e];
    const r = p - C[C_EDGE_MID + e];
    f += X[o + e] * r;
    if (e === j) cj = r;
    else denom += X[o + e] * X[o + e];
    X[X_POINT + e] = p;
  }
  const b = X[o + j]; // e_j · A_k
  const ee = X[o] * X[o] + X[o + 1] * X[o + 1] + X[o + 2] * X[o + 2];
  const hb = X[X_HALF_B + j], ha = X[X_HALF_A + k];
  // Minimise |p0 + u e_j − q0 − v A_k|² over |u| <= hb, |v| <= ha.
  let u = denom > 0 ? (b * f - cj * ee) / denom : 0;
  u = u < -hb ? -hb : u > hb ? hb : u;
  let v = (b * u + f) / ee;
  if (v < -ha || v > ha) {
    v = v < -ha ? -ha : ha;
    u = v * b - cj;
    u = u < -hb ? -hb : u > hb ? hb : u;
  }
  C[C_EDGE] = u;
  C[C_EDGE + 1] = v;
  X[X_POINT + j] = u;
}

/**
 * Writes X_POINT (b's frame, on b's surface) for the axis and sign in SEL, the normal in X_NORMAL, a's
 * centre at the contact pose in X_CONTACT and the clipping tolerance in X_TOL.
 */
export function contactPoint(): void {
  const i = SEL[SEL_AXIS];
  const s = SEL[SEL_SIGN];
  alongNormal();
  if (i < 3) pointOnFaceOfB(i, s);
  else if (i < 6) pointOnFaceOfA(i - 3, s);
  else pointOnEdges(((i - 6) / 3) | 0, (i - 6) % 3);
}
