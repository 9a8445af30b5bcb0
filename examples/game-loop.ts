/**
 * A minimal bitecs game loop with bitecs-collide.
 *
 * - The balls are dynamic bodies: `addSphere(…, { response: 'bounce', restitution })` gives them the
 *   Response component, and the physics moves them, bounces them off the walls, the pillar and each
 *   other at the exact time of impact (several impacts per tick if need be), under gravity
 *   (`createPhysics` option). A player sphere with `response: 'slide'` slides along walls.
 * - The physics systems run in a bitecs `pipe`: broadphase (gravity first) → narrowphase (contacts,
 *   and the response, which moves dynamic bodies through their impacts) → our counting system, which
 *   reads the Contact component (each touching entity's primary contact) → integration of the
 *   bodies without Response (none here).
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
  ContactFlags,
  createBroadphaseSystem,
  createFixedStepper,
  createIntegrateSystem,
  createNarrowphaseSystem,
  createPhysics,
  fixedStepAdvance,
  hashPhysicsState,
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
  const pos = physics.components.Position;
  while (ids.length < SPHERES) {
    const p: [number, number, number] = [rng.range(-8, 8), rng.range(-8, 8), rng.range(-8, 8)];
    if (Math.hypot(p[0], p[2]) < 4.5) continue; // keep away from the pillar
    if (ids.some((e) => Math.hypot(p[0] - pos.x[e], p[1] - pos.y[e], p[2] - pos.z[e]) < 1.7)) continue; // apart
    const v: [number, number, number] = [rng.range(-12, 12), rng.range(-12, 12), rng.range(-12, 12)];
    // Dynamic: the physics moves the ball and bounces it (restitution 0.9) off walls and other balls.
    ids.push(addSphere(physics, { position: p, velocity: v, radius: rng.range(0.3, 0.8), response: 'bounce', restitution: 0.9 }));
  }
  return ids;
}

/** Our gameplay system: counts the impacts that began this tick (the physics already bounced them). */
function createCountSystem(physics: Physics, stats: { bounces: number }) {
  return (world: World): World => {
    const c = physics.contacts;
    for (let i = 0; i < c.count; i++) if ((c.flags[i] & ContactFlags.BEGAN) !== 0) stats.bounces++;
    return world;
  };
}

/** A player sphere that slides along walls (collide-and-slide), steered toward the far corner each frame. */
function addPlayer(physics: Physics): number {
  return addSphere(physics, { position: [-8, -9.5, -8], velocity: [0, 0, 0], radius: 0.5, response: 'slide' });
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
  const physics = createPhysics(world, { dt: DT, gravity: [0, -9.81, 0] });
  const rng = createRng(7);
  addRoom(physics);
  const balls = addBalls(physics, rng);
  const player = addPlayer(physics);
  // A tag of our own on the balls, to show that game components live alongside ours.
  const Ball = {};
  for (const eid of balls) addComponent(world, eid, Ball);

  const stats = { bounces: 0 };
  const tick = pipe(
    createBroadphaseSystem(physics),
    createNarrowphaseSystem(physics),
    createCountSystem(physics, stats),
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
      // Input: the player pushes toward +x +z (into the pillar and then the walls: it slides along them).
      Velocity.x[player] = 6;
      Velocity.z[player] = 4;
      tick(world);
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
  const kept = inside(physics, [...balls, player]);
  console.log(`game-loop: ${FRAMES} frames, ${steps} steps, dropped ${stepper.droppedTime.toFixed(3)} s after the hitch, ${stats.bounces} bounces`);
  console.log(`game-loop: player at (${Position.x[player].toFixed(3)}, ${Position.y[player].toFixed(3)}, ${Position.z[player].toFixed(3)}) sliding along the walls`);
  console.log(`game-loop: balls inside the room: ${kept - 1}/${balls.length}`);
  console.log(`game-loop: state hash ${hashPhysicsState(physics)}`);
  if (kept !== balls.length + 1) process.exitCode = 1;
}

main();
