/**
 * The world queries allocate nothing per query: a batch of 48 queries (8 of each function) between
 * ticks, and a tick followed by a batch (the queries' grid of current poses rebuilt once), on a
 * 1000-sphere arena, measured in a child process (see queriesAllocation.child.ts and
 * allocation.child.ts for the method). Bound: < 64 bytes per batch on average.
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
interface Result { queries: Phase; tick: Phase; tickAndQueries: Phase }

const BOUND = 64;

describe('world queries allocation', () => {
  const result = run(
    process.execPath,
    ['--expose-gc', '--min-semi-space-size=128', '--max-semi-space-size=128', '--import', 'tsx', child],
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
});
