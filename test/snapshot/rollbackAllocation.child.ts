/**
 * Child process of rollbackAllocation.test.ts (node --expose-gc, 128 MB young generation, via tsx;
 * method as in allocation.child.ts): heap allocation per call of saveRollback and restoreRollback
 * once warm, on an arena of 1,000 spheres whose last steps left live contacts, with a ring of 8
 * frames. `save` saves the current tick again (it replaces its own frame); `restore` restores a
 * held tick 3 back (after the first call the Contact component's presence already matches);
 * `cycle` is one rollback of 3 ticks and its re-simulation (restore, then 3 × step + save), run
 * with the Contact component off: with it on, the Contact presence that differs between the two
 * states is added and removed by bitecs, whose addComponent / removeComponent allocate about
 * 200 B per call (in a plain bitecs world too). Prints one JSON line.
 */
import { createRollbackRing, restoreRollback, saveRollback } from '../../src/index.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { createHeapWindow } from '../support/heapWindow.js';

const config = JSON.parse(process.argv[2] ?? '{}') as { spheres?: number; calls?: number; windows?: number; warm?: number };
const heap = createHeapWindow();

const arena = buildArena({ spheres: config.spheres ?? 1000, seed: 5, sphereSphere: true });
for (let i = 0; i < 150; i++) arena.tick();
const p = arena.physics;
const ring = createRollbackRing(p, 8);
for (let i = 0; i < 8; i++) {
  arena.tick();
  saveRollback(p, ring);
}
const now = p.tick;
const bodies = {
  control: () => {
    sink = new Array(16);
  },
  save: () => saveRollback(p, ring),
  restore: () => restoreRollback(p, ring, now - 3),
  cycle: () => {
    restoreRollback(p, ring, now - 3);
    for (let i = 0; i < 3; i++) {
      arena.tick();
      saveRollback(p, ring);
    }
  },
};
let sink: unknown[] = [];

const CALLS = config.calls ?? 200;
const WINDOWS = config.windows ?? 4;
const result: Record<string, unknown> = { config, frameBytes: ring.frameBytes, contacts: p.contacts.count };
for (const [name, fn] of Object.entries(bodies)) {
  if (name === 'save') restoreRollback(p, ring, now);
  if (name === 'cycle') p.contactComponent = false;
  for (let i = 0; i < (config.warm ?? 3000); i++) fn();
  const runs = [];
  for (let w = 0; w < WINDOWS; w++) runs.push(await heap.measure(fn, CALLS));
  const best = runs.reduce((a, b) => (b.bytes < a.bytes ? b : a));
  result[name] = { bytesPerCall: best.bytes / CALLS, gcsInBestWindow: best.gcs, windows: runs.map((r) => r.bytes) };
}
result.sinkLength = sink.length;
result.tick = p.tick;
heap.disconnect();
process.stdout.write(`${JSON.stringify(result)}\n`);
