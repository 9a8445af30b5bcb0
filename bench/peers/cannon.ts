/**
 * cannon-es 0.20: SAPBroadphase (x axis), `ObjectCollisionMatrix` for both collision matrices
 * (set before any body is added: the default ArrayCollisionMatrix grows with the square of the
 * body count), gravity 0. Spheres are dynamic bodies (mass 1, velocity 0, so `step` does not move
 * them) with `collisionResponse = false`: the narrowphase still emits one ContactEquation per
 * touching sphere–box pair (disabled, so the solver ignores it), read from `world.contacts`.
 * Boxes are static. Filter groups: spheres 2 / mask 1, boxes 1 / mask 2 (no sphere–sphere pairs).
 * (Kinematic spheres would only register overlaps in `world.bodyOverlapKeeper`, whose pair key
 * `i << 16 | j` breaks beyond 65,535 body ids.) Bodies are added in order of their AABB lower x,
 * so the SAP's first insertion sort is linear instead of quadratic (set-up only).
 */
import * as CANNON from 'cannon-es';
import type { ArenaSpec } from '../../src/scenes/arena.js';
import { moveSpheres, sphereState, type Peer } from '../common.js';

type Tagged = CANNON.Body & { benchSphere: number; benchBox: number };

export function createCannon(spec: ArenaSpec): Peer {
  const s = sphereState(spec);
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, 0, 0), allowSleep: false });
  const matrix = () => new CANNON.ObjectCollisionMatrix() as unknown as CANNON.World['collisionMatrix'];
  world.collisionMatrix = matrix();
  world.collisionMatrixPrevious = matrix();
  world.broadphase = new CANNON.SAPBroadphase(world);
  const all: Tagged[] = [];
  const spheres: Tagged[] = [];
  spec.boxes.forEach((b, i) => {
    const body = new CANNON.Body({
      mass: 0,
      type: CANNON.Body.STATIC,
      shape: new CANNON.Box(new CANNON.Vec3(b.halfExtents[0], b.halfExtents[1], b.halfExtents[2])),
      position: new CANNON.Vec3(b.position[0], b.position[1], b.position[2]),
      quaternion: new CANNON.Quaternion(b.rotation[0], b.rotation[1], b.rotation[2], b.rotation[3]),
      collisionFilterGroup: 1,
      collisionFilterMask: 2,
    }) as Tagged;
    body.benchSphere = -1;
    body.benchBox = i;
    all.push(body);
  });
  for (let i = 0; i < s.n; i++) {
    const body = new CANNON.Body({
      mass: 1,
      shape: new CANNON.Sphere(s.r[i]),
      position: new CANNON.Vec3(s.px[i], s.py[i], s.pz[i]),
      collisionFilterGroup: 2,
      collisionFilterMask: 1,
      linearDamping: 0,
      angularDamping: 0,
    }) as Tagged;
    body.collisionResponse = false;
    body.benchSphere = i;
    body.benchBox = -1;
    spheres.push(body);
    all.push(body);
  }
  for (const b of all) b.updateAABB();
  all.sort((p, q) => p.aabb.lowerBound.x - q.aabb.lowerBound.x);
  for (const b of all) world.addBody(b);
  const m = spec.boxes.length;
  return {
    id: 'cannon-es',
    bodies: s.n + m,
    lag: 0,
    tick() {
      moveSpheres(s);
      for (let i = 0; i < s.n; i++) {
        const b = spheres[i];
        b.position.set(s.px[i], s.py[i], s.pz[i]);
        b.aabbNeedsUpdate = true;
      }
      world.step(spec.dt);
    },
    contacts: () => world.contacts.length,
    pairs(out) {
      for (const c of world.contacts) {
        const a = c.bi as Tagged;
        const b = c.bj as Tagged;
        const sphere = a.benchSphere >= 0 ? a : b;
        const box = a.benchSphere >= 0 ? b : a;
        if (sphere.benchSphere < 0 || box.benchBox < 0) throw new Error('cannon: contact that is not sphere–box');
        out.push(sphere.benchSphere * m + box.benchBox);
      }
    },
    free() {},
  };
}
