/**
 * Child process of allocation.test.ts (run with node --expose-gc and a 128 MB young generation, via
 * tsx): heap allocation per call of snapshotSize, saveSnapshot and restoreSnapshot in steady state,
 * into an 8-aligned buffer and at an unaligned offset (the scratch path), on an arena whose last step
 * left live contacts, previous pairs and touching entities. Method as in
 * test/step/allocation.child.ts: warm up, force GCs, read `process.memoryUsage()` around a window
 * of calls with no GC inside it (checked), keep the smallest of several windows. Restoring the same
 * snapshot again changes no Contact presence, so no bitecs structural change runs inside a window.
 * Each path is warmed up with 3000 calls: the entry points are small functions called once per save
 * or restore, which V8 optimises only after a few thousand calls (unoptimised code boxes a few
 * doubles, tens of bytes per call); the loops inside run in chunks and are optimised much sooner.
 * Prints one JSON line.
 */
import { restoreSnapshot, saveSnapshot, snapshotSize } from '../../src/index.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { internalsOf } from '../../src/physics/internal.js';
import { bestWindow, createHeapWindow } from '../support/heapWindow.js';

const config = JSON.parse(process.argv[2] ?? '{}') as { spheres?: number; explicit?: boolean; calls?: number; windows?: number; warm?: number };
const heap = createHeapWindow();

const arena = buildArena({ spheres: config.spheres ?? 1000, seed: 5, sphereSphere: true });
for (let i = 0; i < 200; i++) arena.tick();
// With the Contact component off for the last step, touching entities keep stale Contact data:
// the snapshot then stores it explicitly (the other touching-record path).
if (config.explicit) {
  arena.physics.contactComponent = false;
  arena.tick();
}
const p = arena.physics;
const size = snapshotSize(p);
const aligned = new Uint8Array(size);
const unaligned = new Uint8Array(new ArrayBuffer(size + 8), 3, size);
saveSnapshot(p, aligned);
saveSnapshot(p, unaligned);

let sink: unknown[] = [];
const bodies = {
  control: () => {
    sink = new Array(16);
  },
  size: () => snapshotSize(p),
  save: () => saveSnapshot(p, aligned),
  restore: () => restoreSnapshot(p, aligned),
  saveUnaligned: () => saveSnapshot(p, unaligned),
  restoreUnaligned: () => restoreSnapshot(p, unaligned),
};

const CALLS = config.calls ?? 300;
const WINDOWS = config.windows ?? 4;
// Header word 10: touching entities whose Contact data is stored explicitly (format.ts, H_EXPLICIT).
const explicit = new Uint32Array(aligned.buffer, aligned.byteOffset, 16)[10];
const result: Record<string, unknown> = { config, bytes: size, contacts: p.contacts.count, touching: internalsOf(p).contacts.touching.count, explicit };
for (const [name, fn] of Object.entries(bodies)) {
  for (let i = 0; i < (config.warm ?? 3000); i++) fn(); // warm this call path (until optimised)
  // Re-warmed while the best window is at the test's bound (8 B a call): under a loaded suite V8
  // optimised `snapshotSize` late once, and a window of boxed doubles (48.4 B a call) failed the test.
  result[name] = await bestWindow(heap, fn, CALLS, WINDOWS, name === 'control' ? undefined : { below: 8, warm: 1000, rounds: 3 });
}
result.sinkLength = sink.length;
heap.disconnect();
process.stdout.write(`${JSON.stringify(result)}\n`);
