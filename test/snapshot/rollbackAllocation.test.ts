/**
 * The rollback ring allocates nothing once warm: heap allocation per saveRollback and per
 * restoreRollback, and per rollback-and-re-simulate cycle of 3 ticks, measured in a child process
 * (rollbackAllocation.child.ts, method in allocation.child.ts). Set SNAPSHOT_REPORT=1 to print the
 * figures.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runAllocationChild } from '../support/allocationChild.js';

const child = fileURLToPath(new URL('./rollbackAllocation.child.ts', import.meta.url));

interface Phase { bytesPerCall: number; gcsInBestWindow: number; windows: number[] }
type Result = Record<'control' | 'save' | 'restore' | 'cycle', Phase> & { frameBytes: number; contacts: number };

describe('rollback ring allocation', () => {
  it('save and restore allocate nothing (< 8 B/call); a 3-tick rollback cycle stays under the steps\' bound', async () => {
    const r = await runAllocationChild<Result>(child, { timeout: 180_000 });
    if (process.env.SNAPSHOT_REPORT) {
      console.log(`[rollback allocation] ${r.frameBytes} B frames, ${r.contacts} contacts; save ${r.save.bytesPerCall.toFixed(1)} B/call, restore ${r.restore.bytesPerCall.toFixed(1)} B/call, cycle ${r.cycle.bytesPerCall.toFixed(1)} B/call`);
    }
    expect(r.contacts).toBeGreaterThan(0);
    for (const name of ['save', 'restore', 'cycle'] as const) expect(r[name].gcsInBestWindow, name).toBe(0);
    expect(r.save.bytesPerCall).toBeLessThan(8);
    expect(r.restore.bytesPerCall).toBeLessThan(8);
    // Three steps (each held under 64 B by test/step's allocation test) and a restore and 3 saves.
    expect(r.cycle.bytesPerCall).toBeLessThan(3 * 64 + 8);
    expect(r.control.bytesPerCall).toBeGreaterThan(100);
  });
});
