/**
 * Heap-allocation windows for the allocation child processes (test/step/allocation.child.ts,
 * test/contacts/contactsOf.child.ts, test/queries/queriesAllocation.child.ts,
 * test/snapshot/allocation.child.ts; run with node --expose-gc and a large young generation): two
 * full GCs, then `n` calls of a function between two reads of `process.memoryUsage()`. With a
 * 128 MB semi-space no GC runs inside a window (counted with a PerformanceObserver on 'gc'
 * entries), so heapUsed grows by exactly the bytes allocated on the JS heap (plus any JIT code) and
 * arrayBuffers by the typed-array backing stores allocated. Take the smallest of several windows
 * (JIT noise only adds): {@link bestWindow}.
 */
import { PerformanceObserver } from 'node:perf_hooks';

export interface HeapWindow {
  /** Bytes allocated by `n` calls of `fn` (heap + array buffers), and the GC events seen meanwhile. */
  measure(fn: () => void, n: number): Promise<{ bytes: number; gcs: number }>;
  /** Stops counting GC events. */
  disconnect(): void;
}

/** Starts counting GC events; throws unless node runs with --expose-gc. */
export function createHeapWindow(): HeapWindow {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  let gcEvents = 0;
  const observer = new PerformanceObserver((list) => {
    gcEvents += list.getEntries().length;
  });
  observer.observe({ entryTypes: ['gc'] });
  const settle = () => new Promise((r) => setTimeout(r, 20));
  return {
    async measure(fn, n) {
      gc();
      gc();
      await settle();
      gcEvents = 0;
      const m0 = process.memoryUsage();
      for (let i = 0; i < n; i++) fn();
      const m1 = process.memoryUsage();
      await settle();
      return { bytes: m1.heapUsed - m0.heapUsed + (m1.arrayBuffers - m0.arrayBuffers), gcs: gcEvents };
    },
    disconnect: () => observer.disconnect(),
  };
}

/** The smallest of several windows: bytes per call, the GC events in it, and every window's bytes. */
export interface BestWindow {
  bytesPerCall: number;
  gcsInBestWindow: number;
  windows: number[];
  /** Measurement rounds (1 + the re-warmed rounds of `settle`). */
  rounds: number;
}

/**
 * Measures `windows` windows of `calls` calls of `fn` and keeps the smallest. With `settle`, while
 * the best is still at or above `settle.below` bytes per call, runs `settle.warm` more calls of `fn`
 * and measures again, at most `settle.rounds` more times: on a loaded machine V8's optimising
 * compiler runs late, and until it has run, unoptimised code boxes doubles (allocation that the
 * steady state does not have). The bound a test asserts stays the same; only the warm-up grows.
 */
export async function bestWindow(
  heap: HeapWindow, fn: () => void, calls: number, windows: number,
  settle?: { below: number; warm: number; rounds: number },
): Promise<BestWindow> {
  let best = { bytes: Infinity, gcs: 0 };
  let all: number[] = [];
  let rounds = 0;
  for (;;) {
    rounds++;
    all = [];
    for (let w = 0; w < windows; w++) {
      const r = await heap.measure(fn, calls);
      all.push(r.bytes);
      if (r.bytes < best.bytes) best = r;
    }
    if (settle === undefined || best.bytes / calls < settle.below || rounds > settle.rounds) break;
    for (let i = 0; i < settle.warm; i++) fn();
    // Let the optimising compiler's background thread finish what the warm-up queued.
    await new Promise((r) => setTimeout(r, 200));
  }
  return { bytesPerCall: best.bytes / calls, gcsInBestWindow: best.gcs, windows: all, rounds };
}
