/**
 * An arena client (`@colyseus/sdk` 0.18) that keeps a replica of its room and checks it every tick.
 *
 * On joining it receives the join state (entity ids, bodies, physics snapshot: sim.ts) and builds
 * its replica from it; from then on each `S_TICK` message carries the server's events of that tick
 * and the server's hash after it: the client applies the same events, steps, and compares its own
 * hash (`sync`). It reports its hash to the server (`C_HASH`), which tells it when it differs, and
 * asks for the join state again after a mismatch (`C_RESYNC`, when `autoResync`). Inputs name the
 * tick they apply to (`sendInput`): the client sends them a few ticks ahead of the last tick it saw.
 *
 * Run bots against a server: `npx tsx examples/multiplayer/client.ts [--endpoint http://127.0.0.1:2567]
 * [--bots 4] [--seconds 10] [--bodies 200]`: they join (or create) an arena room, steer at random,
 * and print once a second how many ticks each checked and how many matched; exit code 1 on a desync.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Room } from '@colyseus/sdk';
import { createRng } from '../../src/scenes/prng.js';
import { hashWords, loadJoinState, type Sim } from './sim.js';
import type { ArenaState } from './state.js';
import { joinArenaRoom, type RoomConnectOptions } from './joinRoom.js';
import {
  applyTickEvents, C_HASH, C_INPUT, C_RESYNC, encodeHash, encodeInput, readTickHeader, S_JOIN, S_NOTICE, S_TICK,
  type Notice, type TickHeader,
} from './wire.js';

export interface ArenaClientOptions extends RoomConnectOptions {
  /** Keep and check a replica (default true); without, the client only counts ticks and bytes. */
  replica?: boolean;
  /** Report the replica's hash to the server every tick (default true). */
  reportHashes?: boolean;
  /** Ask for the join state again after a mismatch (default true). */
  autoResync?: boolean;
  /** Called after each tick message (after the replica stepped). */
  onTick?: (client: ArenaClient, tick: number) => void;
}

export interface SyncRecord {
  /** Ticks whose hash the replica checked, and how many matched the server's. */
  checked: number;
  matched: number;
  /** Ticks that did not match (the first 100). */
  mismatchTicks: number[];
  firstChecked: number;
  lastChecked: number;
  /** Join states received (join + resyncs), and whether each rebuilt replica had the server's hash. */
  joins: number;
  joinsMatched: number;
}

export class ArenaClient {
  readonly room: Room<unknown, ArenaState>;
  sim: Sim | undefined;
  /** The last tick the server announced. */
  serverTick = -1;
  /** The tick of the first join state. */
  joinTick = -1;
  readonly sync: SyncRecord = { checked: 0, matched: 0, mismatchTicks: [], firstChecked: -1, lastChecked: -1, joins: 0, joinsMatched: 0 };
  readonly notices: Notice[] = [];
  /** Bytes received: all WebSocket messages, S_TICK payloads, join states. */
  readonly bytes = { frames: 0, ticks: 0, tickMessages: 0, join: 0 };
  /** Events (spawns, steers, despawns) applied to the replica. */
  eventsApplied = 0;
  private readonly o: ArenaClientOptions;
  private readonly header: TickHeader = { tick: 0, hashHi: 0, hashLo: 0, events: 0 };
  private readonly mine = new Uint32Array(2);
  private resyncAt = -1;
  private waiters: { tick: number; resolve: () => void }[] = [];

  private constructor(room: Room<unknown, ArenaState>, o: ArenaClientOptions) {
    this.room = room;
    this.o = o;
    const events = room.connection.events as { onmessage?: (ev: { data: ArrayBuffer }) => void };
    const dispatch = events.onmessage;
    events.onmessage = (ev) => {
      this.bytes.frames += ev.data.byteLength;
      dispatch?.(ev);
    };
    room.onMessage(S_JOIN, (bytes: Uint8Array) => this.onJoinState(bytes));
    room.onMessage(S_TICK, (bytes: Uint8Array) => this.onTickMessage(bytes));
    room.onMessage(S_NOTICE, (notice: Notice) => {
      this.notices.push(notice);
      if (notice.kind === 'desync' && this.o.autoResync !== false) this.requestResync();
    });
  }

  /** Joins (or creates) an arena room through `endpoint` and resolves once the join is confirmed. */
  static async connect(o: ArenaClientOptions): Promise<ArenaClient> {
    return new ArenaClient(await joinArenaRoom(o), o);
  }

  /** Steers my sphere at `tick` (dx, dz in −127 … 127). */
  sendInput(tick: number, dx: number, dz: number): void {
    this.room.sendBytes(C_INPUT, encodeInput(tick, dx, dz));
  }

  requestResync(): void {
    if (this.resyncAt >= 0 && this.serverTick - this.resyncAt < 30) return;
    this.resyncAt = this.serverTick;
    this.room.sendBytes(C_RESYNC, new Uint8Array(0));
  }

  /** Resolves when the server has announced tick `tick`; rejects after `timeoutMs`. */
  waitForTick(tick: number, timeoutMs: number): Promise<void> {
    if (this.serverTick >= tick) return Promise.resolve();
    return new Promise((resolveWait, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for tick ${tick} (at ${this.serverTick})`)), timeoutMs);
      this.waiters.push({ tick, resolve: () => { clearTimeout(timer); resolveWait(); } });
    });
  }

  /** Leaves the room (consented); gives up waiting for the server's confirmation after 2 s. */
  async leave(): Promise<void> {
    if (!this.room.connection.isOpen) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.room.leave(true), new Promise((r) => { timer = setTimeout(r, 2000); })]);
    clearTimeout(timer);
  }

  private onJoinState(bytes: Uint8Array): void {
    this.bytes.join += bytes.byteLength;
    this.sync.joins++;
    if (this.o.replica === false) return;
    const state = loadJoinState(bytes);
    this.sim = state.sim;
    if (this.joinTick < 0) this.joinTick = state.tick;
    hashWords(state.sim.physics, this.mine, 0);
    if (this.mine[0] === state.hashHi && this.mine[1] === state.hashLo) this.sync.joinsMatched++;
  }

  private onTickMessage(bytes: Uint8Array): void {
    const h = this.header;
    if (!readTickHeader(bytes, h)) return;
    this.bytes.ticks += bytes.byteLength;
    this.bytes.tickMessages++;
    this.serverTick = h.tick;
    const sim = this.sim;
    if (sim !== undefined && h.tick > sim.physics.tick) this.advance(sim, bytes);
    this.o.onTick?.(this, h.tick);
    if (this.waiters.length > 0) {
      const due = this.waiters.filter((w) => w.tick <= h.tick);
      this.waiters = this.waiters.filter((w) => w.tick > h.tick);
      for (const w of due) w.resolve();
    }
  }

  /** Applies the tick's events, steps, compares hashes, reports. */
  private advance(sim: Sim, bytes: Uint8Array): void {
    const h = this.header;
    const inOrder = h.tick === sim.physics.tick + 1;
    const applied = inOrder && applyTickEvents(sim, bytes, h.events);
    if (applied) this.eventsApplied += h.events;
    if (inOrder) sim.step();
    hashWords(sim.physics, this.mine, 0);
    const match = applied && this.mine[0] === h.hashHi && this.mine[1] === h.hashLo;
    const s = this.sync;
    s.checked++;
    if (s.firstChecked < 0) s.firstChecked = h.tick;
    s.lastChecked = h.tick;
    if (match) s.matched++;
    else if (s.mismatchTicks.length < 100) s.mismatchTicks.push(h.tick);
    if (this.o.reportHashes !== false) this.room.sendBytes(C_HASH, encodeHash(h.tick, this.mine[0], this.mine[1]));
    if (!match && this.o.autoResync !== false) this.requestResync();
  }
}

// ---- Bots (the command) ------------------------------------------------------------------------

/** Steers at random: a new input every ~10 ticks, for `lead` ticks after the last one seen. */
export function randomSteering(seed: number, lead = 3): (client: ArenaClient, tick: number) => void {
  const rng = createRng(seed);
  return (client, tick) => {
    if (rng.next() < 0.1) client.sendInput(tick + lead, Math.round(rng.range(-127, 127)), Math.round(rng.range(-127, 127)));
  };
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

async function main(): Promise<void> {
  const endpoint = arg('endpoint', 'http://127.0.0.1:2567');
  const bots = Number(arg('bots', '4'));
  const seconds = Number(arg('seconds', '10'));
  const bodies = Number(arg('bodies', '200'));
  const clients: ArenaClient[] = [];
  for (let i = 0; i < bots; i++) {
    clients.push(await ArenaClient.connect({ endpoint, name: `bot${i}`, roomOptions: { bodies }, onTick: randomSteering(i + 1) }));
  }
  console.log(`client: ${bots} bots in room ${clients[0]?.room.roomId} via ${endpoint} for ${seconds} s`);
  for (let s = 1; s <= seconds; s++) {
    await new Promise((r) => setTimeout(r, 1000));
    const line = clients.map((c) => `${c.sync.matched}/${c.sync.checked}`).join('  ');
    console.log(`  t=${s} s  tick ${clients[0]?.serverTick}  players ${clients[0]?.room.state.players.size}  matched/checked: ${line}`);
  }
  const bad = clients.filter((c) => c.sync.matched !== c.sync.checked || c.sync.checked === 0);
  const perTick = clients[0] ? clients[0].bytes.ticks / Math.max(1, clients[0].bytes.tickMessages) : 0;
  console.log(`client: ${bad.length === 0 ? 'every replica matched the server at every tick' : `${bad.length} replicas DESYNCED`}; ${perTick.toFixed(1)} bytes per tick message`);
  for (const c of clients) await c.leave();
  process.exitCode = bad.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) await main();
