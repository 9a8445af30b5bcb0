/**
 * Summary of a CPU profile written by `node --cpu-prof` (see bench/profileTick.ts): the functions by
 * self time (share of the samples of the thread that ran the tick), and with `--lines <function>`
 * that function's samples by source line.
 *
 *   npx tsx bench/profileSummary.ts <dir or .cpuprofile> [--top 25] [--lines querySpheres]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { argValue } from './sideBySide.js';

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; positionTicks?: { line: number; ticks: number }[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const args = process.argv.slice(2);
if (args.length === 0 || args.includes('--help')) {
  console.log('npx tsx bench/profileSummary.ts <dir or .cpuprofile> [--top 25] [--lines <function>]');
  process.exit(0);
}
const path = args[0];
const top = Number(argValue(args, '--top') ?? 25);
const linesOf = argValue(args, '--lines');
const files = statSync(path).isDirectory()
  ? readdirSync(path).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(path, f))
  : [path];
// The main thread's profile: the one whose samples are most often not idle (a loader thread's are).
const busy = (p: Profile): number => {
  const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  return p.samples.filter((s) => !idle.has(s)).length;
};
const profile = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Profile).sort((a, b) => busy(b) - busy(a))[0];
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const name = (f: CallFrame): string => `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}`;
const self = new Map<string, number>();
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const d = profile.timeDeltas[i] ?? 0;
  const key = name(byId.get(profile.samples[i])!.callFrame);
  self.set(key, (self.get(key) ?? 0) + d);
  total += d;
}
console.log(`${(total / 1000).toFixed(0)} ms sampled; self time:`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`);
if (linesOf) {
  const ticks = new Map<number, number>();
  let sum = 0;
  let url = '';
  for (const n of profile.nodes) {
    if (n.callFrame.functionName !== linesOf) continue;
    url = n.callFrame.url;
    for (const t of n.positionTicks ?? []) {
      ticks.set(t.line, (ticks.get(t.line) ?? 0) + t.ticks);
      sum += t.ticks;
    }
  }
  const source = url.startsWith('file://') ? readFileSync(new URL(url), 'utf8').split('\n') : [];
  console.log(`\n${linesOf}: ${sum} samples by line (${url})`);
  for (const [line, t] of [...ticks].sort((a, b) => a[0] - b[0])) {
    if ((100 * t) / sum < 1) continue;
    console.log(`${((100 * t) / sum).toFixed(1).padStart(5)} %  ${String(line).padStart(5)}  ${(source[line - 1] ?? '').trim().slice(0, 110)}`);
  }
}
