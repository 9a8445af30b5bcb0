/**
 * The memory a runner invocation needs, estimated before anything is built, so that a run too large
 * for the machine ends with a message and exit code 2 instead of a V8 out-of-memory crash with a
 * native stack (`--spheres 8000000` needs more than Node's default heap limit).
 *
 * Figures measured on the built-in arena after its first tick (Node 20, `process.memoryUsage()`
 * after a full GC, 100,000 and 400,000 spheres + a tenth as many boxes): about 550 bytes of
 * JavaScript heap per body (bitecs entity and query bookkeeping in JS arrays) and 250 bytes of
 * typed-array storage per body (component stores, grids, contact lists). The estimate takes 700 and
 * 350 for headroom (peaks while arrays double), plus 8 bytes per tick of timings.
 * @module
 */
import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { UsageError } from './args.js';

/** Estimated bytes of JS heap and of typed-array storage per body. */
export const HEAP_PER_BODY = 700;
export const STORAGE_PER_BODY = 350;
/** The heap a run needs besides its bodies (modules, JIT code). */
const HEAP_BASE = 64 * 2 ** 20;

/** What a run may use: the V8 heap limit and the machine's memory, in bytes. */
export interface MemoryLimits {
  heapLimit: number;
  machine: number;
}

/** This process's limits: `v8.getHeapStatistics().heap_size_limit` and `os.totalmem()`. */
export function processLimits(): MemoryLimits {
  return { heapLimit: getHeapStatistics().heap_size_limit, machine: totalmem() };
}

/** Estimated bytes of JS heap and in total for a run of `bodies` bodies over `ticks` ticks. */
export function estimateRun(bodies: number, ticks: number): { heap: number; total: number } {
  const heap = HEAP_BASE + HEAP_PER_BODY * bodies;
  return { heap, total: heap + STORAGE_PER_BODY * bodies + 8 * ticks };
}

const mb = (bytes: number) => Math.ceil(bytes / 2 ** 20);

/**
 * Throws `UsageError` when a run of `bodies` bodies over `ticks` ticks needs more memory than the
 * machine has, or more JS heap than this process may use (then naming the `--max-old-space-size`
 * that would suffice, when the machine has the memory).
 */
export function checkRunMemory(bodies: number, ticks: number, limits: MemoryLimits = processLimits()): void {
  const need = estimateRun(bodies, ticks);
  if (need.total > limits.machine) {
    throw new UsageError(`a run of ${bodies} bodies needs about ${mb(need.total)} MB of memory, more than this machine has (${mb(limits.machine)} MB); use fewer bodies`);
  }
  if (need.heap > limits.heapLimit) {
    throw new UsageError(
      `a run of ${bodies} bodies needs about ${mb(need.heap)} MB of JavaScript heap, more than this process may use (${mb(limits.heapLimit)} MB); ` +
      `run it with NODE_OPTIONS=--max-old-space-size=${mb(need.heap * 1.25)} or use fewer bodies`,
    );
  }
}
