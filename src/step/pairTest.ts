/**
 * The exact test of one candidate pair into a contact list, shared by the narrowphase stage
 * (testPairs.ts) and the broadphase's queries when they test the pairs themselves (findPairs.ts,
 * without dynamic bodies, characters or moving boxes). Not a stage: a helper both
 * call. Pure over typed arrays; world frame, length units, seconds.
 *
 * A pair is in contact when the two bodies touch at any moment of the tick's motion (relative
 * velocity × dt) with continuous contacts on, or at the current pose otherwise. `toi` is the first
 * such fraction of the tick (0 when already touching at its start); normal, depth and point are
 * those of the geometry API at the time of impact; the point is where it is in the world then.
 * @module
 */
import { castBoxBox } from '../geometry/castBoxBox.js';
import { castSphereBox } from '../geometry/castSphereBox.js';
import { castSphereSphere } from '../geometry/castSphereSphere.js';
import { contactBoxBox } from '../geometry/contactBoxBox.js';
import { contactSphereBox } from '../geometry/contactSphereBox.js';
import { contactSphereSphere } from '../geometry/contactSphereSphere.js';
import type { SphereShape, Vec3 } from '../geometry/types.js';
import { ScratchBox, ScratchCast, ScratchContact, ScratchSphere, ScratchVec3 } from '../geometry/scratch.js';
import { BOUNDS_PAD, loadBox } from '../physics/bodyReads.js';
import { contactListReserve } from '../physics/idLists.js';
import { BodyFlags, ContactFlags, type ContactList, type Physics } from '../physics/physicsTypes.js';
import { internalsOf } from '../physics/internal.js';

const { SPHERE, BOX, MOVING, SENSOR } = BodyFlags;

const sphereA = new ScratchSphere();
const sphereB = new ScratchSphere();
const box = new ScratchBox();
const boxA = new ScratchBox();
const motion = new ScratchVec3();
const motionB = new ScratchVec3();
const contact = new ScratchContact();
const cast = new ScratchCast();

/** Numbers per static box in `BroadphaseState.staticShapes`: centre, rotation (x, y, z, w), half extents. */
export const STATIC_SHAPE = 10;

function loadSphere(physics: Physics, eid: number, out: SphereShape): void {
  const p = physics.components.Position;
  out.center.x = p.x[eid];
  out.center.y = p.y[eid];
  out.center.z = p.z[eid];
  out.radius = physics.components.Sphere.radius[eid];
}

/** Writes eid's displacement over the tick (velocity × dt; 0 when static or not continuous) into `out`. */
function loadMotion(physics: Physics, eid: number, out: Vec3): void {
  const v = physics.components.Velocity;
  const dt = (internalsOf(physics).flags[eid] & MOVING) === 0 || !physics.continuous ? 0 : physics.dt;
  out.x = dt === 0 ? 0 : v.x[eid] * dt;
  out.y = dt === 0 ? 0 : v.y[eid] * dt;
  out.z = dt === 0 ? 0 : v.z[eid] * dt;
}

/**
 * Appends the current `contact` (toi 0) or `cast` (toi > 0, point moved with b) to `list` (room
 * reserved by the caller).
 */
function pushContact(physics: Physics, list: ContactList, a: number, b: number, swept: boolean): void {
  const i = list.count++;
  const r = swept ? cast : contact;
  list.a[i] = a;
  list.b[i] = b;
  list.nx[i] = r.normal.x;
  list.ny[i] = r.normal.y;
  list.nz[i] = r.normal.z;
  list.depth[i] = swept ? 0 : contact.depth;
  const t = swept ? cast.toi : 0;
  list.toi[i] = t;
  list.px[i] = r.point.x + t * motionB.x;
  list.py[i] = r.point.y + t * motionB.y;
  list.pz[i] = r.point.z + t * motionB.z;
  const flags = internalsOf(physics).flags;
  list.flags[i] = ((flags[a] | flags[b]) & SENSOR) !== 0 ? ContactFlags.SENSOR : 0;
}

/**
 * Writes a's displacement relative to b over the tick into `motion` (b's own into `motionB`, for the
 * contact point); returns whether a moves relative to b.
 */
function loadRelativeMotion(physics: Physics, a: number, b: number): boolean {
  loadMotion(physics, a, motion);
  loadMotion(physics, b, motionB);
  motion.x -= motionB.x;
  motion.y -= motionB.y;
  motion.z -= motionB.z;
  return motion.x !== 0 || motion.y !== 0 || motion.z !== 0;
}

function testPair(physics: Physics, list: ContactList, a: number, b: number): void {
  loadSphere(physics, a, sphereA);
  const moving = loadRelativeMotion(physics, a, b);
  if ((internalsOf(physics).flags[b] & SPHERE) !== 0) {
    loadSphere(physics, b, sphereB);
    if (contactSphereSphere(sphereA, sphereB, contact)) pushContact(physics, list, a, b, false);
    else if (moving && castSphereSphere(sphereA, motion, sphereB, cast)) pushContact(physics, list, a, b, true);
  } else {
    loadBox(physics, b, box);
    if (contactSphereBox(sphereA, box, contact)) pushContact(physics, list, a, b, false);
    else if (moving && castSphereBox(sphereA, motion, box, cast)) pushContact(physics, list, a, b, true);
  }
}

/**
 * Box–box pair (a, b), a the lower id, at least one moving: the static contact, else (with relative
 * motion) the swept one, as for spheres; normal from b toward a.
 */
function testBoxPair(physics: Physics, list: ContactList, a: number, b: number): void {
  loadBox(physics, a, boxA);
  loadBox(physics, b, box);
  const moving = loadRelativeMotion(physics, a, b);
  if (contactBoxBox(boxA, box, contact)) pushContact(physics, list, a, b, false);
  else if (moving && castBoxBox(boxA, motion, box, cast)) pushContact(physics, list, a, b, true);
}

/**
 * Tests candidate pair (a, b) (a sphere with a sphere or box, or a box–box pair) and appends its
 * contact, if any, to `list` (room for one more reserved by the caller).
 */
export function testCandidate(physics: Physics, list: ContactList, a: number, b: number): void {
  const flags = internalsOf(physics).flags;
  if ((flags[a] & SPHERE) !== 0 && (flags[b] & (SPHERE | BOX)) !== 0) testPair(physics, list, a, b);
  else if ((flags[a] & (SPHERE | BOX)) === BOX && (flags[b] & (SPHERE | BOX)) === BOX) testBoxPair(physics, list, a, b);
}

/**
 * The static contact of sphere `a` with static box `b`, whose pose and size are `shapes[o .. o +
 * STATIC_SHAPE]` (as `loadBox` reads them when the box was bucketed; unchanged since, or the static
 * grid would have been rebuilt), appended to `list` when they touch: the same numbers as
 * {@link testCandidate} gives without continuous contacts (a static box does not move). Grows `list`
 * when full.
 */
export function testSphereStatic(physics: Physics, list: ContactList, a: number, b: number, shapes: Float64Array, o: number): void {
  loadSphere(physics, a, sphereA);
  loadStaticBox(shapes, o);
  if (!contactSphereBox(sphereA, box, contact)) return;
  // The static box's motion (`pushContact` moves the point by toi × it): 0, as `loadMotion` writes it.
  motionB.x = 0;
  motionB.y = 0;
  motionB.z = 0;
  if (list.count === list.a.length) contactListReserve(list, 2 * list.count);
  pushContact(physics, list, a, b, false);
}

/** Loads the static box shape `shapes[o .. o + STATIC_SHAPE]` (centre, rotation, half extents) into the scratch box. */
function loadStaticBox(shapes: Float64Array, o: number): void {
  box.center.x = shapes[o];
  box.center.y = shapes[o + 1];
  box.center.z = shapes[o + 2];
  const q = box.rotation;
  q.x = shapes[o + 3];
  q.y = shapes[o + 4];
  q.z = shapes[o + 5];
  q.w = shapes[o + 6];
  box.halfExtents.x = shapes[o + 7];
  box.halfExtents.y = shapes[o + 8];
  box.halfExtents.z = shapes[o + 9];
}

/**
 * Whether moving sphere `a` (continuous contacts) provably misses static box slot `o` of `shapes`
 * over the tick, without the full test: the midpoint of its path (c + m / 2, m = velocity × dt) is
 * farther from the box than r + |m| / 2 plus a slack. Every centre of the path (c + t·m, t in
 * [0, 1]) is within |m| / 2 of the midpoint and the distance to a convex box is 1-Lipschitz, so then
 * no pose of the path comes within r + slack of the box. The slack, 1e-12 of the sphere's and the
 * box's magnitudes (as `BOUNDS_PAD` pads the query bounds), is far above the rounding of this
 * arithmetic and of the kernels' own tolerances (a few ulps of the local coordinates:
 * geometry/kernels/entryTime.ts, castSphereBoxLocal.ts). The box's frame and the distance outside
 * it as in the static rejection of findPairs.ts; anything not finite, and a box with a negative half
 * extent (validation off), is not a miss: the full test decides (test/step/sweptRejection.test.ts).
 */
function sweptMisses(physics: Physics, a: number, shapes: Float64Array, o: number): boolean {
  const p = physics.components.Position, v = physics.components.Velocity;
  const dt = physics.dt;
  const x = p.x[a], y = p.y[a], z = p.z[a], r = physics.components.Sphere.radius[a];
  const mx = v.x[a] * dt, my = v.y[a] * dt, mz = v.z[a] * dt;
  const bx = shapes[o], by = shapes[o + 1], bz = shapes[o + 2];
  let lx = x + mx * 0.5 - bx, ly = y + my * 0.5 - by, lz = z + mz * 0.5 - bz;
  const qx = shapes[o + 3], qy = shapes[o + 4], qz = shapes[o + 5], qw = shapes[o + 6];
  if (!(qx === 0 && qy === 0 && qz === 0)) {
    const ux = -qx, uy = -qy, uz = -qz;
    const tx = 2 * (uy * lz - uz * ly), ty = 2 * (uz * lx - ux * lz), tz = 2 * (ux * ly - uy * lx);
    const rx = lx + qw * tx + (uy * tz - uz * ty);
    const ry = ly + qw * ty + (uz * tx - ux * tz);
    const rz = lz + qw * tz + (ux * ty - uy * tx);
    lx = rx;
    ly = ry;
    lz = rz;
  }
  const hx = shapes[o + 7], hy = shapes[o + 8], hz = shapes[o + 9];
  const sx0 = +(lx < -hx), sx1 = +(lx > hx), sy0 = +(ly < -hy), sy1 = +(ly > hy), sz0 = +(lz < -hz), sz1 = +(lz > hz);
  const dx = sx0 * (lx + hx) + sx1 * (lx - hx);
  const dy = sy0 * (ly + hy) + sy1 * (ly - hy);
  const dz = sz0 * (lz + hz) + sz1 * (lz - hz);
  const d2 = dx * dx + dy * dy + dz * dz;
  const ax = Math.abs(mx), ay = Math.abs(my), az = Math.abs(mz);
  const slack = BOUNDS_PAD * (1 + Math.abs(x) + Math.abs(y) + Math.abs(z) + 3 * r + ax + ay + az +
    Math.abs(bx) + Math.abs(by) + Math.abs(bz) + hx + hy + hz);
  const reach = r + 0.5 * Math.sqrt(mx * mx + my * my + mz * mz) + slack;
  return d2 < SQ_MAX && d2 > reach * reach && hx >= 0 && hy >= 0 && hz >= 0;
}

/** Beyond this a squared distance is not trusted to reject (the full test decides). */
const SQ_MAX = 1e280;

/**
 * The contact of moving sphere `a` with static box `b` (shape `shapes[o .. o + STATIC_SHAPE]`, as
 * for {@link testSphereStatic}) over the tick, appended to `list` when they touch: the static contact
 * at the start pose, else the cast along a's motion (velocity × dt with continuous contacts): the
 * same numbers as {@link testCandidate} gives (the box's motion is 0). Grows `list` when full.
 */
export function testSphereStaticSwept(physics: Physics, list: ContactList, a: number, b: number, shapes: Float64Array, o: number): void {
  if (sweptMisses(physics, a, shapes, o)) return;
  loadSphere(physics, a, sphereA);
  loadStaticBox(shapes, o);
  // As `loadRelativeMotion` writes it for a static b: b's motion 0, a's relative motion its own.
  const moving = loadRelativeMotion(physics, a, b);
  const touching = contactSphereBox(sphereA, box, contact);
  if (!touching && !(moving && castSphereBox(sphereA, motion, box, cast))) return;
  if (list.count === list.a.length) contactListReserve(list, 2 * list.count);
  pushContact(physics, list, a, b, !touching);
}
