/**
 * A small scene with every kind of body, for the rollback-ring and interpolation tests: static,
 * kinematic and dynamic spheres (dynamic = with Response, under gravity), static and kinematic boxes
 * (rotated), sensor spheres and boxes, filtered bodies, and characters over a floor, in a box of side `size` whose walls the
 * game reflects moving bodies from. Inputs are velocity writes and the kinematic boxes' rotations (the
 * game turns them), a pure function of (seed, tick, variant): variant 0 is the true input, another
 * variant a wrong prediction of it.
 */
import { createWorld, hasComponent, type World } from 'bitecs';
import { reflectInBounds } from '../../src/scenes/arena.js';
import { createRng, randomQuat, type Rng } from '../../src/scenes/prng.js';
import { addBox, addCharacter, addSphere, createPhysics, hashPhysicsState, setRotation, setVelocity, step, type Physics } from '../../src/index.js';

export interface AllKindsScene {
  world: World;
  physics: Physics;
  /** Every body id, ascending. */
  ids: number[];
  /** The bodies with Velocity (inputs write theirs). */
  moving: number[];
  /** Applies the velocity writes of tick `t` (variant 0: the true ones; another: a misprediction). */
  input(t: number, variant: number): void;
  /** `input(t, variant)`, `step`, then the game's wall reflection. */
  tick(t: number, variant?: number): void;
}

const vec = (rng: Rng, lo: number, hi: number): [number, number, number] => [rng.range(lo, hi), rng.range(lo, hi), rng.range(lo, hi)];

export function buildAllKindsScene(seed: number, n = 36): AllKindsScene {
  const rng = createRng(seed);
  const world = createWorld();
  const physics = createPhysics(world, { capacity: 8, gravity: [0, -3, 0] });
  const size = 8;
  const moving: number[] = [];
  const modes = ['stop', 'slide', 'bounce'] as const;
  for (let i = 0; i < n; i++) {
    const kind = i % 9;
    const filter = rng.next() < 0.2 ? { group: 1 + Math.floor(rng.next() * 3), mask: 1 + Math.floor(rng.next() * 7) } : {};
    const position = vec(rng, 0, size);
    if (kind === 0) addSphere(physics, { position, radius: rng.range(0.3, 1), ...filter }); // static sphere
    else if (kind === 1 || kind === 2) moving.push(addSphere(physics, { position, velocity: vec(rng, -5, 5), radius: rng.range(0.3, 1), ...filter })); // kinematic
    else if (kind === 3 || kind === 4) {
      moving.push(addSphere(physics, { position, velocity: vec(rng, -5, 5), radius: rng.range(0.3, 0.9), response: modes[i % 3], restitution: rng.next(), mass: rng.range(0.5, 2), ...filter })); // dynamic
    } else if (kind === 5) moving.push(addSphere(physics, { position, velocity: vec(rng, -4, 4), radius: rng.range(0.3, 1), sensor: true })); // sensor sphere
    else if (kind === 6) addBox(physics, { position, halfExtents: vec(rng, 0.4, 1.4), rotation: randomQuat(rng), ...filter }); // static box
    else if (kind === 7) moving.push(addBox(physics, { position, velocity: vec(rng, -3, 3), halfExtents: vec(rng, 0.3, 1), rotation: randomQuat(rng), ...filter })); // kinematic box
    else moving.push(addBox(physics, { position, velocity: vec(rng, -3, 3), halfExtents: vec(rng, 0.3, 1), rotation: randomQuat(rng), sensor: true })); // sensor box
  }
  // A floor, and characters on and above it (moved by the character controller: the inputs write their
  // desired velocity; grounded and the ground are their state across ticks).
  addBox(physics, { position: [size / 2, -1, size / 2], halfExtents: [size, 0.5, size] });
  for (let i = 0; i < 3; i++) moving.push(addCharacter(physics, { position: [rng.range(1, size - 1), i === 0 ? 0.2 : rng.range(1, size), rng.range(1, size - 1)], radius: rng.range(0.3, 0.6) }));
  const ids: number[] = [];
  for (let e = 0; e <= 2 * n; e++) if (hasComponent(world, e, physics.components.Position)) ids.push(e);
  const movingIds = Uint32Array.from(moving);
  const spinning = moving.filter((e) => hasComponent(world, e, physics.components.Box) && !hasComponent(world, e, physics.components.Sensor));
  const axes = new Map(spinning.map((e) => {
    const v = vec(rng, -1, 1);
    const n = Math.hypot(v[0], v[1], v[2]) || 1;
    return [e, [v[0] / n, v[1] / n, v[2] / n] as const];
  }));
  const input = (t: number, variant: number) => {
    const r = createRng((seed * 0x9e3779b1) ^ Math.imul(t + 1, 0x85ebca6b) ^ Math.imul(variant, 0x27d4eb2f));
    const writes = 1 + Math.floor(r.next() * 3);
    for (let k = 0; k < writes; k++) {
      const e = moving[Math.floor(r.next() * moving.length)];
      setVelocity(physics, e, vec(r, -7, 7));
    }
    // The game turns the kinematic boxes (no angular velocity in the physics): a rotation written
    // each tick, about each box's own axis, 0.15 rad per tick (a misprediction turns it the other way).
    for (const e of spinning) {
      const angle = (variant === 0 ? 0.15 : -0.15) * t + e;
      const c = Math.cos(angle / 2), sn = Math.sin(angle / 2);
      const ax = axes.get(e)!;
      setRotation(physics, e, [ax[0] * sn, ax[1] * sn, ax[2] * sn, c]);
    }
  };
  const tick = (t: number, variant = 0) => {
    input(t, variant);
    step(physics);
    reflectInBounds(physics.components.Position, physics.components.Velocity, movingIds, movingIds.length, size);
  };
  return { world, physics, ids, moving, input, tick };
}

/** The state hash and every body's data (Position, Velocity, shape, Response), as one string. */
export function bodyState(physics: Physics, ids: readonly number[]): string {
  const { Position: P, Velocity: V, Sphere: S, Box: B, Response: R } = physics.components;
  const rows = ids.map((e) => [e, P.x[e], P.y[e], P.z[e], V.x[e], V.y[e], V.z[e], S.radius[e], B.hx[e], B.hy[e], B.hz[e], B.qx[e], B.qy[e], B.qz[e], B.qw[e], R.mode[e], R.restitution[e], R.mass[e]].map((v) => Object.is(v, -0) ? '-0' : String(v)).join(' '));
  return `${hashPhysicsState(physics)} tick ${physics.tick}\n${rows.join('\n')}`;
}
