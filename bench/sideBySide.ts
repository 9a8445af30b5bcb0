/**
 * The measuring loop of the side-by-side scripts (bench/compare.ts, bench/compareQueries.ts): two
 * builds in ONE process, measured in alternating batches of ~60 ms of process CPU time (user +
 * system, which a loaded machine inflates far less than wall time), their order swapped every
 * round; reported as medians and the median of the per-round ratios.
 */
import { median } from './common.js';

/** The value after `--name` in `args`, or undefined. */
export function argValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** A side-by-side script's command line: the baseline checkout, the sphere counts, other options. */
export interface SideBySideArgs {
  args: readonly string[];
  /** The value after `--name`, or undefined. */
  value: (name: string) => string | undefined;
  /** The baseline checkout (`--base`). */
  base: string;
  /** Sphere counts (`--sizes`, default 10000). */
  sizes: number[];
}

/** Reads `process.argv`; prints `usage` and exits without `--base` or with `--help`. */
export function readSideBySideArgs(usage: string): SideBySideArgs {
  const args = process.argv.slice(2);
  const value = (name: string): string | undefined => argValue(args, name);
  const base = value('--base');
  if (!base || args.includes('--help')) {
    console.log(usage);
    process.exit(base ? 0 : 1);
  }
  return { args, value, base, sizes: (value('--sizes') ?? '10000').split(',').map(Number) };
}

/** CPU milliseconds per call of `step` over a batch of ~60 ms of wall time. */
export function cpuBatch(step: () => void): number {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let k = 0;
  while (performance.now() - t0 < 60) {
    step();
    k++;
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / k;
}

export interface SideBySide {
  /** Median CPU ms per call of the baseline's and this tree's step. */
  base: number;
  here: number;
  /** Median over rounds of here / base. */
  ratio: number;
  rounds: number;
}

/** `warmup` batches of each, then rounds of one batch each (order swapped per round) for `seconds`. */
export function sideBySide(base: () => void, here: () => void, seconds: number, warmup: number): SideBySide {
  for (let i = 0; i < warmup; i++) {
    cpuBatch(base);
    cpuBatch(here);
  }
  const mb: number[] = [], mh: number[] = [], ratio: number[] = [];
  const end = performance.now() + seconds * 1000;
  for (let round = 0; performance.now() < end; round++) {
    let x: number, y: number;
    if (round % 2 === 0) {
      x = cpuBatch(base);
      y = cpuBatch(here);
    } else {
      y = cpuBatch(here);
      x = cpuBatch(base);
    }
    mb.push(x);
    mh.push(y);
    ratio.push(y / x);
  }
  return { base: median(mb), here: median(mh), ratio: median(ratio), rounds: ratio.length };
}
