/**
 * The narrowphase stage of a tick: every candidate pair without a dynamic body through the geometry
 * functions, into `physics.contacts` (sorted by (a, b) because the candidate pairs are), into which
 * the response, when it runs, merges the contacts of the dynamic bodies' paths. Pure over typed
 * arrays.
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
import { loadBox } from '../physics/bodyReads.js';
import { contactListReserve } from '../physics/idLists.js';
import { BodyFlags, ContactFlags, type Physics } from '../physics/physicsTypes.js';
import { internalsOf } from '../physics/internal.js';
import { isDynamic } from '../response/isDynamic.js';
import { isCharacter } from '../character/isCharacter.js';

const { SPHERE, BOX, MOVING, SENSOR } = BodyFlags;

const sphereA = new ScratchSphere();
const sphereB = new ScratchSphere();
const box = new ScratchBox();
const boxA = new ScratchBox();
const motion = new ScratchVec3();
const motionB = new ScratchVec3();
const contact = new ScratchContact();
const cast = new ScratchCast();

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

/** Appends the current `contact` (toi 0) or `cast` (toi > 0, point moved with b) to the contact list. */
function pushContact(physics: Physics, a: number, b: number, swept: boolean): void {
  const list = physics.contacts;
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

function testPair(physics: Physics, a: number, b: number): void {
  loadSphere(physics, a, sphereA);
  const moving = loadRelativeMotion(physics, a, b);
  if ((internalsOf(physics).flags[b] & SPHERE) !== 0) {
    loadSphere(physics, b, sphereB);
    if (contactSphereSphere(sphereA, sphereB, contact)) pushContact(physics, a, b, false);
    else if (moving && castSphereSphere(sphereA, motion, sphereB, cast)) pushContact(physics, a, b, true);
  } else {
    loadBox(physics, b, box);
    if (contactSphereBox(sphereA, box, contact)) pushContact(physics, a, b, false);
    else if (moving && castSphereBox(sphereA, motion, box, cast)) pushContact(physics, a, b, true);
  }
}

/**
 * Box–box pair (a, b), a the lower id, at least one moving: the static contact, else (with relative
 * motion) the swept one, as for spheres; normal from b toward a.
 */
function testBoxPair(physics: Physics, a: number, b: number): void {
  loadBox(physics, a, boxA);
  loadBox(physics, b, box);
  const moving = loadRelativeMotion(physics, a, b);
  if (contactBoxBox(boxA, box, contact)) pushContact(physics, a, b, false);
  else if (moving && castBoxBox(boxA, motion, box, cast)) pushContact(physics, a, b, true);
}

/** Whether (a, b) is a box–box pair the broadphase lists: two boxes (not spheres), a < b, one moving. */
function isBoxPair(flags: Uint8Array, a: number, b: number): boolean {
  const fa = flags[a];
  const fb = flags[b];
  return (fa & (SPHERE | BOX)) === BOX && (fb & (SPHERE | BOX)) === BOX && a < b && ((fa | fb) & MOVING) !== 0;
}

/**
 * Whether candidate pair (a, b) still fits the broadphase's contract: a is a sphere; b a box, or a
 * sphere with a higher id; or a box–box pair ({@link isBoxPair}); the filters pass. Asked only for
 * pairs with a body removed since the last narrowphase: an id removed between the broadphase and
 * the narrowphase and recycled as another kind of body (or with another filter) must not give a
 * pair the broadphase would never have listed (e.g. two spheres with a > b, out of order).
 */
function stillCandidate(physics: Physics, a: number, b: number): boolean {
  const flags = internalsOf(physics).flags;
  const { group, mask } = physics.components.CollisionFilter;
  const fb = flags[b];
  const fits = (flags[a] & SPHERE) !== 0 ? ((fb & SPHERE) !== 0 ? b > a : (fb & BOX) !== 0) : isBoxPair(flags, a, b);
  if (!fits) return false;
  return (group[a] & mask[b]) !== 0 && (group[b] & mask[a]) !== 0;
}

/**
 * Tests the candidate pairs `internalsOf(physics).broadphase.pairs` into `physics.contacts` (its count reset
 * first). With dynamic bodies (spheres with Response), their pairs are skipped: the response moves
 * them and merges the contacts of the paths they take (src/response); so are the pairs with a
 * character (src/character moves it and merges its contacts).
 */
export function testPairs(physics: Physics): void {
  const internal = internalsOf(physics);
  const { flags, purgeMark, responseCount, characterCount } = internal;
  const pairs = internal.broadphase.pairs;
  const list = physics.contacts;
  contactListReserve(list, pairs.count);
  list.count = 0;
  for (let i = 0; i < pairs.count; i++) {
    const a = pairs.a[i];
    const b = pairs.b[i];
    // Pairs with a dynamic body are the response's (contacts along the path it takes).
    if (responseCount !== 0 && (isDynamic(flags[a]) || isDynamic(flags[b]))) continue;
    // Pairs with a character are the character stage's (contacts along the path it takes).
    if (characterCount !== 0 && (isCharacter(flags[a]) || isCharacter(flags[b]))) continue;
    // A body removed between the broadphase and now is skipped, and so is a pair whose id was
    // recycled meanwhile as a body the pair no longer fits.
    if ((purgeMark[a] | purgeMark[b]) !== 0 && !stillCandidate(physics, a, b)) continue;
    if ((flags[a] & SPHERE) !== 0 && (flags[b] & (SPHERE | BOX)) !== 0) testPair(physics, a, b);
    else if ((flags[a] & (SPHERE | BOX)) === BOX && (flags[b] & (SPHERE | BOX)) === BOX) testBoxPair(physics, a, b);
  }
}
