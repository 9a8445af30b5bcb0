/**
 * Child process of hashAllocation.test.ts (node --expose-gc, 128 MB young generation, via tsx; the
 * method of test/step/allocation.child.ts: warm up, force GCs, read `process.memoryUsage()` around
 * a window of calls with no GC inside it, keep the smallest of several windows). Heap allocation
 * per call of the state hash on the multiplayer example's scene (400 bodies and 6 players, every
 * sphere dynamic, after 120 ticks) and on the arena (300 spheres, sphere–sphere, moving boxes):
 * `hashPhysicsStateWords` into a caller-owned Uint32Array, and `hashPhysicsState` (its string).
 * Prints one JSON line.
 */
import { createWorld } from 'bitecs';
import { addBox, addSphere, createPhysics, hashPhysicsState, hashPhysicsStateWords, step } from '../../src/index.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { createSceneSim, spawnPlayer } from '../../examples/multiplayer/sim.js';
import { bestWindow, createHeapWindow } from '../support/heapWindow.js';

const config = JSON.parse(process.argv[2] ?? '{}') as { calls?: number; windows?: number; warm?: number };
const heap = createHeapWindow();

const sim = createSceneSim({ bodies: 400, seed: 3 });
for (let i = 0; i < 6; i++) spawnPlayer(sim, -sim.half + 1 + 1.75 * i, -sim.half + 1.5);
for (let i = 0; i < 120; i++) sim.step();
const arena = buildArena({ spheres: 300, seed: 42, sphereSphere: true, movingBoxes: 15 });
for (let i = 0; i < 120; i++) arena.tick();

// A game's own stores: Position in plain number arrays, Velocity in Float32Arrays, so that the
// hash's column loads see other kinds of array than the physics' own Float64Array stores.
const IDS = 512;
const own = createPhysics(createWorld(), {
  capacity: IDS,
  position: { x: new Array<number>(IDS).fill(0.5), y: new Array<number>(IDS).fill(0.5), z: new Array<number>(IDS).fill(0.5) },
  velocity: { x: new Float32Array(IDS), y: new Float32Array(IDS), z: new Float32Array(IDS) },
});
addBox(own, { position: [0, -1, 0], halfExtents: [20, 1, 20] });
for (let i = 0; i < 200; i++) addSphere(own, { position: [(i % 20) - 10 + 0.25, 0.3 + 0.01 * i, Math.floor(i / 20) - 5], radius: 0.4, velocity: [0.5, -1, 0.25] });
for (let i = 0; i < 30; i++) step(own);

const out = new Uint32Array(2);
let sink = '';
let control: unknown[] = [];
const phases: Record<string, () => void> = {
  control: () => {
    control = new Array(16);
  },
  wordsMultiplayer: () => hashPhysicsStateWords(sim.physics, out, 0),
  wordsArena: () => hashPhysicsStateWords(arena.physics, out, 0),
  wordsOwnStores: () => hashPhysicsStateWords(own, out, 0),
  stringMultiplayer: () => {
    sink = hashPhysicsState(sim.physics);
  },
};

const CALLS = config.calls ?? 300;
const WINDOWS = config.windows ?? 4;
const result: Record<string, unknown> = { config, contacts: sim.physics.contacts.count };
for (const [name, fn] of Object.entries(phases)) {
  for (let i = 0; i < (config.warm ?? 3000); i++) fn();
  result[name] = await bestWindow(heap, fn, CALLS, WINDOWS, name.startsWith('words') ? { below: 8, warm: 1000, rounds: 3 } : undefined);
}
heap.disconnect();
void sink;
void control;
console.log(JSON.stringify(result));
