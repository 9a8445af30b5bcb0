/**
 * Scene builders shared by the determinism tests: the arena (src/scenes) built normally or with
 * the same entity ids created in a shuffled order, and a helper that steps it and hashes.
 */
import { addComponent, addEntity, createWorld } from 'bitecs';
import { arenaSpec, reflectInBounds } from '../../src/scenes/arena.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { createRng } from '../../src/scenes/prng.js';
import { createPhysics, hashPhysicsState, step, type Physics } from '../../src/index.js';
import { internalsOf } from '../../src/world/internal.js';

export interface ArenaRun {
  physics: Physics;
  tick(): void;
}

export interface ArenaCase {
  spheres: number;
  seed: number;
  sphereSphere: boolean;
  continuous?: boolean;
}

/** The arena exactly as `buildArena` makes it. */
export function arenaInOrder(c: ArenaCase): ArenaRun {
  const a = buildArena({ spheres: c.spheres, seed: c.seed, sphereSphere: c.sphereSphere, physics: { continuous: c.continuous ?? true } });
  return { physics: a.physics, tick: a.tick };
}

function shuffle<T>(items: T[], seed: number): T[] {
  const rng = createRng(seed);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
  return items;
}

/**
 * The same arena with the same entity ids, but every entity is created first and the bodies'
 * components are attached in a shuffled order (entities and components), with a tiny initial
 * capacity so that the stores grow while bodies are added.
 */
export function arenaShuffled(c: ArenaCase, shuffleSeed: number): ArenaRun {
  const spec = arenaSpec({ spheres: c.spheres, seed: c.seed });
  const world = createWorld();
  const physics = createPhysics(world, { capacity: 4, dt: spec.dt, continuous: c.continuous ?? true });
  const m = spec.boxes.length;
  const total = m + spec.spheres.length;
  for (let i = 0; i < total; i++) addEntity(world);
  const C = physics.components;
  const order = shuffle(Array.from({ length: total }, (_, i) => i), shuffleSeed);
  const compOrder = createRng(shuffleSeed ^ 0x5bd1e995);
  for (const i of order) {
    const eid = i + 1;
    const comps: object[] = i < m ? [C.Position, C.Box] : [C.Position, C.Velocity, C.Sphere];
    if (i >= m && !c.sphereSphere) comps.push(C.CollisionFilter);
    for (let k = comps.length - 1; k > 0; k--) {
      const j = Math.floor(compOrder.next() * (k + 1));
      const t = comps[k];
      comps[k] = comps[j];
      comps[j] = t;
    }
    for (const comp of comps) addComponent(world, eid, comp);
  }
  // Data after all components exist (a store may have grown while they were added).
  for (let i = 0; i < total; i++) {
    const eid = i + 1;
    if (i < m) {
      const b = spec.boxes[i];
      C.Position.x[eid] = b.position[0];
      C.Position.y[eid] = b.position[1];
      C.Position.z[eid] = b.position[2];
      C.Box.hx[eid] = b.halfExtents[0];
      C.Box.hy[eid] = b.halfExtents[1];
      C.Box.hz[eid] = b.halfExtents[2];
      // addBox stores the rotation as given, so writing the same numbers gives the same bits.
      C.Box.qx[eid] = b.rotation[0];
      C.Box.qy[eid] = b.rotation[1];
      C.Box.qz[eid] = b.rotation[2];
      C.Box.qw[eid] = b.rotation[3];
    } else {
      const s = spec.spheres[i - m];
      C.Position.x[eid] = s.position[0];
      C.Position.y[eid] = s.position[1];
      C.Position.z[eid] = s.position[2];
      C.Velocity.x[eid] = s.velocity[0];
      C.Velocity.y[eid] = s.velocity[1];
      C.Velocity.z[eid] = s.velocity[2];
      C.Sphere.radius[eid] = s.radius;
      if (!c.sphereSphere) {
        C.CollisionFilter.group[eid] = 2;
        C.CollisionFilter.mask[eid] = 1;
      }
    }
  }
  internalsOf(physics).staticDirty = true;
  const sphereIds = Uint32Array.from({ length: spec.spheres.length }, (_, i) => m + 1 + i);
  return {
    physics,
    tick: () => {
      step(physics);
      reflectInBounds(physics.components.Position, physics.components.Velocity, sphereIds, sphereIds.length, spec.size);
    },
  };
}

/** Steps `ticks` times and returns the final hash. */
export function runHash(run: ArenaRun, ticks: number): string {
  for (let t = 0; t < ticks; t++) run.tick();
  return hashPhysicsState(run.physics);
}
