/**
 * Load of the arena server (`npm run load:multiplayer`): one server process (one core: one Node
 * main thread) hosting K rooms of N bodies at 60 Hz, one client per room on 127.0.0.1 steering at
 * random (no replica: the client side costs next to nothing). For each K it measures, over a window
 * after a warm-up: the server tick time (step + hash + encode + broadcast) p50 / p99 / max, ticks
 * that overran 16.7 ms, the ticks delivered against 60 · K per second, CPU of the server process
 * per room (user + system), event-loop utilisation and delay, and bytes per second per client.
 *
 * A core holds K rooms when every room ran its 60 ticks per second (≥ 99.5 % delivered, no time
 * dropped by the fixed stepper) with the p99 tick under 8 ms. Without `--rooms`, the script finds
 * the largest such K: it doubles K from 1 until a K fails (and at least to 4), then bisects (rooms
 * are added and removed in the same process), within `--budget` seconds. It also gives the figure
 * CPU time implies (CPU per room tick → rooms per core), which other processes on the machine
 * disturb less than wall-clock times.
 *
 * Options: `--bodies N` (default 2000), `--rooms K1,K2,…` (just these), `--seconds S` measured per
 * K (default 4), `--budget S` for the search (default 180), `--max-rooms` (default 64).
 *
 * Then the predicting client's rows (loadPrediction.ts): at `--rtt 50,100,200` ms of round trip
 * through the delay proxy, rollbacks per second, re-simulated ticks (mean, p99), CPU spent
 * re-simulating and bytes per second, `--prediction-seconds S` each (default 8).
 * `--prediction-only` runs just those, `--no-prediction` just the rooms.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ArenaClient, randomSteering } from './client.js';
import { liveRooms } from './room.js';
import { startServer } from './server.js';
import { createSceneSim, TICK_RATE } from './sim.js';
import { runPredictionLoad } from './loadPrediction.js';

const TICK_MS = 1000 / TICK_RATE;
const P99_LIMIT_MS = 8;

interface Measure {
  rooms: number;
  seconds: number;
  ticks: number;
  expected: number;
  p50: number;
  p99: number;
  max: number;
  cpuP50: number;
  cpuP99: number;
  overruns: number;
  droppedSeconds: number;
  cpuCores: number;
  elu: number;
  delayP99: number;
  tickBytes: number;
}

// ---- Child: the server process -----------------------------------------------------------------

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

async function child(): Promise<void> {
  // The load test measures how many rooms a core holds: no admission limit, no body cap beyond --bodies.
  const server = await startServer({ port: 0, maxBodies: 1_000_000, tickBudgetMs: Infinity });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  let mark = { at: 0, cpu: process.cpuUsage(), elu: performance.eventLoopUtilization(), ticks: new Map<object, number>(), dropped: new Map<object, number>(), bytes: 0 };
  const tickBytes = () => [...liveRooms].reduce((s, r) => s + r.stats.tickBytes, 0);
  process.on('message', (m: { cmd: string }) => {
    if (m.cmd === 'mark') {
      delay.reset();
      delay.enable();
      mark = {
        at: performance.now(), cpu: process.cpuUsage(), elu: performance.eventLoopUtilization(),
        ticks: new Map([...liveRooms].map((r) => [r, r.stats.ticks])),
        dropped: new Map([...liveRooms].map((r) => [r, r.stepper.droppedTime])),
        bytes: tickBytes(),
      };
      process.send!({ cmd: 'marked' });
    } else if (m.cmd === 'collect') {
      delay.disable();
      const seconds = (performance.now() - mark.at) / 1000;
      const samples: number[] = [];
      const cpuSamples: number[] = [];
      let ticks = 0, overruns = 0, dropped = 0;
      for (const r of liveRooms) {
        const from = mark.ticks.get(r);
        if (from === undefined) continue;
        const s = r.stats;
        for (let t = Math.max(from, s.ticks - s.tickMs.length); t < s.ticks; t++) {
          const ms = s.tickMs[t % s.tickMs.length];
          samples.push(ms);
          cpuSamples.push(s.tickCpuMs[t % s.tickMs.length]);
          if (ms > TICK_MS) overruns++;
        }
        ticks += s.ticks - from;
        dropped += r.stepper.droppedTime - (mark.dropped.get(r) ?? 0);
      }
      samples.sort((a, b) => a - b);
      cpuSamples.sort((a, b) => a - b);
      const cpu = process.cpuUsage(mark.cpu);
      const result: Measure = {
        rooms: mark.ticks.size, seconds, ticks, expected: mark.ticks.size * TICK_RATE * seconds,
        p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), max: samples[samples.length - 1] ?? 0,
        cpuP50: percentile(cpuSamples, 0.5), cpuP99: percentile(cpuSamples, 0.99),
        overruns, droppedSeconds: dropped, cpuCores: (cpu.user + cpu.system) / 1e6 / seconds,
        elu: performance.eventLoopUtilization(mark.elu).utilization, delayP99: delay.percentile(99) / 1e6,
        tickBytes: tickBytes() - mark.bytes,
      };
      process.send!({ cmd: 'result', result });
    } else if (m.cmd === 'stop') {
      void server.stop().then(() => process.exit(0));
    }
  });
  process.send!({ cmd: 'ready', port: server.port });
}

// ---- Parent: clients and the search ------------------------------------------------------------

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function request(proc: ChildProcess, cmd: string, reply: string, timeoutMs = 30_000): Promise<any> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`load: no '${reply}' from the server process within ${timeoutMs} ms`)), timeoutMs);
    const on = (m: { cmd: string }) => {
      if (m.cmd !== reply) return;
      clearTimeout(timer);
      proc.off('message', on);
      resolve(m);
    };
    proc.on('message', on);
    if (cmd !== '') proc.send({ cmd });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Row = Measure & { bytesPerClient: number; holds: boolean };

const HEAD = 'rooms  ticks/s (of)  tick ms p50   p99    max  CPU ms p50   p99  overruns  CPU total  per room   ELU  delay p99  B/s/client  holds';

function row(k: number, m: Row): string {
  const f = (x: number, d: number, w: number) => x.toFixed(d).padStart(w);
  return `${String(k).padStart(5)}  ${f(m.ticks / m.seconds, 0, 7)}/${String(TICK_RATE * k).padEnd(5)}  ${f(m.p50, 2, 10)} ${f(m.p99, 2, 6)} ${f(m.max, 1, 6)}  ` +
    `${f(m.cpuP50, 2, 10)} ${f(m.cpuP99, 2, 5)}  ${String(m.overruns).padStart(8)}  ${f(100 * m.cpuCores, 0, 7)} %  ${f((100 * m.cpuCores) / k, 1, 6)} %  ` +
    `${f(100 * m.elu, 0, 3)} %  ${f(m.delayP99, 1, 9)}  ${f(m.bytesPerClient, 0, 10)}  ${m.holds ? 'yes' : 'no'}`;
}

/** One room's step alone in this process, before the run: how fast this machine is right now. */
function calibrate(bodies: number): string {
  const sim = createSceneSim({ bodies, seed: 1 });
  for (let i = 0; i < 60; i++) sim.step();
  const c0 = process.cpuUsage(), t0 = performance.now();
  for (let i = 0; i < 240; i++) sim.step();
  const c = process.cpuUsage(c0);
  return `${((performance.now() - t0) / 240).toFixed(2)} ms wall, ${((c.user + c.system) / 1000 / 240).toFixed(2)} ms CPU`;
}

async function main(): Promise<void> {
  const bodies = Number(arg('bodies') ?? 2000);
  const seconds = Number(arg('seconds') ?? 4);
  const budget = Number(arg('budget') ?? 180);
  const maxRooms = Number(arg('max-rooms') ?? 64);
  const fixed = arg('rooms')?.split(',').map(Number);
  const started = Date.now();
  console.log(`load: ${bodies} bodies per room, ${seconds} s measured per room count, one server process, one client per room; ` +
    `load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}; one room's step alone: ${calibrate(bodies)}`);
  const proc = fork(fileURLToPath(import.meta.url), ['--child'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const clients: ArenaClient[] = [];
  const rows: Row[] = [];
  try {
    const { port } = await request(proc, '', 'ready', 60_000);
    const endpoint = `http://127.0.0.1:${port}`;
    const setRooms = async (k: number) => {
      while (clients.length < k) {
        const i = clients.length;
        clients.push(await ArenaClient.connect({ endpoint, join: 'create', roomOptions: { bodies, seed: i + 1 }, replica: false, reportHashes: false, onTick: randomSteering(i + 1) }));
      }
      while (clients.length > k) await clients.pop()!.leave();
    };
    const measure = async (k: number): Promise<Row> => {
      await setRooms(k);
      await sleep(1000); // warm-up (JIT, first joins)
      const before = clients.map((c) => c.bytes.frames);
      await request(proc, 'mark', 'marked');
      const t0 = performance.now();
      await sleep(seconds * 1000);
      const { result } = (await request(proc, 'collect', 'result')) as { result: Measure };
      const wall = (performance.now() - t0) / 1000;
      const bytesPerClient = clients.reduce((sum, c, i) => sum + c.bytes.frames - before[i], 0) / k / wall;
      const holds = result.ticks >= 0.995 * result.expected && result.droppedSeconds === 0 && result.p99 < P99_LIMIT_MS;
      const m = { ...result, bytesPerClient, holds };
      rows.push(m);
      console.log(row(k, m));
      return m;
    };
    console.log(HEAD);
    let pass = 0, fail = 0;
    if (fixed !== undefined) for (const k of fixed) await measure(k);
    else {
      const inBudget = () => (Date.now() - started) / 1000 < budget;
      // Doubling goes on to 4 rooms at least, so that the CPU figure below has several rows.
      for (let k = 1; k <= maxRooms && inBudget(); k *= 2) {
        const holds = (await measure(k)).holds;
        if (holds && fail === 0) pass = k;
        else if (!holds && fail === 0) fail = k;
        if (fail > 0 && k >= 4) break;
      }
      while (fail > 0 && fail - pass > 1 && pass > 0 && inBudget()) {
        const k = Math.floor((pass + fail) / 2);
        if ((await measure(k)).holds) pass = k;
        else fail = k;
      }
      const bound = fail === 0 ? `no failure up to ${pass}` : fail - pass > 1 ? `${fail} failed; search stopped by the ${budget} s budget` : `${fail} failed`;
      console.log(`load: measured: one core holds ${pass} rooms of ${bodies} bodies at ${TICK_RATE} Hz with p99 tick < ${P99_LIMIT_MS} ms (${bound})`);
    }
    // What the CPU time says (robust to other processes taking the core): CPU seconds per room tick
    // of the least loaded measurement → room ticks one core runs per second, if that measurement's
    // p99 CPU per tick is under the limit.
    const perTick = (m: Row) => (m.cpuCores * m.seconds) / Math.max(1, m.ticks);
    const best = rows.reduce((a, b) => (perTick(b) < perTick(a) ? b : a));
    const rooms = best.cpuP99 < P99_LIMIT_MS ? Math.floor(1 / (perTick(best) * TICK_RATE)) : 0;
    console.log(`load: from CPU time: ${(1000 * perTick(best)).toFixed(2)} ms of CPU per room tick (at ${best.rooms} rooms, p99 ${best.cpuP99.toFixed(2)} ms), ` +
      `${(100 * perTick(best) * TICK_RATE).toFixed(1)} % of a core per room → ${rooms} rooms per core; ${((Date.now() - started) / 1000).toFixed(0)} s in all`);
  } finally {
    for (const c of clients) await c.leave();
    proc.send({ cmd: 'stop' });
    const exited = new Promise((r) => proc.once('exit', r));
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

/** The prediction rows (loadPrediction.ts): `--rtt 50,100,200` (default), `--prediction-seconds S` (default 8). */
async function prediction(): Promise<void> {
  const rtts = (arg('rtt') ?? '50,100,200').split(',').map(Number);
  await runPredictionLoad(rtts, Number(arg('bodies') ?? 2000), Number(arg('prediction-seconds') ?? 8));
}

if (process.argv.includes('--child')) await child();
else {
  if (!process.argv.includes('--prediction-only')) await main();
  if (!process.argv.includes('--no-prediction')) await prediction();
}
