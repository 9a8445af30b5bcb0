/**
 * The 2D arena's peers (src/scenes/arena2d.ts): ours through the 3D path at z = 0, Rapier 2D
 * (@dimforge/rapier2d-compat 0.21, float32 WASM), detect-collisions (a re-export of check2d) and a
 * 2D brute force. Each moves the circles with the arena's float64 arithmetic (bench/peers/
 * bareGrid2d.ts `moveCircles`) and counts the touching circle–rectangle pairs; `pairs` lists them as
 * keys circleIndex * rectangles + rectangleIndex (outside the timing).
 *
 * - Rapier 2D: each circle a kinematic position-based body with a sensor ball (COLLISION_EVENTS,
 *   active collision types DEFAULT | KINEMATIC_FIXED, groups member 2 / filter 1), each rectangle a
 *   parentless (fixed) cuboid collider (member 1 / filter 2) turned by its angle; `setTranslation`,
 *   `world.step(eventQueue)`, the count kept from the start/stop events.
 * - detect-collisions: the rectangles in one system (static boxes, `isCentered: true`, turned by their
 *   angle), the circles in a second system (padding 2, so a small move does not re-insert them);
 *   per tick each circle is moved with `setPosition` and queried against the rectangles' system with
 *   `checkOne` (its fastest route for this scene).
 * - brute force: every pair, the rectangle's frame from its angle's cosine and sine (as the bare
 *   grid), clamped, squared distance ≤ r².
 */
import RAPIER from '@dimforge/rapier2d-compat';
import dc from 'detect-collisions';
import type { ArenaSpec } from '../../src/scenes/arena.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import type { Peer } from '../common.js';
import { circleState, moveCircles, rectRotation } from './bareGrid2d.js';

let ready: Promise<void> | undefined;
export function initRapier2d(): Promise<void> {
  ready ??= RAPIER.init();
  return ready;
}

/** A rectangle's angle (radians) from its quaternion (0, 0, s, c): twice the angle of (c, s). */
export function rectAngle(q: readonly number[]): number {
  return 2 * Math.atan2(q[2], q[3]);
}

export function createOurs2d(spec: ArenaSpec, continuous: boolean): Peer {
  const arena = buildArena({ spheres: spec.spheres.length, spec, physics: { continuous } });
  const { physics, sphereIds, boxIds } = arena;
  const m = boxIds.length;
  let maxEid = 0;
  for (const e of sphereIds) maxEid = Math.max(maxEid, e);
  for (const e of boxIds) maxEid = Math.max(maxEid, e);
  const circleIndex = new Int32Array(maxEid + 1).fill(-1);
  const rectIndex = new Int32Array(maxEid + 1).fill(-1);
  sphereIds.forEach((e, i) => (circleIndex[e] = i));
  boxIds.forEach((e, i) => (rectIndex[e] = i));
  return {
    id: continuous ? 'ours-2d-continuous' : 'ours-2d',
    bodies: sphereIds.length + m,
    lag: 1,
    tick: arena.tick,
    contacts: () => physics.contacts.count,
    pairs(out) {
      const c = physics.contacts;
      for (let i = 0; i < c.count; i++) {
        const s = circleIndex[c.a[i]], b = rectIndex[c.b[i]];
        if (s < 0 || b < 0) throw new Error(`unexpected contact pair (${c.a[i]}, ${c.b[i]})`);
        out.push(s * m + b);
      }
    },
    free() {},
  };
}

const CIRCLE_GROUPS = (0x0002 << 16) | 0x0001;
const RECT_GROUPS = (0x0001 << 16) | 0x0002;

export function createRapier2d(spec: ArenaSpec): Peer {
  const s = circleState(spec);
  const world = new RAPIER.World({ x: 0, y: 0 });
  world.timestep = spec.dt;
  const events = new RAPIER.EventQueue(true);
  const rectHandle = new Map<number, number>();
  spec.boxes.forEach((b, i) => {
    const desc = RAPIER.ColliderDesc.cuboid(b.halfExtents[0], b.halfExtents[1])
      .setTranslation(b.position[0], b.position[1])
      .setRotation(rectAngle(b.rotation))
      .setCollisionGroups(RECT_GROUPS);
    rectHandle.set(world.createCollider(desc).handle, i);
  });
  const bodies: RAPIER.RigidBody[] = [];
  const colliders: RAPIER.Collider[] = [];
  for (let i = 0; i < s.n; i++) {
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased().setTranslation(s.px[i], s.py[i]));
    const desc = RAPIER.ColliderDesc.ball(s.r[i])
      .setSensor(true)
      .setActiveEvents(RAPIER.ActiveEvents.COLLISION_EVENTS)
      .setActiveCollisionTypes(RAPIER.ActiveCollisionTypes.DEFAULT | RAPIER.ActiveCollisionTypes.KINEMATIC_FIXED)
      .setCollisionGroups(CIRCLE_GROUPS);
    bodies.push(body);
    colliders.push(world.createCollider(desc, body));
  }
  let touching = 0;
  const onEvent = (_h1: number, _h2: number, started: boolean) => {
    touching += started ? 1 : -1;
  };
  const t = { x: 0, y: 0 };
  const m = spec.boxes.length;
  return {
    id: 'rapier-2d',
    bodies: s.n + m,
    lag: 0,
    tick() {
      moveCircles(s);
      for (let i = 0; i < s.n; i++) {
        t.x = s.px[i];
        t.y = s.py[i];
        bodies[i].setTranslation(t, true);
      }
      world.step(events);
      events.drainCollisionEvents(onEvent);
    },
    contacts: () => touching,
    pairs(out) {
      for (let i = 0; i < s.n; i++) {
        world.intersectionPairsWith(colliders[i], (other) => {
          const b = rectHandle.get(other.handle);
          if (b === undefined) throw new Error('rapier-2d: a sensor intersects a non-rectangle collider');
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

export function createDetectCollisions(spec: ArenaSpec): Peer {
  const s = circleState(spec);
  const rects = new dc.System();
  const circleSystem = new dc.System();
  const index = new Map<unknown, number>();
  spec.boxes.forEach((b, i) => {
    const box = rects.createBox({ x: b.position[0], y: b.position[1] }, 2 * b.halfExtents[0], 2 * b.halfExtents[1],
      { isStatic: true, isCentered: true, angle: rectAngle(b.rotation) });
    index.set(box, i);
  });
  const circles: ReturnType<typeof circleSystem.createCircle>[] = [];
  for (let i = 0; i < s.n; i++) circles.push(circleSystem.createCircle({ x: s.px[i], y: s.py[i] }, s.r[i], { padding: 2 }));
  const m = spec.boxes.length;
  let count = 0;
  let record: number[] | null = null;
  let current = 0;
  const onHit = (response: { b: unknown }): boolean => {
    count++;
    if (record) record.push(current * m + index.get(response.b)!);
    return false; // keep going: `checkOne` stops at the first callback that returns true
  };
  const detect = () => {
    count = 0;
    for (let i = 0; i < s.n; i++) {
      current = i;
      rects.checkOne(circles[i], onHit);
    }
  };
  return {
    id: 'detect-collisions',
    bodies: s.n + m,
    lag: 0,
    tick() {
      moveCircles(s);
      for (let i = 0; i < s.n; i++) circles[i].setPosition(s.px[i], s.py[i]);
      detect();
    },
    contacts: () => count,
    pairs(out) {
      record = out;
      detect();
      record = null;
    },
    free() {},
  };
}

export function createBruteForce2d(spec: ArenaSpec): Peer {
  const s = circleState(spec);
  const m = spec.boxes.length;
  const rec = new Float64Array(6 * m);
  spec.boxes.forEach((b, i) => {
    const [c, sn] = rectRotation(b.rotation);
    rec.set([b.position[0], b.position[1], c, sn, b.halfExtents[0], b.halfExtents[1]], 6 * i);
  });
  let count = 0;
  let record: number[] | null = null;
  const detect = () => {
    let n = 0;
    for (let i = 0; i < s.n; i++) {
      const cx = s.px[i], cy = s.py[i], r2 = s.r[i] * s.r[i];
      for (let b = 0; b < m; b++) {
        const o = 6 * b;
        const dx = cx - rec[o], dy = cy - rec[o + 1];
        let lx = rec[o + 2] * dx + rec[o + 3] * dy;
        let ly = rec[o + 2] * dy - rec[o + 3] * dx;
        const hx = rec[o + 4], hy = rec[o + 5];
        lx = lx > hx ? lx - hx : lx < -hx ? lx + hx : 0;
        ly = ly > hy ? ly - hy : ly < -hy ? ly + hy : 0;
        if (lx * lx + ly * ly <= r2) {
          n++;
          if (record) record.push(i * m + b);
        }
      }
    }
    count = n;
  };
  return {
    id: 'brute-force-2d',
    bodies: s.n + m,
    lag: 0,
    tick() {
      moveCircles(s);
      detect();
    },
    contacts: () => count,
    pairs(out) {
      record = out;
      detect();
      record = null;
    },
    free() {},
  };
}
