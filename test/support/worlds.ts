/**
 * Stepping a physics instance by its parts: the three phase systems that `step` runs, and the
 * arena's walls that `arena.tick` applies after `step` (src/scenes).
 */
import { pipe, type World } from 'bitecs';
import { createBroadphaseSystem, createIntegrateSystem, createNarrowphaseSystem, type Physics } from '../../src/index.js';
import { reflectInBounds } from '../../src/scenes/arena.js';
import type { Arena } from '../../src/scenes/buildArena.js';

export interface PhaseSystems {
  broadphase: (world: World) => World;
  narrowphase: (world: World) => World;
  integrate: (world: World) => World;
}

/** The phase systems of one physics instance, in the order `step` runs them. */
export function phaseSystems(physics: Physics): PhaseSystems {
  return {
    broadphase: createBroadphaseSystem(physics),
    narrowphase: createNarrowphaseSystem(physics),
    integrate: createIntegrateSystem(physics),
  };
}

/** `pipe(broadphase, narrowphase, integrate)`: one `step` as a single bitecs system. */
export function phasePipeline(physics: Physics): (world: World) => World {
  const s = phaseSystems(physics);
  return pipe(s.broadphase, s.narrowphase, s.integrate);
}

/** The arena's walls: reflects the spheres that left the cube, as `arena.tick` does after `step`. */
export function reflectArena(arena: Pick<Arena, 'physics' | 'sphereIds' | 'spec'>): void {
  const { Position, Velocity } = arena.physics.components;
  reflectInBounds(Position, Velocity, arena.sphereIds, arena.sphereIds.length, arena.spec.size);
}
