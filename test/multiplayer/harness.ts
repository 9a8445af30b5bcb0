/**
 * Helpers of the multiplayer tests: bounded waits, the sync checks of a client, and an optional
 * report (BITECS_COLLIDE_REPORT=1) of sync results and bytes on the wire.
 */
import { query } from 'bitecs';
import { afterAll, beforeAll, expect } from 'vitest';
import { ArenaClient } from '../../examples/multiplayer/client.js';
import { startServer, type RunningServer } from '../../examples/multiplayer/server.js';

export const REPORT = process.env.BITECS_COLLIDE_REPORT === '1';

export function report(line: string): void {
  if (REPORT) console.log(line);
}

/** Polls `done` every 10 ms until it holds; throws after `timeoutMs` with `what`. */
export async function waitUntil(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits until `client` has checked at least `ticks` ticks of its replica. */
export function waitChecked(client: ArenaClient, ticks: number, timeoutMs: number): Promise<void> {
  return waitUntil(() => client.sync.checked >= ticks, timeoutMs, `${ticks} checked ticks (at ${client.sync.checked})`);
}

/**
 * Every tick from the first checked one on was checked, in order, and matched the server's hash;
 * every join state gave the server's hash.
 */
export function expectInSync(client: ArenaClient, minTicks: number): void {
  const s = client.sync;
  expect(s.mismatchTicks).toEqual([]);
  expect(s.checked).toBeGreaterThanOrEqual(minTicks);
  expect(s.matched).toBe(s.checked);
  expect(s.lastChecked - s.firstChecked + 1).toBe(s.checked);
  expect(s.joinsMatched).toBe(s.joins);
}

/** A moving ball of the replica (a sphere with Velocity that is not a player). */
export function someBall(client: ArenaClient): number {
  const sim = client.sim!;
  const { Sphere, Velocity } = sim.physics.components;
  const players = new Set([...client.room.state.players.values()].map((p) => p.eid));
  const ball = query(sim.world, [Sphere, Velocity]).find((e) => !players.has(e));
  if (ball === undefined) throw new Error('no ball in the replica');
  return ball;
}

/** Bytes a client received: mean S_TICK payload, and all WebSocket messages per tick and per second (60 ticks). */
export function describeBytes(client: ArenaClient): string {
  const b = client.bytes;
  const perTick = (b.frames - b.join) / Math.max(1, b.tickMessages); // join states aside
  return `${(b.ticks / Math.max(1, b.tickMessages)).toFixed(1)} B per S_TICK payload, ${perTick.toFixed(1)} B per tick in all messages (${(perTick * 60).toFixed(0)} B/s), join state ${b.join} B`;
}

/** A single-process server for the tests of one `describe`: started before them, stopped after. */
export interface ServerFixture {
  /** The running server (set once `beforeAll` has run). */
  readonly server: RunningServer;
  /** Every line the server logged. */
  readonly logs: string[];
  /** Clients made by `connect`, left after the tests. */
  readonly clients: ArenaClient[];
  endpoint(): string;
  /** Connects a client to this server (and keeps it for the teardown). */
  connect(o: Partial<Parameters<typeof ArenaClient.connect>[0]> & { name: string }): Promise<ArenaClient>;
}

/**
 * Registers `beforeAll` / `afterAll` hooks that start a server on a free port of 127.0.0.1 with
 * `options` (its log captured) and stop it, after its clients leave; `timeoutMs` bounds each hook.
 */
export function serverFixture(options: Omit<Parameters<typeof startServer>[0], 'port' | 'log'>, timeoutMs = 30_000): ServerFixture {
  let server: RunningServer | undefined;
  const logs: string[] = [];
  const clients: ArenaClient[] = [];
  const fixture: ServerFixture = {
    get server(): RunningServer {
      if (!server) throw new Error('the server starts in beforeAll');
      return server;
    },
    logs,
    clients,
    endpoint: () => `http://127.0.0.1:${fixture.server.port}`,
    async connect(o) {
      const c = await ArenaClient.connect({ endpoint: fixture.endpoint(), ...o });
      clients.push(c);
      return c;
    },
  };
  beforeAll(async () => {
    server = await startServer({ ...options, port: 0, log: (line) => logs.push(line) });
  }, timeoutMs);
  afterAll(async () => {
    for (const c of clients) await c.leave().catch(() => {});
    await server?.stop();
  }, timeoutMs);
  return fixture;
}
