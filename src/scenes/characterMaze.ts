/**
 * The character maze shared by the character tests and the benchmark: a square maze of
 * `side × side` cells of `CELL` length units on a floor (top y = 0), walls `WALL_HEIGHT` high and
 * `2 × WALL_HALF` thick on the cell borders (the outer ones always, each inner one with probability
 * 1/2), a low step (0.1 high) in every fifth cell, and N characters of radius 0.4 at the cell centres
 * (several per cell, `CELL / 4` apart, when N > side²). Inputs: each character walks at up to 4
 * length units per second in a direction drawn every 30 ticks (its own PRNG stream), and jumps
 * (4 per second up) on a two-hundredth of its grounded ticks. Gravity −9.81 y, dt 1/60. All from a
 * seeded PRNG (`prng.ts`).
 * @module
 */
import type { Physics } from '../physics/physicsTypes.js';
import { cosine, sine } from '../math/trig.js';
import { createRng, type Rng } from './prng.js';

/** Cell side, wall half thickness, wall height (length units). */
export const CELL = 4;
export const WALL_HALF = 0.25;
export const WALL_HEIGHT = 2;
export const MAZE_RADIUS = 0.4;

export interface MazeBox {
  position: [number, number, number];
  halfExtents: [number, number, number];
}

export interface MazeSpec {
  side: number;
  /** The floor first, then the walls and steps. */
  boxes: MazeBox[];
  characters: Array<[number, number, number]>;
}

/** The maze for `n` characters: side = ceil(sqrt(n / 4)) cells (four characters per cell). */
export function mazeSpec(n: number, seed = 1): MazeSpec {
  const side = Math.max(2, Math.ceil(Math.sqrt(n / 4)));
  const rng = createRng(seed);
  const L = side * CELL;
  const boxes: MazeBox[] = [{ position: [L / 2, -1, L / 2], halfExtents: [L / 2 + 2, 1, L / 2 + 2] }];
  const h = WALL_HEIGHT / 2;
  for (let i = 0; i <= side; i++) {
    for (let j = 0; j < side; j++) {
      const outer = i === 0 || i === side;
      // a wall along z at x = i·CELL (cell row j), and one along x at z = i·CELL
      if (outer || rng.next() < 0.5) boxes.push({ position: [i * CELL, h, (j + 0.5) * CELL], halfExtents: [WALL_HALF, h, CELL / 2 + WALL_HALF] });
      if (outer || rng.next() < 0.5) boxes.push({ position: [(j + 0.5) * CELL, h, i * CELL], halfExtents: [CELL / 2 + WALL_HALF, h, WALL_HALF] });
    }
  }
  for (let i = 0; i < side; i++) {
    for (let j = 0; j < side; j++) {
      if ((i * side + j) % 5 === 0) boxes.push({ position: [(i + 0.25) * CELL, 0.05, (j + 0.25) * CELL], halfExtents: [0.6, 0.05, 0.6] });
    }
  }
  const characters: Array<[number, number, number]> = [];
  for (let k = 0; k < n; k++) {
    const c = k % (side * side);
    const slot = Math.floor(k / (side * side));
    const i = Math.floor(c / side), j = c % side;
    // slots at the cell's quarter points (away from the step in the lower quarter)
    const sx = [0.75, 0.75, 0.5, 0.25][slot % 4], sz = [0.75, 0.25, 0.5, 0.75][slot % 4];
    characters.push([(i + sx) * CELL, MAZE_RADIUS + 0.5 * Math.floor(slot / 4), (j + sz) * CELL]);
  }
  return { side, boxes, characters };
}

/** Per-character input streams of the maze. */
export interface MazeInput {
  rngs: Rng[];
  vx: Float64Array;
  vz: Float64Array;
}

export function createMazeInput(n: number, seed = 7): MazeInput {
  const rngs: Rng[] = [];
  for (let k = 0; k < n; k++) rngs.push(createRng(seed * 100003 + k));
  return { rngs, vx: new Float64Array(n), vz: new Float64Array(n) };
}

/**
 * Writes tick `t`'s desired velocity of character k (entity `ids[k]`) into `vx`, `vz` of the
 * Velocity store, and a jump into `vy` when `grounded[ids[k]]` and the draw says so.
 */
export function driveMaze(input: MazeInput, t: number, ids: ArrayLike<number>, V: { x: { [i: number]: number }; y: { [i: number]: number }; z: { [i: number]: number } }, grounded: ArrayLike<number>): void {
  for (let k = 0; k < ids.length; k++) {
    const r = input.rngs[k];
    if (t % 30 === k % 30) {
      const a = r.range(0, 2 * Math.PI);
      const s = r.range(0, 4);
      input.vx[k] = s * cosine(a);
      input.vz[k] = s * sine(a);
    }
    const e = ids[k];
    V.x[e] = input.vx[k];
    V.z[e] = input.vz[k];
    if (grounded[e] !== 0 && r.next() < 0.005) V.y[e] = 4;
  }
}

/**
 * Distance from point (x, y, z) to box `eid` (0 inside), computed independently of the library:
 * the point is taken into the box's frame with the conjugate of its (normalised) rotation and
 * clamped to the half extents.
 */
export function boxDistance(physics: Physics, eid: number, x: number, y: number, z: number): number {
  const { Position: P, Box: B } = physics.components;
  const l = Math.sqrt(B.qx[eid] * B.qx[eid] + B.qy[eid] * B.qy[eid] + B.qz[eid] * B.qz[eid] + B.qw[eid] * B.qw[eid]);
  const qx = -B.qx[eid] / l, qy = -B.qy[eid] / l, qz = -B.qz[eid] / l, qw = B.qw[eid] / l;
  const px = x - P.x[eid], py = y - P.y[eid], pz = z - P.z[eid];
  // v' = v + 2w (q × v) + 2 q × (q × v)
  const tx = 2 * (qy * pz - qz * py), ty = 2 * (qz * px - qx * pz), tz = 2 * (qx * py - qy * px);
  const lx = px + qw * tx + (qy * tz - qz * ty);
  const ly = py + qw * ty + (qz * tx - qx * tz);
  const lz = pz + qw * tz + (qx * ty - qy * tx);
  const dx = Math.max(0, Math.abs(lx) - B.hx[eid]);
  const dy = Math.max(0, Math.abs(ly) - B.hy[eid]);
  const dz = Math.max(0, Math.abs(lz) - B.hz[eid]);
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/**
 * The maze check, independent of the library's geometry: the smallest distance from any
 * character's centre to any box near it, minus the radius (negative: inside), and the lowest
 * centre height. `near[c]` lists the boxes of maze cell c and its neighbours (`mazeNear`).
 */
export function mazeCheck(physics: Physics, side: number, near: number[][], ids: ArrayLike<number>, out: Float64Array): void {
  const P = physics.components.Position;
  let worst = Infinity;
  let lowest = Infinity;
  for (let k = 0; k < ids.length; k++) {
    const a = ids[k];
    const x = P.x[a], y = P.y[a], z = P.z[a];
    if (y < lowest) lowest = y;
    const i = Math.min(side - 1, Math.max(0, Math.floor(x / CELL)));
    const j = Math.min(side - 1, Math.max(0, Math.floor(z / CELL)));
    for (const b of near[i * side + j]) {
      const d = boxDistance(physics, b, x, y, z) - MAZE_RADIUS;
      if (d < worst) worst = d;
    }
  }
  out[0] = worst;
  out[1] = lowest;
}

/** The boxes (entity ids `boxes[k]` of `spec.boxes[k]`) near each maze cell: the cell and its neighbours. */
export function mazeNear(spec: MazeSpec, boxes: number[]): number[][] {
  const side = spec.side;
  const near: number[][] = [];
  for (let c = 0; c < side * side; c++) near.push([]);
  spec.boxes.forEach((b, k) => {
    const [x, , z] = b.position;
    const [hx, , hz] = b.halfExtents;
    const i0 = Math.max(0, Math.floor((x - hx) / CELL) - 1), i1 = Math.min(side - 1, Math.floor((x + hx) / CELL) + 1);
    const j0 = Math.max(0, Math.floor((z - hz) / CELL) - 1), j1 = Math.min(side - 1, Math.floor((z + hz) / CELL) + 1);
    for (let i = i0; i <= i1; i++) for (let j = j0; j <= j1; j++) near[i * side + j].push(boxes[k]);
  });
  return near;
}
