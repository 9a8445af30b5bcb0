/**
 * The demo's scene, without any rendering: the page steps it, and the browser test builds the same
 * scene in Node to compare state hashes. Deterministic from its options (seeded PRNG, no Math.random,
 * no trigonometry).
 *
 * World frame, length units, seconds; dt = 1/60 s. The collision response is the module's own
 * (docs/response.md): every arena sphere has `Response` BOUNCE with restitution 1, so the physics
 * moves it through its impacts within the tick; bodies without Response are kinematic.
 * - The arena (`arenaSpec`, as `npm start` and the benchmarks use): spheres flying in the cube
 *   [0, size]³ with reflecting walls (their velocity is turned back inward, `reflectInBounds`),
 *   among static boxes, half of them rotated; spheres collide with boxes only (collision groups).
 *   A sphere that would start touching a box is placed elsewhere, in free space (a sphere started in
 *   a gap between two boxes narrower than itself would stay wedged in it, overlapping both).
 * - {@link MOVING_BOXES} large kinematic boxes sliding along x, each in its own lane of a slab across
 *   the middle of the arena, reflected at the arena's walls: they push spheres, nothing pushes them.
 *   Two kinematic bodies closing on a sphere would crush it (no response can resolve a squeeze
 *   between bodies that are never pushed: the sphere ends up inside one of them), so no box comes
 *   within {@link CLEARANCE} of a moving box: the lanes are that far apart, and the static boxes
 *   that would reach into the slab are moved out of it (drawn again above or below it).
 * - The bullet lane, in front of the arena (z < 0, its own collision groups): a row of
 *   {@link BULLETS} small fast spheres fired along +x at a thin wall every {@link SALVO_TICKS} ticks.
 *   A bullet moves {@link BULLET_SPEED} · dt = 2 length units per tick toward a wall
 *   2 · {@link WALL_HALF_THICKNESS} thick, and no tick starts with a bullet touching the wall. With
 *   continuous contacts on the bullets are dynamic (Response BOUNCE): they bounce back off the wall.
 *   The response always sweeps, so a dynamic body cannot pass the wall whatever
 *   `physics.continuous` says; with continuous contacts off the bullets are therefore kinematic
 *   (their Response is removed at the next tick), and the discrete detection, which sees them only at
 *   the tick's poses, never reports them touching the wall: they pass it. The tick reads
 *   `physics.continuous`, so setting it directly switches the bullets too.
 *
 * `bodies` is the total body count (all of the above).
 * @module
 */
import { addComponent, createWorld, hasComponent, pipe, removeComponent, type World } from 'bitecs';
import {
  addBox,
  addSphere,
  createBroadphaseSystem,
  createIntegrateSystem,
  createNarrowphaseSystem,
  createEntityList,
  createPhysics,
  overlapSphere,
  ResponseMode,
  type Physics,
  type System,
} from '../../src/index.js';
import { arenaSpec, reflectInBounds, type ArenaSpec } from '../../src/scenes/arena.js';
import { createRng, type Rng } from '../../src/scenes/prng.js';

/** Range of the body count. */
export const BODIES_MIN = 1000;
export const BODIES_MAX = 100_000;
export const MOVING_BOXES = 6;
/**
 * Least gap between a moving box and any other box (length units): more than the diameter of the
 * largest arena sphere (radius ≤ 1), so that no sphere is ever squeezed between two boxes.
 */
export const CLEARANCE = 2.5;
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

  const rng = createRng(options.seed ^ 0x6d6f76);
  const movers = movingBoxSpecs(size, rng);
  clearSlab(spec, movers.slabHalf, rng);
  const staticBoxes = Uint32Array.from(spec.boxes, (b) => addBox(physics, b));
  const movingBoxes = Uint32Array.from(movers.boxes, (b) => addBox(physics, b));
  placeInFreeSpace(physics, spec, rng);
  const spheres = Uint32Array.from(spec.spheres, (s) => addSphere(physics, { ...s, ...ARENA_SPHERE, response: 'bounce', restitution: 1 }));

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
  // Detection and the built-in response (the narrowphase moves the dynamic spheres), integration of
  // the kinematic bodies; then the arena's walls and the salvo. `step(physics)` would do the first three.
  const tick = pipe(
    createBulletModeSystem(physics, bullets),
    createBroadphaseSystem(physics),
    createNarrowphaseSystem(physics),
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

/**
 * Makes the bullets dynamic (Response BOUNCE, restitution 1) while `physics.continuous` is on, and
 * kinematic (no Response) while it is off: see the module comment. Adds or removes the component
 * only when the switch changed.
 */
export function createBulletModeSystem(physics: Physics, bullets: Uint32Array): System {
  const { Response } = physics.components;
  return (w) => {
    const on = physics.continuous;
    if (hasComponent(w, bullets[0], Response) === on) return w;
    for (const b of bullets) {
      if (!on) {
        removeComponent(w, b, Response);
        continue;
      }
      addComponent(w, b, Response);
      Response.mode[b] = ResponseMode.BOUNCE;
      Response.restitution[b] = 1;
      Response.mass[b] = 0;
    }
    return w;
  };
}

type BoxSpec = ArenaSpec['boxes'][number];

/**
 * The moving boxes: axis-aligned, at the arena's mid-height y = size / 2, each in its own lane along
 * x (lane k centred at z = (k + ½) · size / MOVING_BOXES, its box at most lane width − CLEARANCE
 * wide), moving along x only at 3 to 8 length units per second. `slabHalf` is the largest half height.
 */
function movingBoxSpecs(size: number, rng: Rng): { boxes: BoxSpec[]; slabHalf: number } {
  const half = size / 14, lane = size / MOVING_BOXES;
  const boxes = Array.from({ length: MOVING_BOXES }, (_, k): BoxSpec => ({
    position: [rng.range(0, size), size / 2, (k + 0.5) * lane],
    halfExtents: [half * rng.range(0.5, 1), half * rng.range(0.25, 0.5), ((lane - CLEARANCE) / 2) * rng.range(0.6, 1)],
    rotation: [0, 0, 0, 1],
    velocity: [(rng.next() < 0.5 ? -1 : 1) * rng.range(3, 8), 0, 0],
  }));
  return { boxes, slabHalf: half * 0.5 };
}

/**
 * Moves every static box that would come within CLEARANCE of the moving boxes' slab (y within
 * size / 2 ± slabHalf) out of it: its centre's y is drawn again, uniformly over the heights that keep
 * it clear (its reach along y is the half height of its rotated bounds). Keeps the box count.
 */
function clearSlab(spec: ArenaSpec, slabHalf: number, rng: Rng): void {
  const mid = spec.size / 2;
  for (const b of spec.boxes) {
    const [x, y, z, w] = b.rotation;
    const [hx, hy, hz] = b.halfExtents;
    const reach = Math.abs(2 * (x * y + w * z)) * hx + Math.abs(1 - 2 * (x * x + z * z)) * hy + Math.abs(2 * (y * z - w * x)) * hz;
    const lo = mid - slabHalf - CLEARANCE - reach, hi = mid + slabHalf + CLEARANCE + reach;
    if (b.position[1] <= lo || b.position[1] >= hi) continue;
    const u = rng.range(0, spec.size - (hi - lo));
    b.position[1] = u < lo ? u : u + (hi - lo);
  }
}

/** Most draws of a sphere's position before it is left where it is. */
const PLACE_ATTEMPTS = 100;

/**
 * Moves every arena sphere that would start touching a box (static or moving, already added) to a
 * free place, drawn uniformly in the arena (`overlapSphere`, a world query). A sphere started inside
 * a box is pushed out by the response, but one started in a gap between two boxes narrower than
 * itself would stay wedged there, overlapping both.
 */
function placeInFreeSpace(physics: Physics, spec: ArenaSpec, rng: Rng): void {
  const hits = createEntityList();
  const filter = { group: ARENA_SPHERE.group, mask: ARENA_SPHERE.mask };
  for (const s of spec.spheres) {
    for (let k = 0; k < PLACE_ATTEMPTS && overlapSphere(physics, s.position, s.radius, hits, filter) > 0; k++) {
      s.position = [rng.range(0, spec.size), rng.range(0, spec.size), rng.range(0, spec.size)];
    }
  }
}
