/**
 * The demo's scene, without any rendering: the page steps it, and the browser test builds the same
 * scene in Node to compare state hashes. Deterministic from its options (seeded PRNG, no Math.random,
 * no trigonometry).
 *
 * World frame, length units, seconds; dt = 1/60 s.
 * - The arena (`arenaSpec`, as `npm start` and the benchmarks use): spheres flying in the cube
 *   [0, size]³ with reflecting walls, among static boxes, half of them rotated; spheres collide with
 *   boxes only (collision groups), and bounce off them (examples/browser/response.ts).
 * - {@link MOVING_BOXES} large boxes moving at constant velocity, reflected at the arena's walls
 *   (kinematic: they push spheres, nothing pushes them; boxes do not collide with boxes).
 * - The bullet lane, in front of the arena (z < 0, its own collision groups): a row of
 *   {@link BULLETS} small fast spheres fired along +x at a thin wall every {@link SALVO_TICKS} ticks.
 *   A bullet moves {@link BULLET_SPEED} · dt = 2 length units per tick toward a wall
 *   2 · {@link WALL_HALF_THICKNESS} thick, and no tick starts with a bullet touching the wall: with
 *   continuous contacts off every bullet passes it; with them on, none does.
 *
 * `bodies` is the total body count (all of the above).
 * @module
 */
import { createWorld, pipe, type World } from 'bitecs';
import {
  addBox,
  addSphere,
  createBroadphaseSystem,
  createIntegrateSystem,
  createNarrowphaseSystem,
  createPhysics,
  type Physics,
  type System,
} from '../../src/index.js';
import { arenaSpec, reflectInBounds } from '../../src/scenes/arena.js';
import { createRng } from '../../src/scenes/prng.js';
import { createBounceSystem } from './response.js';

/** Range of the body count. */
export const BODIES_MIN = 1000;
export const BODIES_MAX = 100_000;
export const MOVING_BOXES = 6;
export const BULLETS = 8;
export const BULLET_RADIUS = 0.2;
/** Spacing of the bullets along y. */
export const BULLET_SPACING = 1.25;
/**
 * Bullet speed, length units per second: 2 per tick at 60 Hz, 8 times the wall's thickness plus a
 * bullet's diameter. Not faster: the broadphase grows static boxes by the largest swept sphere's half
 * size, so much faster bullets would slow down the arena's every lookup.
 */
export const BULLET_SPEED = 120;
export const WALL_HALF_THICKNESS = 0.05;
/** A salvo is fired every this many ticks (at the end of the tick). */
export const SALVO_TICKS = 60;
/** Distance from the bullets' start to the wall's plane: 4.5 ticks of flight (tick starts miss the wall by 1). */
const BULLET_RUN = 9;

export interface DemoSceneOptions {
  /** Seed of the arena and the moving boxes. */
  seed: number;
  /** Total number of bodies, BODIES_MIN .. BODIES_MAX. */
  bodies: number;
  /** Swept (continuous) contacts; can be changed later through `physics.continuous`. */
  continuous: boolean;
}

export const DEMO_DEFAULTS: Readonly<DemoSceneOptions> = { seed: 1, bodies: 10_000, continuous: true };

export interface DemoScene {
  readonly options: Readonly<DemoSceneOptions>;
  readonly world: World;
  readonly physics: Physics;
  /** Side of the arena cube [0, size]³. */
  readonly size: number;
  readonly spheres: Uint32Array;
  readonly staticBoxes: Uint32Array;
  readonly movingBoxes: Uint32Array;
  readonly bullets: Uint32Array;
  readonly wall: number;
  /** The wall's plane (x) and its centre's y and z (the lane); where the bullets start (x). */
  readonly wallX: number;
  readonly bulletStartX: number;
  readonly laneY: number;
  readonly laneZ: number;
  /** The tick count at which the last salvo was fired (bullets moved back to their start). */
  readonly firedAtTick: number;
  /** One fixed step: detection, response, integration, arena walls, salvo. */
  tick(): void;
  /** Bullets now beyond the wall's plane. */
  bulletsThrough(): number;
}

/** Clamps and rounds a requested body count into BODIES_MIN .. BODIES_MAX. */
export function clampBodies(n: number): number {
  return Number.isFinite(n) ? Math.min(BODIES_MAX, Math.max(BODIES_MIN, Math.round(n))) : DEMO_DEFAULTS.bodies;
}

// Collision groups: arena boxes 1, arena spheres 2, bullets 4, the wall 8.
const ARENA_SPHERE = { group: 2, mask: 1 };
const BULLET = { group: 4, mask: 8 };
const WALL = { group: 8, mask: 4 };

export function createDemoScene(options: DemoSceneOptions): DemoScene {
  const bodies = clampBodies(options.bodies);
  const extras = MOVING_BOXES + BULLETS + 1;
  const boxes = Math.floor((bodies - extras) / 11);
  const spec = arenaSpec({ spheres: bodies - extras - boxes, boxes, seed: options.seed });
  const size = spec.size;
  const world = createWorld();
  const physics = createPhysics(world, { dt: spec.dt, capacity: bodies + 1, continuous: options.continuous, contactComponent: false });

  const staticBoxes = Uint32Array.from(spec.boxes, (b) => addBox(physics, b));
  const spheres = Uint32Array.from(spec.spheres, (s) => addSphere(physics, { ...s, ...ARENA_SPHERE }));
  const rng = createRng(options.seed ^ 0x6d6f76);
  const movingBoxes = Uint32Array.from({ length: MOVING_BOXES }, () => {
    const half = size / 14;
    return addBox(physics, {
      position: [rng.range(0, size), rng.range(0, size), rng.range(0, size)],
      halfExtents: [half * rng.range(0.5, 1), half * rng.range(0.25, 0.5), half * rng.range(0.5, 1)],
      velocity: [rng.range(-6, 6), rng.range(-6, 6), rng.range(-6, 6)],
    });
  });

  const wallX = size / 2, laneY = size / 4, laneZ = -size / 3;
  const wall = addBox(physics, { position: [wallX, laneY, laneZ], halfExtents: [WALL_HALF_THICKNESS, (BULLETS * BULLET_SPACING) / 2 + 1, 3], ...WALL });
  const { Position, Velocity } = physics.components;
  const bullets = Uint32Array.from({ length: BULLETS }, (_, j) =>
    addSphere(physics, { position: [wallX - BULLET_RUN, bulletY(laneY, j), laneZ], radius: BULLET_RADIUS, velocity: [BULLET_SPEED, 0, 0], ...BULLET }),
  );
  const reflected = Uint32Array.from([...spheres, ...movingBoxes]);

  const walls: System = (w) => {
    reflectInBounds(Position, Velocity, reflected, reflected.length, size);
    return w;
  };
  let firedAtTick = 0;
  const salvo: System = (w) => {
    if (physics.tick % SALVO_TICKS !== 0) return w;
    for (let j = 0; j < BULLETS; j++) {
      const b = bullets[j];
      Position.x[b] = wallX - BULLET_RUN;
      Position.y[b] = bulletY(laneY, j);
      Position.z[b] = laneZ;
      Velocity.x[b] = BULLET_SPEED;
      Velocity.y[b] = 0;
      Velocity.z[b] = 0;
    }
    firedAtTick = physics.tick;
    return w;
  };
  // With a built-in collision response, its system replaces createBounceSystem here (or `step` with
  // the response option replaces the first four systems).
  const tick = pipe(
    createBroadphaseSystem(physics),
    createNarrowphaseSystem(physics),
    createBounceSystem(physics),
    createIntegrateSystem(physics),
    walls,
    salvo,
  );
  return {
    options: { seed: options.seed, bodies, continuous: options.continuous },
    world, physics, size, spheres, staticBoxes, movingBoxes, bullets, wall, wallX, laneY, laneZ,
    bulletStartX: wallX - BULLET_RUN,
    get firedAtTick() {
      return firedAtTick;
    },
    tick: () => {
      tick(world);
    },
    bulletsThrough: () => {
      let n = 0;
      for (let j = 0; j < BULLETS; j++) if (Position.x[bullets[j]] > wallX) n++;
      return n;
    },
  };
}

function bulletY(laneY: number, j: number): number {
  return laneY + BULLET_SPACING * (j - (BULLETS - 1) / 2);
}
