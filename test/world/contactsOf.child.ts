/**
 * Child process of contactsOf.test.ts (node --expose-gc, a 128 MB young generation, via tsx): heap
 * allocation of steady arena ticks that build the contacts-by-entity index and read every contact
 * of every sphere through `readContactOf`, with `contactComponent: false` (so bitecs's own
 * allocation on Contact adds and removes stays out). Same method as allocation.child.ts: warm up,
 * two full GCs, a window of ticks, heapUsed + arrayBuffers deltas, GC events watched, best of 4.
 * Prints one JSON line.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { ContactOf, readContactOf } from '../../src/index.js';
import { buildArena } from '../../src/scenes/buildArena.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
let gcEvents = 0;
const observer = new PerformanceObserver((list) => {
  gcEvents += list.getEntries().length;
});
observer.observe({ entryTypes: ['gc'] });
const settle = () => new Promise((r) => setTimeout(r, 20));

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

const TICKS = 200;
for (let i = 0; i < 600; i++) tick();
let best = { bytes: Infinity, gcs: 0 };
for (let w = 0; w < 4; w++) {
  gc();
  gc();
  await settle();
  gcEvents = 0;
  const m0 = process.memoryUsage();
  for (let i = 0; i < TICKS; i++) tick();
  const m1 = process.memoryUsage();
  await settle();
  const bytes = m1.heapUsed - m0.heapUsed + (m1.arrayBuffers - m0.arrayBuffers);
  if (bytes < best.bytes) best = { bytes, gcs: gcEvents };
}
observer.disconnect();
process.stdout.write(`${JSON.stringify({ bytesPerTick: best.bytes / TICKS, gcs: best.gcs, contactsRead: read })}\n`);
