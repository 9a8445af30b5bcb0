/**
 * Puts an arena (see `arenaSpec`) into a new bitecs world with a physics instance, ready to step.
 */
import { createWorld, type World } from 'bitecs';
import { addBox, addSphere, createPhysics, step, type Physics, type PhysicsOptions } from '../index.js';
import { arenaSpec, reflectInBounds, type ArenaOptions, type ArenaSpec } from './arena.js';

export interface Arena {
  world: World;
  physics: Physics;
  spec: ArenaSpec;
  sphereIds: Uint32Array;
  boxIds: Uint32Array;
  /** The moving boxes' ids (the first `movingBoxes` of `boxIds`). */
  movingBoxIds: Uint32Array;
  /** One arena tick: physics step (detect, then move), then reflect spheres and moving boxes at the walls. */
  tick(): void;
}

export interface BuildArenaOptions extends ArenaOptions {
  physics?: PhysicsOptions;
  /**
   * Spheres collide with spheres too (default false: the arena measures sphere–box contacts, as the
   * peers' benchmarks do; spheres are in group 2 with mask 1 and boxes in group 1).
   */
  sphereSphere?: boolean;
  /** A ready spec (e.g. `arena2dSpec`) instead of `arenaSpec(options)`. */
  spec?: ArenaSpec;
}

export function buildArena(options: BuildArenaOptions): Arena {
  const spec = options.spec ?? arenaSpec(options);
  const world = createWorld();
  const capacity = spec.spheres.length + spec.boxes.length + 1;
  const physics = createPhysics(world, { capacity, dt: spec.dt, ...options.physics });
  const boxIds = new Uint32Array(spec.boxes.length);
  const sphereIds = new Uint32Array(spec.spheres.length);
  const filter = options.sphereSphere ? {} : { group: 2, mask: 1 };
  spec.boxes.forEach((b, i) => {
    const velocity = b.velocity ? { velocity: b.velocity } : {};
    boxIds[i] = addBox(physics, { position: b.position, halfExtents: b.halfExtents, rotation: b.rotation, ...velocity });
  });
  const movingBoxIds = boxIds.slice(0, spec.boxes.filter((b) => b.velocity).length);
  spec.spheres.forEach((s, i) => {
    sphereIds[i] = addSphere(physics, { position: s.position, velocity: s.velocity, radius: s.radius, ...filter });
  });
  const { Position, Velocity } = physics.components;
  const tick = () => {
    step(physics);
    reflectInBounds(Position, Velocity, sphereIds, sphereIds.length, spec.size);
    if (movingBoxIds.length > 0) reflectInBounds(Position, Velocity, movingBoxIds, movingBoxIds.length, spec.size);
  };
  return { world, physics, spec, sphereIds, boxIds, movingBoxIds, tick };
}
