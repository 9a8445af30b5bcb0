/**
 * Child process of interpolationAllocation.test.ts (node --expose-gc, 128 MB young generation, via
 * tsx; method as in test/snapshot/allocation.child.ts): heap allocation, once warm, of
 * interpolatePoses (every body, per call), interpolatePose (per call, one body, alpha read from a
 * fixed stepper as a game does), and keepPoses (the stage: per restore of the same rollback frame,
 * which keeps the restored poses), on an arena of 1,000 spheres and 100 moving boxes with
 * interpolation on. Prints one JSON line.
 */
import { createFixedStepper, createRollbackRing, enableInterpolation, fixedStepAdvance, interpolatePose, interpolatePoses, restoreRollback, saveRollback } from '../../src/index.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { createHeapWindow } from '../support/heapWindow.js';

const heap = createHeapWindow();
const arena = buildArena({ spheres: 1000, movingBoxes: 100, seed: 9 });
const p = arena.physics;
enableInterpolation(p);
for (let i = 0; i < 100; i++) arena.tick();
const ring = createRollbackRing(p, 4);
saveRollback(p, ring);
const n = 4096;
const out = {
  x: new Float64Array(n), y: new Float64Array(n), z: new Float64Array(n),
  qx: new Float64Array(n), qy: new Float64Array(n), qz: new Float64Array(n), qw: new Float64Array(n),
};
const stepper = createFixedStepper({ dt: 1 / 60 });
fixedStepAdvance(stepper, 0.01, () => undefined);
const body = arena.sphereIds[7];
const box = arena.movingBoxIds[3];
let sink: unknown[] = [];
const bodies = {
  control: () => {
    sink = new Array(16);
  },
  all: () => interpolatePoses(p, stepper.alpha, out),
  one: () => {
    interpolatePose(p, body, stepper.alpha, out);
    interpolatePose(p, box, stepper.alpha, out);
  },
  restoreKeep: () => restoreRollback(p, ring, p.tick),
};
const result: Record<string, unknown> = { alpha: stepper.alpha };
for (const [name, fn] of Object.entries(bodies)) {
  for (let i = 0; i < 3000; i++) fn();
  const runs = [];
  for (let w = 0; w < 4; w++) runs.push(await heap.measure(fn, 200));
  const best = runs.reduce((a, b) => (b.bytes < a.bytes ? b : a));
  result[name] = { bytesPerCall: best.bytes / 200, gcsInBestWindow: best.gcs, windows: runs.map((r) => r.bytes) };
}
result.sinkLength = sink.length;
heap.disconnect();
process.stdout.write(`${JSON.stringify(result)}\n`);
