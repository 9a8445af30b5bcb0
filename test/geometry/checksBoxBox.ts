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
  OBox,
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
  boxesWithin,
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

/** The oracle's view of a static scene: its tolerance, the two boxes and whether they meet. */
function staticScene(a: OBoxShape, b: OBoxShape): { eps: number; A: Poly; B: Poly; meet: boolean } {
  const A = polyOf(a);
  const B = polyOf(b);
  return { eps: EPS_REL * bbScale(a, b), A, B, meet: boxesIntersect(A, B) };
}

/** Overlap answers for (a, b) and for (b, a) against the oracle (outside the band |σ| <= eps). */
export function checkOverlapBB(a: OBoxShape, b: OBoxShape, got: unknown, gotMirrored: unknown): string | undefined {
  const { eps, A, B, meet } = staticScene(a, b);
  const e = overlapAgainst(A, B, meet, got, eps);
  if (e) return e;
  const m = overlapAgainst(B, A, meet, gotMirrored, eps);
  return m === undefined ? undefined : `mirrored: ${m}`;
}

/** A static contact against the oracle (the boolean too). */
export function checkContactBB(a: OBoxShape, b: OBoxShape, hit: boolean, out: Contact): string | undefined {
  const { eps, A, B, meet } = staticScene(a, b);
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

/**
 * The oracle of one cast scene, computed lazily and shared by both argument orders: the contact
 * events, the signed distance σ(t) (memoised) and the clear-miss filter depend only on the relative
 * motion, so a moving by `motion` against b and b moving by −motion against a have the same ones.
 */
export class CastSceneOracle {
  private ev: number | null | undefined;
  private apart: boolean | undefined;
  private readonly memo = new Map<number, number>();
  private readonly gap: (t: number) => number;

  constructor(
    readonly a: OBoxShape,
    readonly motion: V3,
    readonly b: OBoxShape,
  ) {
    this.gap = boxBoxGap(a, motion, b);
    this.B = polyOf(b);
  }

  /** castEvents of the scene. */
  events(): number | null {
    if (this.ev === undefined) this.ev = castEvents(this.a, this.motion, this.b);
    return this.ev;
  }

  /** σ(t), the signed distance at fraction t. */
  readonly sigma = (t: number): number => {
    let v = this.memo.get(t);
    if (v === undefined) this.memo.set(t, (v = this.gap(t)));
    return v;
  };

  private readonly B: Poly;

  /** The boxes at fraction t. */
  at(t: number): [Poly, Poly] {
    return [polyOf(this.a, scale3(toArr(this.motion), t)), this.B];
  }

  /** −σ(t) when the boxes meet at t (the penetration), else 0: how much they overlap. */
  overlapAt(t: number): number {
    const [A, B] = this.at(t);
    return boxesIntersect(A, B) ? Math.max(0, penetration(A, B).depth) : 0;
  }

  /** Whether |σ(t)| <= eps: touching at t within eps. */
  touchingAt(t: number, eps: number): boolean {
    const [A, B] = this.at(t);
    return boxesIntersect(A, B) ? penetration(A, B).depth <= eps : boxesWithin(A, B, eps);
  }

  /** Whether the boxes clearly cannot touch (see farApart), decided once with the first eps asked for. */
  far(eps: number): boolean {
    if (this.apart === undefined) this.apart = farApart(this.a, this.motion, this.b, eps);
    return this.apart;
  }
}

/**
 * Check a cast of a by `motion` against b; returns [error, path]. `oracle` is the scene's oracle,
 * for either argument order (by default, this order's).
 */
export function checkCastBB(a: OBoxShape, motion: V3, b: OBoxShape, c: CastUnderTest, oracle = new CastSceneOracle(a, motion, b)): [string | undefined, CastPath] {
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
  if (!hit && oracle.far(eps)) return [undefined, 'miss (far)'];
  const events = oracle.events();
  const sigma = oracle.sigma;
  if (!hit) {
    if (events === null) return [undefined, 'miss'];
    const m = convexMin(sigma, 0, 1);
    if (m.v < -eps) return [`miss, but the boxes overlap by ${-m.v} at t=${m.t} (first contact event ${events}, eps ${eps})`, 'miss (σ)'];
    return [undefined, 'miss (σ)'];
  }
  const toi = out.toi;
  if (!(toi > 0 && toi <= 1)) return [`toi ${toi} not in (0, 1] from a separated start`, 'hit'];
  const s0 = oracle.overlapAt(0);
  if (s0 > eps) return [`the start overlaps by ${s0} but toi = ${toi}`, 'hit'];
  if (!oracle.touchingAt(toi, eps)) return [`signed distance ${sigma(toi)} at toi ${toi} (first contact event ${events}, eps ${eps})`, 'hit'];
  const st = -oracle.overlapAt(toi);
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

/** Half sizes of a box's world bounding box: Σ_j h_j |axis_j[k]| along each world axis k. */
function worldHalfSizes(shape: OBoxShape): Arr3 {
  const box = new OBox(shape);
  return [0, 1, 2].map((k) => box.h[0] * Math.abs(box.axes[0][k]) + box.h[1] * Math.abs(box.axes[1][k]) + box.h[2] * Math.abs(box.axes[2][k])) as Arr3;
}

/**
 * Whether the boxes clearly cannot touch during the motion (cheap, obviously sound filters): a's
 * centre passes b's farther than the sum of their circumradii, or the bounding box of a's start and
 * end poses is apart from b's bounding box, by more than eps.
 */
function farApart(a: OBoxShape, motion: V3, b: OBoxShape, eps: number): boolean {
  const ha = worldHalfSizes(a);
  const hb = worldHalfSizes(b);
  const ca = toArr(a.center);
  const cb = toArr(b.center);
  const m = toArr(motion);
  for (let k = 0; k < 3; k++) {
    const lo = Math.min(ca[k], ca[k] + m[k]) - ha[k];
    const hi = Math.max(ca[k], ca[k] + m[k]) + ha[k];
    if (lo > cb[k] + hb[k] + eps || hi < cb[k] - hb[k] - eps) return true;
  }
  const rel = [a.center.x - b.center.x, a.center.y - b.center.y, a.center.z - b.center.z];
  const mm = m[0] * m[0] + m[1] * m[1] + m[2] * m[2];
  const t = mm > 0 ? Math.min(1, Math.max(0, -(rel[0] * m[0] + rel[1] * m[1] + rel[2] * m[2]) / mm)) : 0;
  const closest = Math.hypot(rel[0] + t * m[0], rel[1] + t * m[1], rel[2] + t * m[2]);
  const radii = norm3(toArr(a.halfExtents)) + norm3(toArr(b.halfExtents));
  return closest > radii * (1 + 1e-9) + eps;
}

/** Euclidean distance between the boxes (for reports). */
export const bbDistance = (a: OBoxShape, b: OBoxShape): number => boxesDistance(polyOf(a), polyOf(b));
