/**
 * Rapier (@dimforge/rapier3d-compat, float32 WASM): each sphere a kinematic position-based body
 * with a sensor ball (COLLISION_EVENTS, active collision types DEFAULT | KINEMATIC_FIXED, groups:
 * member 2 / filter 1), each box a parentless (fixed) cuboid collider with its rotation (member 1 /
 * filter 2), so sphere–sphere pairs are filtered out as in ours. A tick moves the spheres in JS
 * (float64, the same arithmetic as ours), writes them with `setTranslation` (seen by this step;
 * `setNextKinematicTranslation` would be seen one step late), steps with an event queue and keeps
 * the number of touching pairs from the intersection start/stop events. `pairs` lists them with
 * `world.intersectionPairsWith` (outside the timing) to check the event count.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import type { ArenaSpec } from '../../src/scenes/arena.js';
import { moveSpheres, sphereState, type Peer } from '../common.js';

let ready: Promise<void> | undefined;
export function initRapier(): Promise<void> {
  ready ??= RAPIER.init();
  return ready;
}

const SPHERE_GROUPS = (0x0002 << 16) | 0x0001;
const BOX_GROUPS = (0x0001 << 16) | 0x0002;

export function createRapier(spec: ArenaSpec): Peer {
  const s = sphereState(spec);
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  world.timestep = spec.dt;
  const events = new RAPIER.EventQueue(true);
  const boxHandle = new Map<number, number>();
  spec.boxes.forEach((b, i) => {
    const [qx, qy, qz, qw] = b.rotation;
    const desc = RAPIER.ColliderDesc.cuboid(b.halfExtents[0], b.halfExtents[1], b.halfExtents[2])
      .setTranslation(b.position[0], b.position[1], b.position[2])
      .setRotation({ x: qx, y: qy, z: qz, w: qw })
      .setCollisionGroups(BOX_GROUPS);
    boxHandle.set(world.createCollider(desc).handle, i);
  });
  const bodies: RAPIER.RigidBody[] = [];
  const colliders: RAPIER.Collider[] = [];
  for (let i = 0; i < s.n; i++) {
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased().setTranslation(s.px[i], s.py[i], s.pz[i]));
    const desc = RAPIER.ColliderDesc.ball(s.r[i])
      .setSensor(true)
      .setActiveEvents(RAPIER.ActiveEvents.COLLISION_EVENTS)
      .setActiveCollisionTypes(RAPIER.ActiveCollisionTypes.DEFAULT | RAPIER.ActiveCollisionTypes.KINEMATIC_FIXED)
      .setCollisionGroups(SPHERE_GROUPS);
    bodies.push(body);
    colliders.push(world.createCollider(desc, body));
  }
  let touching = 0;
  const onEvent = (_h1: number, _h2: number, started: boolean) => {
    touching += started ? 1 : -1;
  };
  const t = { x: 0, y: 0, z: 0 };
  const m = spec.boxes.length;
  return {
    id: 'rapier',
    bodies: s.n + m,
    lag: 0,
    tick() {
      moveSpheres(s);
      for (let i = 0; i < s.n; i++) {
        t.x = s.px[i];
        t.y = s.py[i];
        t.z = s.pz[i];
        bodies[i].setTranslation(t, true);
      }
      world.step(events);
      events.drainCollisionEvents(onEvent);
    },
    contacts: () => touching,
    pairs(out) {
      for (let i = 0; i < s.n; i++) {
        world.intersectionPairsWith(colliders[i], (other) => {
          const b = boxHandle.get(other.handle);
          if (b === undefined) throw new Error('rapier: sensor intersects a non-box collider');
          out.push(i * m + b);
        });
      }
    },
    free() {
      events.free();
      world.free();
    },
  };
}
