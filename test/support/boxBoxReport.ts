/**
 * Bookkeeping of the box–box tests: case counts, the worst value of each measured quantity with the
 * case it came from, and failures (counted, with up to three example cases each, so that a test can
 * look at every case before it fails). The report prints only with BITECS_COLLIDE_REPORT=1 (see report.ts), so that test
 * output stays quiet otherwise.
 */
import { report, REPORTING } from './report.js';

interface Worst {
  /** largest allowed value (Infinity: reported only) */
  bound: number;
  n: number;
  value: number;
  at?: unknown;
}

const fmt = (x: number): string => (x === 0 ? '0' : x.toExponential(2));
/** A deep copy (result objects are reused from case to case). */
const copyOf = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

export class Tally {
  private readonly cases = new Map<string, number>();
  private readonly worst = new Map<string, Worst>();
  private readonly failed = new Map<string, { n: number; examples: string[] }>();

  /** Adds one case under `key`. */
  count(key: string): void {
    this.cases.set(key, (this.cases.get(key) ?? 0) + 1);
  }

  /** A failure of `key`, described by `msg`, on the case `input()`. */
  fail(key: string, msg: string, input: () => unknown): void {
    const f = this.failed.get(key) ?? { n: 0, examples: [] };
    f.n++;
    if (f.examples.length < 3) f.examples.push(`${key}: ${msg}\n    case ${JSON.stringify(input())}`);
    this.failed.set(key, f);
  }

  /** Records `value` of `key` on the case `input()`; above `bound` it is a failure too. */
  record(key: string, value: number, bound: number, input: () => unknown): void {
    let w = this.worst.get(key);
    if (!w) this.worst.set(key, (w = { bound, n: 0, value: 0 }));
    w.n++;
    if (w.at === undefined || Number.isNaN(value) || value > w.value) {
      w.value = value;
      w.at = copyOf(input());
    }
    if (!(value <= bound)) this.fail(key, `${value} > ${bound}`, input);
  }

  /** The failures of the keys starting with `prefix`: one line per key, and the example cases. */
  failures(prefix: string): { summary: string[]; examples: string } {
    const keys = [...this.failed.keys()].filter((k) => k.startsWith(prefix));
    return {
      summary: keys.map((k) => `${k}: ${this.failed.get(k)!.n} case(s)`),
      examples: keys.flatMap((k) => this.failed.get(k)!.examples).join('\n'),
    };
  }

  /** Prints (BITECS_COLLIDE_REPORT=1) the worst values, then the case counts, under `title`. */
  print(title: string): void {
    if (!REPORTING) return;
    const keys = [...this.worst.keys(), ...this.cases.keys()];
    const w = Math.max(0, ...keys.map((k) => k.length));
    const lines = [title];
    for (const k of [...this.worst.keys()].sort()) {
      const s = this.worst.get(k)!;
      const bound = Number.isFinite(s.bound) ? `bound=${fmt(s.bound)}` : 'report only';
      lines.push(`  ${k.padEnd(w)}  n=${String(s.n).padStart(6)}  worst=${fmt(s.value).padStart(9)}  ${bound}  at ${JSON.stringify(s.at)}`);
    }
    if (this.worst.size) lines.push('Case counts:');
    for (const k of [...this.cases.keys()].sort()) lines.push(`  ${k.padEnd(w)}  ${this.cases.get(k)}`);
    report(lines.join('\n'));
  }
}
