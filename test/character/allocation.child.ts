/**
 * Child process of allocation.test.ts (node --expose-gc, a 128 MB young generation, via tsx):
 * heap allocation across steady-state ticks of the character maze (src/scenes/characterMaze.ts),
 * with `contactComponent: false` (adding and removing the bitecs Contact component allocates inside
 * bitecs). Method as in test/step/allocation.child.ts (heapWindow.ts: best of several windows, no GC
 * inside a window). Prints one JSON line.
 */
import { createWorld } from 'bitecs';
import { addBox, addCharacter, createPhysics, step } from '../../src/index.js';
import { createMazeInput, MAZE_RADIUS, mazeSpec } from '../../src/scenes/characterMaze.js';
import { bestWindow, createHeapWindow } from '../support/heapWindow.js';

const config = JSON.parse(process.argv[2] ?? '{}') as { characters?: number; ticks?: number; warmup?: number; windows?: number; settleBelow?: number };
const heap = createHeapWindow();
const n = config.characters ?? 300;
const spec = mazeSpec(n);
const physics = createPhysics(createWorld(), { gravity: [0, -9.81, 0], contactComponent: false });
for (const b of spec.boxes) addBox(physics, b);
const ids = Int32Array.from(spec.characters.map((p) => addCharacter(physics, { position: p, radius: MAZE_RADIUS })));
// The inputs are drawn before the windows (the PRNG's closures box their doubles): the maze's
// rules (a direction every 30 ticks, a jump on a two-hundredth of the grounded ticks), as arrays.
const TOTAL = 6000;
const input = createMazeInput(n);
const vx = new Float64Array(TOTAL * n), vz = new Float64Array(TOTAL * n), jump = new Uint8Array(TOTAL * n);
for (let t = 0; t < TOTAL; t++) {
  for (let k = 0; k < n; k++) {
    const r = input.rngs[k];
    if (t % 30 === k % 30) {
      const a = r.range(0, 2 * Math.PI);
      const sp = r.range(0, 4);
      input.vx[k] = sp * Math.cos(a);
      input.vz[k] = sp * Math.sin(a);
    }
    vx[t * n + k] = input.vx[k];
    vz[t * n + k] = input.vz[k];
    jump[t * n + k] = r.next() < 0.005 ? 1 : 0;
  }
}
const { Velocity: V, Character: C } = physics.components;
const state = new Int32Array(1);
const tick = (): void => {
  const o = (state[0]++ % TOTAL) * n;
  for (let k = 0; k < n; k++) {
    const e = ids[k];
    V.x[e] = vx[o + k];
    V.z[e] = vz[o + k];
    if (C.grounded[e] !== 0 && jump[o + k] !== 0) V.y[e] = 4;
  }
  step(physics);
};
for (let i = 0; i < (config.warmup ?? 3000); i++) tick();
const TICKS = config.ticks ?? 150;
const WINDOWS = config.windows ?? 4;
const base: number[] = [];
for (let w = 0; w < WINDOWS; w++) base.push((await heap.measure(() => undefined, 0)).bytes);
const result: Record<string, unknown> = { config, overheadBytes: Math.min(...base) };
for (let i = 0; i < 50; i++) tick();
result.tick = await bestWindow(heap, tick, TICKS, WINDOWS, config.settleBelow === undefined ? undefined : { below: config.settleBelow, warm: 400, rounds: 3 });
heap.disconnect();
process.stdout.write(`${JSON.stringify(result)}\n`);
