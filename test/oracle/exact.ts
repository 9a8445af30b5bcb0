/**
 * Exact-arithmetic oracle for the sphere–box and sphere–sphere geometry. Independent of src/ (it
 * imports nothing from it) and of the float oracle beside it (./oracle.ts), which it does not replace.
 *
 * Numbers: every float64 is a dyadic rational m·2^e (m an integer); sums, differences and products
 * of dyadics are dyadic, so everything a static query decides is computed exactly with BigInt
 * mantissas ({@link Dy}). Divisions appear only as times of the casts, kept as fractions p/s of two
 * dyadics ({@link Time}) and compared by cross-multiplication.
 *
 * Rotations: a quaternion q = (x, y, z, w), unit or not, stands for the exact rotation of q/|q|. Its
 * matrix is M(q)/N with N = |q|² and M(q) quadratic in q (dyadic). The oracle works in the box frame
 * scaled by N: local coordinates L = M(q)ᵀ·(p − centre) = N·(true local coordinates), and half
 * extents, radius and motion are scaled by N alike, so that every length stays dyadic. Times do not
 * change with that scale; lengths compared with a tolerance scale it by N too. A quaternion with
 * x = y = z = 0 (or an absent one) is the identity, as in the implementation.
 *
 * Sweeps: both pairs reduce to a point moving as L + t·m, t in [0, 1], against an axis-aligned box
 * with half extents h grown by a radius r (sphere–sphere: h = 0, r = ra + rb). The squared distance
 * from the point to the box is a convex piecewise quadratic in t with breakpoints where a
 * coordinate crosses ±h; its minimum over an interval is at an end, a breakpoint or a piece's
 * vertex, all evaluated exactly ({@link minDist2}). So "touches within the step" is decided exactly.
 *
 * Continuous outputs (normals, points, depths) are irrational in general; the checks compare them
 * with a tolerance after an exact power-of-two rescale to order 1 and one rounding to float64, which
 * is accurate to ~1e-16 of the scene scale (far below any tolerance used).
 */

// ---------------------------------------------------------------------------------------------
// Dyadic numbers

/** The dyadic rational m·2^e, exactly. */
export interface Dy {
  readonly m: bigint;
  readonly e: number;
}

export const D0: Dy = { m: 0n, e: 0 };
export const D1: Dy = { m: 1n, e: 0 };

const view = new DataView(new ArrayBuffer(8));

/** The exact value of a finite float64. */
export function dy(x: number): Dy {
  if (!Number.isFinite(x)) throw new Error(`dy: non-finite ${x}`);
  if (x === 0) return D0;
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (biased === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  return { m: x < 0 ? -m : m, e };
}

/** 2^k exactly. */
export const pow2Dy = (k: number): Dy => ({ m: 1n, e: k });

const shift = (m: bigint, k: number): bigint => (k === 0 ? m : m << BigInt(k));

export function add(a: Dy, b: Dy): Dy {
  if (a.m === 0n) return b;
  if (b.m === 0n) return a;
  const e = Math.min(a.e, b.e);
  return { m: shift(a.m, a.e - e) + shift(b.m, b.e - e), e };
}
export const neg = (a: Dy): Dy => ({ m: -a.m, e: a.e });
export const sub = (a: Dy, b: Dy): Dy => add(a, neg(b));
export const mul = (a: Dy, b: Dy): Dy => (a.m === 0n || b.m === 0n ? D0 : { m: a.m * b.m, e: a.e + b.e });
export const sq = (a: Dy): Dy => mul(a, a);
export const sgn = (a: Dy): number => (a.m > 0n ? 1 : a.m < 0n ? -1 : 0);
export const cmp = (a: Dy, b: Dy): number => sgn(sub(a, b));
export const abs = (a: Dy): Dy => (a.m < 0n ? neg(a) : a);
export const mulPow2 = (a: Dy, k: number): Dy => (a.m === 0n ? D0 : { m: a.m, e: a.e + k });
export const sum = (...xs: Dy[]): Dy => xs.reduce(add, D0);
export const isZero = (a: Dy): boolean => a.m === 0n;

function bitLength(m: bigint): number {
  const a = m < 0n ? -m : m;
  return a === 0n ? 0 : a.toString(2).length;
}

/** floor(log2 |a|), or −Infinity for 0. */
export function exponentOf(a: Dy): number {
  return a.m === 0n ? -Infinity : bitLength(a.m) - 1 + a.e;
}

/** 2^k as a double for any integer k (products of two in-range factors; 0 or Infinity outside). */
function pow2(k: number): number {
  if (k > 1023) return 2 ** 1023 * pow2(k - 1023);
  if (k < -1022) return 2 ** -1022 * pow2(k + 1022);
  return 2 ** k;
}

/**
 * a·2^−k as a double (the mantissa is cut to 64 bits first: relative error below 2^-52). Pick k
 * near exponentOf(a) for an order-1 result whatever the magnitude of a.
 */
export function approx(a: Dy, k = 0): number {
  if (a.m === 0n) return 0;
  const n = bitLength(a.m);
  let m = a.m;
  let e = a.e;
  if (n > 64) {
    m >>= BigInt(n - 64);
    e += n - 64;
  }
  const p = e - k;
  // two steps so that neither factor nor the intermediate product overflows for |p| <= ~2000
  const half = Math.trunc(p / 2);
  return Number(m) * pow2(half) * pow2(p - half);
}

// ---------------------------------------------------------------------------------------------
// Times: fractions p/s of dyadics, s > 0

export interface Time {
  p: Dy;
  s: Dy;
}

export const T0: Time = { p: D0, s: D1 };
export const T1: Time = { p: D1, s: D1 };
export const timeOf = (x: number): Time => ({ p: dy(x), s: D1 });

/** p/s with s made positive. */
function time(p: Dy, s: Dy): Time {
  return sgn(s) < 0 ? { p: neg(p), s: neg(s) } : { p, s };
}

export const cmpTime = (a: Time, b: Time): number => sgn(sub(mul(a.p, b.s), mul(b.p, a.s)));
const midTime = (a: Time, b: Time): Time => ({ p: add(mul(a.p, b.s), mul(b.p, a.s)), s: mulPow2(mul(a.s, b.s), 1) });
/** A double near t (for messages and statistics only). */
export const approxTime = (t: Time): number => {
  const k = exponentOf(t.s);
  return approx(t.p, k) / approx(t.s, k);
};

// ---------------------------------------------------------------------------------------------
// Vectors, rotations and the scaled box frame

export type DyV = [Dy, Dy, Dy];

export interface NumV3 {
  x: number;
  y: number;
  z: number;
}
export interface NumQuat {
  x: number;
  y: number;
  z: number;
  w: number;
}

export const dyV = (v: NumV3): DyV => [dy(v.x), dy(v.y), dy(v.z)];
export const subV = (a: DyV, b: DyV): DyV => [sub(a[0], b[0]), sub(a[1], b[1]), sub(a[2], b[2])];
export const addV = (a: DyV, b: DyV): DyV => [add(a[0], b[0]), add(a[1], b[1]), add(a[2], b[2])];
export const scaleV = (a: DyV, s: Dy): DyV => [mul(a[0], s), mul(a[1], s), mul(a[2], s)];
export const dotV = (a: DyV, b: DyV): Dy => sum(mul(a[0], b[0]), mul(a[1], b[1]), mul(a[2], b[2]));

/**
 * The exact rotation of a quaternion as (M, N): M·v/N rotates v from the box frame to the world,
 * Mᵀ·v/N back. Identity (N = 1) when the quaternion is absent or has x = y = z = 0.
 */
export interface Frame {
  /** row-major 3×3, dyadic */
  M: Dy[];
  N: Dy;
  identity: boolean;
}

export function frameOf(q: NumQuat | undefined): Frame {
  if (q === undefined || (q.x === 0 && q.y === 0 && q.z === 0)) return { M: [D1, D0, D0, D0, D1, D0, D0, D0, D1], N: D1, identity: true };
  const x = dy(q.x), y = dy(q.y), z = dy(q.z), w = dy(q.w);
  const xx = sq(x), yy = sq(y), zz = sq(z), ww = sq(w);
  const two = (a: Dy, b: Dy) => mulPow2(mul(a, b), 1);
  const M = [
    sub(add(ww, xx), add(yy, zz)), sub(two(x, y), two(w, z)), add(two(x, z), two(w, y)),
    add(two(x, y), two(w, z)), sub(add(ww, yy), add(xx, zz)), sub(two(y, z), two(w, x)),
    sub(two(x, z), two(w, y)), add(two(y, z), two(w, x)), sub(add(ww, zz), add(xx, yy)),
  ];
  return { M, N: sum(xx, yy, zz, ww), identity: false };
}

/** M·v (box frame to world, times N). */
export function toWorldScaled(f: Frame, v: DyV): DyV {
  if (f.identity) return v;
  const M = f.M;
  return [sum(mul(M[0], v[0]), mul(M[1], v[1]), mul(M[2], v[2])), sum(mul(M[3], v[0]), mul(M[4], v[1]), mul(M[5], v[2])), sum(mul(M[6], v[0]), mul(M[7], v[1]), mul(M[8], v[2]))];
}

/** Mᵀ·v (world to box frame, times N). */
export function toLocalScaled(f: Frame, v: DyV): DyV {
  if (f.identity) return v;
  const M = f.M;
  return [sum(mul(M[0], v[0]), mul(M[3], v[1]), mul(M[6], v[2])), sum(mul(M[1], v[0]), mul(M[4], v[1]), mul(M[7], v[2])), sum(mul(M[2], v[0]), mul(M[5], v[1]), mul(M[8], v[2]))];
}

// ---------------------------------------------------------------------------------------------
// The sweep of a point against a grown axis-aligned box

/**
 * A point L + t·m against the box |x_i| <= h_i grown by r, all in one (scaled) frame: `scale` is the
 * factor N by which these lengths exceed the world's (1 without rotation).
 */
export interface Sweep {
  L: DyV;
  m: DyV;
  h: DyV;
  r: Dy;
  scale: Dy;
  frame: Frame;
  /** the box centre in the world (b's centre for sphere–sphere) */
  origin: DyV;
}

export interface SphereIn {
  center: NumV3;
  radius: number;
}
export interface BoxIn {
  center: NumV3;
  halfExtents: NumV3;
  rotation?: NumQuat | undefined;
}

const ZERO_V: DyV = [D0, D0, D0];

/** The sweep of a sphere moving by `motion` (zero when absent) against a box. */
export function sphereBoxSweep(s: SphereIn, box: BoxIn, motion?: NumV3): Sweep {
  const frame = frameOf(box.rotation);
  const origin = dyV(box.center);
  const N = frame.N;
  return {
    L: toLocalScaled(frame, subV(dyV(s.center), origin)),
    m: motion === undefined ? ZERO_V : toLocalScaled(frame, dyV(motion)),
    h: scaleV(dyV(box.halfExtents), N),
    r: mul(dy(s.radius), N),
    scale: N,
    frame,
    origin,
  };
}

/** The sweep of sphere a moving by `motion` against sphere b (a point against b grown by ra). */
export function sphereSphereSweep(a: SphereIn, b: SphereIn, motion?: NumV3): Sweep {
  const origin = dyV(b.center);
  return {
    L: subV(dyV(a.center), origin),
    m: motion === undefined ? ZERO_V : dyV(motion),
    h: ZERO_V,
    r: add(dy(a.radius), dy(b.radius)),
    scale: D1,
    frame: frameOf(undefined),
    origin,
  };
}

/** The position at time t, as the numerator over t.s: L·s + p·m. */
function posNum(sw: Sweep, t: Time): DyV {
  return [add(mul(sw.L[0], t.s), mul(t.p, sw.m[0])), add(mul(sw.L[1], t.s), mul(t.p, sw.m[1])), add(mul(sw.L[2], t.s), mul(t.p, sw.m[2]))];
}

/** A squared length as the fraction num/den. */
export interface Frac {
  num: Dy;
  den: Dy;
}

const cmpFrac = (a: Frac, b: Frac): number => sgn(sub(mul(a.num, b.den), mul(b.num, a.den)));

/** The squared distance from the moving point at time t to the (ungrown) box. */
export function dist2At(sw: Sweep, t: Time): Frac {
  const P = posNum(sw, t);
  let num = D0;
  for (let i = 0; i < 3; i++) {
    const H = mul(sw.h[i], t.s);
    const x = P[i];
    if (cmp(x, H) > 0) num = add(num, sq(sub(x, H)));
    else if (cmp(x, neg(H)) < 0) num = add(num, sq(add(x, H)));
  }
  return { num, den: sq(t.s) };
}

/** Times in (lo, hi) at which a coordinate crosses ±h, sorted. */
function breakpoints(sw: Sweep, lo: Time, hi: Time): Time[] {
  const out: Time[] = [];
  for (let i = 0; i < 3; i++) {
    if (isZero(sw.m[i])) continue;
    for (const H of [sw.h[i], neg(sw.h[i])]) {
      const t = time(sub(H, sw.L[i]), sw.m[i]);
      if (cmpTime(t, lo) > 0 && cmpTime(t, hi) < 0) out.push(t);
    }
  }
  return out.sort(cmpTime);
}

/** The vertex −B/A of the quadratic that the squared distance follows around time `at`, if any. */
function pieceVertex(sw: Sweep, at: Time): Time | undefined {
  const P = posNum(sw, at);
  let A = D0;
  let B = D0;
  for (let i = 0; i < 3; i++) {
    const H = mul(sw.h[i], at.s);
    let a: Dy | undefined;
    if (cmp(P[i], H) > 0) a = sub(sw.L[i], sw.h[i]);
    else if (cmp(P[i], neg(H)) < 0) a = add(sw.L[i], sw.h[i]);
    if (a === undefined) continue;
    A = add(A, sq(sw.m[i]));
    B = add(B, mul(a, sw.m[i]));
  }
  return isZero(A) ? undefined : time(neg(B), A);
}

/** The minimum of the squared distance over [lo, hi], and a time where it is reached. Exact. */
export function minDist2(sw: Sweep, lo: Time, hi: Time): { d2: Frac; at: Time } {
  const bps = breakpoints(sw, lo, hi);
  const knots = [lo, ...bps, hi];
  const candidates: Time[] = [...knots];
  for (let k = 0; k + 1 < knots.length; k++) {
    const a = knots[k];
    const b = knots[k + 1];
    if (cmpTime(a, b) >= 0) continue;
    const v = pieceVertex(sw, midTime(a, b));
    if (v !== undefined && cmpTime(v, a) > 0 && cmpTime(v, b) < 0) candidates.push(v);
  }
  let best = { d2: dist2At(sw, candidates[0]), at: candidates[0] };
  for (const t of candidates.slice(1)) {
    const d2 = dist2At(sw, t);
    if (cmpFrac(d2, best.d2) < 0) best = { d2, at: t };
  }
  return { d2: best.d2, at: best.at };
}

/** (r + δ)² as a fraction; δ may be negative (then false when r + δ < 0: no distance is below it). */
const radiusBound = (r: Dy, delta: Dy): Dy | undefined => {
  const b = add(r, delta);
  return sgn(b) < 0 ? undefined : sq(b);
};

/** Whether a squared distance is <= (r + δ)², exactly. */
export function within(d2: Frac, r: Dy, delta: Dy = D0): boolean {
  const b = radiusBound(r, delta);
  return b !== undefined && cmp(d2.num, mul(b, d2.den)) <= 0;
}

/** Whether a squared distance is >= (r + δ)², exactly (true when r + δ < 0). */
export function beyond(d2: Frac, r: Dy, delta: Dy): boolean {
  const b = radiusBound(r, delta);
  return b === undefined || cmp(d2.num, mul(b, d2.den)) >= 0;
}

/** The first time in [0, 1] at which the point is within r of the box, to about 2^-bits (messages only). */
export function firstContactApprox(sw: Sweep, bits = 60): number {
  if (within(dist2At(sw, T0), sw.r)) return 0;
  const m = minDist2(sw, T0, T1);
  if (!within(m.d2, sw.r)) return NaN;
  let lo = 0;
  let hi = approxTime(m.at);
  for (let i = 0; i < bits && hi - lo > 0; i++) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (within(dist2At(sw, timeOf(mid)), sw.r)) hi = mid;
    else lo = mid;
  }
  return hi;
}

// ---------------------------------------------------------------------------------------------
// Static contacts

/** The exact static contact of the point at time t (in the scaled frame), with world outputs. */
export interface ExactContact {
  overlap: boolean;
  d2: Frac;
  /** the point's position in the scaled frame (over `den`) */
  P: DyV;
  den: Dy;
  /** true when the point is inside or on the box (distance 0) */
  inside: boolean;
  /** outside: the direction from the closest point to the point, in the world (not normalised) */
  dirWorld?: DyV;
  /** inside: the six faces' penetrations h − |l| (scaled frame, over den), tie-break order +x, −x, +y, … */
  pens?: Dy[];
}

export function contactAt(sw: Sweep, t: Time): ExactContact {
  const P = posNum(sw, t);
  const d2 = dist2At(sw, t);
  const overlap = within(d2, sw.r);
  if (!isZero(d2.num)) {
    const dir: Dy[] = [];
    for (let i = 0; i < 3; i++) {
      const H = mul(sw.h[i], t.s);
      dir.push(cmp(P[i], H) > 0 ? sub(P[i], H) : cmp(P[i], neg(H)) < 0 ? add(P[i], H) : D0);
    }
    return { overlap, d2, P, den: t.s, inside: false, dirWorld: toWorldScaled(sw.frame, dir as DyV) };
  }
  const pens: Dy[] = [];
  for (let i = 0; i < 3; i++) {
    const H = mul(sw.h[i], t.s);
    pens.push(sub(H, P[i]), add(H, P[i]));
  }
  return { overlap, d2, P, den: t.s, inside: true, pens };
}

// ---------------------------------------------------------------------------------------------
// Rounding to order-1 doubles for tolerance comparisons

/** v·2^−k as doubles. */
export const approxV = (v: DyV, k: number): [number, number, number] => [approx(v[0], k), approx(v[1], k), approx(v[2], k)];

/** The unit vector along a nonzero exact vector, rounded once (plus the normalisation's rounding). */
export function unitOf(v: DyV): [number, number, number] {
  const k = Math.max(exponentOf(v[0]), exponentOf(v[1]), exponentOf(v[2]));
  const a = approxV(v, k);
  const n = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / n, a[1] / n, a[2] / n];
}

/** sqrt(f)/scale·2^−k as a double: a squared length of the scaled frame as a world length at order 1. */
export function lengthApprox(f: Frac, scale: Dy, k: number): number {
  if (isZero(f.num)) return 0;
  const Y = mul(f.den, sq(scale));
  const kn = exponentOf(f.num);
  const kd = exponentOf(Y);
  let ratio = approx(f.num, kn) / approx(Y, kd);
  let e = kn - kd - 2 * k;
  if (e % 2 !== 0) {
    ratio *= 2;
    e -= 1;
  }
  return Math.sqrt(ratio) * pow2(e / 2);
}

/** A length of the scaled frame over `den` (e.g. a penetration) as a world length ·2^−k. */
export function scaledLengthApprox(x: Dy, den: Dy, scale: Dy, k: number): number {
  const Y = mul(den, scale);
  const kd = exponentOf(Y);
  return approx(x, k + kd) / approx(Y, kd);
}

/** The world position of the scaled-frame point P/den, times 2^−k. */
export function worldPointApprox(sw: Sweep, P: DyV, den: Dy, k: number): [number, number, number] {
  // P is N·local·den and M = N·R, so M·P = N²·den·(R·local): the world offset is M·P/(N²·den)
  // (P/den without rotation).
  const W = toWorldScaled(sw.frame, P);
  const divisor = sw.frame.identity ? den : mul(mul(sw.frame.N, sw.frame.N), den);
  const kd = exponentOf(divisor);
  const d = approx(divisor, kd);
  const o = approxV(sw.origin, k);
  const w = approxV(W, k + kd);
  return [o[0] + w[0] / d, o[1] + w[1] / d, o[2] + w[2] / d];
}
