/**
 * Characters in a maze with random inputs (src/scenes/characterMaze.ts): never inside a wall, a
 * step or the floor by more than 1e-9 of the scene (an independent distance check: each box's
 * closest point), never below the floor. `npm test` runs 1,000 characters for the 3,600
 * ticks (`CHARACTER_MAZE_TICKS` shortens it for a local run; `npm run test:quick` leaves the file
 * out); `bench/characterMaze.ts --check` runs the same check as a script.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addBox, addCharacter, createPhysics, step } from '../../src/index.js';
import { CELL, createMazeInput, driveMaze, MAZE_RADIUS, mazeCheck, mazeNear, mazeSpec } from '../../src/scenes/characterMaze.js';

const N = 1000;
const TICKS = Number(process.env.CHARACTER_MAZE_TICKS ?? 3600);

describe('characters in a maze', () => {
  it(`${N} characters, random inputs, ${TICKS} ticks: never inside a box, never below the floor`, () => {
    const spec = mazeSpec(N);
    const physics = createPhysics(createWorld(), { gravity: [0, -9.81, 0] });
    const boxes = spec.boxes.map((b) => addBox(physics, b));
    const ids = spec.characters.map((p) => addCharacter(physics, { position: p, radius: MAZE_RADIUS }));
    const side = spec.side;
    const near = mazeNear(spec, boxes);
    const input = createMazeInput(N);
    const { Position: P, Velocity: V, Character: C } = physics.components;
    const tol = 1e-9 * (1 + 2 * side * CELL);
    const check = new Float64Array(2);
    let worst = Infinity;
    let lowest = Infinity;
    let grounded = 0;
    for (let t = 0; t < TICKS; t++) {
      driveMaze(input, t, ids, V, C.grounded);
      step(physics);
      mazeCheck(physics, side, near, ids, check);
      worst = Math.min(worst, check[0]);
      lowest = Math.min(lowest, check[1]);
      for (const a of ids) grounded += C.grounded[a];
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
  }, 600_000); // about 20 s alone, several times that on a loaded 2-core machine
});
