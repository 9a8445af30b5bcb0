/**
 * Characters in a maze with random inputs (src/scenes/characterMaze.ts): never inside a wall, a
 * step or the floor by more than 1e-9 of the scene (an independent distance check: each box's
 * closest point), never below the floor. `npm test` runs 1,000 characters for `TICKS` ticks; the
 * full 3,600 ticks run in `bench/characterMaze.ts --check` (see docs/character.md).
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addBox, addCharacter, createPhysics, step } from '../../src/index.js';
import { CELL, createMazeInput, driveMaze, MAZE_RADIUS, mazeSpec } from '../../src/scenes/characterMaze.js';
import { boxDistance } from './scenes.js';

const N = 1000;
const TICKS = Number(process.env.CHARACTER_MAZE_TICKS ?? 400);

describe('characters in a maze', () => {
  it(`${N} characters, random inputs, ${TICKS} ticks: never inside a box, never below the floor`, () => {
    const spec = mazeSpec(N);
    const physics = createPhysics(createWorld(), { gravity: [0, -9.81, 0] });
    const boxes = spec.boxes.map((b) => addBox(physics, b));
    const ids = spec.characters.map((p) => addCharacter(physics, { position: p, radius: MAZE_RADIUS }));
    // the boxes of each maze cell and its neighbours (for the distance check)
    const side = spec.side;
    const near: number[][] = [];
    for (let c = 0; c < side * side; c++) near.push([]);
    spec.boxes.forEach((b, k) => {
      for (let i = 0; i < side; i++) {
        for (let j = 0; j < side; j++) {
          const x0 = (i - 1) * CELL, x1 = (i + 2) * CELL, z0 = (j - 1) * CELL, z1 = (j + 2) * CELL;
          const [x, , z] = b.position;
          const [hx, , hz] = b.halfExtents;
          if (x + hx >= x0 && x - hx <= x1 && z + hz >= z0 && z - hz <= z1) near[i * side + j].push(boxes[k]);
        }
      }
    });
    const input = createMazeInput(N);
    const { Position: P, Velocity: V, Character: C } = physics.components;
    const tol = 1e-9 * (1 + 2 * side * CELL);
    let worst = Infinity;
    let lowest = Infinity;
    let grounded = 0;
    for (let t = 0; t < TICKS; t++) {
      driveMaze(input, t, ids, V, C.grounded);
      step(physics);
      for (const a of ids) {
        const x = P.x[a], y = P.y[a], z = P.z[a];
        if (y < lowest) lowest = y;
        const i = Math.min(side - 1, Math.max(0, Math.floor(x / CELL)));
        const j = Math.min(side - 1, Math.max(0, Math.floor(z / CELL)));
        for (const b of near[i * side + j]) {
          const d = boxDistance(physics, b, x, y, z) - MAZE_RADIUS;
          if (d < worst) worst = d;
        }
        grounded += C.grounded[a];
      }
      if (!(worst >= -tol && lowest >= MAZE_RADIUS - tol)) break;
    }
    expect(worst).toBeGreaterThanOrEqual(-tol);
    expect(lowest).toBeGreaterThanOrEqual(MAZE_RADIUS - tol);
    // most of the time on the ground (they jump now and then)
    expect(grounded / (N * TICKS)).toBeGreaterThan(0.5);
    // inside the maze
    for (const a of ids) {
      expect(P.x[a]).toBeGreaterThan(0);
      expect(P.x[a]).toBeLessThan(side * CELL);
    }
  });
});
