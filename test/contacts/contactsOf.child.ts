/**
 * Child process of contactsOf.test.ts (node --expose-gc, a 128 MB young generation, via tsx): heap
 * allocation of building the contacts-by-entity index and reading every contact of every sphere
 * through `readContactOf`, after warm-up ticks of an arena with `contactComponent: false` (so
 * bitecs's own allocation on Contact adds and removes stays out). Same method as
 * allocation.child.ts: two full GCs, a window of calls, heapUsed + arrayBuffers deltas, GC events
 * watched, best of 4 windows. Two bodies: `rebuild` reruns the narrowphase (which measures ~0 in
 * allocation.test.ts and marks the index stale) then builds and reads the index, isolating its cost;
 * `tick` is a full arena tick plus the reads (reported: a full tick's figure is noisier on a loaded
 * machine). Prints one JSON line.
 */
import { ContactOf, readContactOf, runNarrowphase } from '../../src/index.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { createHeapWindow } from '../support/heapWindow.js';

const heap = createHeapWindow();

const arena = buildArena({ spheres: 1000, seed: 3, sphereSphere: true, physics: { contactComponent: false } });
const p = arena.physics;
const out = new ContactOf();
let read = 0;

function readAll(): void {
  const ids = arena.sphereIds;
  for (let s = 0; s < ids.length; s++) {
    for (let k = 0; readContactOf(p, ids[s], k, out); k++) read++;
  }
}

function tick(): void {
  arena.tick();
  readAll();
}

function rebuild(): void {
  runNarrowphase(p);
  readAll();
}

const TICKS = 200;
for (let i = 0; i < 600; i++) tick();

/** Bytes per call of `fn` in the best of 4 windows of TICKS calls, and the GC events in that window. */
async function measure(fn: () => void): Promise<{ bytesPerCall: number; gcs: number }> {
  for (let i = 0; i < 50; i++) fn();
  let best = { bytes: Infinity, gcs: 0 };
  for (let w = 0; w < 4; w++) {
    const { bytes, gcs } = await heap.measure(fn, TICKS);
    if (bytes < best.bytes) best = { bytes, gcs };
  }
  return { bytesPerCall: best.bytes / TICKS, gcs: best.gcs };
}

const result = { rebuild: await measure(rebuild), tick: await measure(tick), contactsRead: read };
heap.disconnect();
process.stdout.write(`${JSON.stringify(result)}\n`);
