/**
 * Scene builders shared by the determinism tests: the arena (src/scenes) built normally or with
 * the same entity ids created in a shuffled order, and a helper that steps it and hashes.
 */
import { addComponent, addEntity, createWorld } from 'bitecs';
import { arenaSpec } from '../../src/scenes/arena.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { createRng, type Rng } from '../../src/scenes/prng.js';
import { createPhysics, hashPhysicsState, step, type Physics } from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import { writeBody } from '../support/bodies.js';
import { reflectArena } from '../support/worlds.js';

export interface ArenaRun {
  physics: Physics;
  tick(): void;
}

export interface ArenaCase {
  spheres: number;
  seed: number;
  sphereSphere: boolean;
  continuous?: boolean;
  /** How many arena boxes move (see `ArenaOptions.movingBoxes`); default 0. */
  movingBoxes?: number;
  /** Every sphere dynamic: collision response BOUNCE with restitution 1, with this gravity (y). */
  response?: ResponseCase;
}

/**
 * The response of a pinned arena: gravity (y); optionally `friction` (the Material of every sphere
 * and box), `damping` (every sphere) and `restitution` (instead of 1), and a gravity scale of 0.5 on
 * every third sphere and −0.25 on every seventh (`scaled`), and sleep (`sleep`).
 */
export interface ResponseCase {
  gravityY: number;
  friction?: number;
  damping?: number;
  restitution?: number;
  scaled?: boolean;
  /** Sleep on with the default thresholds (`createPhysics({ sleep: {} })`). */
  sleep?: boolean;
}

/** Makes every sphere of `sphereIds` dynamic (BOUNCE, restitution 1 unless `r` says otherwise), with the material of `r`. */
export function makeDynamic(physics: Physics, sphereIds: ArrayLike<number>, r?: ResponseCase, boxIds?: ArrayLike<number>): void {
  const { Response: R, Material: M } = physics.components;
  for (let i = 0; i < sphereIds.length; i++) {
    const e = sphereIds[i];
    addComponent(physics.world, e, R);
    R.mode[e] = 2;
    R.restitution[e] = r?.restitution ?? 1;
    if (r?.damping !== undefined) R.damping[e] = r.damping;
    if (r?.scaled) R.gravityScale[e] = i % 7 === 0 ? -0.25 : i % 3 === 0 ? 0.5 : 1;
    if (r?.friction !== undefined) {
      addComponent(physics.world, e, M);
      M.friction[e] = r.friction;
    }
  }
  if (r?.friction !== undefined && boxIds !== undefined) {
    for (let i = 0; i < boxIds.length; i++) {
      addComponent(physics.world, boxIds[i], M);
      M.friction[boxIds[i]] = r.friction;
    }
  }
}

/** The arena exactly as `buildArena` makes it. */
export function arenaInOrder(c: ArenaCase): ArenaRun {
  const gravity = c.response ? { gravity: [0, c.response.gravityY, 0] as const, ...(c.response.sleep ? { sleep: {} } : {}) } : {};
  const a = buildArena({
    spheres: c.spheres, seed: c.seed, sphereSphere: c.sphereSphere, movingBoxes: c.movingBoxes, physics: { continuous: c.continuous ?? true, ...gravity },
  });
  if (c.response) makeDynamic(a.physics, a.sphereIds, c.response, a.boxIds);
  return { physics: a.physics, tick: a.tick };
}

/** Fisher–Yates shuffle in place, drawing from `rng`. */
function shuffle<T>(items: T[], rng: Rng): T[] {
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
  if (c.movingBoxes) throw new Error('arenaShuffled builds static boxes only');
  const spec = arenaSpec({ spheres: c.spheres, seed: c.seed });
  const world = createWorld();
  const physics = createPhysics(world, { capacity: 4, dt: spec.dt, continuous: c.continuous ?? true });
  const m = spec.boxes.length;
  const total = m + spec.spheres.length;
  for (let i = 0; i < total; i++) addEntity(world);
  const C = physics.components;
  const order = shuffle(Array.from({ length: total }, (_, i) => i), createRng(shuffleSeed));
  const compOrder = createRng(shuffleSeed ^ 0x5bd1e995);
  for (const i of order) {
    const eid = i + 1;
    const comps: object[] = i < m ? [C.Position, C.Box] : [C.Position, C.Velocity, C.Sphere];
    if (i >= m && !c.sphereSphere) comps.push(C.CollisionFilter);
    for (const comp of shuffle(comps, compOrder)) addComponent(world, eid, comp);
  }
  // Data after all components exist (a store may have grown while they were added).
  for (let i = 0; i < total; i++) {
    // Box rotations are written as given: addBox stores them so, hence the same numbers give the same bits.
    if (i < m) writeBody(physics, i + 1, { shape: 'box', ...spec.boxes[i] });
    else writeBody(physics, i + 1, { shape: 'sphere', ...spec.spheres[i - m], ...(c.sphereSphere ? {} : { group: 2, mask: 1 }) });
  }
  internalsOf(physics).broadphase.staticDirty = true;
  const sphereIds = Uint32Array.from({ length: spec.spheres.length }, (_, i) => m + 1 + i);
  return {
    physics,
    tick: () => {
      step(physics);
      reflectArena({ physics, sphereIds, spec });
    },
  };
}

/** Steps `ticks` times and returns the final hash. */
export function runHash(run: ArenaRun, ticks: number): string {
  for (let t = 0; t < ticks; t++) run.tick();
  return hashPhysicsState(run.physics);
}
