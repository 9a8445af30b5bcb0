/**
 * Rapier oracle for differential tests of the sphere/box geometry.
 *
 * Wraps `@dimforge/rapier3d-compat` (float32 WASM build of parry3d) behind a few
 * pure query helpers that use our conventions:
 *
 *   - contact normals point from the *second* shape of our API (the box, or sphere
 *     `b`) toward the first (the sphere, or sphere `a`);
 *   - everything is returned in world space as plain `{x,y,z}` objects.
 *
 * Rapier conventions verified against rapier3d-compat 0.21.0 (see
 * dist/geometry/shape.d.ts, contact.d.ts, toi.d.ts):
 *
 *   - `shape1.contactShape(pos1, rot1, shape2, pos2, rot2, prediction)` returns a
 *     world-space `ShapeContact` or null when the shapes are further apart than
 *     `prediction`. `distance < 0` is penetration; `normal1` is the outward normal of
 *     shape1 (so with the box as shape1 it points from the box toward the sphere);
 *     `point1` lies on shape1's surface, `point2` on shape2's. With a Ball as shape2
 *     and the ball centre inside the cuboid, Rapier reports distance = -(r + distance
 *     to the nearest face) and point1 = the projection onto that face.
 *   - `shape1.castShape(pos1, rot1, vel1, shape2, pos2, rot2, vel2, targetDistance,
 *     maxToi, stopAtPenetration)` returns a `ShapeCastHit` whose `time_of_impact` is
 *     in units of the velocities (vel1 = motion, maxToi = 1 gives the motion
 *     fraction directly) and whose witnesses/normals are in the LOCAL frame of each
 *     shape (relative to its initial pose, independent of the translation along the
 *     cast). We convert them to world space at the time of impact.
 *   - Already-penetrating starts give `time_of_impact = 0` with
 *     `stopAtPenetration = true`.
 *
 * The JS `Ball` / `Cuboid` objects only hold numbers (each query builds and frees its
 * own raw WASM shape, vectors and rotations), so we keep one of each and mutate
 * their dimensions instead of allocating per call. Nothing here needs `.free()`.
 */
import RAPIER from '@dimforge/rapier3d-compat';

export interface V3 { x: number; y: number; z: number }
export interface Q4 { x: number; y: number; z: number; w: number }
export interface OracleSphere { center: V3; radius: number }
export interface OracleBox { center: V3; halfExtents: V3; rotation?: Q4 }

export interface OracleContact {
  /** Signed separation (negative = penetration depth). */
  distance: number;
  /** Unit normal from the box (or sphere b) toward the sphere (or sphere a). */
  normal: V3;
  /** Witness on the box (or sphere b) surface. */
  pointOnSecond: V3;
  /** Witness on the sphere (or sphere a) surface. */
  pointOnFirst: V3;
}

export interface OracleCast {
  /** Fraction of `motion` at first contact (0 when starting in contact). */
  toi: number;
  /** Unit normal at impact, from the box (or sphere b) toward the moving sphere. */
  normal: V3;
  /** Impact witness on the box (or sphere b), world space. */
  pointOnSecond: V3;
  /** Impact witness on the moving sphere at time `toi`, world space. */
  pointOnFirst: V3;
}

export interface CastOptions {
  /** Report a hit when the shapes come within this distance (default 0). */
  targetDistance?: number;
  /** Largest time of impact considered, in motion fractions (default 1). */
  maxToi?: number;
  /** Added to the moving sphere's radius (used to probe near-grazing cases). */
  radiusDelta?: number;
}

const IDENTITY: Q4 = { x: 0, y: 0, z: 0, w: 1 };
const ZERO: V3 = { x: 0, y: 0, z: 0 };

let ready: Promise<void> | undefined;
let ball1: RAPIER.Ball;
let ball2: RAPIER.Ball;
let cuboid: RAPIER.Cuboid;

/** Initialises the WASM module once; safe to call from several test files. */
export function initRapier(): Promise<void> {
  ready ??= RAPIER.init().then(() => {
    ball1 = new RAPIER.Ball(1);
    ball2 = new RAPIER.Ball(1);
    cuboid = new RAPIER.Cuboid(1, 1, 1);
  });
  return ready;
}

export function rapierVersion(): string {
  return RAPIER.version();
}

function assertReady(): void {
  if (!cuboid) throw new Error('call `await initRapier()` first (e.g. in beforeAll)');
}

function setBox(box: OracleBox): void {
  cuboid.halfExtents = { x: box.halfExtents.x, y: box.halfExtents.y, z: box.halfExtents.z };
}

/** Rotates v by the unit quaternion q (f64). */
export function rotate(q: Q4 | undefined, v: V3): V3 {
  if (!q) return { x: v.x, y: v.y, z: v.z };
  const { x, y, z, w } = q;
  const tx = 2 * (y * v.z - z * v.y);
  const ty = 2 * (z * v.x - x * v.z);
  const tz = 2 * (x * v.y - y * v.x);
  return {
    x: v.x + w * tx + (y * tz - z * ty),
    y: v.y + w * ty + (z * tx - x * tz),
    z: v.z + w * tz + (x * ty - y * tx),
  };
}

const copy = (v: V3): V3 => ({ x: v.x, y: v.y, z: v.z });

/**
 * The contact of `ball1` at `ballCenter` against `shape` (the box, or sphere b) at its pose, in our
 * conventions: Rapier's shape1 is `shape`, so its normal1 points from it toward the ball.
 */
function ballContact(shape: RAPIER.Shape, center: V3, rotation: Q4, ballCenter: V3, prediction: number): OracleContact | null {
  const c = shape.contactShape(center, rotation, ball1, ballCenter, IDENTITY, prediction);
  if (!c) return null;
  return { distance: c.distance, normal: copy(c.normal1), pointOnSecond: copy(c.point1), pointOnFirst: copy(c.point2) };
}

/**
 * Rapier contact between a sphere and a box. `prediction` is the largest positive
 * separation for which a (separated) result is still returned; pass a large value to
 * always get the signed distance.
 */
export function rapierContactSphereBox(sphere: OracleSphere, box: OracleBox, prediction = 0): OracleContact | null {
  assertReady();
  ball1.radius = sphere.radius;
  setBox(box);
  return ballContact(cuboid, box.center, box.rotation ?? IDENTITY, sphere.center, prediction);
}

/** Rapier contact between spheres a and b (normal from b toward a). */
export function rapierContactSphereSphere(a: OracleSphere, b: OracleSphere, prediction = 0): OracleContact | null {
  assertReady();
  ball1.radius = a.radius;
  ball2.radius = b.radius;
  return ballContact(ball2, b.center, IDENTITY, a.center, prediction);
}

/** Signed distance sphere-box according to Rapier (always defined). */
export function rapierDistanceSphereBox(sphere: OracleSphere, box: OracleBox): number {
  return rapierContactSphereBox(sphere, box, 1e30)!.distance;
}

/** Signed distance between spheres a and b according to Rapier. */
export function rapierDistanceSphereSphere(a: OracleSphere, b: OracleSphere): number {
  return rapierContactSphereSphere(a, b, 1e30)!.distance;
}

/** Rapier time of impact of `sphere` translating by `motion` against a static `box`. */
export function rapierCastSphereBox(
  sphere: OracleSphere,
  motion: V3,
  box: OracleBox,
  opts: CastOptions = {},
): OracleCast | null {
  assertReady();
  const r = sphere.radius + (opts.radiusDelta ?? 0);
  ball1.radius = r;
  setBox(box);
  const rot = box.rotation ?? IDENTITY;
  const hit = ball1.castShape(
    sphere.center, IDENTITY, motion, cuboid, box.center, rot, ZERO,
    opts.targetDistance ?? 0, opts.maxToi ?? 1, true,
  );
  if (!hit) return null;
  const t = hit.time_of_impact;
  const n = rotate(box.rotation, hit.normal2);
  const w2 = rotate(box.rotation, hit.witness2);
  return {
    toi: t,
    normal: n,
    pointOnSecond: { x: box.center.x + w2.x, y: box.center.y + w2.y, z: box.center.z + w2.z },
    pointOnFirst: {
      x: sphere.center.x + t * motion.x + hit.witness1.x,
      y: sphere.center.y + t * motion.y + hit.witness1.y,
      z: sphere.center.z + t * motion.z + hit.witness1.z,
    },
  };
}

/** Rapier time of impact of sphere `a` translating by `motion` against static sphere `b`. */
export function rapierCastSphereSphere(
  a: OracleSphere,
  motion: V3,
  b: OracleSphere,
  opts: CastOptions = {},
): OracleCast | null {
  assertReady();
  ball1.radius = a.radius + (opts.radiusDelta ?? 0);
  ball2.radius = b.radius;
  const hit = ball1.castShape(
    a.center, IDENTITY, motion, ball2, b.center, IDENTITY, ZERO,
    opts.targetDistance ?? 0, opts.maxToi ?? 1, true,
  );
  if (!hit) return null;
  const t = hit.time_of_impact;
  return {
    toi: t,
    normal: copy(hit.normal2),
    pointOnSecond: { x: b.center.x + hit.witness2.x, y: b.center.y + hit.witness2.y, z: b.center.z + hit.witness2.z },
    pointOnFirst: {
      x: a.center.x + t * motion.x + hit.witness1.x,
      y: a.center.y + t * motion.y + hit.witness1.y,
      z: a.center.z + t * motion.z + hit.witness1.z,
    },
  };
}
