/**
 * Child process of queries.allocation.test.ts (node --expose-gc, a 128 MB young generation, via
 * tsx): heap allocation of the world queries on a steady arena, by the method of allocation.child.ts
 * (windows without GC, heapUsed + arrayBuffers deltas, best of several windows). Two loads: a batch
 * of queries between ticks (no rebuild), and a tick followed by a batch (the queries' grid
 * updated); then the batch casts: a line-of-sight fan of 124 rays and 64 short rays from spread-out
 * points, one of them from far outside (`castRays`), and 32 sensor sphere casts (`castSpheres`) per
 * call, between ticks and after a tick. Prints one JSON line.
 */
import {
  castRay, castRayAll, castRays, castSphere, castSphereAll, castSpheres, createBatchHits, createEntityList, createHitList, overlapBox,
  overlapSphere, type QueryHit,
} from '../../src/index.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { internalsOf } from '../../src/physics/internal.js';
import { bestWindow, createHeapWindow } from '../support/heapWindow.js';

const heap = createHeapWindow();

const arena = buildArena({ spheres: 1000, seed: 3, physics: { contactComponent: false } });
const p = arena.physics;
const L = arena.spec.size;
for (let i = 0; i < 300; i++) arena.tick();

const hit: QueryHit = { entity: 0, distance: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
const hits = createHitList(4096);
const ents = createEntityList(4096);
const origin = { x: 0, y: 0, z: 0 };
const dir = [1, 0.5, 0.25] as [number, number, number];
const half = { x: 2, y: 1, z: 3 };
const rot = { x: 0, y: 0, z: 0.6, w: 0.8 };
const filter = { mask: 0xffffffff, sensors: true };
/** Consumes the results; kept a small integer (a module `let` holding a larger number is boxed at each store). */
let sink = 0;

function batch(): void {
  for (let k = 0; k < 8; k++) {
    origin.x = (k * 0.37 * L) % L;
    origin.y = (k * 0.61 * L) % L;
    origin.z = (k * 0.13 * L) % L;
    if (castRay(p, origin, dir, L, hit)) sink = (sink + hit.entity) & 0xffff;
    if (castSphere(p, origin, 0.5, dir, L, hit, filter)) sink = (sink + hit.entity) & 0xffff;
    sink = (sink + castRayAll(p, origin, dir, L, hits)) & 0xffff;
    sink = (sink + castSphereAll(p, origin, 0.5, dir, 5, hits, filter)) & 0xffff;
    sink = (sink + overlapSphere(p, origin, 2, ents)) & 0xffff;
    sink = (sink + overlapBox(p, origin, half, rot, ents, filter)) & 0xffff;
  }
}

/** A fan of 124 rays from the arena's centre and 32 sensor sphere casts, as typed arrays. */
const FAN = 124, SENSORS = 32;
const fanO = new Float64Array(3 * FAN), fanD = new Float64Array(3 * FAN), fanL = new Float64Array(FAN).fill(L / 2);
for (let i = 0; i < FAN; i++) {
  const a = (2 * Math.PI * i) / FAN;
  fanO.set([L / 2, L / 2, L / 2], 3 * i);
  fanD.set([Math.cos(a), Math.sin(a), 0.2 * Math.cos(3 * a)], 3 * i);
}
const senC = new Float64Array(3 * SENSORS), senD = new Float64Array(3 * SENSORS), senL = new Float64Array(SENSORS).fill(3);
const senR = new Float64Array(SENSORS).fill(0.5);
for (let i = 0; i < SENSORS; i++) {
  senC.set([((i * 0.37) % 1) * L, ((i * 0.61) % 1) * L, ((i * 0.13) % 1) * L], 3 * i);
  senD.set([0, -1, 0.1 * i], 3 * i);
}
const batchHits = createBatchHits(FAN);
/** 64 short rays from spread-out points (the benchmark's kind of batch), the last from far outside the arena (the thick walk). */
const SHORT = 64;
const shortO = new Float64Array(3 * SHORT), shortD = new Float64Array(3 * SHORT), shortL = new Float64Array(SHORT).fill(5);
for (let i = 0; i < SHORT; i++) {
  shortO.set([((i * 0.29) % 1) * L, ((i * 0.53) % 1) * L, ((i * 0.71) % 1) * L], 3 * i);
  shortD.set([Math.cos(i), Math.sin(i), 0.3 * Math.cos(2 * i)], 3 * i);
}
shortO.set([1e9, 1e9, 1e9], 3 * (SHORT - 1));
shortL[SHORT - 1] = 2e9;

function batchCasts(): void {
  sink = (sink + castRays(p, FAN, fanO, fanD, fanL, batchHits)) & 0xffff;
  sink = (sink + castRays(p, SHORT, shortO, shortD, shortL, batchHits)) & 0xffff;
  sink = (sink + castSpheres(p, SENSORS, senC, senR, senD, senL, batchHits, filter)) & 0xffff;
}

/**
 * A dense batch: short rays from spread-out points, as many as the queries' dense grid has cells
 * (and one more), so that `castRays` sorts them by start cell (batch.ts) — the path the batches
 * above, sparser than the grid, never take.
 */
castRays(p, 1, shortO, shortD, shortL, batchHits);
const dg = internalsOf(p).queries!.dense;
const DENSE = dg.nx * dg.ny * dg.nz + 1;
const denseO = new Float64Array(3 * DENSE), denseD = new Float64Array(3 * DENSE), denseL = new Float64Array(DENSE).fill(5);
for (let i = 0; i < DENSE; i++) {
  denseO.set([((i * 0.29) % 1) * L, ((i * 0.53) % 1) * L, ((i * 0.71) % 1) * L], 3 * i);
  denseD.set([Math.cos(i), Math.sin(i), 0.3 * Math.cos(2 * i)], 3 * i);
}
const denseHits = createBatchHits(DENSE);
function denseBatch(): void {
  sink = (sink + castRays(p, DENSE, denseO, denseD, denseL, denseHits)) & 0xffff;
}

const loads = {
  nothing: () => undefined,
  queries: batch,
  tickAndQueries: () => {
    arena.tick();
    batch();
  },
  tick: () => arena.tick(),
  batchCasts,
  tickAndBatchCasts: () => {
    arena.tick();
    batchCasts();
  },
  denseBatch,
};

const CALLS = 200;
/** Bytes per call above which a load is re-warmed and measured again (the test's bound; bestWindow). */
const SETTLE_BELOW = 64;
const result: Record<string, unknown> = { calls: CALLS, queriesPerBatch: 48 };
for (const name of ['queries', 'tick', 'tickAndQueries', 'batchCasts', 'tickAndBatchCasts', 'denseBatch'] as const) {
  for (let i = 0; i < 400; i++) loads[name]();
  result[name] = await bestWindow(heap, loads[name], CALLS, 4, { below: SETTLE_BELOW, warm: 1000, rounds: 5 });
}
result.denseRays = DENSE;
result.sink = sink > 0;
heap.disconnect();
process.stdout.write(`${JSON.stringify(result)}\n`);
