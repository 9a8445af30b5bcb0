/**
 * Memory and allocation of ONE implementation, alone in a fresh node process (--expose-gc), so no
 * other implementation's code shares its inline caches or its heap:
 *
 * 1. priming: build a 20-sphere arena, tick it, drop it (bytecode, feedback vectors, WASM start-up
 *    are not charged to the scene);
 * 2. memory per body: gc(), JS heap (all spaces but code) and external memory (typed arrays, WASM
 *    memory) before; build the scene and run its first tick (lazy buffers); gc(), after; ÷ bodies.
 *    Median of 3 builds (1 from 500,000 spheres), all alive until the end (nothing is freed in
 *    between). Ours keeps
 *    the arena spec alive (buildArena returns it), so the heap of one spec, measured the same way,
 *    is subtracted. Ours also reports its physics-owned typed arrays (physics.components,
 *    .internal, .contacts).
 * 3. warm-up (~1.5 s of ticks), then bytes allocated per steady tick (see `allocPerCall`).
 * run.ts starts this process with --expose-gc, --no-flush-bytecode (no bytecode aging while we
 * measure), --single-threaded-gc (no concurrent sweeping behind the heap statistics) and 64 MB
 * semi-spaces, so a batch of ticks fits in the young generation without a GC.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { arenaSpec, type ArenaSpec } from '../src/scenes/arena.js';
import { create, initPeer, type ImplId } from './child.js';
import { fullGc, median, now, type Peer } from './common.js';

export interface IsolatedOptions { impl: ImplId; size: number; seed: number; quick: boolean }

export interface IsolatedResult {
  heapBytesPerBody: number;
  externalBytesPerBody: number;
  state?: Record<string, number>;
  bytesPerTick: number;
  allocTicks: number;
  allocNote?: string;
}

/** Bytes of the heap spaces that hold allocations (code spaces left out). */
function heapBytes(): number {
  let sum = 0;
  for (const s of v8.getHeapSpaceStatistics()) {
    if (s.space_name.includes('code') || s.space_name === 'read_only_space') continue;
    sum += s.space_used_size;
  }
  return sum;
}

/** Heap (as above) and external memory (typed-array backing stores, WASM memory). */
function mem(): { heap: number; external: number } {
  return { heap: heapBytes(), external: process.memoryUsage().external };
}

const gcEntries: number[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcEntries.push(e.startTime);
}).observe({ entryTypes: ['gc'] });
const settle = () => new Promise((r) => setTimeout(r, 20));

/**
 * Bytes allocated per call of `fn`: JS heap (all spaces but code) plus external memory (new
 * typed-array backing stores, WASM memory growth), measured as gc(), before, `k` calls, after, with
 * no GC in between (no PerformanceObserver 'gc' entry inside the batch and no shrinking heap); the
 * same measurement of an empty function (the measurement's own allocation) is subtracted. Median of
 * 3 clean batches; `k` is halved until batches run without a GC.
 */
export async function allocPerCall(fn: () => void, k0: number): Promise<{ bytes: number; k: number; note?: string }> {
  const once = async (f: () => void, k: number) => {
    fullGc();
    await settle();
    const seen = gcEntries.length;
    const t0 = performance.now();
    const before = mem();
    for (let i = 0; i < k; i++) f();
    const after = mem();
    const t1 = performance.now();
    await settle();
    const gcInside = gcEntries.slice(seen).some((t) => t >= t0 && t <= t1);
    const delta = after.heap - before.heap + (after.external - before.external);
    return { delta, clean: !gcInside && after.heap >= before.heap };
  };
  const empty = () => {};
  const base: number[] = [];
  for (let i = 0; i < 5; i++) base.push((await once(empty, 1)).delta);
  const baseline = median(base);
  for (let k = k0; k >= 1; k = k === 1 ? 0 : Math.max(1, k >> 1)) {
    const d: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await once(fn, k);
      if (r.clean) d.push(r.delta);
    }
    if (d.length >= 2) return { bytes: Math.max(0, (median(d) - baseline) / k), k };
  }
  return { bytes: NaN, k: 1, note: 'a GC ran inside every single-tick batch' };
}

/** Heap held by one arena spec (ours retains its own copy through buildArena). */
function specHeapBytes(o: IsolatedOptions): number {
  fullGc();
  const s0 = heapBytes();
  const sp = arenaSpec({ spheres: o.size, seed: o.seed });
  fullGc();
  const bytes = heapBytes() - s0;
  return sp.spheres.length >= 0 ? bytes : 0;
}

/** Heap and external growth from building one scene and running its first tick. */
function buildOnce(o: IsolatedOptions, spec: ArenaSpec): { heap: number; external: number; peer: Peer } {
  fullGc();
  const m0 = mem();
  const peer = create(o.impl, spec, o.size, o.seed);
  peer.tick();
  fullGc();
  const m1 = mem();
  return { heap: m1.heap - m0.heap, external: m1.external - m0.external, peer };
}

export async function runIsolated(o: IsolatedOptions): Promise<IsolatedResult> {
  await initPeer(o.impl);
  // 1. Priming.
  {
    const tiny = arenaSpec({ spheres: 20, seed: o.seed + 1 });
    const p = create(o.impl, tiny, 20, o.seed + 1);
    for (let i = 0; i < 3; i++) p.tick();
    p.free();
  }
  const spec = arenaSpec({ spheres: o.size, seed: o.seed });
  const bodies = spec.spheres.length + spec.boxes.length;
  const specHeap = specHeapBytes(o);
  // 2. Memory per body: median of 3 builds, all kept alive until the end (freeing one between builds
  // is not reliable: cannon-es keeps the last world reachable from module-level pools).
  const ours = o.impl.startsWith('ours');
  const heaps: number[] = [];
  const externals: number[] = [];
  const built: Peer[] = [];
  for (let b = 0; b < (o.size >= 500_000 ? 1 : 3); b++) {
    const r = buildOnce(o, spec);
    heaps.push(r.heap - (ours ? specHeap : 0));
    externals.push(r.external);
    built.push(r.peer);
    if (process.env.BENCH_DEBUG) process.stderr.write(`build ${b}: heap ${r.heap}, external ${r.external}, spec ${specHeap}\n`);
  }
  const peer = built.pop()!;
  for (const p of built) p.free();
  built.length = 0;
  const result: IsolatedResult = {
    heapBytesPerBody: median(heaps) / bodies,
    externalBytesPerBody: median(externals) / bodies,
    state: peer.state?.(),
    bytesPerTick: NaN,
    allocTicks: 0,
  };
  // 3. Warm-up, then allocation per steady tick.
  const t0 = now();
  let ticks = 0;
  do {
    peer.tick();
    ticks++;
  } while (now() - t0 < (o.quick ? 500 : 1500));
  const msPerTick = (now() - t0) / ticks;
  const a = await allocPerCall(() => peer.tick(), Math.max(1, Math.min(100, Math.round(100 / msPerTick))));
  result.bytesPerTick = a.bytes;
  result.allocTicks = a.k;
  if (a.note) result.allocNote = a.note;
  peer.free();
  return result;
}
