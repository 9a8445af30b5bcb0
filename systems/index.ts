/**
 * bitecs systems: plain `(world) => world` closures over one physics instance, composable with
 * bitecs `pipe`. A tick is broadphase, narrowphase, then integration (or your own movement system).
 * Collision response needs no system of its own: the broadphase applies gravity to dynamic bodies
 * (spheres with Response) and the narrowphase moves them through their impacts; the integration
 * moves the other bodies.
 * They are thin adapters over the stage functions of src/step/step.ts.
 * @module
 */
import type { World } from 'bitecs';
import { runBroadphase, runIntegrate, runNarrowphase } from '../src/step/step.js';
import type { Physics } from '../src/physics/physicsTypes.js';

/** A system: takes the world and returns it. */
export type System = (world: World) => World;

/** Buckets bodies in the uniform grid and lists candidate pairs for the narrowphase. */
export function createBroadphaseSystem(physics: Physics): System {
  return (world) => {
    runBroadphase(physics);
    return world;
  };
}

/** Runs the static and swept tests, writes `physics.contacts` and the Contact components. */
export function createNarrowphaseSystem(physics: Physics): System {
  return (world) => {
    runNarrowphase(physics);
    return world;
  };
}

/** Moves bodies with Velocity by velocity × dt (after detection). */
export function createIntegrateSystem(physics: Physics): System {
  return (world) => {
    runIntegrate(physics);
    return world;
  };
}
