/**
 * Progress of long runs, on stderr only. Silent for the first second (short runs print nothing).
 * On a terminal: one line rewritten in place at most every 200 ms, erased at the end. Otherwise
 * (a file or a pipe): a line at each 10 % of the ticks.
 * @module
 */

export interface ProgressOptions {
  total: number;
  stream: { write(text: string): unknown; isTTY?: boolean };
  enabled: boolean;
  /** Clock in milliseconds (tests may pass their own). */
  now?: () => number;
  /** Quiet period before the first report, ms. Default 1000. */
  delayMs?: number;
}

export interface Progress {
  /** Reports that `done` ticks of `total` are finished. Cheap when nothing is printed. */
  update(done: number): void;
  /** Erases the terminal line, if any. */
  finish(): void;
}

const TTY_INTERVAL_MS = 200;

export function createProgress(options: ProgressOptions): Progress {
  const { total, stream, enabled } = options;
  const now = options.now ?? (() => performance.now());
  const start = now();
  const delay = options.delayMs ?? 1000;
  const tty = stream.isTTY === true;
  let lastPrint = -Infinity;
  let lastDecile = 0;
  let shown = false;
  const line = (done: number, elapsed: number) =>
    `tick ${done}/${total} (${Math.floor((100 * done) / total)}%), ${(elapsed / done).toFixed(2)} ms/tick`;
  return {
    update(done) {
      if (!enabled || total <= 0) return;
      const t = now();
      const elapsed = t - start;
      if (elapsed < delay) return;
      if (tty) {
        if (t - lastPrint < TTY_INTERVAL_MS) return;
        lastPrint = t;
        shown = true;
        stream.write(`\r${line(done, elapsed)}\x1b[K`);
        return;
      }
      const decile = Math.floor((10 * done) / total);
      if (decile <= lastDecile) return;
      lastDecile = decile;
      stream.write(`progress: ${line(done, elapsed)}\n`);
    },
    finish() {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}
