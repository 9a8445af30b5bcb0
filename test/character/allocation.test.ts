/**
 * Steady-state ticks of characters allocate nothing: < 64 bytes per tick on average across windows
 * of 150 ticks of 300 characters walking and jumping in the maze (the character stage, its
 * candidate queries, casts, slides, steps, probes and the contact merge), measured in a child
 * process (allocation.child.ts; method of test/step/allocation.test.ts).
 *
 * Regression: the stage's `dot` returned a double, and in the stage's deep inlining V8 did not inline
 * every call, so each call boxed its result: about 1.8 KB per tick at 300 characters (measured with
 * this child before the fix; 1.6–17.6 B per tick after). Likewise `cosine(maxSlope)` (math/trig.ts),
 * a double in and out of a call per character: 4.8 KB per tick at 300 characters (now `cosineAt`,
 * in place). The child runs with
 * `--no-concurrent-recompilation` (as test/queries/queries.allocation.test.ts, whose notes say why)
 * and re-warms up to three times (400 ticks each) while the best window is at or above the bound;
 * the failure message prints every window.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runAllocationChild } from '../support/allocationChild.js';
import { report } from '../support/report.js';

const child = fileURLToPath(new URL('./allocation.child.ts', import.meta.url));
const BOUND = 64;

interface Phase { bytesPerCall: number; gcsInBestWindow: number; windows: number[]; rounds?: number }

describe('character allocation', () => {
  it(`steady-state ticks with 300 characters allocate < ${BOUND} B/tick`, async () => {
    const r = await runAllocationChild<{ tick: Phase; overheadBytes: number }>(child, { args: [JSON.stringify({ settleBelow: BOUND })], timeout: 300_000, nodeFlags: ['--no-concurrent-recompilation'] });
    report(`[allocation] characters: tick ${r.tick.bytesPerCall.toFixed(1)} B/call (GCs in window: ${r.tick.gcsInBestWindow}); measurement overhead ${r.overheadBytes} B/window`);
    expect(r.tick.gcsInBestWindow).toBe(0);
    expect(r.tick.bytesPerCall, `windows: ${JSON.stringify(r.tick)}`).toBeLessThan(BOUND);
  }, 300_000);
});
