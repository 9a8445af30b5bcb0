/**
 * A minimal bitecs game loop with bitecs-collide.
 *
 * - The physics systems run in a bitecs `pipe`: broadphase → narrowphase → our bounce system →
 *   integration. The bounce system reads the Contact component (each touching entity's primary
 *   contact; the normal points toward the entity) and reflects the velocity of spheres moving into
 *   a box: v ← v − 2 (v·n) n. It runs before integration, so a sphere bounces in the tick in which
 *   it would have reached the wall (continuous detection: no tunnelling even at high speed).
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
  while (ids.length < SPHERES) {
    const p: [number, number, number] = [rng.range(-8, 8), rng.range(-8, 8), rng.range(-8, 8)];
    if (Math.hypot(p[0], p[2]) < 4.5) continue; // keep away from the pillar
    const v: [number, number, number] = [rng.range(-12, 12), rng.range(-12, 12), rng.range(-12, 12)];
    // Spheres are in group 2 and collide with group 1 (the boxes) only.
    ids.push(addSphere(physics, { position: p, velocity: v, radius: rng.range(0.3, 0.8), group: 2, mask: 1 }));
  }
  return ids;
}

/** Our gameplay system: bounce spheres off whatever their primary contact is. Counts bounces. */
function createBounceSystem(physics: Physics, stats: { bounces: number }) {
  const { Contact, Sphere, Velocity } = physics.components;
  return (world: World): World => {
    for (const eid of query(world, [Sphere, Velocity, Contact])) {
      const nx = Contact.nx[eid], ny = Contact.ny[eid], nz = Contact.nz[eid];
      const vn = Velocity.x[eid] * nx + Velocity.y[eid] * ny + Velocity.z[eid] * nz;
      if (vn >= 0) continue; // already moving away
      Velocity.x[eid] -= 2 * vn * nx;
      Velocity.y[eid] -= 2 * vn * ny;
      Velocity.z[eid] -= 2 * vn * nz;
      stats.bounces++;
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
  console.log(`game-loop: state hash ${hashPhysicsState(physics)}`);
  if (kept !== balls.length) process.exitCode = 1;
}

main();
