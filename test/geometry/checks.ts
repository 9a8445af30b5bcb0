/**
 * Comparison of implementation results against the oracle, with tolerances.
 *
 * Tolerance model: eps = EPS_REL * S where S is the scene scale (largest absolute coordinate,
 * extent, radius or motion component). Every check is made in position space, so ill-conditioned
 * quantities (normals of near-surface centres, toi of grazing casts) get the slack their
 * conditioning implies rather than an arbitrary fixed slack:
 *  - overlap / hit decisions are only enforced when the oracle is more than eps away from the
 *    boundary case;
 *  - a contact (normal n, point p, depth) is checked by: |n| = 1; p on the surface; depth = r - sd(c);
 *    c = p + n * sd(c) (sd = signed distance of the centre); n is an outward supporting normal at p;
 *    plus, where unambiguous, equality with the oracle's point / normal / chosen face;
 *  - a cast toi is accepted iff the oracle gap f(toi) is within eps of 0 and f >= -eps on [0, toi]
 *    (touching at toi, no earlier contact).
 * Checkers return an error string (or undefined) so properties can throw with full context.
 */
import {
  OBox,
  type Arr3,
  type CastOracle,
  type OBoxShape,
  type OSphere,
  type V3,
  add3,
  boxSignedDistance,
  castOracle,
  contactSphereBoxOracle,
  convexMin,
  dot3,
  maxAbs3,
  norm3,
  positionAt,
  scale3,
  sphereBoxGap,
  sphereSphereGap,
  sub3,
  toArr,
  toV3,
} from '../oracle/oracle.js';

export const EPS_REL = Number(process.env.GEOM_EPS ?? 1e-9);
/** tolerance on |normal| - 1 and on face normals (pure rotation round-off) */
export const UNIT_TOL = 1e-12;

export interface CastOut {
  toi: number;
  normal: V3;
  point: V3;
}

export function sceneScale(...items: Array<V3 | number | undefined>): number {
  let s = 1e-300;
  for (const it of items) {
    if (it === undefined) continue;
    s = Math.max(s, typeof it === 'number' ? Math.abs(it) : maxAbs3(toArr(it)));
  }
  return s;
}

export const sbScale = (s: OSphere, b: OBoxShape, m?: V3): number =>
  sceneScale(s.center, s.radius, b.center, b.halfExtents, m);
export const ssScale = (a: OSphere, b: OSphere, m?: V3): number =>
  sceneScale(a.center, a.radius, b.center, b.radius, m);

const fmt = (v: Arr3 | V3): string => {
  const a = Array.isArray(v) ? v : toArr(v);
  return `(${a.map((x) => String(x)).join(', ')})`;
};

const finite3 = (v: V3): boolean => Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z);

/** normal tolerance for an outside centre at distance d given position tolerance eps */
export const normalTol = (eps: number, d: number): number => Math.min(2, (4 * eps) / d + UNIT_TOL);

/** A contact's outputs are finite and its normal is unit. */
function checkFiniteUnit(normal: V3, point: V3, depth: number | undefined): string | undefined {
  if (!finite3(normal) || !finite3(point) || (depth !== undefined && !Number.isFinite(depth)))
    return `non-finite output normal=${fmt(normal)} point=${fmt(point)} depth=${depth}`;
  const nlen = norm3(toArr(normal));
  if (!(Math.abs(nlen - 1) <= UNIT_TOL)) return `|normal| = ${nlen} (normal=${fmt(normal)})`;
  return undefined;
}

/** A cast under test: its motion, its result and the implementation's overlap test at the start pose. */
interface CastUnderTest {
  motion: V3;
  hit: boolean;
  out: CastOut;
  overlapAtStart: boolean;
  /** the overlap function behind overlapAtStart (for messages) */
  overlapName: string;
  eps: number;
}

/**
 * Check a cast against the oracle `o` of its gap f(t) (distance minus radii along the path): a
 * boolean result, the overlap test's answer for zero motion, hit or miss, toi in [0, 1], toi exactly
 * 0 when overlapping at the start, f(toi) within eps of 0 and no earlier contact; on a hit,
 * `contactAt(toi)` then checks the normal and point at impact.
 */
function checkCast(o: CastOracle, c: CastUnderTest, contactAt: (toi: number) => string | undefined): string | undefined {
  const { hit, out, eps } = c;
  const zero = checkZeroMotion(hit, c.motion, c.overlapAtStart);
  if (zero !== undefined) return zero;
  if (c.overlapAtStart && !(hit && out.toi === 0)) return `${c.overlapName} is true at the start but cast gave hit=${hit} toi=${out.toi}`;
  if (!hit) {
    if (o.f0 < -eps) return `miss, but the shapes overlap at the start (gap ${o.f0}, eps ${eps})`;
    if (o.fmin < -eps) return `miss, but the oracle hits: min gap ${o.fmin} at t=${o.tmin}, first contact t=${o.toi} (eps ${eps})`;
    return undefined;
  }
  const toi = out.toi;
  if (!(toi >= 0 && toi <= 1)) return `toi ${toi} not in [0, 1]`;
  if (o.fmin > eps) return `hit at toi ${toi}, but the oracle misses: min gap ${o.fmin} at t=${o.tmin} (eps ${eps})`;
  if (o.f0 < -eps && toi !== 0) return `overlapping at the start (gap ${o.f0}) but toi = ${toi} (expected exactly 0)`;
  if (toi === 0) {
    if (o.f0 > eps) return `toi 0 but the start gap is ${o.f0} (oracle toi ${o.toi}, eps ${eps})`;
  } else {
    const ft = o.f(toi);
    if (!(Math.abs(ft) <= eps)) return `gap at toi ${toi} is ${ft} (oracle toi ${o.toi}, eps ${eps})`;
    const mn = convexMin(o.f, 0, toi);
    if (mn.v < -eps) return `earlier contact: gap ${mn.v} at t=${mn.t} < toi ${toi} (oracle toi ${o.toi})`;
  }
  const e = contactAt(toi);
  return e === undefined ? undefined : `at impact (toi ${toi}, oracle toi ${o.toi}): ${e}`;
}

/**
 * An overlap answer (or a contact query's boolean) against the oracle's gap (distance minus radii):
 * it must be a boolean, and it must agree with the gap outside the band |gap| <= eps.
 */
export function checkOverlapGap(got: unknown, gap: number, eps: number): string | undefined {
  if (typeof got !== 'boolean') return `returned ${String(got)}`;
  if (gap < -eps && !got) return `false, but gap = ${gap} (clearly overlapping)`;
  if (gap > eps && got) return `true, but gap = ${gap} (clearly separated)`;
  return undefined;
}

/** Each component of `actual` within `tol` of the oracle's `expected` (tol 0: exactly; NaN never passes). */
export function checkVecNear(what: string, actual: V3, expected: Arr3, tol: number): string | undefined {
  const a = toArr(actual);
  if (a.every((x, i) => Math.abs(x - expected[i]) <= tol)) return undefined;
  return `${what} ${fmt(a)}, expected ${fmt(expected)}${tol === 0 ? ' exactly' : ` (tol ${tol})`}`;
}

/** An exact scene's contact: hit as expected and, where the scene gives one, exactly the expected depth. */
export function checkExactContact(sc: { kind: string; expectOverlap: boolean; expectDepth?: number }, hit: boolean, depth: number): string | undefined {
  if (hit !== sc.expectOverlap) return `${sc.kind}: returned ${hit}, expected ${sc.expectOverlap}`;
  if (hit && sc.expectDepth !== undefined && depth !== sc.expectDepth) return `${sc.kind}: depth ${depth}, expected exactly ${sc.expectDepth}`;
  return undefined;
}

/** A cast's result must be a boolean, and with zero motion it must equal the overlap test at the start. */
function checkZeroMotion(hit: unknown, motion: V3, overlapAtStart: boolean): string | undefined {
  if (typeof hit !== 'boolean') return `returned ${String(hit)}`;
  if (motion.x === 0 && motion.y === 0 && motion.z === 0 && hit !== overlapAtStart) return `zero motion: cast ${hit} but overlap ${overlapAtStart}`;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Sphere - box

/**
 * Check a sphere-box contact (normal from box toward centre c, point on the box surface).
 * depth === undefined: not reported (casts).
 */
export function checkSBContact(
  c: Arr3,
  r: number,
  box: OBoxShape,
  normal: V3,
  point: V3,
  depth: number | undefined,
  eps: number,
): string | undefined {
  const b = new OBox(box);
  const n = toArr(normal);
  const p = toArr(point);
  const unit = checkFiniteUnit(normal, point, depth);
  if (unit !== undefined) return unit;
  const sdP = boxSignedDistance(b, p);
  if (!(Math.abs(sdP) <= eps)) return `point ${fmt(p)} not on the box surface (signed distance ${sdP}, eps ${eps})`;
  const sdC = boxSignedDistance(b, c);
  if (depth !== undefined && !(Math.abs(depth - (r - sdC)) <= eps))
    return `depth ${depth}, expected ${r - sdC} (= r - signedDist(centre)), eps ${eps}`;
  const rec = add3(p, scale3(n, sdC));
  const recErr = maxAbs3(sub3(rec, c));
  if (!(recErr <= 2 * eps)) return `centre != point + normal*signedDist: off by ${recErr} (normal=${fmt(n)}, point=${fmt(p)}, sd=${sdC})`;
  const sup = b.support(n) - dot3(n, p);
  if (!(sup <= eps)) return `normal ${fmt(n)} is not an outward supporting normal at point ${fmt(p)} (support gap ${sup})`;
  const o = contactSphereBoxOracle({ center: toV3(c), radius: r }, b);
  if (o.dist > eps) {
    const dp = maxAbs3(sub3(p, o.point));
    if (!(dp <= eps)) return `point ${fmt(p)} != closest point ${fmt(o.point)} (off ${dp})`;
    const dn = maxAbs3(sub3(n, o.normal));
    if (!(dn <= normalTol(eps, o.dist))) return `normal ${fmt(n)} != oracle ${fmt(o.normal)} (off ${dn}, dist ${o.dist})`;
  } else if (o.sd < -eps) {
    const minPen = -o.sd;
    const cands = o.faces.filter((f) => f.pen <= minPen + eps);
    const match = cands.find((f) => maxAbs3(sub3(f.normal, n)) <= UNIT_TOL * 10);
    if (!match)
      return `centre inside: normal ${fmt(n)} is not the normal of a face of least penetration; candidates ${cands
        .map((f) => `${f.sign > 0 ? '+' : '-'}${'xyz'[f.axis]}(pen ${f.pen}) ${fmt(f.normal)}`)
        .join('; ')}`;
    const dp = maxAbs3(sub3(match.point, p));
    if (!(dp <= eps)) return `centre inside: point ${fmt(p)} != projection on the chosen face ${fmt(match.point)}`;
  }
  return undefined;
}

/** oracle-unambiguous normal tolerance for the static contact at c (2 = anything goes) */
export function sbContactNormalTol(c: Arr3, r: number, box: OBoxShape, eps: number): number {
  const o = contactSphereBoxOracle({ center: toV3(c), radius: r }, box);
  if (o.dist > eps) return normalTol(eps, o.dist);
  if (o.sd < -eps && o.faces.filter((f) => f.pen <= -o.sd + eps).length === 1) return UNIT_TOL * 10;
  return 2;
}

/** Check a sphere-box cast against the oracle; overlapAtStart: the implementation's overlapSphereBox at the start pose. */
export function checkSBCast(s: OSphere, motion: V3, box: OBoxShape, hit: boolean, out: CastOut, overlapAtStart: boolean): string | undefined {
  const eps = EPS_REL * sbScale(s, box, motion);
  const contactAt = (toi: number) => checkSBContact(positionAt(toArr(s.center), toArr(motion), toi), s.radius, box, out.normal, out.point, undefined, eps);
  return checkCast(castOracle(sphereBoxGap(s, motion, box)), { motion, hit, out, overlapAtStart, overlapName: 'overlapSphereBox', eps }, contactAt);
}

// ---------------------------------------------------------------------------------------------
// Sphere - sphere

export function checkSSContact(
  ca: Arr3,
  ra: number,
  cb: Arr3,
  rb: number,
  normal: V3,
  point: V3,
  depth: number | undefined,
  eps: number,
  atImpact = false,
): string | undefined {
  const n = toArr(normal);
  const p = toArr(point);
  const unit = checkFiniteUnit(normal, point, depth);
  if (unit !== undefined) return unit;
  const d = sub3(ca, cb);
  const D = norm3(d);
  if (!(Math.abs(norm3(sub3(p, cb)) - rb) <= eps)) return `point ${fmt(p)} not on b's surface (|p - cb| = ${norm3(sub3(p, cb))}, rb = ${rb})`;
  if (depth !== undefined && !(Math.abs(depth - (ra + rb - D)) <= eps)) return `depth ${depth}, expected ${ra + rb - D}`;
  const dp = maxAbs3(sub3(p, add3(cb, scale3(n, rb))));
  if (!(dp <= eps)) return `point ${fmt(p)} != cb + normal*rb (off ${dp})`;
  const rec = maxAbs3(sub3(add3(p, scale3(n, D - rb)), ca));
  if (!(rec <= 2 * eps)) return `ca != point + normal*(dist - rb): off by ${rec} (normal ${fmt(n)})`;
  // (at impact the pose c + toi*m is recomputed here, so exact coincidence is not meaningful there:
  // with ra + rb = 0 the impact normal is then any unit vector)
  if (!atImpact && D === 0 && ca[0] === cb[0] && ca[1] === cb[1] && ca[2] === cb[2] && !(n[0] === 1 && n[1] === 0 && n[2] === 0))
    return `coincident centres: normal ${fmt(n)}, expected exactly (1, 0, 0)`;
  if (D > eps) {
    const dn = maxAbs3(sub3(n, scale3(d, 1 / D)));
    if (!(dn <= normalTol(eps, D))) return `normal ${fmt(n)} != (ca - cb)/|ca - cb| = ${fmt(scale3(d, 1 / D))}`;
  }
  return undefined;
}

/** Check a sphere-sphere cast against the oracle; overlapAtStart: the implementation's overlapSphereSphere at the start pose. */
export function checkSSCast(a: OSphere, motion: V3, b: OSphere, hit: boolean, out: CastOut, overlapAtStart: boolean): string | undefined {
  const eps = EPS_REL * ssScale(a, b, motion);
  const contactAt = (toi: number) =>
    checkSSContact(positionAt(toArr(a.center), toArr(motion), toi), a.radius, toArr(b.center), b.radius, out.normal, out.point, undefined, eps, toi > 0);
  return checkCast(castOracle(sphereSphereGap(a, motion, b)), { motion, hit, out, overlapAtStart, overlapName: 'overlapSphereSphere', eps }, contactAt);
}

// ---------------------------------------------------------------------------------------------
// misc

export function neg(v: V3): V3 {
  return { x: -v.x, y: -v.y, z: -v.z };
}

export function same3(a: V3, b: V3): boolean {
  return a.x === b.x && a.y === b.y && a.z === b.z;
}

export function describe3(v: V3): string {
  return fmt(v);
}

/** throw with the scene attached (fast-check prints the counterexample too) */
export function assertOk(err: string | undefined, ctx: unknown): void {
  if (err !== undefined) throw new Error(`${err}\n  scene: ${JSON.stringify(ctx)}`);
}

export const translateBox = (box: OBoxShape, t: Arr3): OBoxShape => {
  const c = add3(toArr(box.center), t);
  return box.rotation === undefined
    ? { center: toV3(c), halfExtents: box.halfExtents }
    : { center: toV3(c), halfExtents: box.halfExtents, rotation: box.rotation };
};
