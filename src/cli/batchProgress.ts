/**
 * Progress of a batch, on stderr. On a terminal: a bar rewritten in place at most every 200 ms
 * (scenes done, scenes per second, time left), erased at the end. Otherwise (a file or a pipe): a
 * plain line at each 10 % of the scenes. A failed scene is reported on its own line either way.
 * @module
 */

export interface BatchProgressOptions {
  total: number;
  /** Scenes already done when the batch (re)starts (a resumed queue batch). */
  already?: number;
  stream: { write(text: string): unknown; isTTY?: boolean };
  enabled: boolean;
  /** Clock in milliseconds (tests may pass their own). */
  now?: () => number;
}

export interface BatchProgress {
  /** One more scene done (`failed`: with this message). */
  done(failed?: string): void;
  /** Erases the terminal line, if any. */
  finish(): void;
}

const TTY_INTERVAL_MS = 200;
const BAR = 20;

function seconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 100) return `${Math.ceil(s)} s`;
  return `${Math.ceil(s / 60)} min`;
}

export function createBatchProgress(options: BatchProgressOptions): BatchProgress {
  const { total, stream, enabled } = options;
  const now = options.now ?? (() => performance.now());
  const start = now();
  const tty = stream.isTTY === true;
  const already = options.already ?? 0;
  let count = already;
  let failed = 0;
  let lastPrint = -Infinity;
  let lastDecile = Math.floor((10 * already) / Math.max(1, total));
  let shown = false;
  const line = () => {
    const elapsed = (now() - start) / 1000;
    const rate = elapsed > 0 ? (count - already) / elapsed : 0;
    const left = rate > 0 ? (total - count) / rate : Infinity;
    const fails = failed > 0 ? `, ${failed} failed` : '';
    return `${count}/${total} scenes (${Math.floor((100 * count) / Math.max(1, total))}%), ${rate.toFixed(1)} scenes/s, ${seconds(left)} left${fails}`;
  };
  return {
    done(message) {
      count++;
      if (message !== undefined) {
        failed++;
        if (enabled) stream.write(`${shown ? '\r\x1b[K' : ''}failed: ${message}\n`);
        lastPrint = -Infinity;
      }
      if (!enabled || total <= 0) return;
      if (tty) {
        const t = now();
        if (t - lastPrint < TTY_INTERVAL_MS && count < total) return;
        lastPrint = t;
        shown = true;
        const filled = Math.round((BAR * count) / total);
        stream.write(`\r[${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}] ${line()}\x1b[K`);
        return;
      }
      const decile = Math.floor((10 * count) / total);
      if (decile <= lastDecile) return;
      lastDecile = decile;
      stream.write(`progress: ${line()}\n`);
    },
    finish() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
