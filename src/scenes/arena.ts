/**
 * The arena scene shared by the headless runner, the tests, the examples and the benchmarks.
 *
 * A cube world of side L = 4·cbrt(N): N spheres with radius uniform in [0.25, 1] and velocity uniform
 * in [−10, 10] per axis (length units per second), each reflecting its velocity when it leaves
 * [0, L]; M = N/10 fixed boxes with half extents uniform in [0.5, 2], half axis-aligned and half
 * randomly rotated; dt = 1/60 s; all from a seeded PRNG. `arenaSpec` builds the plain data (usable by
 * peers such as Rapier or cannon-es); `buildArena` puts it into a physics instance.
 * Optionally the first `movingBoxes` boxes move (velocity uniform in [−10, 10] per axis, reflected
 * at the walls like the spheres), drawn from a second PRNG stream: the rest of the scene is the same
 * with or without them.
 */
import { createRng, randomQuat } from './prng.js';

export interface ArenaOptions {
  spheres: number;
  /** Default spheres / 10 (rounded down). */
  boxes?: number;
  /** How many of the boxes (the first ones) move; default 0 (all static). */
  movingBoxes?: number;
  /** Side L of the cube world; default 4·cbrt(spheres). */
  size?: number;
  seed?: number;
}

export interface ArenaSpec {
  size: number;
  dt: number;
  spheres: { position: [number, number, number]; velocity: [number, number, number]; radius: number }[];
  boxes: {
    position: [number, number, number];
    halfExtents: [number, number, number];
    rotation: [number, number, number, number];
    /** Only on moving boxes (see `ArenaOptions.movingBoxes`). */
    velocity?: [number, number, number];
  }[];
}

/**
 * Cube root by Newton's method in plain arithmetic (x >= 1), so the arena's size is bit-identical
 * in every JavaScript engine (Math.cbrt is implementation-approximated by the spec).
 */
export function cubeRoot(x: number): number {
  let r = x > 1 ? x / 3 + 1 : 1;
  for (let i = 0; i < 200; i++) {
    const next = (2 * r + x / (r * r)) / 3;
    if (next >= r) break;
    r = next;
  }
  return r;
}

export function arenaSpec(options: ArenaOptions): ArenaSpec {
  const n = options.spheres;
  const m = options.boxes ?? Math.floor(n / 10);
  const rng = createRng(options.seed ?? 1);
  const size = options.size ?? 4 * cubeRoot(Math.max(n, 1));
  const spheres: ArenaSpec['spheres'] = [];
  const boxes: ArenaSpec['boxes'] = [];
  for (let i = 0; i < m; i++) {
    const position: [number, number, number] = [rng.range(0, size), rng.range(0, size), rng.range(0, size)];
    const halfExtents: [number, number, number] = [rng.range(0.5, 2), rng.range(0.5, 2), rng.range(0.5, 2)];
    const rotation: [number, number, number, number] = i % 2 === 0 ? [0, 0, 0, 1] : randomQuat(rng);
    boxes.push({ position, halfExtents, rotation });
  }
  for (let i = 0; i < n; i++) {
    spheres.push({
      position: [rng.range(0, size), rng.range(0, size), rng.range(0, size)],
      velocity: [rng.range(-10, 10), rng.range(-10, 10), rng.range(-10, 10)],
      radius: rng.range(0.25, 1),
    });
  }
  const moving = Math.min(options.movingBoxes ?? 0, m);
  const boxRng = createRng(((options.seed ?? 1) ^ 0x2545f491) >>> 0);
  for (let i = 0; i < moving; i++) boxes[i].velocity = [boxRng.range(-10, 10), boxRng.range(-10, 10), boxRng.range(-10, 10)];
  return { size, dt: 1 / 60, spheres, boxes };
}

/**
 * Reflects each velocity component of the given bodies whose position left [0, size] on that axis
 * and keeps moving outward. Call it once per tick (after integration) for the arena's walls.
 */
export function reflectInBounds(
  pos: { x: ArrayLike<number>; y: ArrayLike<number>; z: ArrayLike<number> },
  vel: { x: { [i: number]: number }; y: { [i: number]: number }; z: { [i: number]: number } },
  ids: ArrayLike<number>, count: number, size: number,
): void {
  for (let k = 0; k < count; k++) {
    const e = ids[k];
    if ((pos.x[e] < 0 && vel.x[e] < 0) || (pos.x[e] > size && vel.x[e] > 0)) vel.x[e] = -vel.x[e];
    if ((pos.y[e] < 0 && vel.y[e] < 0) || (pos.y[e] > size && vel.y[e] > 0)) vel.y[e] = -vel.y[e];
    if ((pos.z[e] < 0 && vel.z[e] < 0) || (pos.z[e] > size && vel.z[e] > 0)) vel.z[e] = -vel.z[e];
  }
}
