/**
 * The narrowphase of one tick: every candidate pair through the geometry functions, into the world
 * contact list (sorted by (a, b) because the candidate pairs are), then began/persisting/ended by a
 * merge with the previous tick's pairs. Pure over typed arrays.
 *
 * A pair is in contact when the two bodies touch at any moment of the tick's motion (relative
 * velocity × dt) with continuous contacts on, or at the current pose otherwise. `toi` is the first
 * such fraction of the tick (0 when already touching at its start); normal, depth and point are
 * those of the geometry API at the time of impact; the point is where it is in the world then.
 * (Only `clearPurged` touches bitecs, for entities that stopped being bodies.)
 * @module
 */
import { entityExists, hasComponent, removeComponent } from 'bitecs';
import { castSphereBox } from '../geometry/castSphereBox.js';
import { castSphereSphere } from '../geometry/castSphereSphere.js';
import { contactSphereBox } from '../geometry/contactSphereBox.js';
import { contactSphereSphere } from '../geometry/contactSphereSphere.js';
import type { SphereShape, Vec3 } from '../geometry/types.js';
import { ScratchBox, ScratchCast, ScratchContact, ScratchSphere, ScratchVec3 } from '../math/scratch.js';
import { boxRotation, rotation } from './bodies.js';
import { contactListReserve, pairListPush } from './lists.js';
import { BodyFlags, ContactFlags, type Physics } from './types.js';
import { internalsOf } from './internal.js';

const { SPHERE, MOVING, SENSOR } = BodyFlags;

const sphereA = new ScratchSphere();
const sphereB = new ScratchSphere();
const box = new ScratchBox();
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

function loadBox(physics: Physics, eid: number): void {
  const p = physics.components.Position;
  const b = physics.components.Box;
  box.center.x = p.x[eid];
  box.center.y = p.y[eid];
  box.center.z = p.z[eid];
  box.halfExtents.x = b.hx[eid];
  box.halfExtents.y = b.hy[eid];
  box.halfExtents.z = b.hz[eid];
  boxRotation(physics, eid);
  const q = box.rotation;
  q.x = rotation[0];
  q.y = rotation[1];
  q.z = rotation[2];
  q.w = rotation[3];
}

/** Writes eid's displacement over the tick (velocity × dt; 0 when static or not continuous) into `out`. */
function loadMotion(physics: Physics, eid: number, out: Vec3): void {
  const v = physics.components.Velocity;
  const dt = (internalsOf(physics).flags[eid] & MOVING) === 0 || !physics.continuous ? 0 : physics.dt;
  out.x = dt === 0 ? 0 : v.x[eid] * dt;
  out.y = dt === 0 ? 0 : v.y[eid] * dt;
  out.z = dt === 0 ? 0 : v.z[eid] * dt;
}

/** Appends the current `contact` (toi 0) or `cast` (toi > 0, point moved with b) to the list. */
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

function testPair(physics: Physics, a: number, b: number): void {
  loadSphere(physics, a, sphereA);
  loadMotion(physics, a, motion);
  loadMotion(physics, b, motionB);
  motion.x -= motionB.x;
  motion.y -= motionB.y;
  motion.z -= motionB.z;
  const moving = motion.x !== 0 || motion.y !== 0 || motion.z !== 0;
  if ((internalsOf(physics).flags[b] & SPHERE) !== 0) {
    loadSphere(physics, b, sphereB);
    if (contactSphereSphere(sphereA, sphereB, contact)) pushContact(physics, a, b, false);
    else if (moving && castSphereSphere(sphereA, motion, sphereB, cast)) pushContact(physics, a, b, true);
  } else {
    loadBox(physics, b);
    if (contactSphereBox(sphereA, box, contact)) pushContact(physics, a, b, false);
    else if (moving && castSphereBox(sphereA, motion, box, cast)) pushContact(physics, a, b, true);
  }
}

/** Drops previous pairs that involve entities removed since the last narrowphase. */
function purgeRemoved(physics: Physics): void {
  const { previous, purgeList, purgeMark } = internalsOf(physics);
  if (purgeList.count === 0) return;
  let n = 0;
  for (let i = 0; i < previous.count; i++) {
    const a = previous.a[i];
    const b = previous.b[i];
    if (purgeMark[a] !== 0 || purgeMark[b] !== 0) continue;
    previous.a[n] = a;
    previous.b[n] = b;
    n++;
  }
  previous.count = n;
}

/**
 * Clears the removal marks once every consumer has seen them, and takes the Contact component off
 * entities that survive but are no longer bodies (a removed Sphere or Box component).
 */
export function clearPurged(physics: Physics): void {
  const { purgeList, purgeMark, flags } = internalsOf(physics);
  const { world } = physics;
  const Contact = physics.components.Contact;
  for (let i = 0; i < purgeList.count; i++) {
    const eid = purgeList.ids[i];
    purgeMark[eid] = 0;
    if ((flags[eid] & (SPHERE | BodyFlags.BOX)) === 0 && entityExists(world, eid) && hasComponent(world, eid, Contact)) {
      removeComponent(world, eid, Contact);
    }
  }
  purgeList.count = 0;
}

function comparePairs(a1: number, b1: number, a2: number, b2: number): number {
  return a1 !== a2 ? a1 - a2 : b1 - b2;
}

/** Flags began/persisting, fills `began` and `ended`, and makes this tick's pairs the previous. */
function diffWithPrevious(physics: Physics): void {
  const list = physics.contacts;
  const { previous } = internalsOf(physics);
  const { began, ended } = physics;
  began.count = 0;
  ended.count = 0;
  let j = 0;
  for (let i = 0; i < list.count; i++) {
    const a = list.a[i];
    const b = list.b[i];
    while (j < previous.count && comparePairs(previous.a[j], previous.b[j], a, b) < 0) {
      pairListPush(ended, previous.a[j], previous.b[j]);
      j++;
    }
    if (j < previous.count && previous.a[j] === a && previous.b[j] === b) {
      list.flags[i] |= ContactFlags.PERSISTING;
      j++;
    } else {
      list.flags[i] |= ContactFlags.BEGAN;
      pairListPush(began, a, b);
    }
  }
  for (; j < previous.count; j++) pairListPush(ended, previous.a[j], previous.b[j]);
  previous.count = 0;
  for (let i = 0; i < list.count; i++) pairListPush(previous, list.a[i], list.b[i]);
}

/** Runs the narrowphase over `internalsOf(physics).pairs` into `physics.contacts`, `began`, `ended`. */
export function updateNarrowphase(physics: Physics): void {
  const { pairs } = internalsOf(physics);
  const list = physics.contacts;
  contactListReserve(list, pairs.count);
  list.count = 0;
  const flags = internalsOf(physics).flags;
  for (let i = 0; i < pairs.count; i++) {
    const a = pairs.a[i];
    const b = pairs.b[i];
    // A body removed between the broadphase and now is skipped.
    if ((flags[a] & SPHERE) !== 0 && (flags[b] & (SPHERE | BodyFlags.BOX)) !== 0) testPair(physics, a, b);
  }
  purgeRemoved(physics);
  diffWithPrevious(physics);
}
