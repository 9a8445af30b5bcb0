/**
 * A minimal bitecs game loop with bitecs-collide.
 *
 * - The physics systems run in a bitecs `pipe`: broadphase → narrowphase → our bounce system →
 *   integration. The bounce system visits every touching sphere (the Contact component marks them)
 *   and reads ALL of its contacts with `readContactOf` (the normal points toward the sphere), not
 *   only the primary one in the Contact component: a ball resting on the floor (its primary
 *   contact, toi 0) that reaches a wall later in the same tick must see the wall too. It reflects
 *   the velocity off each contact the sphere moves into: v ← v − 2 (v·n) n. It runs before
 *   integration, so a sphere bounces in the tick in which it would have reached the wall
 *   (continuous detection: no tunnelling even at high speed). The built-in collision response will
 *   replace this sketch.
 * - A lane on the floor: a ball resting on the floor rolls at 5 units per tick toward a 0.5-thick
 *   wall and must never pass it.
 * - A fixed stepper (`createFixedStepper` / `fixedStepAdvance`) turns variable frame times into
 *   whole 1/60 s physics steps and an interpolation factor `alpha` for rendering. Frame times are
 *   simulated here (jittery 60 fps with one 300 ms hitch), so the run is instant and deterministic.
 *
 * Run: npx tsx examples/game-loop.ts
 */
import { addComponent, createWorld, pipe, query, type World } from 'bitecs';
import {
  addBox,
  addSphere,
  createBroadphaseSystem,
  createFixedStepper,
  createIntegrateSystem,
  createNarrowphaseSystem,
  ContactOf,
  createPhysics,
  fixedStepAdvance,
  hashPhysicsState,
  readContactOf,
  type Physics,
} from '../src/index.js';
import { createRng, type Rng } from '../src/scenes/prng.js';

const DT = 1 / 60;
const ROOM = 10; // the room is [-ROOM, ROOM]^3 inside its walls
const WALL = 1; // wall half thickness
const SPHERES = 60;
const FRAMES = 300;

/** Six static walls and a rotated pillar in the middle. Boxes without Velocity are static. */
function addRoom(physics: Physics): void {
  const span = ROOM + 2 * WALL;
  for (let axis = 0; axis < 3; axis++) {
    for (const side of [-1, 1]) {
      const position: [number, number, number] = [0, 0, 0];
      const halfExtents: [number, number, number] = [span, span, span];
      position[axis] = side * (ROOM + WALL);
      halfExtents[axis] = WALL;
      addBox(physics, { position, halfExtents });
    }
  }
  const turn = Math.PI / 5; // about y, computed once
  addBox(physics, { position: [0, 0, 0], halfExtents: [1, ROOM, 3], rotation: [0, Math.sin(turn / 2), 0, Math.cos(turn / 2)] });
}

/** Spheres inside the room, clear of the walls and the pillar, with random velocities. */
function addBalls(physics: Physics, rng: Rng): number[] {
  const ids: number[] = [];
  while (ids.length < SPHERES) {
    const p: [number, number, number] = [rng.range(-8, 8), rng.range(-8, 8), rng.range(-8, 8)];
    if (Math.hypot(p[0], p[2]) < 4.5) continue; // keep away from the pillar
    const v: [number, number, number] = [rng.range(-12, 12), rng.range(-12, 12), rng.range(-12, 12)];
    // Spheres are in group 2 and collide with group 1 (the boxes) only.
    ids.push(addSphere(physics, { position: p, velocity: v, radius: rng.range(0.3, 0.8), group: 2, mask: 1 }));
  }
  return ids;
}

const LANE_Z = 8; // the lane runs along x on the floor, clear of the pillar
const LANE_WALL_X = 5; // centre of the lane's wall
const LANE_WALL_HALF = 0.25; // half its thickness: 0.5 thick
const LANE_SPEED = 5 / DT; // 5 units per tick

/**
 * The lane: a 0.5-thick wall standing on the floor, and a ball resting on the floor that rolls at 5
 * units per tick toward it. Returns the ball.
 */
function addLane(physics: Physics): number {
  addBox(physics, { position: [LANE_WALL_X, -ROOM + 0.5, LANE_Z], halfExtents: [LANE_WALL_HALF, 0.5, 1.5] });
  return addSphere(physics, { position: [-5, -ROOM + 0.5, LANE_Z], radius: 0.5, velocity: [LANE_SPEED, 0, 0], group: 2, mask: 1 });
}

/**
 * Our gameplay system: bounce each touching sphere off every contact it moves into (all of its
 * contacts, not only the primary one). Counts bounces. Allocates nothing per tick.
 */
function createBounceSystem(physics: Physics, stats: { bounces: number }) {
  const { Contact, Sphere, Velocity } = physics.components;
  const hit = new ContactOf(); // reused: readContactOf writes into it
  return (world: World): World => {
    for (const eid of query(world, [Sphere, Velocity, Contact])) {
      for (let k = 0; readContactOf(physics, eid, k, hit); k++) {
        const vn = Velocity.x[eid] * hit.nx + Velocity.y[eid] * hit.ny + Velocity.z[eid] * hit.nz;
        if (vn >= 0) continue; // resting on it or already moving away
        Velocity.x[eid] -= 2 * vn * hit.nx;
        Velocity.y[eid] -= 2 * vn * hit.ny;
        Velocity.z[eid] -= 2 * vn * hit.nz;
        stats.bounces++;
      }
    }
    return world;
  };
}

/** A deterministic frame-time sequence: ~60 fps with jitter and one long hitch. */
function frameSeconds(frame: number, rng: Rng): number {
  if (frame === 150) return 0.3; // a 300 ms hitch: at most 5 steps run, the rest is dropped
  return rng.range(0.012, 0.022);
}

function inside(physics: Physics, ids: number[]): number {
  const { Position } = physics.components;
  const limit = ROOM;
  return ids.filter((e) => Math.abs(Position.x[e]) < limit && Math.abs(Position.y[e]) < limit && Math.abs(Position.z[e]) < limit).length;
}

function main(): void {
  const world = createWorld();
  const physics = createPhysics(world, { dt: DT });
  const rng = createRng(7);
  addRoom(physics);
  const balls = addBalls(physics, rng);
  const laneBall = addLane(physics);
  let laneMaxX = -Infinity;
  // A tag of our own on the balls, to show that game components live alongside ours.
  const Ball = {};
  for (const eid of balls) addComponent(world, eid, Ball);

  const stats = { bounces: 0 };
  const tick = pipe(
    createBroadphaseSystem(physics),
    createNarrowphaseSystem(physics),
    createBounceSystem(physics, stats),
    createIntegrateSystem(physics),
  );
  const stepper = createFixedStepper({ dt: DT, maxSubSteps: 5 });
  const { Position, Velocity } = physics.components;
  const watched = balls[0];
  let prevX = Position.x[watched];
  let steps = 0;
  let simTime = 0;
  let nextReport = 1;
  console.log(`game-loop: ${balls.length} balls in a room of side ${2 * ROOM}, dt ${+DT.toFixed(6)} s, ${FRAMES} simulated frames`);
  for (let frame = 0; frame < FRAMES; frame++) {
    const elapsed = frameSeconds(frame, rng);
    simTime += elapsed;
    steps += fixedStepAdvance(stepper, elapsed, () => {
      prevX = Position.x[watched];
      tick(world);
      laneMaxX = Math.max(laneMaxX, Position.x[laneBall]);
    });
    // Rendering would draw previous + alpha · (current − previous):
    const renderX = prevX + stepper.alpha * (Position.x[watched] - prevX);
    if (simTime >= nextReport) {
      const speed = Math.hypot(Velocity.x[watched], Velocity.y[watched], Velocity.z[watched]);
      console.log(
        `  t=${simTime.toFixed(2)} s  frame ${frame}  steps ${steps}  touching ${query(world, [physics.components.Contact, Ball]).length}` +
          `  bounces ${stats.bounces}  ball ${watched}: render x ${renderX.toFixed(3)} (alpha ${stepper.alpha.toFixed(2)}), speed ${speed.toFixed(2)}`,
      );
      nextReport++;
    }
  }
  const kept = inside(physics, balls);
  console.log(`game-loop: ${FRAMES} frames, ${steps} steps, dropped ${stepper.droppedTime.toFixed(3)} s after the hitch, ${stats.bounces} bounces`);
  console.log(`game-loop: balls inside the room: ${kept}/${balls.length}`);
  const laneLimit = LANE_WALL_X - LANE_WALL_HALF - 0.5; // the ball's centre when it touches the wall
  const laneKept = laneMaxX <= laneLimit;
  console.log(`game-loop: lane ball at 5 units per tick on the floor: max x ${laneMaxX.toFixed(3)}, ${laneKept ? 'never passed' : 'PASSED'} the 0.5-thick wall (touching at x ${laneLimit})`);
  console.log(`game-loop: state hash ${hashPhysicsState(physics)}`);
  if (kept !== balls.length || !laneKept) process.exitCode = 1;
}

main();
