/**
 * Two server processes sharing a local Redis (presence + driver): rooms created through either
 * process are spread over both, and a client connects to the process that hosts its room.
 *
 * `npx tsx examples/multiplayer/launch.ts` starts `redis-server` on 127.0.0.1 at a free port (or uses
 * `--redis redis://host:port`), then server.ts twice, on ports 2567 and 2568 (`--ports a,b`; 0 = any
 * free port), prints the endpoints and forwards the servers' log lines until Ctrl-C, then stops all
 * three. Connect bots through either endpoint with client.ts. A port already taken (e.g. by a
 * single-process server.ts still running) stops it at once with exit code 1, naming the port.
 *
 * `--demo SECONDS` instead runs a self-check and exits: it creates 4 rooms (alternately through each
 * process), puts 2 bots in each, steers them at random for SECONDS, and prints where each room lives
 * and how many ticks each replica checked and matched (exit code 1 on any desync).
 */
import { ArenaClient, randomSteering } from './client.js';
import { checkPortFree, startRedis, startServerProcess, type ServerProcess, type Started } from './processes.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function demo(servers: ServerProcess[], seconds: number): Promise<boolean> {
  const ids = new Map(servers.map((s, i) => [s.processId, String.fromCharCode(65 + i)]));
  const rooms: { via: string; clients: ArenaClient[] }[] = [];
  for (let r = 0; r < 4; r++) {
    const via = servers[Math.floor(r / 2) % servers.length]; // A, A, B, B: round-robin placement puts some on the other process
    const first = await ArenaClient.connect({ endpoint: via.endpoint, join: 'create', roomOptions: { bodies: 300, seed: r + 1 }, name: `r${r}b0`, onTick: randomSteering(10 * r + 1) });
    const second = await ArenaClient.connect({ endpoint: servers[(r + 1) % servers.length].endpoint, join: { roomId: first.room.roomId }, name: `r${r}b1`, onTick: randomSteering(10 * r + 2) });
    rooms.push({ via: ids.get(via.processId) ?? '?', clients: [first, second] });
  }
  await new Promise((r) => setTimeout(r, seconds * 1000));
  let ok = true;
  console.log('room       created via  hosted by  players  replicas matched/checked');
  for (const { via, clients } of rooms) {
    const host = ids.get(clients[0].room.state.processId) ?? clients[0].room.state.processId;
    const sync = clients.map((c) => `${c.sync.matched}/${c.sync.checked}`).join(', ');
    ok &&= clients.every((c) => c.sync.checked > 0 && c.sync.matched === c.sync.checked);
    console.log(`${clients[0].room.roomId.padEnd(10)} ${via.padEnd(11)}  ${host.padEnd(9)}  ${String(clients[0].room.state.players.size).padEnd(7)}  ${sync}`);
  }
  for (const { clients } of rooms) for (const c of clients) await c.leave();
  console.log(`launch: ${ok ? 'every replica matched its server at every tick' : 'DESYNC'}`);
  return ok;
}

async function main(): Promise<void> {
  const started: Started[] = [];
  const stopAll = async () => {
    for (const s of started.reverse()) await s.stop();
  };
  let ok = true;
  const ports = (arg('ports') ?? '2567,2568').split(',').map(Number);
  // A taken port fails here at once, before Redis starts (a server would only log EADDRINUSE).
  for (const port of ports) {
    if (port === 0) continue;
    try {
      await checkPortFree(port);
    } catch (e) {
      console.error(`launch: ${e instanceof Error ? e.message : String(e)}; --ports a,b picks others (0 = any free port)`);
      process.exitCode = 1;
      return;
    }
  }
  try {
    let redis = arg('redis');
    if (redis === undefined) {
      const r = await startRedis();
      started.push(r);
      redis = r.url;
    }
    const demoSeconds = arg('demo') !== undefined ? Number(arg('demo')) : undefined;
    const servers = await Promise.all(ports.map((port, i) => startServerProcess({
      redis,
      port,
      // The demo shows only Colyseus's own warnings and errors; otherwise every log line.
      onLine: (line) => {
        if (demoSeconds === undefined || line.startsWith('colyseus ')) console.log(`[${String.fromCharCode(65 + i)}] ${line}`);
      },
    })));
    started.push(...servers);
    console.log(`launch: redis ${redis}`);
    servers.forEach((s, i) => console.log(`launch: process ${String.fromCharCode(65 + i)} ${s.endpoint} (id ${s.processId}, pid ${s.pid})`));
    if (demoSeconds !== undefined) ok = await demo(servers, demoSeconds);
    else {
      console.log('launch: running; connect with `npx tsx examples/multiplayer/client.ts --endpoint <endpoint>`; Ctrl-C stops');
      await new Promise<void>((done) => {
        process.once('SIGINT', () => done());
        process.once('SIGTERM', () => done());
      });
    }
  } finally {
    await stopAll();
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
