/**
 * `npx tsx bench/characterMaze.ts [--sizes 1000,10000] [--check]`: ms per tick of characters in the
 * maze of src/scenes/characterMaze.ts (random walking and jumping inputs, gravity, steps, walls;
 * characters collide with each other), the whole `step` in CPU time: 120 warm-up ticks, then the
 * median of 7 rounds of 60 ticks (`process.cpuUsage`, user + system, one process). The machine's
 * load shows in the figures: quote the median and run twice.
 *
 * `--check` runs the full 3,600-tick maze check at the first size instead (npm test runs 400 ticks,
 * test/character/maze.test.ts): never inside a box (independent distance check), never below the
 * floor; prints the worst distance and exits 1 on a failure.
 */
import { createWorld } from 'bitecs';
import { addBox, addCharacter, createPhysics, step } from '../src/index.js';
import { CELL, createMazeInput, driveMaze, MAZE_RADIUS, mazeCheck, mazeNear, mazeSpec } from '../src/scenes/characterMaze.js';

const args = process.argv.slice(2);
const at = args.indexOf('--sizes');
const sizes = at >= 0 ? args[at + 1].split(',').map(Number) : [1000, 10000];
const check = args.includes('--check');

function build(n: number) {
  const spec = mazeSpec(n);
  const physics = createPhysics(createWorld(), { gravity: [0, -9.81, 0] });
  const boxes = spec.boxes.map((b) => addBox(physics, b));
  const ids = spec.characters.map((p) => addCharacter(physics, { position: p, radius: MAZE_RADIUS }));
  return { spec, physics, boxes, ids, input: createMazeInput(n) };
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

if (check) {
  const n = sizes[0];
  const { spec, physics, boxes, ids, input } = build(n);
  const near = mazeNear(spec, boxes);
  const out = new Float64Array(2);
  const tol = 1e-9 * (1 + 2 * spec.side * CELL);
  let worst = Infinity;
  let lowest = Infinity;
  const t0 = Date.now();
  for (let t = 0; t < 3600; t++) {
    driveMaze(input, t, ids, physics.components.Velocity, physics.components.Character.grounded);
    step(physics);
    mazeCheck(physics, spec.side, near, ids, out);
    worst = Math.min(worst, out[0]);
    lowest = Math.min(lowest, out[1]);
  }
  const ok = worst >= -tol && lowest >= MAZE_RADIUS - tol;
  console.log(`${n} characters, 3600 ticks: worst distance to a box − radius ${worst.toExponential(3)} (tolerance −${tol.toExponential(1)}), lowest centre ${lowest} (radius ${MAZE_RADIUS}): ${ok ? 'ok' : 'FAILED'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  process.exit(ok ? 0 : 1);
}

console.log('characters | boxes | ms per tick (median of 7 × 60 ticks, CPU) | min | max');
for (const n of sizes) {
  const { spec, physics, ids, input } = build(n);
  const { Velocity: V, Character: C } = physics.components;
  let t = 0;
  const run = (k: number) => {
    for (let i = 0; i < k; i++, t++) {
      driveMaze(input, t, ids, V, C.grounded);
      step(physics);
    }
  };
  run(120);
  const rounds: number[] = [];
  for (let r = 0; r < 7; r++) {
    const c0 = cpuMs();
    run(60);
    rounds.push((cpuMs() - c0) / 60);
  }
  rounds.sort((a, b) => a - b);
  console.log(`${n} | ${spec.boxes.length} | ${rounds[3].toFixed(2)} | ${rounds[0].toFixed(2)} | ${rounds[6].toFixed(2)}`);
}
