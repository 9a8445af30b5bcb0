/**
 * `npm run bench [-- options]`: the arena benchmark of ours against a bare typed-array grid (the
 * speed-limit proxy), Jolt, Rapier, cannon-es and brute force; the hostile-scene section; the
 * moving-boxes section; the swept-query comparison and the geometry micro benchmarks. See `HELP` below for the options.
 *
 * Per size, every implementation runs in its own worker process (this script again with --worker and
 * --no-liftoff, so Rapier's WASM is compiled by the optimising tier from the start), driven one at a
 * time for verification, warm-up and interleaved timing (bench/child.ts). Then each implementation
 * runs alone in a fresh process (--expose-gc) for its memory per body and the bytes allocated per
 * steady tick (bench/isolated.ts), and the swept queries run in a fresh process (bench/swept.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { arenaSpec } from '../src/scenes/arena.js';
import { writeChart } from './chart.js';
import { IMPLS, SKIP_MS, runSize, runWorker, type ImplId, type SizeResult, type WorkerOptions } from './child.js';
import { hostileIds, runHostile, type HostileOptions, type HostileResult } from './hostile.js';
import { runIsolated, type IsolatedOptions, type IsolatedResult } from './isolated.js';
import { runMicro, type MicroResult } from './micro.js';
import { runMovingBoxes, type MovingBoxesOptions, type MovingBoxesRow } from './movingBoxes.js';
import { initRapier } from './peers/rapier.js';
import { printReport, writeCsv, writeDocs, type BenchReport } from './report.js';
import { runResponse, type ResponseOptions, type ResponseResult } from './response.js';
import { runSwept, type SweptResult } from './swept.js';
import { queriesTable, runQueries, type QueriesResult } from './queries.js';
import { flat2dTable, runFlat2d, type Flat2dOptions, type Flat2dResult } from './flat2d.js';

const HELP = `npm run bench [-- options]

  --sizes 1000,10000,100000,1000000   sphere counts (boxes = N / 10); default as shown
  --quick                  smoke run: sizes 1000,10000, hostile scenes at 1/4 size, short timings
                           (outputs get a .quick suffix; about 2-3 minutes)
  --write-docs             write the results table into docs/benchmarks.md (between BENCH markers)
  --json                   print the results as JSON on stdout (progress stays on stderr)
  --micro                  only the geometry micro benchmarks (outputs get a .micro suffix)
  --no-micro, --no-swept, --no-hostile, --no-queries, --no-moving-boxes, --no-response, --no-2d   leave those parts out
  --2d                     only the 2D section (circles among rectangles: ours, bare 2D grid, Rapier 2D,
                           detect-collisions, brute force; sizes default 10000,100000)
  --queries                only the world queries against Rapier (sizes default 10000,100000)
  --moving-boxes           only the moving-boxes section (1,000 moving among 10,000 static boxes)
  --response-sizes 10000,100000   sphere counts of the response section (default as shown)
  --seed S                 arena seed (default 1)
  --help                   this text

Time: bounded. Every implementation's tick is skipped once it takes over 2 s (predicted from the
previous size, or measured on its first ticks), and each part has a fixed number of timed rounds.
A full run takes about 15-25 minutes on a 2-core machine (mostly building the 1,000,000-sphere
scenes); --quick about 2-3 minutes.`;

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const value = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const log = (s: string) => process.stderr.write(`${s}\n`);
const script = fileURLToPath(import.meta.url);

interface SweptOptions { size: number; seed: number; quick: boolean }

/** Node flags of the memory/allocation processes (see isolated.ts). */
const ISOLATED_FLAGS = ['--expose-gc', '--no-flush-bytecode', '--single-threaded-gc', '--min-semi-space-size=64', '--max-semi-space-size=64'];

/** Scaling exponents used to predict a tick's time from the previous size (brute force is N·M). */
const EXPONENT: Record<string, number> = { 'brute-force': 2, 'cannon-es': 5 / 3 };

/** Runs this script in a child process in `mode`; its last stdout line is the JSON result. */
function runChild<T>(
  mode: '--isolated' | '--swept' | '--hostile' | '--queries-child' | '--moving-boxes-child' | '--response' | '--flat2d',
  nodeFlags: string[],
  opts: IsolatedOptions | SweptOptions | HostileOptions | MovingBoxesOptions | ResponseOptions | Flat2dOptions,
): Promise<T> {
  const args = [...process.execArgv, ...nodeFlags, script, mode, JSON.stringify(opts)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`${mode} ${JSON.stringify(opts)}: child exited with ${code}`));
      else resolve(JSON.parse(line) as T);
    });
  });
}

/** Implementations to skip at `size` without building them, from the previous size's results. */
function predictSkips(prev: SizeResult | undefined, size: number): Record<string, string> {
  const skip: Record<string, string> = {};
  if (!prev) return skip;
  for (const id of IMPLS) {
    const r = prev.impls[id];
    if (!r) continue;
    if (r.status === 'skipped') {
      skip[id] = `skipped at N = ${prev.size.toLocaleString('en-US')} already`;
      continue;
    }
    const predicted = r.msPerTick! * (size / prev.size) ** (EXPONENT[id] ?? 1);
    // Brute force scales exactly with N·M; the others are measured unless clearly over the limit.
    if (predicted > SKIP_MS * (id === 'brute-force' ? 1 : 5)) {
      skip[id] = `predicted ${(predicted / 1000).toFixed(0)} s per tick (> ${SKIP_MS / 1000} s) from ${r.msPerTick!.toFixed(0)} ms at N = ${prev.size.toLocaleString('en-US')}`;
    }
  }
  return skip;
}

async function main(): Promise<void> {
  const quick = flag('--quick');
  const seed = Number(value('--seed') ?? 1);
  const sizes = (value('--sizes') ?? (quick ? '1000,10000' : '1000,10000,100000,1000000')).split(',').map((s) => Number(s.replace(/_/g, '')));
  const started = new Date();
  const results: SizeResult[] = [];
  const queryResults: QueriesResult[] = [];
  const only = flag('--micro') || flag('--moving-boxes') || flag('--queries') || flag('--2d');
  if (!only) {
    for (const size of sizes) {
      log(`\n== N = ${size.toLocaleString('en-US')} spheres ==`);
      const result = await runSize({ size, seed, quick, skip: predictSkips(results[results.length - 1], size) }, script);
      for (const [id, r] of Object.entries(result.impls)) {
        if (r.status !== 'ok') continue;
        log(`  ${id}: memory and allocation, alone in a fresh process`);
        Object.assign(r, await runChild<IsolatedResult>('--isolated', ISOLATED_FLAGS, { impl: id as ImplId, size, seed, quick }));
      }
      if (!flag('--no-swept') && size <= 100_000) {
        log('  swept queries, in a fresh process');
        result.swept = await runChild<SweptResult>('--swept', ['--no-liftoff'], { size, seed, quick });
      }
      if (!flag('--no-queries') && size <= 100_000) {
        log('  world queries, in a fresh process');
        queryResults.push(await runChild<QueriesResult>('--queries-child', ['--no-liftoff'], { size, seed, quick }));
      }
      results.push(result);
    }
  }
  if (queryResults.length > 0) {
    log('\n== world queries against Rapier (queries per second) ==');
    for (const line of queriesTable(queryResults)) log(line);
  }
  const hostile: HostileResult[] = [];
  if (!only && !flag('--no-hostile')) {
    log('\n== hostile scenes (each against its twin, in a fresh process) ==');
    for (const id of hostileIds()) hostile.push(await runChild<HostileResult>('--hostile', [], { id, scale: quick ? 0.25 : 1, quick }));
  }
  let movingBoxes: MovingBoxesRow[] = [];
  if (!flag('--micro') && !flag('--2d') && !flag('--no-moving-boxes')) {
    log('\n== moving boxes (against the same boxes all static, in a fresh process) ==');
    movingBoxes = (await runChild<{ rows: MovingBoxesRow[] }>('--moving-boxes-child', [], { seed, quick })).rows;
  }
  if (!only && !flag('--no-response')) {
    log('\n== collision response: every sphere dynamic (BOUNCE e = 1, sphere–sphere) vs detection only, and Rapier dynamic balls ==');
    const rs = (value('--response-sizes') ?? (quick ? '1000,10000' : '10000,100000')).split(',').map(Number);
    for (const size of rs) await runChild<ResponseResult>('--response', [], { size, seed, quick });
  }
  if ((!only || flag('--2d')) && !flag('--no-2d')) {
    log('\n== 2D: circles among rectangles (ours through the 3D path at z = 0, a fresh process per size) ==');
    const sizes2d = (flag('--2d') ? value('--sizes') : undefined) ?? (quick ? '1000,10000' : '10000,100000');
    const flat: Flat2dResult[] = [];
    for (const size of sizes2d.split(',').map(Number)) flat.push(await runChild<Flat2dResult>('--flat2d', ['--no-liftoff'], { size, seed, quick }));
    for (const line of flat2dTable(flat)) log(line);
    for (const r of flat) log(`- N = ${r.size.toLocaleString('en-US')}: continuous / static = ${r.continuousOverStatic.toFixed(2)}×.`);
  }
  let micro: { results: MicroResult[]; sink: number } | undefined;
  if (!flag('--no-micro') && !flag('--moving-boxes') && !flag('--2d')) {
    log('\n== micro benchmarks ==');
    micro = await runMicro(quick, log);
  }
  const report: BenchReport = {
    host: os.hostname(),
    date: started.toISOString(),
    node: process.version,
    cpu: `${os.cpus()[0]?.model ?? '?'} × ${os.cpus().length}`,
    quick,
    seed,
    sizes: results,
    hostile,
    movingBoxes,
    micro: micro?.results ?? [],
    microSink: micro?.sink ?? 0,
  };
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  // Smoke runs and micro-only runs do not overwrite the full results.
  const suffix = `${quick ? '.quick' : ''}${flag('--micro') ? '.micro' : ''}${flag('--moving-boxes') ? '.moving-boxes' : ''}${flag('--2d') ? '.2d' : ''}`;
  const csv = writeCsv(report, `${dir}${report.host}${suffix}.csv`);
  const svg = results.length > 0 ? writeChart(report, `${dir}chart${suffix}.svg`) : undefined;
  if (flag('--json')) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else printReport(report, (s) => process.stdout.write(`${s}\n`));
  log(`\nwrote ${csv}${svg ? ` and ${svg}` : ''}`);
  if (flag('--write-docs')) log(`wrote the results table into ${writeDocs(report, fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url)))}`);
}

if (flag('--help')) {
  process.stdout.write(`${HELP}\n`);
} else if (flag('--worker')) {
  // Stays alive, serving the parent over IPC (bench/child.ts).
  await runWorker(JSON.parse(value('--worker')!) as WorkerOptions);
} else if (flag('--swept')) {
  const o = JSON.parse(value('--swept')!) as SweptOptions;
  await initRapier();
  const result = runSwept(arenaSpec({ spheres: o.size, seed: o.seed }), o.quick ? 3 : 7, o.quick ? 60 : 200, log);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else if (flag('--queries-child')) {
  const o = JSON.parse(value('--queries-child')!) as SweptOptions;
  await initRapier();
  const result = runQueries(o.size, o.seed, o.quick ? 3 : 7, log);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else if (flag('--queries')) {
  const seed = Number(value('--seed') ?? 1);
  const sizes = (value('--sizes') ?? '10000,100000').split(',').map(Number);
  const out: QueriesResult[] = [];
  for (const size of sizes) {
    log(`\n== world queries, N = ${size.toLocaleString('en-US')} spheres (a fresh process) ==`);
    out.push(await runChild<QueriesResult>('--queries-child', ['--no-liftoff'], { size, seed, quick: flag('--quick') }));
  }
  for (const line of queriesTable(out)) process.stdout.write(`${line}\n`);
} else if (flag('--hostile')) {
  const result = runHostile(JSON.parse(value('--hostile')!) as HostileOptions, log);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else if (flag('--moving-boxes-child')) {
  const rows = runMovingBoxes(JSON.parse(value('--moving-boxes-child')!) as MovingBoxesOptions, log);
  process.stdout.write(`${JSON.stringify({ rows })}\n`);
} else if (flag('--flat2d')) {
  const result = await runFlat2d(JSON.parse(value('--flat2d')!) as Flat2dOptions, log);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else if (flag('--response')) {
  const result = await runResponse(JSON.parse(value('--response')!) as ResponseOptions, log);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else if (flag('--isolated')) {
  const result = await runIsolated(JSON.parse(value('--isolated')!) as IsolatedOptions);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else {
  await main();
}
