/**
 * Hostile scenes for the broadphase, each paired with a well-conditioned twin that has the same
 * numbers of bodies and (nearly) the same contacts, so that their cost per tick can be compared:
 * the broadphase should take the hostile scene in its stride (within 2× of the twin). Used by the
 * benchmark (`npm run bench`, hostile-scene section) and by the work-counting regression tests.
 *
 * Every scene is an arena (`arenaSpec`: spheres reflecting at the walls of a cube, boxes N/10,
 * seeded), possibly scaled, moved, or preceded or accompanied by one odd body:
 * - empty-first: a step of the empty world before the arena is added (twin: the arena from the start);
 * - giant-first: one sphere of radius 1000, far away, alone at the first step (twin: radius 0.5);
 * - fast-first: one sphere moving at 10^6 per second, far away, alone at the first step (twin: 1);
 * - one-bullet: one sphere crossing the arena's diagonal in one tick among slow ones (twin: slow);
 * - far-1e6: the arena scaled by 2^-13 (radii 3e-5 … 1.2e-4) at 10^6 from the origin; far-1e10:
 *   the arena at 10^10 (both inside the precision guidance of docs/determinism.md: |coordinate| ×
 *   1e-12 well below the smallest radius; twins: the same at the origin);
 * - points: static spheres of radius 0 with sphere–sphere contacts on, no boxes (twin: radius 0.01);
 * - bullets: sphere–sphere contacts on, plus a range beside the arena where 1/50 as many spheres fly
 *   in random directions at one range side per tick (twin: the same range, slow).
 * World frame, length units, seconds; dt = 1/60; continuous contacts unless a scene says otherwise.
 */
import { createWorld, query } from 'bitecs';
import { addBox, addSphere, createPhysics, step, type Physics, type PhysicsOptions } from '../index.js';
import { arenaSpec, cubeRoot, type ArenaSpec } from './arena.js';
import { createRng } from './prng.js';

/** One built scene, ready to step. */
export interface SceneRun {
  physics: Physics;
  /** Bodies in the scene. */
  bodies: number;
  /** One tick: `step`, then reflection at the walls. */
  tick(): void;
}

export interface HostileScene {
  id: string;
  /** What is hostile about it, one line. */
  description: string;
  /** Spheres of the arena part. */
  spheres: number;
  /** Builds the hostile scene (`hostile` true) or its well-conditioned twin. */
  build(hostile: boolean): SceneRun;
}

interface Walls {
  ids: number[];
  lo: number;
  hi: number;
}

/** Scale and offset of an arena placed in the world: x_world = offset + scale · x_spec. */
interface Placement {
  scale: number;
  offset: number;
  /** Sphere–sphere contacts on (default: spheres in group 2, mask 1: sphere–box only). */
  sphereSphere?: boolean;
}

function addArena(physics: Physics, spec: ArenaSpec, at: Placement): Walls {
  const { scale: s, offset: o } = at;
  const filter = at.sphereSphere ? {} : { group: 2, mask: 1 };
  for (const b of spec.boxes) {
    addBox(physics, {
      position: [o + s * b.position[0], o + s * b.position[1], o + s * b.position[2]],
      halfExtents: [s * b.halfExtents[0], s * b.halfExtents[1], s * b.halfExtents[2]],
      rotation: b.rotation,
    });
  }
  const ids: number[] = [];
  for (const sp of spec.spheres) {
    ids.push(addSphere(physics, {
      position: [o + s * sp.position[0], o + s * sp.position[1], o + s * sp.position[2]],
      velocity: [s * sp.velocity[0], s * sp.velocity[1], s * sp.velocity[2]],
      radius: s * sp.radius,
      ...filter,
    }));
  }
  return { ids, lo: o, hi: o + s * spec.size };
}

/** Reverses each velocity component of `walls.ids` that left [lo, hi] on that axis moving outward. */
function reflect(physics: Physics, walls: Walls): void {
  const { Position: p, Velocity: v } = physics.components;
  const { lo, hi } = walls;
  for (const e of walls.ids) {
    if ((p.x[e] < lo && v.x[e] < 0) || (p.x[e] > hi && v.x[e] > 0)) v.x[e] = -v.x[e];
    if ((p.y[e] < lo && v.y[e] < 0) || (p.y[e] > hi && v.y[e] > 0)) v.y[e] = -v.y[e];
    if ((p.z[e] < lo && v.z[e] < 0) || (p.z[e] > hi && v.z[e] > 0)) v.z[e] = -v.z[e];
  }
}

function run(physics: Physics, walls: Walls[]): SceneRun {
  return {
    physics,
    bodies: query(physics.world, [physics.components.Position]).length,
    tick() {
      step(physics);
      for (const w of walls) reflect(physics, w);
    },
  };
}

function create(n: number, options: PhysicsOptions = {}): Physics {
  return createPhysics(createWorld(), { capacity: n + Math.floor(n / 10) + 16, ...options });
}

/** An arena, with `first` called on the world before it is added (after one step when `stepFirst`). */
function arenaAfter(n: number, seed: number, first: (p: Physics) => void, stepFirst: boolean, at: Placement = { scale: 1, offset: 0 }): SceneRun {
  const physics = create(n);
  first(physics);
  if (stepFirst) step(physics);
  return run(physics, [addArena(physics, arenaSpec({ spheres: n, seed }), at)]);
}

/** A lone sphere far from the arena (its contacts: none), moving away from it; filtered as the arena's spheres. */
function loner(radius: number, speed: number): (p: Physics) => void {
  return (p) => {
    addSphere(p, { position: [-1e5, 0, 0], velocity: [-speed, 0, 0], radius, group: 2, mask: 1 });
  };
}

/** Static spheres of radius `r` at seeded positions in a cube of side 4·∛n, sphere–sphere on. */
function points(n: number, seed: number, r: number): SceneRun {
  const physics = create(n);
  const rng = createRng(seed);
  const side = 4 * cubeRoot(n);
  for (let i = 0; i < n; i++) addSphere(physics, { position: [rng.range(0, side), rng.range(0, side), rng.range(0, side)], radius: r });
  return run(physics, []);
}

/**
 * The length of (x, y, z) in exactly specified arithmetic (|x|, max, ÷, ×, −, +, sqrt: correctly
 * rounded in every engine), where Math.hypot is implementation-approximated. The steps are V8's for
 * Math.hypot (scale by the largest magnitude, compensated sum of the squares, root, scale back), so
 * the result is V8's to the bit and every engine's now: the scenes did not change in Node.
 * Finite arguments only (the scene's are in [−1, 1)).
 */
export function hypot3(x: number, y: number, z: number): number {
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  const max = Math.max(ax, ay, az);
  if (max === 0) return 0;
  let sum = 0;
  let compensation = 0;
  for (let i = 0; i < 3; i++) {
    const n = (i === 0 ? ax : i === 1 ? ay : az) / max;
    const summand = n * n - compensation;
    const next = sum + summand;
    compensation = next - sum - summand;
    sum = next;
  }
  return Math.sqrt(sum) * max;
}

/** An arena with sphere–sphere contacts and a range of n/50 spheres beside it (fast or slow). */
function range(n: number, seed: number, fast: boolean): SceneRun {
  const physics = create(n + Math.ceil(n / 50));
  const arena = addArena(physics, arenaSpec({ spheres: n, seed }), { scale: 1, offset: 0, sphereSphere: true });
  const rng = createRng(seed + 7);
  const m = Math.ceil(n / 50);
  const side = 4 * cubeRoot(n);
  const o = 4 * side;
  const ids: number[] = [];
  const speed = fast ? side / (1 / 60) : 10;
  for (let i = 0; i < m; i++) {
    const d = [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)];
    const len = hypot3(d[0], d[1], d[2]) || 1;
    ids.push(addSphere(physics, {
      position: [o + rng.range(0, side), o + rng.range(0, side), o + rng.range(0, side)],
      velocity: [(speed * d[0]) / len, (speed * d[1]) / len, (speed * d[2]) / len],
      radius: rng.range(0.25, 1),
    }));
  }
  return run(physics, [arena, { ids, lo: o, hi: o + side }]);
}

/** The hostile scenes; `scale` multiplies every body count (1: the benchmark's sizes). */
export function hostileScenes(scale = 1, seed = 1): HostileScene[] {
  const n20 = Math.max(200, Math.round(20_000 * scale));
  const n50 = Math.max(200, Math.round(50_000 * scale));
  const tiny = 2 ** -13;
  return [
    {
      id: 'empty-first', spheres: n20, description: 'one step of the empty world, then the arena',
      build: (h) => arenaAfter(n20, seed, () => undefined, h),
    },
    {
      id: 'giant-first', spheres: n20, description: 'one sphere of radius 1000 alone at the first step, then the arena',
      build: (h) => arenaAfter(n20, seed, loner(h ? 1000 : 0.5, 1), true),
    },
    {
      id: 'fast-first', spheres: n20, description: 'one sphere at 10^6 per second alone at the first step, then the arena',
      build: (h) => arenaAfter(n20, seed, loner(0.5, h ? 1e6 : 1), true),
    },
    {
      id: 'one-bullet', spheres: n50, description: 'one sphere crossing the arena diagonal in one tick among slow ones',
      build: (h) => arenaAfter(n50, seed, (p) => {
        const side = 4 * cubeRoot(n50);
        addSphere(p, { position: [0, 0, 0], velocity: h ? [60 * side, 60 * side, 60 * side] : [1, 1, 1], radius: 0.5, group: 2, mask: 1 });
      }, false),
    },
    {
      id: 'far-1e6', spheres: n20, description: 'the arena scaled by 2^-13 (radii ≈ 1e-4) at 1e6 from the origin',
      build: (h) => arenaAfter(n20, seed, () => undefined, false, { scale: tiny, offset: h ? 1e6 : 0 }),
    },
    {
      id: 'far-1e10', spheres: n50, description: 'the arena (radii 0.25 … 1) at 1e10 from the origin',
      build: (h) => arenaAfter(n50, seed, () => undefined, false, { scale: 1, offset: h ? 1e10 : 0 }),
    },
    {
      id: 'points', spheres: n50, description: 'static spheres of radius 0, sphere–sphere contacts on (no boxes)',
      build: (h) => points(n50, seed, h ? 0 : 0.01),
    },
    {
      id: 'bullets', spheres: n20, description: 'sphere–sphere contacts on; n/50 spheres crossing a range beside the arena each tick',
      build: (h) => range(n20, seed, h),
    },
  ];
}
