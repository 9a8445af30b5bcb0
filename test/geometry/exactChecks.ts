/**
 * Checks of the geometry queries against the exact oracle (test/oracle/exact.ts), with the
 * tolerance model of the closed-solid contract.
 *
 * Tolerance model. δ = 2^−TOL_BITS·S + TOL_SUBNORMALS·2^−1074, where S is the scene scale (the largest
 * magnitude among the centres, radii, half extents and motion, rounded up to a power of two):
 * - decisions (overlap, contact's boolean, cast's hit): on grid scenes (every float operation of the
 *   implementation on them is exact or the gap is far above rounding) they must be exact: touching
 *   is true, at the start, at toi 1 and at a grazing instant. On other scenes they must agree with
 *   the exact answer whenever the exact gap (distance minus radius) is outside [−δ, δ];
 * - a cast's toi: the exact gap at toi within [−δ, δ] and none below −δ before it (position space:
 *   an ill-conditioned grazing toi is judged by where it puts the sphere);
 * - depth and point within δ of the exact ones; |normal| within 2^−46 of 1; the normal within
 *   4δ/d + 2^−46 of the exact one when the centre is at distance d > 4δ from the second shape (any
 *   unit normal otherwise: the direction is not determined by the inputs to better than that).
 * Each check returns the category of the first failure and a message, or undefined.
 */
import {
  type BoxIn,
  type Dy,
  type DyV,
  type ExactContact,
  type NumV3,
  type SphereIn,
  type Sweep,
  type Time,
  D0,
  T0,
  T1,
  add,
  approx,
  approxTime,
  approxV,
  beyond,
  cmp,
  contactAt,
  dist2At,
  dy,
  dyV,
  exponentOf,
  firstContactApprox,
  lengthApprox,
  minDist2,
  mul,
  scaledLengthApprox,
  sgn,
  sphereBoxSweep,
  sphereSphereSweep,
  sub,
  subV,
  timeOf,
  unitOf,
  within,
  worldPointApprox,
} from '../oracle/exact.js';

/** δ's relative part: 2^−40 of the scene scale (~9.1e-13·S). */
export const TOL_BITS = 40;
/** δ's absolute part, in units of the smallest subnormal 2^−1074. */
export const TOL_SUBNORMALS = 64;
/** Tolerance on |normal| − 1 and on a face normal's direction. */
export const UNIT_TOL = 2 ** -46;

export type Failure = { kind: 'decision' | 'toi' | 'normal' | 'point' | 'depth' | 'output' | 'mirror'; message: string };

export interface Tol {
  /** decisions must be exact (grid scenes) */
  exact: boolean;
  /** δ in world units, exactly */
  delta: Dy;
  /** exponent k of the scene scale: doubles compared at scale 2^−k are order 1 */
  k: number;
  /** δ·2^−k */
  deltaK: number;
}

/** The scene scale's exponent: floor(log2) of the largest magnitude among the values (0 for all zeros). */
export function scaleExponent(values: number[]): number {
  let m = 0;
  for (const v of values) m = Math.max(m, Math.abs(v));
  return m === 0 ? 0 : exponentOf(dy(m));
}

export function toleranceFor(values: number[], exact: boolean): Tol {
  const k = scaleExponent(values);
  const delta = add({ m: 1n, e: k + 1 - TOL_BITS }, { m: BigInt(TOL_SUBNORMALS), e: -1074 });
  return { exact, delta, k, deltaK: approx(delta, k) };
}

/** The numbers of a sphere (centre, radius). */
export const sphereValues = (s: SphereIn): number[] => [s.center.x, s.center.y, s.center.z, s.radius];
/** The lengths of a box (centre, half extents; not the rotation). */
export const boxValues = (b: BoxIn): number[] => [b.center.x, b.center.y, b.center.z, b.halfExtents.x, b.halfExtents.y, b.halfExtents.z];
export const vecValues = (v: NumV3): number[] => [v.x, v.y, v.z];

const finite = (v: NumV3): boolean => Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z);
const fmt = (v: NumV3 | number[]): string => (Array.isArray(v) ? `(${v.join(', ')})` : `(${v.x}, ${v.y}, ${v.z})`);
const maxDiff = (a: number[], b: number[]): number => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
const scaledK = (v: NumV3, k: number): number[] => [approx(dy(v.x), k), approx(dy(v.y), k), approx(dy(v.z), k)];

/** The shape the contact's point lies on: a box (sphere–box) or b's sphere (sphere–sphere, radius rb). */
export type Second = { kind: 'box'; box: BoxIn } | { kind: 'sphere'; center: NumV3; radius: number };

/** Whether a world point is within δ of the second shape's surface, exactly. */
function onSurface(second: Second, p: NumV3, tol: Tol): boolean {
  if (second.kind === 'sphere') {
    const d2 = { num: sumSq(subV(dyV(p), dyV(second.center))), den: { m: 1n, e: 0 } };
    const rb = dy(second.radius);
    return within(d2, rb, tol.delta) && beyond(d2, rb, { m: -tol.delta.m, e: tol.delta.e });
  }
  const sw = sphereBoxSweep({ center: p, radius: 0 }, second.box);
  const d2 = dist2At(sw, T0);
  const deltaN = mul(tol.delta, sw.scale);
  if (sgn(d2.num) > 0) return within(d2, D0, deltaN);
  // inside or on: the smallest penetration h − |l| must be <= δ
  let minPen: Dy | undefined;
  for (let i = 0; i < 3; i++) {
    const l = sw.L[i];
    const pen = sub(sw.h[i], sgn(l) < 0 ? { m: -l.m, e: l.e } : l);
    if (minPen === undefined || cmp(pen, minPen) < 0) minPen = pen;
  }
  return cmp(minPen!, deltaN) <= 0;
}

const sumSq = (v: DyV): Dy => add(add(mul(v[0], v[0]), mul(v[1], v[1])), mul(v[2], v[2]));

export interface ContactOut {
  normal: NumV3;
  point: NumV3;
  depth?: number;
}

/**
 * The outputs of a contact (static, or a cast's at `t`) against the exact contact of the sweep at t.
 * `offset`: the distance of the reported point from the closest point of the grown shape's core
 * along the normal (0 for sphere–box, rb for sphere–sphere). `exactTies`: the inside face must be
 * exactly the tie-break's choice.
 */
export function checkContactOutputs(
  sw: Sweep,
  t: Time,
  out: ContactOut,
  second: Second,
  offset: number,
  tol: Tol,
  exactTies: boolean,
): Failure | undefined {
  const { normal: n, point: p, depth } = out;
  if (!finite(n) || !finite(p) || (depth !== undefined && !Number.isFinite(depth)))
    return { kind: 'output', message: `non-finite output normal=${fmt(n)} point=${fmt(p)} depth=${depth}` };
  const len = Math.hypot(n.x, n.y, n.z);
  if (!(Math.abs(len - 1) <= UNIT_TOL)) return { kind: 'normal', message: `|normal| = ${len} (normal ${fmt(n)})` };
  if (!onSurface(second, p, tol)) return { kind: 'point', message: `point ${fmt(p)} is not within δ of the second shape's surface` };
  const c = contactAt(sw, t);
  const k = tol.k;
  const nArr = [n.x, n.y, n.z];
  const pK = scaledK(p, k);
  const offK = approx(dy(offset), k);
  const rK = scaledLengthApprox(sw.r, D1, sw.scale, k);
  if (!c.inside) {
    const distK = lengthApprox(c.d2, sw.scale, k);
    const nStar = unitOf(c.dirWorld!);
    const conditioned = distK > 4 * tol.deltaK;
    if (conditioned) {
      const ntol = Math.min(2, (4 * tol.deltaK) / distK + UNIT_TOL);
      if (!(maxDiff(nArr, nStar) <= ntol)) return { kind: 'normal', message: `normal ${fmt(n)}, exact ${fmt(nStar)} (tol ${ntol}, distance·2^-k ${distK})` };
      const closest = closestWorld(sw, c, k);
      const expected = [closest[0] + n.x * offK, closest[1] + n.y * offK, closest[2] + n.z * offK];
      if (!(maxDiff(pK, expected) <= tol.deltaK)) return { kind: 'point', message: `point·2^-k ${fmt(pK)}, exact ${fmt(expected)} (δ·2^-k ${tol.deltaK})` };
    }
    if (depth !== undefined) {
      const expected = rK - distK;
      if (!(Math.abs(approx(dy(depth), k) - expected) <= tol.deltaK)) return { kind: 'depth', message: `depth·2^-k ${approx(dy(depth), k)}, exact ${expected} (δ·2^-k ${tol.deltaK})` };
    }
    return undefined;
  }
  // inside or on the core (distance 0): a face of least penetration
  const pens = c.pens!;
  let minIdx = 0;
  for (let f = 1; f < 6; f++) if (cmp(pens[f], pens[minIdx]) < 0) minIdx = f;
  const bandN = mul(mul(tol.delta, sw.scale), c.den);
  const candidates = exactTies ? [minIdx] : [0, 1, 2, 3, 4, 5].filter((f) => cmp(pens[f], add(pens[minIdx], bandN)) <= 0);
  const nearSurface = cmp(pens[minIdx], mul(bandN, { m: 4n, e: 0 })) <= 0;
  if (!exactTies && nearSurface) {
    // within 4δ of the surface from inside: the normal is not determined to better than that
    if (depth !== undefined && !(Math.abs(approx(dy(depth), k) - rK) <= 5 * tol.deltaK)) return { kind: 'depth', message: `depth·2^-k ${approx(dy(depth), k)}, exact ~${rK}` };
    return undefined;
  }
  for (const f of candidates) {
    const axis = f >> 1;
    const sign = f % 2 === 0 ? 1 : -1;
    const local: DyV = [D0, D0, D0];
    local[axis] = { m: BigInt(sign), e: 0 };
    const faceN = unitOf(toWorldDir(sw, local));
    if (!(maxDiff(nArr, faceN) <= UNIT_TOL)) continue;
    const P: DyV = [c.P[0], c.P[1], c.P[2]];
    P[axis] = mul(sw.h[axis], sign > 0 ? c.den : { m: -c.den.m, e: c.den.e });
    const proj = worldPointApprox(sw, P, c.den, k);
    const expected = [proj[0] + n.x * offK, proj[1] + n.y * offK, proj[2] + n.z * offK];
    if (!(maxDiff(pK, expected) <= tol.deltaK)) return { kind: 'point', message: `inside: point·2^-k ${fmt(pK)}, projection on the chosen face ${fmt(expected)}` };
    if (depth !== undefined) {
      const expectedDepth = rK + scaledLengthApprox(pens[f], c.den, sw.scale, k);
      if (!(Math.abs(approx(dy(depth), k) - expectedDepth) <= tol.deltaK)) return { kind: 'depth', message: `inside: depth·2^-k ${approx(dy(depth), k)}, exact ${expectedDepth}` };
    }
    return undefined;
  }
  return { kind: 'normal', message: `inside: normal ${fmt(n)} is not the normal of ${exactTies ? 'the tie-break face' : 'a face of least penetration'} (faces ${candidates.join(', ')} of +x -x +y -y +z -z)` };
}

const D1: Dy = { m: 1n, e: 0 };

function toWorldDir(sw: Sweep, local: DyV): DyV {
  const M = sw.frame.M;
  if (sw.frame.identity) return local;
  return [
    add(add(mul(M[0], local[0]), mul(M[1], local[1])), mul(M[2], local[2])),
    add(add(mul(M[3], local[0]), mul(M[4], local[1])), mul(M[5], local[2])),
    add(add(mul(M[6], local[0]), mul(M[7], local[1])), mul(M[8], local[2])),
  ];
}

/** The closest point of the (ungrown) box to the sweep's point, in the world, times 2^−k. */
function closestWorld(sw: Sweep, c: ExactContact, k: number): number[] {
  const P: DyV = [c.P[0], c.P[1], c.P[2]];
  for (let i = 0; i < 3; i++) {
    const H = mul(sw.h[i], c.den);
    if (cmp(P[i], H) > 0) P[i] = H;
    else if (cmp(P[i], { m: -H.m, e: H.e }) < 0) P[i] = { m: -H.m, e: H.e };
  }
  return worldPointApprox(sw, P, c.den, k);
}

// ---------------------------------------------------------------------------------------------
// Decisions

const negDy = (a: Dy): Dy => ({ m: -a.m, e: a.e });

/** An overlap answer (or a contact's boolean) against the exact answer. */
export function checkOverlapDecision(sw: Sweep, got: unknown, tol: Tol): Failure | undefined {
  if (typeof got !== 'boolean') return { kind: 'decision', message: `returned ${String(got)}` };
  const d2 = dist2At(sw, T0);
  const exact = within(d2, sw.r);
  if (tol.exact) return got === exact ? undefined : { kind: 'decision', message: `${got}, exactly ${exact} (grid scene)` };
  const deltaN = mul(tol.delta, sw.scale);
  if (got && !within(d2, sw.r, deltaN)) return { kind: 'decision', message: 'true, but separated by more than δ' };
  if (!got && within(d2, sw.r, negDy(deltaN))) return { kind: 'decision', message: 'false, but overlapping by more than δ' };
  return undefined;
}

export interface CastOut {
  toi: number;
  normal: NumV3;
  point: NumV3;
}

/** A cast's hit and toi against the exact sweep; on a hit, the outputs at toi (see checkContactOutputs). */
export function checkCast(sw: Sweep, hit: unknown, out: CastOut, second: Second, offset: number, tol: Tol): Failure | undefined {
  if (typeof hit !== 'boolean') return { kind: 'decision', message: `returned ${String(hit)}` };
  const deltaN = mul(tol.delta, sw.scale);
  const startD2 = dist2At(sw, T0);
  const startTouch = within(startD2, sw.r);
  const min = minDist2(sw, T0, T1);
  const exactHit = within(min.d2, sw.r);
  const describe = () => `exact first contact ~${firstContactApprox(sw)}, closest approach at ~${approxTime(min.at)}`;
  if (tol.exact) {
    if (hit !== exactHit) return { kind: 'decision', message: `hit ${hit} (toi ${out.toi}), exactly ${exactHit} (grid scene; ${describe()})` };
  } else {
    if (hit && !within(min.d2, sw.r, deltaN)) return { kind: 'decision', message: `hit at toi ${out.toi}, but the closest approach is beyond δ (${describe()})` };
    if (!hit && within(min.d2, sw.r, negDy(deltaN))) return { kind: 'decision', message: `miss, but the shapes overlap by more than δ within the step (${describe()})` };
  }
  if (!hit) return undefined;
  const toi = out.toi;
  if (!(toi >= 0 && toi <= 1)) return { kind: 'toi', message: `toi ${toi} not in [0, 1]` };
  if (tol.exact ? startTouch !== (toi === 0) : within(startD2, sw.r, negDy(deltaN)) && toi !== 0)
    return { kind: 'toi', message: `toi ${toi}, but touching at the start is ${startTouch} (${describe()})` };
  const t = timeOf(toi);
  if (toi > 0) {
    const d2 = dist2At(sw, t);
    if (!within(d2, sw.r, deltaN) || !beyond(d2, sw.r, negDy(deltaN)))
      return { kind: 'toi', message: `toi ${toi}: the gap there is not within δ (${describe()})` };
    if (!beyond(minDist2(sw, T0, t).d2, sw.r, negDy(deltaN))) return { kind: 'toi', message: `toi ${toi}: an earlier contact deeper than δ (${describe()})` };
  } else if (!within(startD2, sw.r, deltaN)) return { kind: 'toi', message: `toi 0, but the start is separated by more than δ (${describe()})` };
  // the second shape is at rest in the sweep's frame, so the outputs at toi are judged against it as given
  const f = checkContactOutputs(sw, t, out, second, offset, tol, tol.exact && toi === 0);
  return f === undefined ? undefined : { kind: f.kind, message: `at toi ${toi}: ${f.message}` };
}

// ---------------------------------------------------------------------------------------------
// Per query

export const ssSecond = (b: SphereIn): Second => ({ kind: 'sphere', center: b.center, radius: b.radius });
export const sbSecond = (box: BoxIn): Second => ({ kind: 'box', box });

export { sphereBoxSweep, sphereSphereSweep, approxV };
