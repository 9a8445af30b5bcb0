/**
 * Independent reference ("oracle") for the box–box geometry. Deliberately NOT the implementation's
 * approach (a separating axis test with projected radii in one box's frame):
 *  - boxes are their 8 world vertices and 12 edges (from the rotation matrix of test/oracle/oracle.ts);
 *    projections are maxima over the vertices;
 *  - intersection (closed): a vertex of one box inside the other, or an edge of one box meeting the
 *    other (the segment clipped by the other box's slabs). Two convex polyhedra meet iff one of these
 *    holds: a vertex of their intersection is a vertex of one of them or an edge of one crossing a
 *    face of the other;
 *  - distance of separated boxes: the least vertex–box distance (a clamp in the box's frame) and
 *    edge–edge distance (closest points of two segments): the closest pair of two disjoint convex
 *    polyhedra can be taken vertex–face or edge–edge;
 *  - penetration depth of intersecting boxes: the least push-out distance max_B(u·x) − min_A(u·x) over
 *    the unit directions u = ±(face normals, non-degenerate edge cross products), by vertex
 *    enumeration (the least over all directions is reached on a face normal of the Minkowski
 *    difference; test/geometry/oracleBoxBox.sanity.test.ts compares it with random directions and the
 *    distance with alternating projections);
 *  - the signed distance σ (distance, or −depth) is convex along a translation: σ(v) is the maximum
 *    over unit u of min_A(u·x) + u·v − max_B(u·x), a maximum of affine functions of v. The cast oracle
 *    is the first root of σ(t) = σ(a + t·motion, b) by golden section and bisection (castOracle of
 *    test/oracle/oracle.ts); the faster castEvents takes the earliest contact event of the moving
 *    features (vertex–box ray casts, edge–edge crossings), and the property tests confirm with σ where
 *    the two disagree.
 * Plain float64 and brute force; imports nothing from src/.
 */
import { type Arr3, type OBoxShape, type V3, OBox, castOracle } from './oracle.js';

export type { OBoxShape } from './oracle.js';

/** The 12 edges as vertex index pairs: vertex i has local (±hx, ±hy, ±hz), bit k of i set for −h_k. */
const EDGES: Array<[number, number]> = [];
for (let i = 0; i < 8; i++) for (let k = 0; k < 3; k++) if (!((i >> k) & 1)) EDGES.push([i, i | (1 << k)]);

/** A box as its frame (OBox: centre, half extents, world axes) and its 8 world vertices (x, y, z each). */
export interface Poly {
  box: OBox;
  v: Float64Array;
}

/** The box `shape` moved by `offset`. */
export function polyOf(shape: OBoxShape, offset: Arr3 = [0, 0, 0]): Poly {
  const center = { x: shape.center.x + offset[0], y: shape.center.y + offset[1], z: shape.center.z + offset[2] };
  const box = new OBox({ center, halfExtents: shape.halfExtents, rotation: shape.rotation });
  const v = new Float64Array(24);
  const [u0, u1, u2] = box.axes;
  for (let i = 0; i < 8; i++) {
    const l0 = i & 1 ? -box.h[0] : box.h[0], l1 = i & 2 ? -box.h[1] : box.h[1], l2 = i & 4 ? -box.h[2] : box.h[2];
    for (let k = 0; k < 3; k++) v[3 * i + k] = box.c[k] + (l0 * u0[k] + l1 * u1[k] + l2 * u2[k]);
  }
  return { box, v };
}

/** P's vertices in Q's frame (coordinates along Q's axes, relative to Q's centre). */
function inFrameOf(P: Poly, Q: Poly): Float64Array {
  const out = new Float64Array(24);
  const { c, axes } = Q.box;
  for (let i = 0; i < 8; i++) {
    const dx = P.v[3 * i] - c[0], dy = P.v[3 * i + 1] - c[1], dz = P.v[3 * i + 2] - c[2];
    for (let k = 0; k < 3; k++) out[3 * i + k] = axes[k][0] * dx + axes[k][1] * dy + axes[k][2] * dz;
  }
  return out;
}

/**
 * Whether the segment from local point p (offset o in `l`) to q (offset o2), in a box frame with half
 * extents h, meets the closed box (slab clipping of the parameter interval [0, 1]).
 */
function segmentMeetsBox(l: Float64Array, o: number, o2: number, h: Arr3): boolean {
  let t0 = 0;
  let t1 = 1;
  for (let k = 0; k < 3; k++) {
    const p = l[o + k];
    const d = l[o2 + k] - p;
    if (d === 0) {
      if (p < -h[k] || p > h[k]) return false;
      continue;
    }
    let ta = (-h[k] - p) / d;
    let tb = (h[k] - p) / d;
    if (ta > tb) [ta, tb] = [tb, ta];
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (t0 > t1) return false;
  }
  return true;
}

/** Whether some vertex or edge of P (given in Q's frame as `l`) meets Q. */
function featuresMeet(l: Float64Array, h: Arr3): boolean {
  for (let i = 0; i < 8; i++) {
    if (Math.abs(l[3 * i]) <= h[0] && Math.abs(l[3 * i + 1]) <= h[1] && Math.abs(l[3 * i + 2]) <= h[2]) return true;
  }
  for (const [i, j] of EDGES) if (segmentMeetsBox(l, 3 * i, 3 * j, h)) return true;
  return false;
}

/** Whether the closed boxes meet (see the module comment). */
export function boxesIntersect(A: Poly, B: Poly): boolean {
  return featuresMeet(inFrameOf(A, B), B.box.h) || featuresMeet(inFrameOf(B, A), A.box.h);
}

const clamp = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);

/**
 * Squared distance between the segments p1 + s·d1 and p2 + t·d2, s, t in [0, 1], each given as
 * (start, vector) at offsets o1 of e1 and o2 of e2 (Ericson 5.1.9, degenerate-safe).
 */
export function segmentDistance2(e1: Float64Array, o1: number, e2: Float64Array, o2: number): number {
  const rx = e1[o1] - e2[o2], ry = e1[o1 + 1] - e2[o2 + 1], rz = e1[o1 + 2] - e2[o2 + 2];
  const ax = e1[o1 + 3], ay = e1[o1 + 4], az = e1[o1 + 5];
  const bx = e2[o2 + 3], by = e2[o2 + 4], bz = e2[o2 + 5];
  const a = ax * ax + ay * ay + az * az;
  const e = bx * bx + by * by + bz * bz;
  const f = bx * rx + by * ry + bz * rz;
  let s = 0;
  let t = 0;
  if (a === 0 && e === 0) return rx * rx + ry * ry + rz * rz;
  if (a === 0) t = clamp(f / e, 0, 1);
  else {
    const c = ax * rx + ay * ry + az * rz;
    if (e === 0) s = clamp(-c / a, 0, 1);
    else {
      const b = ax * bx + ay * by + az * bz;
      const denom = a * e - b * b;
      s = denom > 0 ? clamp((b * f - c * e) / denom, 0, 1) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp(-c / a, 0, 1);
      } else if (t > 1) {
        t = 1;
        s = clamp((b - c) / a, 0, 1);
      }
    }
  }
  const x = rx + s * ax - t * bx, y = ry + s * ay - t * by, z = rz + s * az - t * bz;
  return x * x + y * y + z * z;
}

/** Least distance from P's vertices (in Q's frame, `l`) to the solid Q, by clamping. */
function verticesToBox(l: Float64Array, h: Arr3): number {
  let best = Infinity;
  for (let i = 0; i < 8; i++) {
    let s = 0;
    for (let k = 0; k < 3; k++) {
      const x = l[3 * i + k];
      const e = x - clamp(x, -h[k], h[k]);
      s += e * e;
    }
    best = Math.min(best, s);
  }
  return Math.sqrt(best);
}

/** P's edges as (start, vector) sextuples. */
function edgesOf(P: Poly): Float64Array {
  const out = new Float64Array(72);
  for (let n = 0; n < 12; n++) {
    const [i, j] = EDGES[n];
    for (let k = 0; k < 3; k++) {
      out[6 * n + k] = P.v[3 * i + k];
      out[6 * n + 3 + k] = P.v[3 * j + k] - P.v[3 * i + k];
    }
  }
  return out;
}

/** Euclidean distance between the boxes (0 when they meet). */
export function boxesDistance(A: Poly, B: Poly): number {
  if (boxesIntersect(A, B)) return 0;
  const best = Math.min(verticesToBox(inFrameOf(A, B), B.box.h), verticesToBox(inFrameOf(B, A), A.box.h));
  let best2 = best * best;
  const ea = edgesOf(A);
  const eb = edgesOf(B);
  for (let i = 0; i < 12; i++) for (let j = 0; j < 12; j++) best2 = Math.min(best2, segmentDistance2(ea, 6 * i, eb, 6 * j));
  return Math.sqrt(best2);
}

/** Whether the boxes are within `eps` of each other (distance <= eps), stopping at the first pair found. */
export function boxesWithin(A: Poly, B: Poly, eps: number): boolean {
  if (boxesIntersect(A, B)) return true;
  if (Math.min(verticesToBox(inFrameOf(A, B), B.box.h), verticesToBox(inFrameOf(B, A), A.box.h)) <= eps) return true;
  const ea = edgesOf(A);
  const eb = edgesOf(B);
  const eps2 = eps * eps;
  for (let i = 0; i < 12; i++) for (let j = 0; j < 12; j++) if (segmentDistance2(ea, 6 * i, eb, 6 * j) <= eps2) return true;
  return false;
}

/** [min, max] over P's vertices of u·v. */
export function extentOf(P: Poly, u: Arr3): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < 8; i++) {
    const d = u[0] * P.v[3 * i] + u[1] * P.v[3 * i + 1] + u[2] * P.v[3 * i + 2];
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  return [lo, hi];
}

/** How far a must move along the unit u to stop overlapping b: max_B(u·x) − min_A(u·x) (< 0: apart by that). */
export function pushOut(A: Poly, B: Poly, u: Arr3): number {
  return extentOf(B, u)[1] - extentOf(A, u)[0];
}

/** The unit candidate directions (one sign each): face normals of both boxes and their non-degenerate edge crosses. */
export function candidateAxes(A: Poly, B: Poly): Arr3[] {
  const dirs: Arr3[] = [...B.box.axes, ...A.box.axes];
  for (const e of B.box.axes) {
    for (const f of A.box.axes) {
      const c: Arr3 = [e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2], e[0] * f[1] - e[1] * f[0]];
      const n = Math.hypot(c[0], c[1], c[2]);
      if (n > 1e-12) dirs.push([c[0] / n, c[1] / n, c[2] / n]);
    }
  }
  return dirs;
}

/**
 * Penetration depth (minimum translation distance; < 0 when apart along some axis) and its
 * direction, from b toward a: the least push-out over the candidate axes in both senses.
 */
export function penetration(A: Poly, B: Poly): { depth: number; axis: Arr3 } {
  let depth = Infinity;
  let axis: Arr3 = [1, 0, 0];
  for (const u of candidateAxes(A, B)) {
    const [loA, hiA] = extentOf(A, u);
    const [loB, hiB] = extentOf(B, u);
    if (hiB - loA < depth) {
      depth = hiB - loA;
      axis = u;
    }
    if (hiA - loB < depth) {
      depth = hiA - loB;
      axis = [-u[0], -u[1], -u[2]];
    }
  }
  return { depth, axis };
}

/** Signed distance: the distance when apart, minus the penetration depth when they meet. */
export function signedDistance(A: Poly, B: Poly): number {
  return boxesIntersect(A, B) ? -Math.max(0, penetration(A, B).depth) : boxesDistance(A, B);
}

/** σ(t) = signed distance of a moved by t·motion and b. */
export function boxBoxGap(a: OBoxShape, motion: V3, b: OBoxShape): (t: number) => number {
  const B = polyOf(b);
  return (t) => signedDistance(polyOf(a, [t * motion.x, t * motion.y, t * motion.z]), B);
}

/** The convex-search cast oracle of σ (castOracle of test/oracle/oracle.ts: golden section, then bisection). */
export function castBoxBoxOracle(a: OBoxShape, motion: V3, b: OBoxShape): ReturnType<typeof castOracle> {
  return castOracle(boxBoxGap(a, motion, b));
}

/** First t in [0, 1] at which vertex i of P moving by t·d enters box Q (slabs in Q's frame), or Infinity. */
function rayEntry(P: Poly, i: number, Q: OBox, d: Arr3): number {
  let t0 = 0;
  let t1 = 1;
  for (let k = 0; k < 3; k++) {
    const ax = Q.axes[k];
    const p0 = ax[0] * (P.v[3 * i] - Q.c[0]) + ax[1] * (P.v[3 * i + 1] - Q.c[1]) + ax[2] * (P.v[3 * i + 2] - Q.c[2]);
    const dk = ax[0] * d[0] + ax[1] * d[1] + ax[2] * d[2];
    const h = Q.h[k];
    if (dk === 0) {
      if (p0 < -h || p0 > h) return Infinity;
      continue;
    }
    let ta = (-h - p0) / dk;
    let tb = (h - p0) / dk;
    if (ta > tb) [ta, tb] = [tb, ta];
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (t0 > t1) return Infinity;
  }
  return t0;
}

/** det[a b c] of three column vectors given by components. */
const det3 = (ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number): number =>
  ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);

/**
 * First t in [0, 1] at which the edge p1 + s·e1 (sextuple at oa of ea) moving by t·m crosses the fixed
 * edge p2 + u·e2 (at ob of eb), s and u in [0, 1] (Cramer's rule on s·e1 + t·m − u·e2 = p2 − p1), or
 * Infinity; Infinity also when e1, m and e2 are nearly coplanar (such contacts begin at a vertex).
 */
function edgeCrossing(ea: Float64Array, oa: number, m: Arr3, eb: Float64Array, ob: number): number {
  const e1x = ea[oa + 3], e1y = ea[oa + 4], e1z = ea[oa + 5];
  const n2x = -eb[ob + 3], n2y = -eb[ob + 4], n2z = -eb[ob + 5];
  const det = det3(e1x, e1y, e1z, m[0], m[1], m[2], n2x, n2y, n2z);
  const scale2 = (e1x * e1x + e1y * e1y + e1z * e1z) * (m[0] * m[0] + m[1] * m[1] + m[2] * m[2]) * (n2x * n2x + n2y * n2y + n2z * n2z);
  if (!(det * det > 1e-18 * scale2)) return Infinity;
  const rx = eb[ob] - ea[oa], ry = eb[ob + 1] - ea[oa + 1], rz = eb[ob + 2] - ea[oa + 2];
  const s = det3(rx, ry, rz, m[0], m[1], m[2], n2x, n2y, n2z) / det;
  const t = det3(e1x, e1y, e1z, rx, ry, rz, n2x, n2y, n2z) / det;
  const u = det3(e1x, e1y, e1z, m[0], m[1], m[2], rx, ry, rz) / det;
  return s < 0 || s > 1 || u < 0 || u > 1 || t < 0 || t > 1 ? Infinity : t;
}

/**
 * The first contact of a translating by `motion` against b, as the earliest contact event of the
 * moving features: 0 when they meet at the start, else the least of a's vertices entering b, b's
 * vertices entering a moving the other way, and a's edges crossing b's edges; null on a miss. Fast
 * but not authoritative near degenerate configurations: the property tests confirm it with σ.
 */
export function castEvents(a: OBoxShape, motion: V3, b: OBoxShape): number | null {
  const A = polyOf(a);
  const B = polyOf(b);
  if (boxesIntersect(A, B)) return 0;
  const m: Arr3 = [motion.x, motion.y, motion.z];
  const back: Arr3 = [-m[0], -m[1], -m[2]];
  let best = Infinity;
  for (let i = 0; i < 8; i++) best = Math.min(best, rayEntry(A, i, B.box, m), rayEntry(B, i, A.box, back));
  const ea = edgesOf(A);
  const eb = edgesOf(B);
  for (let i = 0; i < 12; i++) for (let j = 0; j < 12; j++) best = Math.min(best, edgeCrossing(ea, 6 * i, m, eb, 6 * j));
  return best === Infinity ? null : best;
}
