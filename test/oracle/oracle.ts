/**
 * Independent reference ("oracle") for the geometry core. Deliberately NOT a port of the
 * implementation's approach:
 *  - the box frame is a 3x3 rotation matrix built from the quaternion; local coordinates are the
 *    projections of (p - centre) onto the matrix columns (the box axes);
 *  - distances use clamping in that frame;
 *  - casts never solve a quadratic: f(t) = dist(c + t m, shape) - r is convex in t, so the oracle
 *    ternary-searches its minimum on [0, 1] and bisects [0, t*] for the first root.
 * Everything is plain float64 and written to be obviously correct rather than fast or exact.
 * It does not import anything from src/.
 */

export interface V3 {
  x: number;
  y: number;
  z: number;
}
export interface Q4 {
  x: number;
  y: number;
  z: number;
  w: number;
}
export interface OSphere {
  center: V3;
  radius: number;
}
export interface OBoxShape {
  center: V3;
  halfExtents: V3;
  rotation?: Q4 | undefined;
}

export type Arr3 = [number, number, number];

export const toArr = (v: V3): Arr3 => [v.x, v.y, v.z];
export const toV3 = (a: Arr3): V3 => ({ x: a[0], y: a[1], z: a[2] });
export const dot3 = (a: Arr3, b: Arr3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const sub3 = (a: Arr3, b: Arr3): Arr3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const add3 = (a: Arr3, b: Arr3): Arr3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale3 = (a: Arr3, s: number): Arr3 => [a[0] * s, a[1] * s, a[2] * s];
export const norm3 = (a: Arr3): number => Math.sqrt(dot3(a, a));
export const maxAbs3 = (a: Arr3): number => Math.max(Math.abs(a[0]), Math.abs(a[1]), Math.abs(a[2]));

/**
 * Row-major 3x3 rotation matrix M of a unit quaternion, so that world = M * local.
 * Column j of M is the world direction of the box's local axis j.
 */
export function rotationMatrix(q: Q4 | undefined): number[] {
  if (q === undefined) return [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const { x, y, z, w } = q;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
    2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
    2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y),
  ];
}

/** A box expressed by its centre, half extents and three world axes. */
export class OBox {
  readonly c: Arr3;
  readonly h: Arr3;
  readonly axes: [Arr3, Arr3, Arr3];

  constructor(box: OBoxShape) {
    this.c = toArr(box.center);
    this.h = toArr(box.halfExtents);
    const m = rotationMatrix(box.rotation);
    this.axes = [
      [m[0], m[3], m[6]],
      [m[1], m[4], m[7]],
      [m[2], m[5], m[8]],
    ];
  }

  /** Coordinates of world point p along the three box axes, relative to the box centre. */
  toLocal(p: Arr3): Arr3 {
    const d = sub3(p, this.c);
    return [dot3(this.axes[0], d), dot3(this.axes[1], d), dot3(this.axes[2], d)];
  }

  toWorld(l: Arr3): Arr3 {
    const [a, b, c] = this.axes;
    return [
      this.c[0] + (l[0] * a[0] + l[1] * b[0] + l[2] * c[0]),
      this.c[1] + (l[0] * a[1] + l[1] * b[1] + l[2] * c[1]),
      this.c[2] + (l[0] * a[2] + l[1] * b[2] + l[2] * c[2]),
    ];
  }

  /** World direction of a local direction (no translation). */
  dirToWorld(l: Arr3): Arr3 {
    const [a, b, c] = this.axes;
    return [
      l[0] * a[0] + l[1] * b[0] + l[2] * c[0],
      l[0] * a[1] + l[1] * b[1] + l[2] * c[1],
      l[0] * a[2] + l[1] * b[2] + l[2] * c[2],
    ];
  }

  /** Max over the box of dot(n, x): the support value in direction n. */
  support(n: Arr3): number {
    return (
      dot3(n, this.c) +
      this.h[0] * Math.abs(dot3(n, this.axes[0])) +
      this.h[1] * Math.abs(dot3(n, this.axes[1])) +
      this.h[2] * Math.abs(dot3(n, this.axes[2]))
    );
  }
}

const clamp = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);

/** Euclidean distance from p to the solid box (0 inside or on the surface). */
export function boxDistance(b: OBox, p: Arr3): number {
  const l = b.toLocal(p);
  let s = 0;
  for (let j = 0; j < 3; j++) {
    const e = l[j] - clamp(l[j], -b.h[j], b.h[j]);
    s += e * e;
  }
  return Math.sqrt(s);
}

/** Signed distance: > 0 outside (Euclidean), <= 0 inside (minus the distance to the nearest face). */
export function boxSignedDistance(b: OBox, p: Arr3): number {
  const d = boxDistance(b, p);
  if (d > 0) return d;
  const l = b.toLocal(p);
  let m = Infinity;
  for (let j = 0; j < 3; j++) m = Math.min(m, b.h[j] - Math.abs(l[j]));
  return -Math.max(0, m);
}

export interface FaceCandidate {
  axis: number;
  sign: 1 | -1;
  /** distance from the centre to this face plane, measured in the box frame */
  pen: number;
  normal: Arr3;
  point: Arr3;
}

export interface SphereBoxContactOracle {
  overlap: boolean;
  /** distance from sphere centre to the box */
  dist: number;
  /** signed distance of the sphere centre */
  sd: number;
  depth: number;
  normal: Arr3;
  point: Arr3;
  inside: boolean;
  /** the six faces in tie-break order (+x, -x, +y, -y, +z, -z), only meaningful when inside */
  faces: FaceCandidate[];
}

/** The six faces of the box as seen from a local point l, in the spec's tie-break order. */
function faceCandidates(b: OBox, l: Arr3): FaceCandidate[] {
  const out: FaceCandidate[] = [];
  for (let j = 0; j < 3; j++) {
    for (const sign of [1, -1] as const) {
      const pen = b.h[j] - sign * l[j];
      const lp: Arr3 = [l[0], l[1], l[2]];
      lp[j] = sign * b.h[j];
      const n: Arr3 = [0, 0, 0];
      n[j] = sign;
      out.push({ axis: j, sign, pen, normal: b.dirToWorld(n), point: b.toWorld(lp) });
    }
  }
  return out;
}

export function contactSphereBoxOracle(s: OSphere, box: OBoxShape | OBox): SphereBoxContactOracle {
  const b = box instanceof OBox ? box : new OBox(box);
  const c = toArr(s.center);
  const r = s.radius;
  const l = b.toLocal(c);
  const q: Arr3 = [clamp(l[0], -b.h[0], b.h[0]), clamp(l[1], -b.h[1], b.h[1]), clamp(l[2], -b.h[2], b.h[2])];
  const diffLocal = sub3(l, q);
  const dist = norm3(diffLocal);
  const faces = faceCandidates(b, l);
  if (dist > 0) {
    return {
      overlap: dist <= r,
      dist,
      sd: dist,
      depth: r - dist,
      normal: b.dirToWorld(scale3(diffLocal, 1 / dist)),
      point: b.toWorld(q),
      inside: false,
      faces,
    };
  }
  // Inside or on the surface: first face (in tie-break order) with the strictly smallest pen.
  let best = faces[0];
  for (const f of faces) if (f.pen < best.pen) best = f;
  return {
    overlap: true,
    dist: 0,
    sd: -best.pen,
    depth: r + best.pen,
    normal: best.normal,
    point: best.point,
    inside: true,
    faces,
  };
}

export function overlapSphereBoxOracle(s: OSphere, box: OBoxShape | OBox): boolean {
  const b = box instanceof OBox ? box : new OBox(box);
  return boxDistance(b, toArr(s.center)) <= s.radius;
}

// ---------------------------------------------------------------------------------------------
// Sphere - sphere

export interface SphereSphereContactOracle {
  overlap: boolean;
  dist: number;
  depth: number;
  normal: Arr3;
  point: Arr3;
}

export function contactSphereSphereOracle(a: OSphere, b: OSphere): SphereSphereContactOracle {
  const d = sub3(toArr(a.center), toArr(b.center));
  const dist = norm3(d);
  const n: Arr3 = dist > 0 ? scale3(d, 1 / dist) : [1, 0, 0];
  return {
    overlap: dist <= a.radius + b.radius,
    dist,
    depth: a.radius + b.radius - dist,
    normal: n,
    point: add3(toArr(b.center), scale3(n, b.radius)),
  };
}

// ---------------------------------------------------------------------------------------------
// Casts: convex 1D minimisation + bisection

export type Fn1 = (t: number) => number;

const INV_PHI = (Math.sqrt(5) - 1) / 2;

/** Options of {@link convexMin}; the defaults are the oracle's own search. */
export interface GoldenSectionOptions {
  /** at most this many iterations (default 90) */
  iters?: number;
  /** stop once the bracket is this narrow (default 0: until it cannot shrink) */
  minWidth?: number;
  /** when f is equal at both probes, keep the left part of the bracket (default: the right part) */
  tiesLeft?: boolean;
  /**
   * the points tried besides the final bracket's midpoint, with the interval's ends: the final
   * bracket's ends ('bracket', the default) or its two probes ('probes')
   */
  finish?: 'bracket' | 'probes';
}

/**
 * Minimum of a convex function on [a, b] by golden-section search (plus the two endpoints).
 * Same invariant as ternary search: with m1 < m2, f(m1) < f(m2) means a minimiser lies in [lo, m2],
 * otherwise one lies in [m1, hi]. 90 iterations shrink the bracket by 0.618^90 ~ 1e-19.
 */
export function convexMin(f: Fn1, a: number, b: number, options: GoldenSectionOptions = {}): { t: number; v: number } {
  const { iters = 90, minWidth = 0, tiesLeft = false, finish = 'bracket' } = options;
  let lo = a;
  let hi = b;
  let m1 = hi - INV_PHI * (hi - lo);
  let m2 = lo + INV_PHI * (hi - lo);
  let f1 = f(m1);
  let f2 = f(m2);
  for (let i = 0; i < iters && hi - lo > minWidth; i++) {
    if (f1 < f2 || (tiesLeft && f1 === f2)) {
      hi = m2;
      m2 = m1;
      f2 = f1;
      m1 = hi - INV_PHI * (hi - lo);
      f1 = f(m1);
    } else {
      lo = m1;
      m1 = m2;
      f1 = f2;
      m2 = lo + INV_PHI * (hi - lo);
      f2 = f(m2);
    }
  }
  let best = { t: (lo + hi) / 2, v: f((lo + hi) / 2) };
  for (const t of finish === 'bracket' ? [a, b, lo, hi] : [a, b, m1, m2]) {
    const v = f(t);
    if (v < best.v) best = { t, v };
  }
  return best;
}

/** f(lo) > 0 >= f(hi): smallest float t in (lo, hi] with f(t) <= 0 (up to one ulp). */
export function firstRoot(f: Fn1, lo: number, hi: number): number {
  for (;;) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) return hi;
    if (f(mid) <= 0) hi = mid;
    else lo = mid;
  }
}

export interface CastOracle {
  /** f(0): signed gap at the start (distance minus radius) */
  f0: number;
  /** min of f on [0, 1] */
  fmin: number;
  /** argmin of f */
  tmin: number;
  /** hit according to float evaluation of f */
  hit: boolean;
  /** first root (0 if f0 <= 0, NaN on a miss) */
  toi: number;
  f: Fn1;
}

export function castOracle(f: Fn1): CastOracle {
  const f0 = f(0);
  if (f0 <= 0) return { f0, fmin: f0, tmin: 0, hit: true, toi: 0, f };
  const m = convexMin(f, 0, 1);
  if (m.v > 0) return { f0, fmin: m.v, tmin: m.t, hit: false, toi: NaN, f };
  return { f0, fmin: m.v, tmin: m.t, hit: true, toi: firstRoot(f, 0, m.t), f };
}

const at = (c: Arr3, m: Arr3, t: number): Arr3 => [c[0] + t * m[0], c[1] + t * m[1], c[2] + t * m[2]];

/** f(t) = dist(c + t m, box) - r */
export function sphereBoxGap(s: OSphere, motion: V3, box: OBoxShape | OBox): Fn1 {
  const b = box instanceof OBox ? box : new OBox(box);
  const c = toArr(s.center);
  const m = toArr(motion);
  const r = s.radius;
  return (t) => boxDistance(b, at(c, m, t)) - r;
}

export function castSphereBoxOracle(s: OSphere, motion: V3, box: OBoxShape | OBox): CastOracle {
  return castOracle(sphereBoxGap(s, motion, box));
}

/** f(t) = |ca + t m - cb| - (ra + rb) */
export function sphereSphereGap(a: OSphere, motion: V3, b: OSphere): Fn1 {
  const ca = toArr(a.center);
  const cb = toArr(b.center);
  const m = toArr(motion);
  const R = a.radius + b.radius;
  return (t) => norm3(sub3(at(ca, m, t), cb)) - R;
}

export function castSphereSphereOracle(a: OSphere, motion: V3, b: OSphere): CastOracle {
  return castOracle(sphereSphereGap(a, motion, b));
}

export const positionAt = at;
