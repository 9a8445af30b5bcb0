/**
 * Physics milliseconds per tick, as the overlay shows them: the median of the ticks that ran in the
 * last second (wall clock, `performance.now()` milliseconds). A ring of the last {@link CAPACITY}
 * samples; no allocation per sample.
 * @module
 */

/** Samples kept: more than a second's worth at 60 Hz with catch-up steps. */
const CAPACITY = 1024;
/** The window of the median, milliseconds. */
export const WINDOW_MS = 1000;

export interface TickTimer {
  /** Records one tick that started at `start` and took `ms` milliseconds. */
  add(start: number, ms: number): void;
  /** The median over the ticks that started within WINDOW_MS before `now`; NaN when there are none. */
  median(now: number): number;
  clear(): void;
}

export function createTickTimer(): TickTimer {
  const starts = new Float64Array(CAPACITY);
  const durations = new Float64Array(CAPACITY);
  const window = new Float64Array(CAPACITY);
  let next = 0, size = 0;
  return {
    add(start, ms) {
      starts[next] = start;
      durations[next] = ms;
      next = (next + 1) % CAPACITY;
      if (size < CAPACITY) size++;
    },
    median(now) {
      let n = 0;
      for (let k = 0; k < size; k++) {
        const i = (next - 1 - k + CAPACITY) % CAPACITY;
        if (now - starts[i] > WINDOW_MS) break;
        window[n++] = durations[i];
      }
      if (n === 0) return NaN;
      const w = window.subarray(0, n).sort();
      return n % 2 === 1 ? w[(n - 1) / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
    },
    clear() {
      next = 0;
      size = 0;
    },
  };
}
