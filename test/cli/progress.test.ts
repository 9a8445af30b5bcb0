/** Progress on stderr: silent for short runs, every 10 % on a pipe, throttled on a terminal. */
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/progress.js';

/**
 * Runs a progress report over `total` ticks, tick k finishing at k × `msPerTick` on a fake clock, then
 * finishes it; returns what was written to a fake stream (a terminal when `isTTY`).
 */
function writesOf(o: { isTTY: boolean; total: number; msPerTick: number; enabled?: boolean }): string[] {
  const writes: string[] = [];
  const stream = { isTTY: o.isTTY, write: (text: string) => writes.push(text) };
  let t = 0;
  const p = createProgress({ total: o.total, stream, enabled: o.enabled ?? true, now: () => t });
  for (let k = 1; k <= o.total; k++) {
    t = k * o.msPerTick;
    p.update(k);
  }
  p.finish();
  return writes;
}

describe('progress', () => {
  it('prints nothing during the first second', () => {
    // 0.5 s in all
    expect(writesOf({ isTTY: false, total: 100, msPerTick: 5 })).toEqual([]);
  });

  it('not a terminal: one line per 10 % once the run is long', () => {
    const writes = writesOf({ isTTY: false, total: 1000, msPerTick: 10 });
    // The first second covers 10 %, so lines start at 10 % (tick 100, t = 1 s) and end at 100 %.
    expect(writes).toHaveLength(10);
    expect(writes[0]).toBe('progress: tick 100/1000 (10%), 10.00 ms/tick\n');
    expect(writes[9]).toMatch(/^progress: tick 1000\/1000 \(100%\)/);
  });

  it('terminal: rewrites one line at most every 200 ms and erases it at the end', () => {
    // 3 s in all: reports from 1 s on, every 200 ms
    const writes = writesOf({ isTTY: true, total: 1000, msPerTick: 3 });
    expect(writes.length).toBeGreaterThanOrEqual(10);
    expect(writes.length).toBeLessThanOrEqual(12);
    expect(writes.slice(0, -1).every((w) => w.startsWith('\r') && !w.includes('\n'))).toBe(true);
    expect(writes.at(-1)).toBe('\r\x1b[K');
  });

  it('--no-progress: nothing', () => {
    expect(writesOf({ isTTY: true, total: 10, msPerTick: 1000, enabled: false })).toEqual([]);
  });
});
