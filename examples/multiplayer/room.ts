/**
 * The authoritative arena room: one bitecs world and one physics instance (sim.ts) per room,
 * stepped at a fixed 60 Hz by the module's fixed stepper inside Colyseus's timestep callback.
 *
 * Each tick (`runTick`): apply the events queued since the last tick (players who joined spawn,
 * players who left despawn) and the inputs that name this tick, step, hash, and broadcast one
 * `S_TICK` message with the tick, the hash and those events (wire.ts). Clients apply the same events
 * to their replicas and compare hashes.
 *
 * Clients join between ticks: the room sends the join state (entity ids, bodies, snapshot of the
 * last tick) and queues the player's spawn for the next tick, whose message follows the join state
 * on the same socket. Bad input never reaches the simulation: malformed messages, inputs for a
 * tick already simulated or too far ahead, unknown message types are rejected (a notice to the
 * client, one log line per reason per client per second); over 240 messages per second a client's
 * messages are dropped (logged once when it starts and once per second with the count). A client
 * may report its replica's hash for a recent tick (`C_HASH`); a mismatch is logged and the client
 * told it desynced, at most once per second per client whatever the pattern of reports (the count
 * of the others is logged at the end of the second); it can ask for the join state again
 * (`C_RESYNC`, at most every 30 ticks).
 *
 * The process's limits (limits.ts) come from the server's `define`, never from a client: the room's
 * size is the client's `bodies` only up to the server's cap, the room is admitted only if the
 * process can run it at 60 Hz by its measured tick costs, and its ticks are charged against its CPU
 * allowance, so that a room whose ticks cost more than admitted runs slower instead of starving the
 * other rooms of the process.
 */
import { performance } from 'node:perf_hooks';
import { matchMaker, Room, type Client } from '@colyseus/core';
import { ProcessBudget, type RoomAccount } from './limits.js';
import { createFixedStepper, fixedStepAdvance, type FixedStepper } from '../../src/index.js';
import { ArenaState, Player } from './state.js';
import { createSceneSim, despawnPlayer, hashWords, saveJoinState, spawnPlayer, spawnPoint, steerPlayer, TICK_RATE, DT, type Sim } from './sim.js';
import {
  C_HASH, C_INPUT, C_RESYNC, HASH_BYTES, hex, INPUT_BYTES, S_JOIN, S_NOTICE, S_TICK, tickBegin, tickEnd,
  tickWriterCreate, writeDespawn, writeSpawn, writeSteer, type Notice, type TickWriter,
} from './wire.js';

export type Log = (line: string) => void;

/** Options of a room: from the creating client (validated) and from the server's `define` (trusted). */
export interface ArenaRoomOptions {
  /** Scene bodies before players join (8 … the server's `maxBodies`; default 200). */
  bodies?: number;
  /** Scene seed (default 1). */
  seed?: number;
  /** Server-side only: where the room logs (set by the server's `define`). */
  log?: Log;
  /**
   * Server-side only: the process's limits (set by the server's `define`; a client cannot send a
   * ProcessBudget, so anything else is ignored and the process-wide default is used).
   */
  budget?: ProcessBudget;
}

/** The limits of rooms defined without a budget: defaults, calibrated when the first room is created. */
let defaultBudget: ProcessBudget | undefined;

/** Inputs may name a tick up to this far ahead of the next tick to run (1 s). */
export const MAX_AHEAD = TICK_RATE;
/** Per-client slots of future inputs (> MAX_AHEAD) and of the server's recent hashes. */
const RING = 128;
/** Messages per client per second (window of TICK_RATE ticks) before the rest are dropped. */
export const MESSAGE_BUDGET = 4 * TICK_RATE;
const RESYNC_EVERY = 30;
const REASONS = ['late', 'ahead', 'malformed', 'unknown-type', 'too-soon'] as const;
type Reason = (typeof REASONS)[number];

interface Seat {
  client: Client;
  name: string;
  /** The player's sphere, 0 until it has spawned. */
  eid: number;
  /** Pending inputs by tick % RING: the tick they name (−1 = none), dx, dz. */
  inputTick: Int32Array;
  inputDx: Int8Array;
  inputDz: Int8Array;
  /** Messages and drops in the current one-second window. */
  messages: number;
  dropped: number;
  rejected: Record<Reason, number>;
  desynced: boolean;
  /** Desyncs reported in the current one-second window (only the first is logged and notified). */
  desyncs: number;
  lastResync: number;
}

type Pending = { kind: 'spawn'; seat: Seat; sessionId: string } | { kind: 'despawn'; eid: number; sessionId: string };

/** Per-room measurements, read by the load script (load.ts). */
export interface RoomStats {
  ticks: number;
  /** Duration of the last ticks (ms), a ring of `tickMs.length`; `ticks` counts them all. */
  tickMs: Float64Array;
  /** CPU time of the process during each of those ticks (ms): the tick's cost without preemption. */
  tickCpuMs: Float64Array;
  /** Ticks that took more than one tick period. */
  overruns: number;
  /** Ticks skipped because the room was over its CPU allowance (limits.ts), counted once a second. */
  skipped: number;
  /** Bytes of S_TICK messages broadcast (per client), and messages received from clients. */
  tickBytes: number;
  received: number;
}

/** The rooms of this process (for the load script and the tests). */
export const liveRooms = new Set<ArenaRoom>();

function intOption(v: unknown, lo: number, hi: number, fallback: number): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi ? v : fallback;
}

export class ArenaRoom extends Room<{ state: ArenaState }> {
  override maxClients = 32;
  /** Colyseus's own limit: beyond this many messages per second a client is disconnected. */
  override maxMessagesPerSecond = 20 * MESSAGE_BUDGET;
  sim!: Sim;
  stepper!: FixedStepper;
  readonly stats: RoomStats = { ticks: 0, tickMs: new Float64Array(4096), tickCpuMs: new Float64Array(4096), overruns: 0, skipped: 0, tickBytes: 0, received: 0 };
  private log: Log = () => {};
  private seats = new Map<string, Seat>();
  private pending: Pending[] = [];
  private spawned = 0;
  private writer: TickWriter = tickWriterCreate();
  /** Hash of the state after tick t at [2 (t % RING)], the tick at hashTick[t % RING]. */
  private hashes = new Uint32Array(2 * RING);
  private hashTick = new Int32Array(RING).fill(-1);
  private spawnAt = { x: 0, z: 0 };
  private lastWall = 0;
  private budget!: ProcessBudget;
  private account: RoomAccount | undefined;
  private lastSkipReport = 0;

  override onCreate(options: ArenaRoomOptions): void {
    this.log = typeof options.log === 'function' ? options.log : () => {};
    if (options.budget instanceof ProcessBudget) this.budget = options.budget;
    else {
      defaultBudget ??= new ProcessBudget();
      defaultBudget.calibrate();
      this.budget = defaultBudget;
    }
    // Throws (the client's create fails with the reason) when the size is not allowed or the process is full.
    this.account = this.budget.admit(options.bodies, 200);
    const bodies = this.account.bodies;
    this.sim = createSceneSim({ bodies, seed: intOption(options.seed, 0, 0x7fffffff, 1) });
    this.state = new ArenaState({ processId: matchMaker.processId, bodies });
    this.recordHash();
    // Up to 8 ticks at once: a room catches up after another room's tick held the thread (limits.ts).
    this.stepper = createFixedStepper({ dt: DT, maxSubSteps: 8 });
    this.lastWall = performance.now();
    // Colyseus's timestep only wakes us up; the fixed stepper decides how many whole ticks are due.
    this.setTimestep(() => {
      const now = performance.now();
      fixedStepAdvance(this.stepper, (now - this.lastWall) / 1000, this.governedTick);
      this.lastWall = now;
      const a = this.account!;
      if (a.skippedWindow > 0 && now - this.lastSkipReport >= 1000) {
        this.log(`room ${this.roomId}: over its CPU allowance (ticks ${a.meanMs.toFixed(1)} ms on average, allowance ${this.budget.allowance(a).toFixed(1)} ms per tick period): skipped ${a.skippedWindow} ticks`);
        this.stats.skipped += a.skippedWindow;
        a.skippedWindow = 0;
        this.lastSkipReport = now;
      }
    }, 1000 / TICK_RATE);
    this.onMessageBytes(C_INPUT, (client, bytes: Uint8Array) => this.admit(client) && this.onInput(client, bytes));
    this.onMessageBytes(C_HASH, (client, bytes: Uint8Array) => this.admit(client) && this.onHash(client, bytes));
    this.onMessageBytes(C_RESYNC, (client, bytes: Uint8Array) => this.admit(client) && this.onResync(client));
    this.onMessage('*', (client, type) => {
      if (!this.admit(client)) return;
      const expectedBytes = type === C_INPUT || type === C_HASH || type === C_RESYNC || type === String(C_INPUT) || type === String(C_HASH) || type === String(C_RESYNC);
      if (expectedBytes) this.reject(client, 'malformed', `message type ${String(type)} must be sent as bytes (sendBytes)`);
      else this.reject(client, 'unknown-type', `unknown message type ${JSON.stringify(type)}`);
    });
    liveRooms.add(this);
    this.log(`room ${this.roomId}: created, ${bodies} bodies, seed ${intOption(options.seed, 0, 0x7fffffff, 1)}, half side ${this.sim.half}`);
  }

  override onJoin(client: Client, options?: { name?: unknown }): void {
    const name = typeof options?.name === 'string' ? options.name.slice(0, 32) : client.sessionId;
    const seat: Seat = {
      client, name, eid: 0,
      inputTick: new Int32Array(RING).fill(-1), inputDx: new Int8Array(RING), inputDz: new Int8Array(RING),
      messages: 0, dropped: 0, rejected: { late: 0, ahead: 0, malformed: 0, 'unknown-type': 0, 'too-soon': 0 },
      desynced: false, desyncs: 0, lastResync: this.sim.physics.tick,
    };
    this.seats.set(client.sessionId, seat);
    this.pending.push({ kind: 'spawn', seat, sessionId: client.sessionId });
    client.sendBytes(S_JOIN, saveJoinState(this.sim));
    this.log(`room ${this.roomId}: ${name} (${client.sessionId}) joined at tick ${this.sim.physics.tick}`);
  }

  override onLeave(client: Client): void {
    const seat = this.seats.get(client.sessionId);
    if (seat === undefined) return;
    this.seats.delete(client.sessionId);
    const at = this.pending.findIndex((p) => p.kind === 'spawn' && p.seat === seat);
    if (at >= 0) this.pending.splice(at, 1);
    else this.pending.push({ kind: 'despawn', eid: seat.eid, sessionId: client.sessionId });
    this.flushWindow(seat);
    this.log(`room ${this.roomId}: ${seat.name} (${client.sessionId}) left at tick ${this.sim.physics.tick}`);
  }

  override onDispose(): void {
    liveRooms.delete(this);
    if (this.account !== undefined) this.budget.release(this.account);
    this.log(`room ${this.roomId}: disposed at tick ${this.sim?.physics.tick}`);
  }

  override onUncaughtException(error: Error): void {
    this.log(`room ${this.roomId}: error: ${error.message}`);
  }

  /** A tick that came due: run it if the room's CPU allowance has credit, else skip it (counted). */
  private governedTick = (): void => {
    if (this.budget.mayTick(this.account!)) this.runTick();
  };

  /** One tick: queued joins and leaves, this tick's inputs, step, hash, broadcast. */
  private runTick = (): void => {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const sim = this.sim;
    const n = sim.physics.tick;
    const w = this.writer;
    tickBegin(w);
    for (const p of this.pending) {
      if (p.kind === 'spawn') {
        spawnPoint(sim, this.spawned++, this.spawnAt);
        p.seat.eid = spawnPlayer(sim, this.spawnAt.x, this.spawnAt.z);
        writeSpawn(w, p.seat.eid, this.spawnAt.x, this.spawnAt.z);
        this.state.players.set(p.sessionId, new Player({ eid: p.seat.eid, name: p.seat.name, spawnedAt: n }));
      } else {
        if (p.eid !== 0) {
          despawnPlayer(sim, p.eid);
          writeDespawn(w, p.eid);
        }
        this.state.players.delete(p.sessionId);
      }
    }
    this.pending.length = 0;
    const k = n % RING;
    for (const seat of this.seats.values()) {
      if (seat.eid === 0 || seat.inputTick[k] !== n) continue;
      seat.inputTick[k] = -1;
      steerPlayer(sim, seat.eid, seat.inputDx[k], seat.inputDz[k]);
      writeSteer(w, seat.eid, seat.inputDx[k], seat.inputDz[k]);
    }
    sim.step();
    this.afterStep();
    this.recordHash();
    const t = sim.physics.tick;
    const msg = tickEnd(w, t, this.hashes[2 * (t % RING)], this.hashes[2 * (t % RING) + 1]);
    this.broadcastBytes(S_TICK, msg, {});
    this.stats.tickBytes += msg.byteLength;
    if (t % TICK_RATE === 0) for (const seat of this.seats.values()) this.flushWindow(seat);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    this.stats.tickCpuMs[this.stats.ticks % this.stats.tickMs.length] = (cpu.user + cpu.system) / 1000;
    this.stats.tickMs[this.stats.ticks % this.stats.tickMs.length] = ms;
    this.stats.ticks++;
    if (ms > 1000 / TICK_RATE) this.stats.overruns++;
    this.budget.charge(this.account!, ms);
  };

  /** Called in every tick right after the step: nothing here (the tests' costly rooms override it). */
  protected afterStep(): void {}

  private recordHash(): void {
    const t = this.sim.physics.tick;
    hashWords(this.sim.physics, this.hashes, 2 * (t % RING));
    this.hashTick[t % RING] = t;
  }

  /** Counts a message against the client's budget; false (dropped) when over it. */
  private admit(client: Client): boolean {
    this.stats.received++;
    const seat = this.seats.get(client.sessionId);
    if (seat === undefined) return false;
    if (seat.messages < MESSAGE_BUDGET) {
      seat.messages++;
      return true;
    }
    if (seat.dropped++ === 0) {
      this.log(`room ${this.roomId}: ${seat.name} (${client.sessionId}): flood: over ${MESSAGE_BUDGET} messages per second, dropping the rest of this second`);
      this.notify(seat, { kind: 'dropped', reason: 'flood', detail: `over ${MESSAGE_BUDGET} messages per second; the rest of this second is dropped` });
    }
    return false;
  }

  /** End of a one-second window: log the drop and rejection counts, reset the budget. */
  private flushWindow(seat: Seat): void {
    const id = `room ${this.roomId}: ${seat.name} (${seat.client.sessionId})`;
    if (seat.dropped > 0) this.log(`${id}: dropped ${seat.dropped} messages this second (flood)`);
    for (const r of REASONS) if (seat.rejected[r] > 1) this.log(`${id}: rejected ${seat.rejected[r]} messages this second (${r})`);
    if (seat.desyncs > 1) this.log(`${id}: reported ${seat.desyncs} desyncs this second (logged and notified once)`);
    seat.desyncs = 0;
    seat.messages = 0;
    seat.dropped = 0;
    for (const r of REASONS) seat.rejected[r] = 0;
  }

  /** Rejects a message: a notice and a log line the first time per reason in a second. */
  private reject(client: Client, reason: Reason, detail: string): void {
    const seat = this.seats.get(client.sessionId);
    if (seat === undefined || seat.rejected[reason]++ > 0) return;
    this.log(`room ${this.roomId}: ${seat.name} (${client.sessionId}): rejected (${reason}): ${detail}`);
    this.notify(seat, { kind: 'rejected', reason, detail });
  }

  private notify(seat: Seat, notice: Notice): void {
    seat.client.send(S_NOTICE, notice);
  }

  private onInput(client: Client, bytes: Uint8Array): void {
    if (!(bytes instanceof Uint8Array) || bytes.byteLength !== INPUT_BYTES) {
      this.reject(client, 'malformed', `an input is ${INPUT_BYTES} bytes (u32 tick, i8 dx, i8 dz), got ${bytes instanceof Uint8Array ? bytes.byteLength : typeof bytes}`);
      return;
    }
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const tick = v.getUint32(0, true), dx = v.getInt8(4), dz = v.getInt8(5);
    const next = this.sim.physics.tick;
    if (dx === -128 || dz === -128) return this.reject(client, 'malformed', `input axes are -127 … 127, got (${dx}, ${dz})`);
    if (tick < next) return this.reject(client, 'late', `input for tick ${tick}, but tick ${next - 1} has already run (send for tick ${next} or later)`);
    if (tick > next + MAX_AHEAD) return this.reject(client, 'ahead', `input for tick ${tick} is more than ${MAX_AHEAD} ticks ahead of tick ${next}`);
    const seat = this.seats.get(client.sessionId)!;
    const k = tick % RING;
    seat.inputTick[k] = tick;
    seat.inputDx[k] = dx;
    seat.inputDz[k] = dz;
  }

  private onHash(client: Client, bytes: Uint8Array): void {
    if (!(bytes instanceof Uint8Array) || bytes.byteLength !== HASH_BYTES) {
      this.reject(client, 'malformed', `a hash report is ${HASH_BYTES} bytes (u32 tick, u32 × 2 hash)`);
      return;
    }
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const tick = v.getUint32(0, true);
    if (this.hashTick[tick % RING] !== tick) return; // too old or not yet run: nothing to compare
    const hi = this.hashes[2 * (tick % RING)], lo = this.hashes[2 * (tick % RING) + 1];
    const seat = this.seats.get(client.sessionId)!;
    if (v.getUint32(4, true) === hi && v.getUint32(8, true) === lo) {
      seat.desynced = false;
      return;
    }
    if (seat.desynced) return;
    seat.desynced = true;
    // Once per second per client, whatever the pattern (alternating right and wrong reports too).
    if (seat.desyncs++ > 0) return;
    const server = hex(hi, lo), mine = hex(v.getUint32(4, true), v.getUint32(8, true));
    this.log(`room ${this.roomId}: ${seat.name} (${client.sessionId}): desync at tick ${tick}: server ${server}, client ${mine}`);
    this.notify(seat, { kind: 'desync', tick, server, client: mine });
  }

  private onResync(client: Client): void {
    const seat = this.seats.get(client.sessionId)!;
    const now = this.sim.physics.tick;
    if (now - seat.lastResync < RESYNC_EVERY) return this.reject(client, 'too-soon', `one resync per ${RESYNC_EVERY} ticks`);
    seat.lastResync = now;
    client.sendBytes(S_JOIN, saveJoinState(this.sim));
    this.log(`room ${this.roomId}: ${seat.name} (${client.sessionId}): resync at tick ${now}`);
  }
}
