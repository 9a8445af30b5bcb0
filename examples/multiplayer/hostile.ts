/**
 * A hostile try of the arena server (`npx tsx examples/multiplayer/hostile.ts [--seconds 5]`): one
 * server process on 127.0.0.1, an honest client in a 200-body room, and a hostile client that
 * 1. asks for a room of 20,000 bodies, then two more (the server should refuse them: limits.ts);
 * 2. creates the largest rooms the server allows until it refuses one (admission by tick cost);
 * 3. joins the honest room and reports its hash twice a tick, alternating correct and wrong.
 * It prints the honest room's ticks per second after each step, the rooms the hostile client got,
 * and the server's log lines and desync notices caused by step 3. Every wait is bounded.
 */
import { performance } from 'node:perf_hooks';
import { ArenaClient } from './client.js';
import { startServer } from './server.js';
import { hashWords } from './sim.js';
import { C_HASH, encodeHash } from './wire.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const SECONDS = arg('seconds', 5);
const logs: string[] = [];
const server = await startServer({ port: 0, log: (line) => logs.push(line) });
const endpoint = `http://127.0.0.1:${server.port}`;
const clients: ArenaClient[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The honest room's ticks per second over SECONDS (from the ticks its client saw). */
async function honestRate(honest: ArenaClient): Promise<number> {
  const t0 = performance.now(), k0 = honest.serverTick;
  await sleep(SECONDS * 1000);
  return (honest.serverTick - k0) / ((performance.now() - t0) / 1000);
}

/** Tries to create a room of `bodies`; the client, or the server's refusal. */
async function tryCreate(name: string, bodies: number): Promise<ArenaClient | string> {
  try {
    const c = await ArenaClient.connect({ endpoint, join: 'create', name, roomOptions: { bodies }, replica: false });
    clients.push(c);
    return c;
  } catch (e) {
    return (e as Error).message;
  }
}

try {
  const honest = await ArenaClient.connect({ endpoint, join: 'create', name: 'honest', roomOptions: { bodies: 200, seed: 1 }, replica: false });
  clients.push(honest);
  await sleep(1000);
  console.log(`honest 200-body room alone: ${(await honestRate(honest)).toFixed(1)} ticks/s`);
  let got = 0;
  for (let k = 1; k <= 3; k++) {
    const r = await tryCreate(`hostile${k}`, 20_000);
    if (typeof r === 'string') console.log(`hostile asks for a 20,000-body room: refused: ${r}`);
    else got++;
    if (k === 1 || k === 3) console.log(`with ${got} hostile 20,000-body room(s): honest room ${(await honestRate(honest)).toFixed(1)} ticks/s`);
  }
  // The largest rooms the server allows, until it refuses one (at most 20 tries).
  let largest = 0;
  for (let k = 0; k < 20; k++) {
    const r = await tryCreate(`filler${k}`, 2000);
    if (typeof r === 'string') {
      console.log(`hostile's room of 2,000 bodies #${k + 1}: refused: ${r}`);
      break;
    }
    largest++;
    await sleep(1500); // let the room run long enough to be measured
  }
  console.log(`with ${largest} rooms of 2,000 bodies from the hostile client: honest room ${(await honestRate(honest)).toFixed(1)} ticks/s`);
  for (const c of clients.splice(1)) await c.leave();
  await sleep(500);
  // Alternating correct and wrong hash reports for SECONDS.
  const mine = new Uint32Array(2);
  let reports = 0;
  const liar = await ArenaClient.connect({
    endpoint, join: { roomId: honest.room.roomId }, name: 'liar', reportHashes: false, autoResync: false,
    onTick: (c, tick) => {
      hashWords(c.sim!.physics, mine, 0);
      c.room.sendBytes(C_HASH, encodeHash(tick, mine[0], mine[1]));
      c.room.sendBytes(C_HASH, encodeHash(tick, mine[0] ^ 1, mine[1]));
      reports += 2;
    },
  });
  clients.push(liar);
  const from = logs.length;
  await sleep(SECONDS * 1000);
  const lines = logs.slice(from).filter((l) => l.includes(`liar (${liar.room.sessionId})`));
  console.log(`alternating hash reports: ${reports} in ${SECONDS} s gave ${lines.length} log lines (${lines.filter((l) => l.includes('desync at tick')).length} desync lines) and ${liar.notices.filter((n) => n.kind === 'desync').length} desync notices`);
} finally {
  for (const c of clients) await c.leave().catch(() => {});
  await server.stop();
}
process.exit(0);
