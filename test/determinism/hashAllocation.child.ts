/**
 * Child process of hashAllocation.test.ts (node --expose-gc, 128 MB young generation, via tsx; the
 * method of test/step/allocation.child.ts: warm up, force GCs, read `process.memoryUsage()` around
 * a window of calls with no GC inside it, keep the smallest of several windows). Heap allocation
 * per call of the state hash on the multiplayer example's scene (400 bodies and 6 players, every
 * sphere dynamic, after 120 ticks) and on the arena (300 spheres, sphere–sphere, moving boxes):
 * `hashPhysicsStateWords` into a caller-owned Uint32Array, and `hashPhysicsState` (its string).
 * Prints one JSON line.
 */
import { hashPhysicsState } from '../../src/index.js';
// Not in the public barrel yet (src/index.ts is being re-laid out): imported from its module.
import { hashPhysicsStateWords } from '../../src/index.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { createSceneSim, spawnPlayer } from '../../examples/multiplayer/sim.js';
import { createHeapWindow } from '../support/heapWindow.js';

const config = JSON.parse(process.argv[2] ?? '{}') as { calls?: number; windows?: number; warm?: number };
const heap = createHeapWindow();

const sim = createSceneSim({ bodies: 400, seed: 3 });
for (let i = 0; i < 6; i++) spawnPlayer(sim, -sim.half + 1 + 1.75 * i, -sim.half + 1.5);
for (let i = 0; i < 120; i++) sim.step();
const arena = buildArena({ spheres: 300, seed: 42, sphereSphere: true, movingBoxes: 15 });
for (let i = 0; i < 120; i++) arena.tick();

const out = new Uint32Array(2);
let sink = '';
let control: unknown[] = [];
const phases: Record<string, () => void> = {
  control: () => {
    control = new Array(16);
  },
  wordsMultiplayer: () => hashPhysicsStateWords(sim.physics, out, 0),
  wordsArena: () => hashPhysicsStateWords(arena.physics, out, 0),
  stringMultiplayer: () => {
    sink = hashPhysicsState(sim.physics);
  },
};

const CALLS = config.calls ?? 300;
const WINDOWS = config.windows ?? 4;
const result: Record<string, unknown> = { config, contacts: sim.physics.contacts.count };
for (const [name, fn] of Object.entries(phases)) {
  for (let i = 0; i < (config.warm ?? 3000); i++) fn();
  const runs = [];
  for (let w = 0; w < WINDOWS; w++) runs.push(await heap.measure(fn, CALLS));
  const best = runs.reduce((a, b) => (b.bytes < a.bytes ? b : a));
  result[name] = { bytesPerCall: best.bytes / CALLS, gcsInBestWindow: best.gcs, windows: runs.map((r) => r.bytes) };
}
heap.disconnect();
void sink;
void control;
console.log(JSON.stringify(result));
