/**
 * Puts a parsed scene (see `sceneFile.ts`) into a bitecs world with a physics instance and runs it
 * tick by tick, reporting contacts with the scene's own body ids.
 *
 * Contacts are reported with the users' ids, in one rule: `a` is the lower user id, except that in
 * a sphere–box contact `a` is the sphere. The order of the bodies in the file changes nothing. The
 * normal points from b toward a; the point is on b's surface at the time of impact (for two spheres:
 * centre_b(toi) + normal·r_b). Where the ECS's order (the lower entity id, i.e. the body listed
 * first) is the other one, the pair is swapped: two spheres by negating the normal and moving the
 * point onto the other sphere; two boxes by the same geometry calls in the user order (see
 * `swappedBoxContact`).
 * @module
 */
import { createWorld, type World } from 'bitecs';
import {
  addBox,
  addSphere,
  createPhysics,
  runBroadphase,
  runIntegrate,
  runNarrowphase,
  type Physics,
  type PhysicsOptions,
} from '../index.js';
import { castBoxBox } from '../geometry/castBoxBox.js';
import { contactBoxBox } from '../geometry/contactBoxBox.js';
import { ScratchBox, ScratchCast, ScratchContact, ScratchVec3 } from '../geometry/scratch.js';
import { loadBox } from '../physics/bodyReads.js';
import type { Scene, SceneContact, Vec3Tuple } from './sceneFile.js';

/** A scene put into a bitecs world with a physics instance. */
export interface BuiltScene {
  world: World;
  physics: Physics;
  scene: Scene;
  /** Entity id of each body, in file order. */
  eids: Uint32Array;
  /** User id by entity id (NaN for entities that are not scene bodies). */
  userIdOf: Float64Array;
  /** By entity id: 1 when the body has a velocity (moves). */
  moving: Uint8Array;
  /** By entity id: 1 when the body is a sphere. */
  sphere: Uint8Array;
  spheres: number;
  boxes: number;
}

/**
 * Creates a world and physics instance (dt from the scene; `options` may override others, e.g.
 * `continuous`) and adds the bodies in file order.
 */
export function buildScene(scene: Scene, options: PhysicsOptions = {}): BuiltScene {
  const world = createWorld();
  const physics = createPhysics(world, { capacity: scene.bodies.length + 1, ...options, dt: scene.dt });
  const eids = new Uint32Array(scene.bodies.length);
  let spheres = 0;
  scene.bodies.forEach((b, i) => {
    const common = { position: b.position, ...(b.velocity ? { velocity: b.velocity } : {}) };
    if (b.shape === 'sphere') spheres++;
    eids[i] = b.shape === 'sphere'
      ? addSphere(physics, { ...common, radius: b.radius })
      : addBox(physics, { ...common, halfExtents: b.halfExtents, ...(b.rotation ? { rotation: b.rotation } : {}) });
  });
  const top = eids.reduce((m, e) => Math.max(m, e), 0);
  const userIdOf = new Float64Array(top + 1).fill(NaN);
  const moving = new Uint8Array(top + 1);
  const sphere = new Uint8Array(top + 1);
  scene.bodies.forEach((b, i) => {
    userIdOf[eids[i]] = b.id;
    moving[eids[i]] = b.velocity ? 1 : 0;
    sphere[eids[i]] = b.shape === 'sphere' ? 1 : 0;
  });
  return { world, physics, scene, eids, userIdOf, moving, sphere, spheres, boxes: scene.bodies.length - spheres };
}

/** Detection half of a tick: broadphase then narrowphase (fills `physics.contacts`). */
export function detectScene(built: BuiltScene): void {
  runBroadphase(built.physics);
  runNarrowphase(built.physics);
}

/** Motion half of a tick: moves bodies by velocity × dt (no collision response). */
export function advanceScene(built: BuiltScene): void {
  if (built.physics.integrate) runIntegrate(built.physics);
}

/** A body's centre coordinate at the fraction `toi` of the tick (positions are those at the tick's start). */
function centreAt(built: BuiltScene, eid: number, toi: number, axis: 'x' | 'y' | 'z'): number {
  const { Position, Velocity } = built.physics.components;
  const p = Position[axis][eid];
  if (!built.moving[eid] || toi === 0) return p;
  return p + toi * (Velocity[axis][eid] * built.physics.dt);
}

/** Sphere–sphere contact `i` of the list in the user order (a and b exchanged): normal negated, point on the new b. */
function swappedSphereContact(built: BuiltScene, i: number): SceneContact {
  const c = built.physics.contacts;
  const eid = c.a[i];
  const r = built.physics.components.Sphere.radius[eid];
  const toi = c.toi[i];
  const n: Vec3Tuple = [-c.nx[i], -c.ny[i], -c.nz[i]];
  const point: Vec3Tuple = [
    centreAt(built, eid, toi, 'x') + n[0] * r,
    centreAt(built, eid, toi, 'y') + n[1] * r,
    centreAt(built, eid, toi, 'z') + n[2] * r,
  ];
  return { a: built.userIdOf[c.b[i]], b: built.userIdOf[eid], toi, depth: c.depth[i], normal: n, point };
}

/** Writes eid's displacement over the tick into `out`, as the narrowphase takes it (0 when static or not continuous). */
function motionOf(built: BuiltScene, eid: number, out: ScratchVec3): void {
  const { physics } = built;
  const s = built.moving[eid] && physics.continuous ? physics.dt : 0;
  const v = physics.components.Velocity;
  out.x = s === 0 ? 0 : v.x[eid] * s;
  out.y = s === 0 ? 0 : v.y[eid] * s;
  out.z = s === 0 ? 0 : v.z[eid] * s;
}

/**
 * Box–box contact `i` of the list in the user order (its b, the lower user id, as a): the calls the
 * narrowphase makes for a pair (src/step/testPairs.ts), with the two boxes exchanged — the static
 * contact at the tick's start, else the cast of the relative motion, the point moved with the new b
 * to where it is at toi. So the report is the one the ECS gives when the boxes are listed the other
 * way round in the file. Where the exchanged calls find no contact although the ECS's order did (the
 * two boxes touch within rounding), the ECS's contact is kept with its normal negated (its point is
 * where they touch, on both surfaces within rounding).
 */
function swappedBoxContact(built: BuiltScene, i: number): SceneContact {
  const c = built.physics.contacts;
  const newA = c.b[i];
  const newB = c.a[i];
  const boxA = new ScratchBox();
  const boxB = new ScratchBox();
  loadBox(built.physics, newA, boxA);
  loadBox(built.physics, newB, boxB);
  const motion = new ScratchVec3();
  const motionB = new ScratchVec3();
  motionOf(built, newA, motion);
  motionOf(built, newB, motionB);
  motion.x -= motionB.x;
  motion.y -= motionB.y;
  motion.z -= motionB.z;
  const ids = { a: built.userIdOf[newA], b: built.userIdOf[newB] };
  const contact = new ScratchContact();
  if (contactBoxBox(boxA, boxB, contact)) {
    const { normal: n, point: p } = contact;
    return { ...ids, toi: 0, depth: contact.depth, normal: [n.x, n.y, n.z], point: [p.x, p.y, p.z] };
  }
  const cast = new ScratchCast();
  const moves = motion.x !== 0 || motion.y !== 0 || motion.z !== 0;
  if (moves && castBoxBox(boxA, motion, boxB, cast)) {
    const { normal: n, point: p, toi: t } = cast;
    return { ...ids, toi: t, depth: 0, normal: [n.x, n.y, n.z], point: [p.x + t * motionB.x, p.y + t * motionB.y, p.z + t * motionB.z] };
  }
  return { ...ids, toi: c.toi[i], depth: c.depth[i], normal: [-c.nx[i], -c.ny[i], -c.nz[i]], point: [c.px[i], c.py[i], c.pz[i]] };
}

function compareContacts(x: SceneContact, y: SceneContact): number {
  return x.a !== y.a ? x.a - y.a : x.b - y.b;
}

/**
 * The last tick's contacts with user ids (`a` the lower user id, or the sphere of a sphere–box
 * pair), sorted by (a, b). Call it between `detectScene` and `advanceScene` (a swapped pair is
 * recomputed from the poses at the tick's start).
 */
export function readSceneContacts(built: BuiltScene): SceneContact[] {
  const c = built.physics.contacts;
  const { userIdOf, sphere } = built;
  const out: SceneContact[] = [];
  for (let i = 0; i < c.count; i++) {
    const a = userIdOf[c.a[i]];
    const b = userIdOf[c.b[i]];
    // The list's a is a sphere unless both are boxes; its b is a box unless both are spheres. A
    // sphere–box pair keeps the sphere as a; two spheres or two boxes go in user-id order.
    if (b < a && sphere[c.b[i]] === 1) out.push(swappedSphereContact(built, i));
    else if (b < a && sphere[c.a[i]] === 0) out.push(swappedBoxContact(built, i));
    else out.push({ a, b, toi: c.toi[i], depth: c.depth[i], normal: [c.nx[i], c.ny[i], c.nz[i]], point: [c.px[i], c.py[i], c.pz[i]] });
  }
  return out.sort(compareContacts);
}

/** One whole tick: detect, read the contacts (user ids), move. Returns the contacts. */
export function stepScene(built: BuiltScene): SceneContact[] {
  detectScene(built);
  const contacts = readSceneContacts(built);
  advanceScene(built);
  return contacts;
}
