/**
 * The Colyseus 0.18 server of the arena room (`@colyseus/core` + `@colyseus/ws-transport`).
 *
 * One process: `npx tsx examples/multiplayer/server.ts [--port 2567] [--host 127.0.0.1]`, then
 * clients: `npx tsx examples/multiplayer/client.ts`. With `--redis redis://127.0.0.1:6379` the
 * process shares Redis presence and driver (`@colyseus/redis-presence`, `@colyseus/redis-driver`)
 * with the other processes of the same Redis: a client matchmaking through any process is placed in
 * a room living in any of them, and connects to that process directly (its `publicAddress`).
 * launch.ts starts Redis and two such processes. `--port 0` picks a free port. The process prints
 * `listening <host>:<port> process <id>` once it accepts clients and stops on SIGINT / SIGTERM.
 *
 * `--max-bodies N` caps the rooms' size (default 2,000) and `--tick-budget MS` the tick work all
 * rooms together may take per 16.7 ms tick (default 10): see limits.ts and docs/multiplayer.md.
 *
 * `startServer` is the same as a function, used in-process by the tests.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Server, matchMaker, type Presence } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { checkPortFree, freePort } from './processes.js';
import { ProcessBudget, type LimitsOptions } from './limits.js';
import { ArenaRoom, type Log } from './room.js';

export interface ServerOptions extends LimitsOptions {
  /** Port to listen on; 0 = a free one (default 2567). */
  port?: number;
  host?: string;
  /** Redis URL: share presence and driver with the other processes of this Redis. */
  redis?: string;
  /** Where the rooms and the server log (default: nowhere). */
  log?: Log;
  /** More room types, defined with the same log and budget as `arena` (tests: rooms with a costly tick). */
  rooms?: Record<string, typeof ArenaRoom>;
}

export interface RunningServer {
  port: number;
  host: string;
  processId: string;
  /** The process's room limits and accounts (limits.ts). */
  budget: ProcessBudget;
  stop(): Promise<void>;
}

/**
 * Round-robin room placement over the processes registered in Redis. Colyseus's default picks the
 * process with the fewest rooms from counts each process persists at most once a second, so a
 * burst of creations all lands on one process; one Redis INCR per creation spreads them evenly.
 */
function roundRobin(presence: Presence): () => Promise<string> {
  return async () => {
    const processes = Object.keys(await presence.hgetall('roomcount')).sort();
    const n = await presence.incr('arena:placement');
    return processes.length > 0 ? processes[n % processes.length] : matchMaker.processId;
  };
}

/** Starts one server process's Colyseus server with the arena room defined as `arena`. */
export async function startServer(o: ServerOptions = {}): Promise<RunningServer> {
  const host = o.host ?? '127.0.0.1';
  const log = o.log ?? (() => {});
  const port = o.port === 0 ? await freePort(host) : o.port ?? 2567; // Redis mode needs the port up front (publicAddress)
  // Colyseus only logs a failed listen (EADDRINUSE) and would leave the process waiting: check first.
  if (o.port !== 0) await checkPortFree(port, host);
  const presence = o.redis !== undefined ? new RedisPresence(o.redis) : undefined;
  const server = new Server({
    transport: new WebSocketTransport(),
    greet: false,
    gracefullyShutdown: false,
    logger: quietLogger(log),
    ...(presence !== undefined && o.redis !== undefined
      ? { presence, driver: new RedisDriver(o.redis), publicAddress: `${host}:${port}`, selectProcessIdToCreateRoom: roundRobin(presence) }
      : {}),
  });
  // The room limits: measured here once (a short scene run) unless given, before any client comes.
  const budget = new ProcessBudget(o);
  budget.calibrate();
  server.define('arena', ArenaRoom, { log, budget });
  for (const [name, room] of Object.entries(o.rooms ?? {})) server.define(name, room, { log, budget });
  await server.listen(port, host);
  return {
    port,
    host,
    processId: matchMaker.processId,
    budget,
    stop: () => server.gracefullyShutdown(false),
  };
}

/** Colyseus's own log lines (warnings, errors) go to the same log; debug and info are dropped. */
function quietLogger(log: Log) {
  const line = (level: string) => (...args: unknown[]) => log(`colyseus ${level}: ${args.map(String).join(' ')}`);
  const none = () => {};
  return { debug: none, info: none, trace: none, warn: line('warn'), error: line('error') };
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const log: Log = (line) => console.log(line);
  const running = await startServer({
    port: arg('port') !== undefined ? Number(arg('port')) : undefined,
    host: arg('host'),
    redis: arg('redis'),
    maxBodies: arg('max-bodies') !== undefined ? Number(arg('max-bodies')) : undefined,
    tickBudgetMs: arg('tick-budget') !== undefined ? Number(arg('tick-budget')) : undefined,
    log,
  });
  console.log(`listening ${running.host}:${running.port} process ${running.processId}`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    running.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  await main().catch((e: unknown) => {
    console.error(`server: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
