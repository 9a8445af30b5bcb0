/**
 * The world queries allocate nothing per query: a batch of 48 queries (8 of each function) between
 * ticks, and a tick followed by a batch (the queries' grid of current poses updated once); the batch
 * casts (`castRays` with a fan of 124 rays and with 64 short rays, `castSpheres` with 32 sensors)
 * between ticks and after a tick; on a 1000-sphere arena, measured in a child process (see
 * queriesAllocation.child.ts and allocation.child.ts for the method). Bound: < 64 bytes per batch on average.
 *
 * The child runs with `--no-concurrent-recompilation`: V8 then optimises a hot function on the main
 * thread when it becomes hot, instead of queueing it for a background thread that a loaded machine
 * may starve (unoptimised code boxes doubles: this test failed at 257.2 B per batch on a machine at
 * load average 19, every window alike, and passed at 8.5 B when rerun).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { report } from '../support/report.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const child = fileURLToPath(new URL('./queriesAllocation.child.ts', import.meta.url));

interface Phase { bytesPerCall: number; gcsInBestWindow: number; windows: number[] }
interface Result { queries: Phase; tick: Phase; tickAndQueries: Phase; batchCasts: Phase; tickAndBatchCasts: Phase; denseBatch: Phase; denseRays: number }

const BOUND = 64;

describe('world queries allocation', () => {
  const result = run(
    process.execPath,
    ['--expose-gc', '--no-concurrent-recompilation', '--min-semi-space-size=128', '--max-semi-space-size=128', '--import', 'tsx', child],
    { cwd: root, timeout: 120_000, maxBuffer: 1 << 20 },
  ).then(({ stdout }) => JSON.parse(stdout.trim().split('\n').pop()!) as Result);
  result.catch(() => undefined);

  it(`48 queries between ticks allocate nothing: < ${BOUND} B per batch`, async () => {
    const r = await result;
    report(`[queries allocation] ${JSON.stringify(r)}`);
    expect(r.queries.gcsInBestWindow).toBe(0);
    expect(r.queries.bytesPerCall, `windows: ${JSON.stringify(r.queries)}`).toBeLessThan(BOUND);
  }, 130_000);

  it(`a tick then 48 queries (the query grid rebuilt) allocate nothing: < ${BOUND} B per tick`, async () => {
    const r = await result;
    expect(r.tickAndQueries.gcsInBestWindow).toBe(0);
    expect(r.tickAndQueries.bytesPerCall, `windows: ${JSON.stringify(r.tickAndQueries)}`).toBeLessThan(BOUND);
  }, 130_000);

  it(`castRays (124 rays, 64 rays) and castSpheres (32 spheres) allocate nothing per call: < ${BOUND} B per three calls`, async () => {
    const r = await result;
    expect(r.batchCasts.gcsInBestWindow).toBe(0);
    expect(r.batchCasts.bytesPerCall, `windows: ${JSON.stringify(r.batchCasts)}`).toBeLessThan(BOUND);
  }, 130_000);

  it(`a tick then the batch casts (the query grid updated) allocate nothing: < ${BOUND} B per tick`, async () => {
    const r = await result;
    expect(r.tickAndBatchCasts.gcsInBestWindow).toBe(0);
    expect(r.tickAndBatchCasts.bytesPerCall, `windows: ${JSON.stringify(r.tickAndBatchCasts)}`).toBeLessThan(BOUND);
  }, 130_000);

  it(`a batch of rays as dense as the query grid (sorted by start cell) allocates nothing per call: < ${BOUND} B per call`, async () => {
    const r = await result;
    expect(r.denseRays).toBeGreaterThan(1);
    expect(r.denseBatch.gcsInBestWindow).toBe(0);
    expect(r.denseBatch.bytesPerCall, `windows: ${JSON.stringify(r.denseBatch)}`).toBeLessThan(BOUND);
  }, 130_000);
});
