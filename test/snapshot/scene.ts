/**
 * A small random scene with per-tick inputs for the snapshot and rollback tests: moving spheres
 * (some sensors, some filtered), moving and static boxes, and inputs that are a pure function of
 * (seed, tick): velocity changes, resizes, re-rotations and static-box moves.
 * Also `fullState`, a plain-data copy of everything a snapshot must restore, for deep equality.
 */
import { createWorld, hasComponent, type World } from 'bitecs';
import { reflectInBounds } from '../../src/scenes/arena.js';
import { createRng, randomQuat, type Rng } from '../../src/scenes/prng.js';
import {
  addBox, addSphere, createPhysics, hashPhysicsState, setHalfExtents, setPosition, setRadius, setRotation,
  setVelocity, step, type Physics,
} from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';

export interface InputScene {
  world: World;
  physics: Physics;
  spheres: number[];
  movingBoxes: number[];
  staticBoxes: number[];
  /** Every body id, ascending. */
  ids: number[];
  size: number;
  /** Applies the inputs of tick `t` (a function of the seed and t only), steps, reflects at the walls. */
  tick(t: number): void;
}

export interface InputSceneOptions {
  spheres?: number;
  movingBoxes?: number;
  staticBoxes?: number;
  /** Inputs may change shapes (radius, half extents, rotation). Default true. */
  shapeInputs?: boolean;
  /** Inputs may move static boxes. Default true. */
  staticInputs?: boolean;
  /**
   * Spheres are dynamic (collision response: random mode, restitution, mass) with gravity, and the
   * inputs change Response fields too. Default false.
   */
  response?: boolean;
}

const vec = (rng: Rng, lo: number, hi: number): [number, number, number] => [rng.range(lo, hi), rng.range(lo, hi), rng.range(lo, hi)];

export function buildInputScene(seed: number, o: InputSceneOptions = {}): InputScene {
  const rng = createRng(seed);
  const world = createWorld();
  const physics = createPhysics(world, { capacity: 8, ...(o.response ? { gravity: [0, -4, 0] as const } : {}) });
  const modes = ['stop', 'slide', 'bounce'] as const;
  const size = 10;
  const spheres: number[] = [];
  const movingBoxes: number[] = [];
  const staticBoxes: number[] = [];
  const nS = o.spheres ?? 40;
  const nM = o.movingBoxes ?? 4;
  const nB = o.staticBoxes ?? 6;
  const kinds: number[] = [];
  for (let i = 0; i < nS; i++) kinds.push(0);
  for (let i = 0; i < nM; i++) kinds.push(1);
  for (let i = 0; i < nB; i++) kinds.push(2);
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  for (const kind of kinds) {
    if (kind === 0) {
      const r = rng.next();
      spheres.push(addSphere(physics, {
        position: vec(rng, 0, size), velocity: vec(rng, -6, 6), radius: rng.range(0.3, 1.1),
        sensor: r < 0.15,
        ...(o.response ? { response: modes[Math.floor(rng.next() * 3)], restitution: rng.next(), mass: rng.range(0.5, 2) } : {}),
        ...(r > 0.8 ? { group: 1 + Math.floor(rng.next() * 3), mask: 1 + Math.floor(rng.next() * 7) } : {}),
      }));
    } else if (kind === 1) {
      movingBoxes.push(addBox(physics, { position: vec(rng, 0, size), velocity: vec(rng, -3, 3), halfExtents: vec(rng, 0.3, 1.2), rotation: randomQuat(rng) }));
    } else {
      staticBoxes.push(addBox(physics, { position: vec(rng, 0, size), halfExtents: vec(rng, 0.4, 1.5), rotation: rng.next() < 0.5 ? [0, 0, 0, 1] : randomQuat(rng) }));
    }
  }
  const moving = Uint32Array.from([...spheres, ...movingBoxes]);
  const shapeInputs = o.shapeInputs ?? true;
  const staticInputs = o.staticInputs ?? true;
  const pick = (r: Rng, list: number[]) => list[Math.floor(r.next() * list.length)];
  /** Inputs skip bodies the game has despawned (Position removed, see the pooling test). */
  const body = (e: number) => hasComponent(world, e, physics.components.Position);
  const tick = (t: number) => {
    const r = createRng((seed * 0x9e3779b1) ^ Math.imul(t + 1, 0x85ebca6b));
    for (let k = 0; k < 3; k++) {
      const e = pick(r, k < 2 || movingBoxes.length === 0 ? spheres : movingBoxes);
      const v = vec(r, -8, 8);
      if (body(e)) setVelocity(physics, e, [v[0], v[1], v[2]]);
    }
    if (shapeInputs && t % 7 === 3 && spheres.length > 0) {
      const e = pick(r, spheres);
      const radius = r.range(0.2, 1.3);
      if (body(e)) setRadius(physics, e, radius);
    }
    if (shapeInputs && t % 11 === 5 && movingBoxes.length > 0) {
      const e = pick(r, movingBoxes);
      const q = randomQuat(r);
      const h = vec(r, 0.3, 1.2);
      if (body(e)) {
        setRotation(physics, e, q);
        setHalfExtents(physics, e, [h[0], h[1], h[2]]);
      }
    }
    if (o.response && t % 9 === 4 && spheres.length > 0) {
      const e = pick(r, spheres);
      const R = physics.components.Response;
      R.mode[e] = Math.floor(r.next() * 3);
      R.restitution[e] = r.next();
      R.mass[e] = r.range(0.5, 2);
    }
    if (staticInputs && t % 13 === 6 && staticBoxes.length > 0) {
      const p = vec(r, 0, size);
      setPosition(physics, pick(r, staticBoxes), [p[0], p[1], p[2]]);
    }
    step(physics);
    reflectInBounds(physics.components.Position, physics.components.Velocity, moving, moving.length, size);
  };
  const ids = [...spheres, ...movingBoxes, ...staticBoxes].sort((a, b) => a - b);
  return { world, physics, spheres, movingBoxes, staticBoxes, ids, size, tick };
}

const pairs = (l: { count: number; a: Uint32Array; b: Uint32Array }) => Array.from({ length: l.count }, (_, i) => `${l.a[i]}-${l.b[i]}`);

/**
 * Everything a snapshot must restore, as plain data: the state hash (bodies and contacts), tick,
 * began / ended / previous pairs, began and ended flags, the touching list, the bodies removed since the last
 * step, Contact component presence and data.
 */
export function fullState(physics: Physics, ids: readonly number[]) {
  const C = physics.components.Contact;
  const contact: Record<number, unknown> = {};
  for (const e of ids) {
    if (!hasComponent(physics.world, e, C)) continue;
    contact[e] = [C.other[e], C.count[e], C.nx[e], C.ny[e], C.nz[e], C.depth[e], C.toi[e], C.px[e], C.py[e], C.pz[e]];
  }
  const internal = internalsOf(physics);
  const R = physics.components.Response;
  return {
    hash: hashPhysicsState(physics),
    response: ids.filter((e) => hasComponent(physics.world, e, R)).map((e) => [e, R.mode[e], R.restitution[e], R.mass[e]]),
    tick: physics.tick,
    began: pairs(physics.began),
    beganFlags: Array.from(physics.began.flags.subarray(0, physics.began.count)),
    ended: pairs(physics.ended),
    endedFlags: Array.from(physics.ended.flags.subarray(0, physics.ended.count)),
    previous: pairs(internal.contacts.previous),
    touching: Array.from(internal.contacts.touching.ids.subarray(0, internal.contacts.touching.count)),
    removed: Array.from(internal.purgeList.ids.subarray(0, internal.purgeList.count)),
    contact,
  };
}

/** `fullState` as one string (cheap to store per tick). */
export function digest(physics: Physics, ids: readonly number[]): string {
  return JSON.stringify(fullState(physics, ids));
}
