/**
 * A ball pit that comes to rest: {@link BALLS} dynamic spheres (Response SLIDE: plastic impacts,
 * radius 0.3 to 0.45) dropped under gravity (−9.81 along y) into an open box (a floor and four walls,
 * static boxes), in four layers. They land on the floor, the walls and each other (the response's
 * impulses between dynamic spheres) and settle: all at rest by tick 342 with seed 1. The page shows
 * how many still move.
 *
 * Friction and sleep are the module's: every ball and box has `friction` {@link FRICTION} (Coulomb; a
 * pair uses √(μa μb)), and `createPhysics`'s `sleep` option puts a ball that stays slow to sleep, so
 * the pile stops exactly. (Before the friction option existed the scene damped the balls' velocity
 * itself, and a pile of 90 or more balls never came to rest.)
 * @module
 */
import { createWorld } from 'bitecs';
import { addBox, addSphere, createPhysics, step } from '../../../src/index.js';
import { createRng } from '../../../src/scenes/prng.js';
import { COLORS, type ShowScene } from '../showScene.js';

export const BALLS = 150;
/** Friction coefficient of the balls and the box. */
export const FRICTION = 0.5;
/** Below this speed (length units per second) a ball counts as at rest. */
export const REST_SPEED = 0.05;
export const HALF_X = 5, HALF_Z = 3;
const WALL_H = 3;

export function createPitScene(options: { seed: number }): ShowScene {
  const world = createWorld();
  const physics = createPhysics(world, { dt: 1 / 60, gravity: [0, -9.81, 0], capacity: 256, contactComponent: false, sleep: {} });
  const rng = createRng(options.seed);
  const walls = [
    addBox(physics, { position: [0, -0.5, 0], halfExtents: [HALF_X + 0.5, 0.5, HALF_Z + 0.5], friction: FRICTION }),
    addBox(physics, { position: [HALF_X + 0.25, WALL_H / 2, 0], halfExtents: [0.25, WALL_H / 2, HALF_Z + 0.5], friction: FRICTION }),
    addBox(physics, { position: [-HALF_X - 0.25, WALL_H / 2, 0], halfExtents: [0.25, WALL_H / 2, HALF_Z + 0.5], friction: FRICTION }),
    addBox(physics, { position: [0, WALL_H / 2, HALF_Z + 0.25], halfExtents: [HALF_X, WALL_H / 2, 0.25], friction: FRICTION }),
    addBox(physics, { position: [0, WALL_H / 2, -HALF_Z - 0.25], halfExtents: [HALF_X, WALL_H / 2, 0.25], friction: FRICTION }),
  ];
  // A grid of drop points, 1 apart, in layers from y = 2 upward; a little sideways speed each.
  const perLayer = (2 * HALF_X - 1) * (2 * HALF_Z - 1);
  const balls = Uint32Array.from({ length: BALLS }, (_, i) => {
    const k = i % perLayer, layer = Math.floor(i / perLayer);
    const x = -HALF_X + 1 + (k % (2 * HALF_X - 1)), z = -HALF_Z + 1 + Math.floor(k / (2 * HALF_X - 1));
    return addSphere(physics, {
      position: [x + rng.range(-0.05, 0.05), 2 + 1.1 * layer, z + rng.range(-0.05, 0.05)],
      radius: rng.range(0.3, 0.45),
      velocity: [rng.range(-1, 1), 0, rng.range(-1, 1)],
      response: 'slide',
      friction: FRICTION,
    });
  });
  const { Velocity: v } = physics.components;
  let restedAt = -1;

  const moving = () => balls.reduce((n, b) => n + (Math.hypot(v.x[b], v.y[b], v.z[b]) > REST_SPEED ? 1 : 0), 0);
  const maxSpeed = () => balls.reduce((m, b) => Math.max(m, Math.hypot(v.x[b], v.y[b], v.z[b])), 0);
  return {
    world,
    physics,
    spheres: balls,
    boxes: Uint32Array.from(walls),
    tick() {
      step(physics);
      if (restedAt < 0 && moving() === 0) restedAt = physics.tick;
      else if (moving() > 0) restedAt = -1;
    },
    color: (e) => (walls.includes(e) ? COLORS.staticBox : Math.hypot(v.x[e], v.y[e], v.z[e]) > REST_SPEED ? COLORS.touching : COLORS.sphere),
    figures: () => ({ balls: BALLS, moving: moving(), maxSpeed: maxSpeed(), restedAt }),
    status: () =>
      `balls still moving: ${moving()} of ${BALLS} (orange: faster than ${REST_SPEED} units/s)\n` +
      (restedAt >= 0 ? `all at rest since tick ${restedAt}` : `fastest: ${maxSpeed().toFixed(2)} units/s`) +
      `\nfriction ${FRICTION}, sleep on`,
    bounds2d: [-HALF_X - 2, -1.5, HALF_X + 2, 2 + 1.1 * Math.ceil(BALLS / perLayer) + 1],
    camera3d: { eye: [5, 9, 12], target: [0, 0.8, 0] },
  };
}
