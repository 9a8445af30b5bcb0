/**
 * Snapshots allocate nothing in steady state: heap allocation per call of snapshotSize, saveSnapshot
 * and restoreSnapshot (8-aligned and unaligned buffers), measured in a child process (see
 * allocation.child.ts for the method), on an arena whose last step left live contacts and touching
 * entities, with primary-contact references and with explicitly stored Contact data. Set
 * SNAPSHOT_REPORT=1 to print the figures.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runAllocationChild } from '../support/allocationChild.js';

const child = fileURLToPath(new URL('./allocation.child.ts', import.meta.url));

interface Phase { bytesPerCall: number; gcsInBestWindow: number; windows: number[] }
type Result = Record<'control' | 'size' | 'save' | 'restore' | 'saveUnaligned' | 'restoreUnaligned', Phase> & { contacts: number; touching: number; explicit: number };

function measure(config: object): Promise<Result> {
  return runAllocationChild<Result>(child, { args: [JSON.stringify(config)], timeout: 120_000 });
}

/** Bytes per call, best window of 300 calls (the measurement itself costs a few hundred bytes a window). */
const BOUND = 8;
const PHASES = ['size', 'save', 'restore', 'saveUnaligned', 'restoreUnaligned'] as const;

describe('snapshot allocation', () => {
  const byRef = measure({});
  const explicit = measure({ explicit: true });
  byRef.catch(() => undefined);
  explicit.catch(() => undefined);

  const check = (r: Result, label: string) => {
    if (process.env.SNAPSHOT_REPORT) {
      const f = (p: Phase) => `${p.bytesPerCall.toFixed(1)} B/call`;
      console.log(`[snapshot allocation] ${label}: ${r.contacts} contacts, ${r.touching} touching (${r.explicit} explicit); ${PHASES.map((n) => `${n} ${f(r[n])}`).join('; ')}`);
    }
    // A window counts only when no GC ran inside it (a GC would hide allocation).
    for (const name of PHASES) expect(r[name].gcsInBestWindow, name).toBe(0);
    for (const name of PHASES) expect(r[name].bytesPerCall, name).toBeLessThan(BOUND);
    // The method sees a known allocation (a 16-slot array per call: ~150 B or more).
    expect(r.control.bytesPerCall).toBeGreaterThan(100);
  };

  it(`save, restore and size allocate nothing (< ${BOUND} B/call), Contact data by primary-contact reference`, async () => {
    const r = await byRef;
    expect(r.touching).toBeGreaterThan(0);
    expect(r.explicit).toBe(0);
    check(r, 'references');
  });

  it(`save, restore and size allocate nothing (< ${BOUND} B/call), Contact data stored explicitly`, async () => {
    const r = await explicit;
    expect(r.explicit).toBeGreaterThan(0);
    check(r, 'explicit');
  });
});
