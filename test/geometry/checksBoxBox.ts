/**
 * Box–box results against the oracle (test/oracle/boxBox.ts), with tolerances in position space.
 *
 * eps = EPS_REL · S, S the scene scale (largest absolute coordinate, half extent or motion component,
 * start and end poses included). Checkers return an error string (or undefined):
 *  - overlap / hit: must agree with the oracle's signed distance σ outside the band |σ| <= eps;
 *  - contact: |normal| = 1; depth = −σ (the penetration depth) within eps; the push-out distance of a
 *    along the normal equals the depth (the normal is a direction of least overlap, pointing from b
 *    toward a); the point lies on b's surface and within depth of a (at a when touching);
 *  - cast: toi in [0, 1]; toi = 0 exactly iff the implementation's static test overlaps at the start
 *    (and then the static contact); a hit whenever the static test overlaps at the end pose; at toi
 *    the boxes touch (|σ(toi)| <= eps) and no earlier pose overlaps by more than eps (checked against
 *    the contact-event oracle, and where they disagree against σ's minimum, σ being convex); the
 *    normal at toi separates the boxes (push-out 0 within eps) and does not point along the motion
 *    (a comes from the side it points to), and the point is where they touch.
 */
import {
  type Arr3,
  type OBoxShape,
  type V3,
  boxSignedDistance,
  convexMin,
  maxAbs3,
  norm3,
  scale3,
  toArr,
} from '../oracle/oracle.js';
import {
  boxBoxGap,
  boxesDistance,
  boxesIntersect,
  castEvents,
  candidateAxes,
  penetration,
  polyOf,
  pushOut,
  signedDistance,
  type Poly,
} from '../oracle/boxBox.js';
import { EPS_REL, UNIT_TOL, checkOverlapGap } from './checks.js';

export interface Contact {
  normal: V3;
  depth: number;
  point: V3;
}
export interface Cast {
  toi: number;
  normal: V3;
  point: V3;
}

const fmt = (v: V3 | Arr3): string => {
  const a = Array.isArray(v) ? v : toArr(v);
  return `(${a.join(', ')})`;
};

/** Largest absolute coordinate, half extent or motion component of the scene (start and end poses). */
export function bbScale(a: OBoxShape, b: OBoxShape, motion?: V3): number {
  let s = 1e-300;
  const take = (v: V3) => {
    s = Math.max(s, maxAbs3(toArr(v)));
  };
  take(a.center);
  take(a.halfExtents);
  take(b.center);
  take(b.halfExtents);
  if (motion) {
    take(motion);
    take({ x: a.center.x + motion.x, y: a.center.y + motion.y, z: a.center.z + motion.z });
  }
  return s;
}

function checkUnit(normal: V3, point: V3): string | undefined {
  const all = [normal.x, normal.y, normal.z, point.x, point.y, point.z];
  if (!all.every(Number.isFinite)) return `non-finite output normal=${fmt(normal)} point=${fmt(point)}`;
  const len = norm3(toArr(normal));
  if (!(Math.abs(len - 1) <= UNIT_TOL)) return `|normal| = ${len}`;
  return undefined;
}

/**
 * A contact (normal, point and, when given, depth) of A against B, whose signed distance is `sd`: see
 * the module comment. `depth` undefined: a touching contact (casts), checked as depth 0.
 */
export function checkContactGeometry(A: Poly, B: Poly, sd: number, c: Contact | Cast, depth: number | undefined, eps: number): string | undefined {
  const unit = checkUnit(c.normal, c.point);
  if (unit) return unit;
  const n = toArr(c.normal);
  const p = toArr(c.point);
  const dep = depth ?? 0;
  if (depth !== undefined) {
    if (!(depth >= 0)) return `depth ${depth} < 0`;
    if (!(Math.abs(depth + Math.min(0, sd)) <= eps)) return `depth ${depth}, oracle penetration ${-sd} (eps ${eps})`;
  }
  const push = pushOut(A, B, n);
  if (!(Math.abs(push - dep) <= 2 * eps)) return `push-out of a along the normal ${fmt(n)} is ${push}, depth ${dep} (eps ${eps})`;
  const onB = boxSignedDistance(B.box, p);
  if (!(Math.abs(onB) <= eps)) return `point ${fmt(p)} not on b's surface (signed distance ${onB}, eps ${eps})`;
  const toA = boxSignedDistance(A.box, p);
  if (!(toA <= dep + 2 * eps)) return `point ${fmt(p)} is ${toA} from a, more than the depth ${dep} (eps ${eps})`;
  return undefined;
}

/**
 * An overlap answer of A against B: a boolean, equal to the oracle's intersection test `meet` unless
 * the signed distance is within the band |σ| <= eps (σ is computed only then).
 */
function overlapAgainst(A: Poly, B: Poly, meet: boolean, got: unknown, eps: number): string | undefined {
  if (typeof got !== 'boolean') return `returned ${String(got)}`;
  return got === meet ? undefined : checkOverlapGap(got, signedDistance(A, B), eps);
}

/** Overlap answers for (a, b) and for (b, a) against the oracle (outside the band |σ| <= eps). */
export function checkOverlapBB(a: OBoxShape, b: OBoxShape, got: unknown, gotMirrored: unknown): string | undefined {
  const eps = EPS_REL * bbScale(a, b);
  const A = polyOf(a);
  const B = polyOf(b);
  const meet = boxesIntersect(A, B);
  const e = overlapAgainst(A, B, meet, got, eps);
  if (e) return e;
  const m = overlapAgainst(B, A, meet, gotMirrored, eps);
  return m === undefined ? undefined : `mirrored: ${m}`;
}

/** A static contact against the oracle (the boolean too). */
export function checkContactBB(a: OBoxShape, b: OBoxShape, hit: boolean, out: Contact): string | undefined {
  const eps = EPS_REL * bbScale(a, b);
  const A = polyOf(a);
  const B = polyOf(b);
  const meet = boxesIntersect(A, B);
  const gap = overlapAgainst(A, B, meet, hit, eps);
  if (gap || !hit) return gap;
  const sd = meet ? -Math.max(0, penetration(A, B).depth) : boxesDistance(A, B);
  return checkContactGeometry(A, B, sd, out, out.depth, eps);
}

/**
 * The direction of least push-out when it is unique by more than `margin` (the next best direction,
 * other than itself, pushes out further), else undefined.
 */
export function uniqueAxis(a: OBoxShape, b: OBoxShape, margin: number): Arr3 | undefined {
  const A = polyOf(a);
  const B = polyOf(b);
  const best = penetration(A, B);
  for (const c of candidateAxes(A, B)) {
    for (const u of [c, scale3(c, -1)]) {
      if (maxAbs3([u[0] - best.axis[0], u[1] - best.axis[1], u[2] - best.axis[2]]) <= 1e-6) continue;
      if (pushOut(A, B, u) <= best.depth + margin) return undefined;
    }
  }
  return best.axis;
}

/** A cast under test: its result, and the implementation's static answers at the start and end poses. */
export interface CastUnderTest {
  hit: boolean;
  out: Cast;
  overlapAtStart: boolean;
  overlapAtEnd: boolean;
  /** contactBoxBox at the start pose (hit, contact), for toi = 0 */
  staticContact: { hit: boolean; out: Contact };
}

/** How the cast was confirmed (for the case-count report). */
export type CastPath = 'miss' | 'miss (far)' | 'miss (σ)' | 'start' | 'hit' | 'hit (σ)';

/** Check a cast of a by `motion` against b; returns [error, path]. */
export function checkCastBB(a: OBoxShape, motion: V3, b: OBoxShape, c: CastUnderTest): [string | undefined, CastPath] {
  const { hit, out } = c;
  const eps = EPS_REL * bbScale(a, b, motion);
  if (typeof hit !== 'boolean') return [`returned ${String(hit)}`, 'miss'];
  const still = motion.x === 0 && motion.y === 0 && motion.z === 0;
  if (still && hit !== c.overlapAtStart) return [`zero motion: cast ${hit} but overlap ${c.overlapAtStart}`, 'miss'];
  if (c.overlapAtStart !== c.staticContact.hit) return [`overlapBoxBox ${c.overlapAtStart} != contactBoxBox ${c.staticContact.hit}`, 'start'];
  if (c.overlapAtStart) {
    if (!hit || out.toi !== 0) return [`overlapping at the start but hit=${hit} toi=${out.toi}`, 'start'];
    const s = c.staticContact.out;
    const same = (u: V3, v: V3) => u.x === v.x && u.y === v.y && u.z === v.z;
    if (!same(out.normal, s.normal) || !same(out.point, s.point)) return [`toi 0 but not the static contact: ${JSON.stringify(out)} vs ${JSON.stringify(s)}`, 'start'];
    return [undefined, 'start'];
  }
  if (c.overlapAtEnd && !hit) return ['overlapBoxBox is true at the end pose but the cast misses', 'miss'];
  if (!hit && farApart(a, motion, b, eps)) return [undefined, 'miss (far)'];
  const events = castEvents(a, motion, b);
  const sigma = boxBoxGap(a, motion, b);
  if (!hit) {
    if (events === null) return [undefined, 'miss'];
    const m = convexMin(sigma, 0, 1);
    if (m.v < -eps) return [`miss, but the boxes overlap by ${-m.v} at t=${m.t} (first contact event ${events}, eps ${eps})`, 'miss (σ)'];
    return [undefined, 'miss (σ)'];
  }
  const toi = out.toi;
  if (!(toi > 0 && toi <= 1)) return [`toi ${toi} not in (0, 1] from a separated start`, 'hit'];
  const s0 = sigma(0);
  if (s0 < -eps) return [`the start overlaps by ${-s0} but toi = ${toi}`, 'hit'];
  const st = sigma(toi);
  if (!(Math.abs(st) <= eps)) return [`signed distance ${st} at toi ${toi} (first contact event ${events}, eps ${eps})`, 'hit'];
  let path: CastPath = 'hit';
  const speed = norm3(toArr(motion));
  if (events !== null && (toi - events) * speed > eps) {
    path = 'hit (σ)';
    const m = convexMin(sigma, 0, toi);
    if (m.v < -eps) return [`earlier contact: overlap ${-m.v} at t=${m.t} < toi ${toi} (first contact event ${events})`, path];
  }
  // From b toward a, which comes from that side: a moves against the normal (or across it).
  const along = out.normal.x * motion.x + out.normal.y * motion.y + out.normal.z * motion.z;
  if (!(along <= 1e-12 * speed)) return [`normal ${fmt(out.normal)} points along the motion (n·m = ${along})`, path];
  const e = checkContactGeometry(polyOf(a, scale3(toArr(motion), toi)), polyOf(b), st, out, undefined, eps);
  return [e === undefined ? undefined : `at impact (toi ${toi}, first contact event ${events}): ${e}`, path];
}

/** World bounding box [min x, min y, min z, max x, max y, max z] of a box. */
function worldBounds(P: Poly): number[] {
  const out = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = 0; i < 8; i++) {
    for (let k = 0; k < 3; k++) {
      out[k] = Math.min(out[k], P.v[3 * i + k]);
      out[3 + k] = Math.max(out[3 + k], P.v[3 * i + k]);
    }
  }
  return out;
}

/**
 * Whether the boxes clearly cannot touch during the motion (cheap, obviously sound filters): a's
 * centre passes b's farther than the sum of their circumradii, or the bounding box of a's start and
 * end poses is apart from b's bounding box, by more than eps.
 */
function farApart(a: OBoxShape, motion: V3, b: OBoxShape, eps: number): boolean {
  const A0 = worldBounds(polyOf(a));
  const A1 = worldBounds(polyOf(a, toArr(motion)));
  const B = worldBounds(polyOf(b));
  for (let k = 0; k < 3; k++) {
    if (Math.min(A0[k], A1[k]) > B[3 + k] + eps || Math.max(A0[3 + k], A1[3 + k]) < B[k] - eps) return true;
  }
  const rel = [a.center.x - b.center.x, a.center.y - b.center.y, a.center.z - b.center.z];
  const m = [motion.x, motion.y, motion.z];
  const mm = m[0] * m[0] + m[1] * m[1] + m[2] * m[2];
  const t = mm > 0 ? Math.min(1, Math.max(0, -(rel[0] * m[0] + rel[1] * m[1] + rel[2] * m[2]) / mm)) : 0;
  const closest = Math.hypot(rel[0] + t * m[0], rel[1] + t * m[1], rel[2] + t * m[2]);
  const radii = norm3(toArr(a.halfExtents)) + norm3(toArr(b.halfExtents));
  return closest > radii * (1 + 1e-9) + eps;
}

/** Euclidean distance between the boxes (for reports). */
export const bbDistance = (a: OBoxShape, b: OBoxShape): number => boxesDistance(polyOf(a), polyOf(b));
