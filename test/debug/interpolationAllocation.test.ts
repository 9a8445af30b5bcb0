/**
 * Render interpolation allocates nothing per call once warm: interpolatePoses (every body),
 * interpolatePose (one body, alpha from a fixed stepper), and the keepPoses stage (through a
 * rollback restore, which keeps the restored poses), measured in a child process
 * (interpolationAllocation.child.ts). Set SNAPSHOT_REPORT=1 to print the figures.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runAllocationChild } from '../support/allocationChild.js';

const child = fileURLToPath(new URL('./interpolationAllocation.child.ts', import.meta.url));

interface Phase { bytesPerCall: number; gcsInBestWindow: number; windows: number[] }
type Result = Record<'control' | 'all' | 'one' | 'restoreKeep', Phase>;

describe('interpolation allocation', () => {
  it('interpolatePoses, interpolatePose and keepPoses allocate nothing (< 8 B/call)', async () => {
    // Optimised synchronously (as the queries' and the character stage's children): with the
    // background compiler a window can still run unoptimised code that boxes doubles (CI once
    // measured 17.2 B/call for `one`).
    const r = await runAllocationChild<Result>(child, { timeout: 180_000, nodeFlags: ['--no-concurrent-recompilation'] });
    if (process.env.SNAPSHOT_REPORT) {
      console.log(`[interpolation allocation] all ${r.all.bytesPerCall.toFixed(1)} B/call, one ${r.one.bytesPerCall.toFixed(1)} B/call, restore + keepPoses ${r.restoreKeep.bytesPerCall.toFixed(1)} B/call`);
    }
    for (const name of ['all', 'one', 'restoreKeep'] as const) {
      expect(r[name].gcsInBestWindow, name).toBe(0);
      expect(r[name].bytesPerCall, `${name}: windows ${r[name].windows.join(', ')}`).toBeLessThan(8);
    }
    expect(r.control.bytesPerCall).toBeGreaterThan(100);
  });
});
