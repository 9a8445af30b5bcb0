/** Progress on stderr: silent for short runs, every 10 % on a pipe, throttled on a terminal. */
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/progress.js';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (t: string) => writes.push(t) } };
}

describe('progress', () => {
  it('prints nothing during the first second', () => {
    const { writes, stream } = fakeStream(false);
    let t = 0;
    const p = createProgress({ total: 100, stream, enabled: true, now: () => t });
    for (let k = 1; k <= 100; k++) {
      t = k * 5; // 0.5 s in all
      p.update(k);
    }
    p.finish();
    expect(writes).toEqual([]);
  });

  it('not a terminal: one line per 10 % once the run is long', () => {
    const { writes, stream } = fakeStream(false);
    let t = 0;
    const p = createProgress({ total: 1000, stream, enabled: true, now: () => t });
    for (let k = 1; k <= 1000; k++) {
      t = k * 10;
      p.update(k);
    }
    p.finish();
    // The first second covers 10 %, so lines start at 10 % (tick 100, t = 1 s) and end at 100 %.
    expect(writes).toHaveLength(10);
    expect(writes[0]).toBe('progress: tick 100/1000 (10%), 10.00 ms/tick\n');
    expect(writes[9]).toMatch(/^progress: tick 1000\/1000 \(100%\)/);
  });

  it('terminal: rewrites one line at most every 200 ms and erases it at the end', () => {
    const { writes, stream } = fakeStream(true);
    let t = 0;
    const p = createProgress({ total: 1000, stream, enabled: true, now: () => t });
    for (let k = 1; k <= 1000; k++) {
      t = k * 3; // 3 s in all: reports from 1 s on, every 200 ms
      p.update(k);
    }
    p.finish();
    expect(writes.length).toBeGreaterThanOrEqual(10);
    expect(writes.length).toBeLessThanOrEqual(12);
    expect(writes.slice(0, -1).every((w) => w.startsWith('\r') && !w.includes('\n'))).toBe(true);
    expect(writes.at(-1)).toBe('\r\x1b[K');
  });

  it('--no-progress: nothing', () => {
    const { writes, stream } = fakeStream(true);
    let t = 0;
    const p = createProgress({ total: 10, stream, enabled: false, now: () => t });
    for (let k = 1; k <= 10; k++) {
      t = k * 1000;
      p.update(k);
    }
    p.finish();
    expect(writes).toEqual([]);
  });
});
