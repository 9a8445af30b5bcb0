/**
 * Independent reference ("oracle") for the world queries: plain float64 brute force, importing
 * nothing from src/ and deliberately not the library's approach.
 *  - ray–box: the box's local frame from the rotation matrix (columns = world axes), then the
 *    Kay–Kajiya slabs on the closed box (an origin inside: distance 0);
 *  - ray–sphere: the closest approach of the line to the centre, then back along the ray by the half chord;
 *  - sphere cast against a box: the distance from the moving centre to the box (a clamp in the box's
 *    frame) is convex in t; golden section finds its minimum, bisection the first time it reaches r;
 *  - sphere cast against a sphere: the ray against the sphere of radius R + r.
 * Robust classification: each body is tested with its shape (or the query radius) grown and shrunk
 * by `tol`: a hit with the shrunk shape is a clear hit, a miss with the grown one a clear miss, and
 * a library distance must lie between the grown and the shrunk entry distances.
 * @module
 */

export type P3 = [number, number, number];

/** A body as the oracle sees it: a sphere (radius) or a box (half extents and a unit quaternion). */
export interface OracleBody {
  eid: number;
  kind: 'sphere' | 'box';
  c: P3;
  radius: number;
  h: P3;
  /** Unit quaternion x, y, z, w. */
  q: [number, number, number, number];
  group: number;
  mask: number;
  sensor: boolean;
}

/** Rotation matrix rows (row-major 3×3) of a unit quaternion. */
export function matrix(q: [number, number, number, number]): number[] {
  const [x, y, z, w] = q;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
    2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
    2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y),
  ];
}

/** World vector v in the box's local frame (Rᵀ·v). */
export function toLocal(m: number[], v: P3): P3 {
  return [
    m[0] * v[0] + m[3] * v[1] + m[6] * v[2],
    m[1] * v[0] + m[4] * v[1] + m[7] * v[2],
    m[2] * v[0] + m[5] * v[1] + m[8] * v[2],
  ];
}

const sub = (a: P3, b: P3): P3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/** First t in [0, L] where the ray o + t·d (d unit) meets the closed box, or Infinity. */
export function rayBox(o: P3, d: P3, L: number, b: OracleBody, grow: number): number {
  const m = matrix(b.q);
  const lo = toLocal(m, sub(o, b.c));
  const ld = toLocal(m, d);
  let t0 = 0;
  let t1 = L;
  for (let a = 0; a < 3; a++) {
    const h = b.h[a] + grow;
    if (h < 0) return Infinity;
    if (ld[a] === 0) {
      if (lo[a] < -h || lo[a] > h) return Infinity;
      continue;
    }
    let ta = (-h - lo[a]) / ld[a];
    let tb = (h - lo[a]) / ld[a];
    if (ta > tb) [ta, tb] = [tb, ta];
    t0 = Math.max(t0, ta);
    t1 = Math.min(t1, tb);
    if (t0 > t1) return Infinity;
  }
  return t0;
}

/**
 * First t in [0, L] where the ray meets the closed sphere (c, R), or Infinity: the closest approach
 * t_c = −w·d and the squared distance of the line from c (|w + t_c·d|², measured directly, not as a
 * difference of large squares), then t = t_c − √(R² − that).
 */
export function raySphere(o: P3, d: P3, L: number, c: P3, R: number): number {
  if (R < 0) return Infinity;
  const w = sub(o, c);
  if (w[0] * w[0] + w[1] * w[1] + w[2] * w[2] <= R * R) return 0;
  const tc = -(w[0] * d[0] + w[1] * d[1] + w[2] * d[2]);
  if (tc < 0) return Infinity;
  const p: P3 = [w[0] + tc * d[0], w[1] + tc * d[1], w[2] + tc * d[2]];
  const h2 = R * R - (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  if (h2 < 0) return Infinity;
  const t = tc - Math.sqrt(h2);
  return t <= L ? Math.max(t, 0) : Infinity;
}

/** Distance from world point p to the closed box (0 inside). */
export function pointBoxDistance(p: P3, b: OracleBody): number {
  const l = toLocal(matrix(b.q), sub(p, b.c));
  let s = 0;
  for (let a = 0; a < 3; a++) {
    const e = Math.abs(l[a]) - b.h[a];
    if (e > 0) s += e * e;
  }
  return Math.sqrt(s);
}

const PHI = (Math.sqrt(5) - 1) / 2;

/** First t in [0, L] where the convex f(t) reaches ≤ 0, or Infinity (golden section, then bisection). */
export function firstRoot(f: (t: number) => number, L: number): number {
  if (f(0) <= 0) return 0;
  let a = 0;
  let b = L;
  for (let i = 0; i < 90 && b - a > 0; i++) {
    const x1 = b - PHI * (b - a);
    const x2 = a + PHI * (b - a);
    if (f(x1) <= f(x2)) b = x2;
    else a = x1;
  }
  let tMin = (a + b) / 2;
  if (f(L) <= f(tMin)) tMin = L;
  if (f(tMin) > 0) return Infinity;
  let lo = 0;
  let hi = tMin;
  for (let i = 0; i < 90; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) <= 0) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** First distance in [0, L] at which the sphere of radius r swept from o along d touches body b (grown by `grow`), or Infinity. */
export function castEntry(o: P3, d: P3, L: number, r: number, b: OracleBody, grow: number): number {
  if (b.kind === 'sphere') return raySphere(o, d, L, b.c, b.radius + r + grow);
  if (r === 0 || r + grow <= 0) return rayBox(o, d, L, b, r + grow);
  const R = r + grow;
  return firstRoot((t) => pointBoxDistance([o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]], b) - R, L);
}

/** The oracle's view of one body for one cast: entry distance with the body grown (`early`) and shrunk (`late`) by tol. */
export interface CastBounds {
  early: number;
  late: number;
}

export function castBounds(o: P3, d: P3, L: number, r: number, b: OracleBody, tol: number): CastBounds {
  return { early: castEntry(o, d, L, r, b, tol), late: castEntry(o, d, L, r, b, -tol) };
}

/** Distance from point p to body b (0 inside). */
export function pointBodyDistance(p: P3, b: OracleBody): number {
  if (b.kind === 'sphere') return Math.max(0, Math.hypot(p[0] - b.c[0], p[1] - b.c[1], p[2] - b.c[2]) - b.radius);
  return pointBoxDistance(p, b);
}

/** Whether the filter admits body b (group/mask both ways, exclusion, sensors). */
export function admits(b: OracleBody, f: { group?: number; mask?: number; exclude?: number; sensors?: boolean } | undefined): boolean {
  const group = f?.group ?? 0xffffffff;
  const mask = f?.mask ?? 0xffffffff;
  if (((group & b.mask) >>> 0) === 0 || ((b.group & mask) >>> 0) === 0) return false;
  if (f?.exclude === b.eid) return false;
  return !b.sensor || f?.sensors === true;
}
