/**
 * Load of the predicting client (part of `npm run load:multiplayer`; alone:
 * `npx tsx examples/multiplayer/loadPrediction.ts [--rtt 50,100,200] [--bodies 2000] [--seconds 8]`).
 *
 * For each round trip: a server process, a delay proxy process at that round trip (5 ms of jitter
 * each way), and in this process one measured `PredictedClient` (a replica of the room, predicting)
 * and 3 bots without a replica that hold a stick and send it every tick, changing it about twice a
 * second (so the measured client mispredicts about 6 times a second); the measured client changes
 * its own stick about twice a second too. After 3 s of warm-up, over `--seconds`: rollbacks per
 * second; ticks re-simulated per rollback, mean and p99 (the confirmed step included); CPU time of
 * this process spent re-simulating, ms per second (`process.cpuUsage` around each rollback, so it
 * includes the garbage collector's work meanwhile); bytes per second received (every WebSocket
 * message) and sent (inputs and hash reports, payloads); confirmed ticks checked and matched; own
 * inputs that arrived late; the mean lead (predicted − confirmed ticks).
 *
 * Then the same on a simulated network (simulatedNetwork.ts): virtual time, so the client never
 * falls behind however loaded the machine is.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from '../../src/scenes/prng.js';
import { ArenaClient } from './client.js';
import { PredictedClient } from './predictedClient.js';
import { startProxyProcess, startServerProcess } from './processes.js';
import { measureSimulated, type SimulatedRow } from './simulatedNetwork.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export interface PredictionRow {
  rttMs: number;
  measuredRtt: number;
  seconds: number;
  rollbacksPerSecond: number;
  resimMean: number;
  resimP99: number;
  resimCpuMsPerSecond: number;
  cpuMsPerPredictedTick: number;
  bytesInPerSecond: number;
  bytesOutPerSecond: number;
  checked: number;
  matched: number;
  inputsLate: number;
  inputsSent: number;
  leadMean: number;
}

/** A bot holding a stick, sent for `lead` ticks ahead of each tick it hears, changed about twice a second. */
function holdingBot(seed: number, lead: number): (c: ArenaClient, tick: number) => void {
  const rng = createRng(seed);
  let dx = 0, dz = 0;
  return (c, tick) => {
    if (rng.next() < 2 / 60) {
      dx = Math.round(rng.range(-127, 127));
      dz = Math.round(rng.range(-127, 127));
    }
    c.sendInput(tick + lead, dx, dz);
  };
}

function p99(hist: number[]): number {
  const n = hist.reduce((s, x) => s + (x ?? 0), 0);
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i] ?? 0;
    if (seen >= 0.99 * n) return i;
  }
  return 0;
}

/** Measures one round trip: server and proxy processes started and stopped here. */
export async function measurePrediction(rttMs: number, bodies: number, seconds: number, seed = 1): Promise<PredictionRow> {
  const server = await startServerProcess({ args: ['--max-bodies', String(bodies), '--tick-budget', '1000'] });
  const proxy = await startProxyProcess(server.endpoint, rttMs);
  const bots: ArenaClient[] = [];
  let client: PredictedClient | undefined;
  let pump: ReturnType<typeof setInterval> | undefined;
  try {
    const rng = createRng(seed + 100);
    client = await PredictedClient.connect({
      endpoint: proxy.endpoint, join: 'create', roomOptions: { bodies, seed }, name: 'measured', clock: cpuMs,
      onConfirmed: (c) => {
        if (rng.next() < 2 / 60) c.setStick(rng.range(-127, 127), rng.range(-127, 127));
      },
    });
    const c = client;
    const lead = Math.ceil(rttMs / (1000 / 60)) + 4;
    for (let i = 0; i < 3; i++) {
      bots.push(await ArenaClient.connect({ endpoint: proxy.endpoint, join: { roomId: c.room.roomId }, name: `bot${i}`, replica: false, reportHashes: false, onTick: holdingBot(seed * 10 + i, lead) }));
    }
    let leadSum = 0, leadN = 0;
    pump = setInterval(() => {
      c.update();
      if (c.sim !== undefined) {
        leadSum += c.predictedTick - c.confirmedTick;
        leadN++;
      }
    }, 2);
    await sleep(3000);
    const s = c.stats;
    const before = { ...s, resimHistogram: [...s.resimHistogram], frames: c.bytes.frames, sent: c.bytes.sent, cpu: cpuMs() };
    leadSum = 0;
    leadN = 0;
    const t0 = performance.now();
    await sleep(seconds * 1000);
    const wall = (performance.now() - t0) / 1000;
    const hist = s.resimHistogram.map((x, i) => (x ?? 0) - (before.resimHistogram[i] ?? 0));
    const rollbacks = s.rollbacks - before.rollbacks;
    const predicted = s.predicted - before.predicted;
    const resimCpu = s.resimMs - before.resimMs;
    return {
      rttMs,
      measuredRtt: c.rttMs,
      seconds: wall,
      rollbacksPerSecond: rollbacks / wall,
      resimMean: (s.resimulated - before.resimulated) / Math.max(1, rollbacks),
      resimP99: p99(hist),
      resimCpuMsPerSecond: resimCpu / wall,
      // The rest of this process's CPU (forward prediction, hashing, frames, sockets, bots) per predicted tick.
      cpuMsPerPredictedTick: (cpuMs() - before.cpu - resimCpu) / Math.max(1, predicted),
      bytesInPerSecond: (c.bytes.frames - before.frames) / wall,
      bytesOutPerSecond: (c.bytes.sent - before.sent) / wall,
      checked: s.checked - before.checked,
      matched: s.matched - before.matched,
      inputsLate: s.inputsLate - before.inputsLate,
      inputsSent: s.inputsSent - before.inputsSent,
      leadMean: leadSum / Math.max(1, leadN),
    };
  } finally {
    clearInterval(pump);
    for (const b of bots) await b.leave().catch(() => {});
    await client?.leave().catch(() => {});
    await proxy.stop();
    await server.stop();
  }
}

export const PREDICTION_HEAD = 'rtt ms (ping)  rollbacks/s  re-sim ticks mean  p99  re-sim CPU ms/s  other CPU ms/tick  B/s in  B/s out  lead  confirmed matched  inputs late';

export function predictionRow(r: PredictionRow): string {
  const f = (x: number, d: number, w: number) => x.toFixed(d).padStart(w);
  return `${f(r.rttMs, 0, 6)} (${f(r.measuredRtt, 0, 3)})  ${f(r.rollbacksPerSecond, 1, 11)}  ${f(r.resimMean, 1, 17)}  ${f(r.resimP99, 0, 3)}  ${f(r.resimCpuMsPerSecond, 1, 15)}  ` +
    `${f(r.cpuMsPerPredictedTick, 2, 17)}  ${f(r.bytesInPerSecond, 0, 6)}  ${f(r.bytesOutPerSecond, 0, 7)}  ${f(r.leadMean, 1, 4)}  ${String(r.matched).padStart(9)}/${String(r.checked).padEnd(6)}  ${r.inputsLate}/${r.inputsSent}`;
}

const SIMULATED_HEAD = 'rtt ms  rollbacks/s  re-sim ticks mean  p99  re-sim CPU ms/s  B/s in  B/s out  lead  confirmed matched  inputs late';

function simulatedRow(r: SimulatedRow): string {
  const f = (x: number, d: number, w: number) => x.toFixed(d).padStart(w);
  return `${f(r.rttMs, 0, 6)}  ${f(r.rollbacksPerSecond, 1, 11)}  ${f(r.resimMean, 1, 17)}  ${f(r.resimP99, 0, 3)}  ${f(r.resimCpuMsPerSecond, 1, 15)}  ` +
    `${f(r.bytesInPerSecond, 0, 6)}  ${f(r.bytesOutPerSecond, 0, 7)}  ${f(r.leadMean, 1, 4)}  ${String(r.matched).padStart(9)}/${String(r.checked).padEnd(6)}  ${r.inputsLate}/${r.inputsSent}`;
}

/**
 * The prediction rows at each round trip, printed as they come: through real sockets and the delay
 * proxy (timing as this machine gives it), then on the simulated network (simulatedNetwork.ts:
 * virtual time, so the client never falls behind; the algorithm's figures at that round trip).
 */
export async function runPredictionLoad(rtts: number[], bodies: number, seconds: number): Promise<PredictionRow[]> {
  console.log(`load: prediction, ${bodies} bodies, one predicting client and 3 bots per room through a delay proxy, ${seconds} s per round trip; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(PREDICTION_HEAD);
  const rows: PredictionRow[] = [];
  for (const rtt of rtts) {
    try {
      const r = await measurePrediction(rtt, bodies, seconds);
      rows.push(r);
      console.log(predictionRow(r));
    } catch (e) {
      // A loaded machine can make a join outlast its seat reservation: say so, go on with the rest.
      console.log(`${String(rtt).padStart(6)}  failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  console.log(`load: prediction on a simulated network (virtual clock, ±5 ms of jitter each way, no sockets), ${bodies} bodies, ${seconds} s per round trip; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(SIMULATED_HEAD);
  for (const rtt of rtts) console.log(simulatedRow(measureSimulated(rtt, bodies, seconds)));
  return rows;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const rtts = (arg('rtt') ?? '50,100,200').split(',').map(Number);
  await runPredictionLoad(rtts, Number(arg('bodies') ?? 2000), Number(arg('seconds') ?? 8));
  process.exit(0);
}
