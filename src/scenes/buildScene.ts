/**
 * Puts a parsed scene (see `sceneFile.ts`) into a bitecs world with a physics instance and runs it
 * tick by tick, reporting contacts with the scene's own body ids.
 *
 * Contacts are reported with the users' ids: in a sphere–box contact `a` is the sphere and `b` the
 * box; in a sphere–sphere contact `a` is the lower user id; in a box–box contact (at least one of
 * the two boxes has a velocity) `a` is the box listed first in the file (the lower entity id, as in
 * the ECS). The normal points from b toward a; the point is on b's surface at the time of impact
 * (for two spheres: centre_b(toi) + normal·r_b).
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

/** Contact `i` of the list with sphere a and b swapped (user order): normal negated, point on a. */
function swappedContact(built: BuiltScene, i: number): SceneContact {
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

function compareContacts(x: SceneContact, y: SceneContact): number {
  return x.a !== y.a ? x.a - y.a : x.b - y.b;
}

/**
 * The last tick's contacts with user ids, sorted by (a, b). Call it between `detectScene` and
 * `advanceScene` (a swapped sphere pair's point is recomputed from the positions at the tick start).
 */
export function readSceneContacts(built: BuiltScene): SceneContact[] {
  const c = built.physics.contacts;
  const { userIdOf, sphere } = built;
  const out: SceneContact[] = [];
  for (let i = 0; i < c.count; i++) {
    const a = userIdOf[c.a[i]];
    const b = userIdOf[c.b[i]];
    // A sphere pair is reported in user-id order; a sphere–box pair has the sphere as a, a box–box
    // pair the box listed first (the list's order: b is a box, never swapped).
    if (sphere[c.b[i]] === 1 && b < a) {
      out.push(swappedContact(built, i));
      continue;
    }
    out.push({ a, b, toi: c.toi[i], depth: c.depth[i], normal: [c.nx[i], c.ny[i], c.nz[i]], point: [c.px[i], c.py[i], c.pz[i]] });
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
