/**
 * The arena's client side as one importable module: a game creates a `PredictedClient`, calls
 * `setStick` when its input changes and `update` every frame, and renders `client.sim`. The module
 * speaks the whole protocol (docs/multiplayer.md): the join state, the tick messages, the hash
 * check and report, resyncs, and the game's rule (sim.ts: the systems and the patrol), so a game
 * does not re-implement any of it.
 *
 * **Prediction** (docs/netcode.md). The replica runs ahead of the last tick the server confirmed, by
 * the measured round trip plus a margin, so that an input sent for the tick being predicted reaches
 * the server before the server runs that tick. Each predicted tick applies
 * - the local player's stick, which is sent for that same tick (`C_INPUT`): the local sphere moves on
 *   the tick of the key press, with 0 ticks of input delay, and the server applies the same input at
 *   the same tick;
 * - for every other player, the input it had at the newest confirmed tick (a steer with the same
 *   stick if it steered then, nothing if it did not): its last known input.
 *
 * When the tick message confirming tick n arrives (its events are those the server applied to the
 * state at tick n − 1), the client compares them with what it predicted for tick n − 1. Equal: the
 * predicted state at n is the server's (the simulation is deterministic), and its hash, taken when it
 * was predicted, is checked against the message's. Different: the client restores tick n − 1 from its
 * rollback ring, applies the confirmed events, steps, checks the hash, and re-simulates the ticks up
 * to the present with the new last known inputs. Either way every confirmed tick is hash-checked and
 * reported (`C_HASH`), as by the follower client (client.ts).
 *
 * Everything here runs in browsers as in Node (no Node imports).
 */
import type { Room } from '@colyseus/sdk';
import { createRollbackRing, enableInterpolation, restoreRollback, saveRollback, type RollbackRing } from '../../src/index.js';
import { hashWords, loadJoinState, steerPlayer, TICK_RATE, type Sim } from './sim.js';
import type { ArenaState } from './state.js';
import { joinArenaRoom, type RoomConnectOptions } from './joinRoom.js';
import {
  applyTickEvents, C_HASH, C_INPUT, C_RESYNC, EV_SPAWN, EV_STEER, readTickHeader, S_JOIN, S_NOTICE, S_TICK, TICK_HEADER,
  type Notice, type TickHeader,
} from './wire.js';


/** Tick period, ms. */
const TICK_MS = 1000 / TICK_RATE;
/** Slots of the per-tick rings (own inputs, predicted hashes): more than the server's 60 ticks ahead plus a ring. */
const SLOTS = 256;
/** Players a room holds (ArenaRoom.maxClients). */
const MAX_PLAYERS = 32;
/** Predicted ticks one `update` may step by default (a long stall is caught up over a few calls). */
const MAX_STEPS_PER_UPDATE = 8;

export interface PredictedClientOptions extends RoomConnectOptions {
  /** Frames of the rollback ring (default 48): the client predicts at most depth − 2 ticks ahead. */
  depth?: number;
  /** Ticks one `update` may predict (default 8). */
  maxStepsPerUpdate?: number;
  /** Ticks of lead beyond the measured round trip (default 2; raised by one for each late input, then lowered again). */
  safetyTicks?: number;
  /**
   * Keep the moving bodies' previous poses for drawing between ticks (`enableInterpolation` on each
   * replica built; then `interpolatePoses(client.sim.physics, alpha, out)`). Default false.
   */
  interpolation?: boolean;
  /** Report each confirmed tick's hash to the server (default true). */
  reportHashes?: boolean;
  /** Ask for the join state again after a mismatch (default true). */
  autoResync?: boolean;
  /** The clock of the re-simulation cost, ms (default `performance.now`; the load script passes CPU time). */
  clock?: () => number;
  /** A known round trip, ms, instead of measuring it with pings (the load script's simulated network). */
  fixedRttMs?: number;
  /** The clock of arrivals and `update`, ms (default `performance.now`; the load script's simulated network passes its own). */
  now?: () => number;
  /** Called after each confirmed tick (after any re-simulation). */
  onConfirmed?: (client: PredictedClient, tick: number) => void;
  /** Called after each tick predicted forward by `update` (`tick` = the new predicted tick). */
  onPredicted?: (client: PredictedClient, tick: number) => void;
}

export interface PredictionStats {
  /** Confirmed ticks whose hash the client checked, and how many matched the server's. */
  checked: number;
  matched: number;
  /** Confirmed ticks that did not match (the first 100). */
  mismatchTicks: number[];
  firstChecked: number;
  lastChecked: number;
  /** Join states received (join + resyncs), and how many gave the server's hash. */
  joins: number;
  joinsMatched: number;
  /** Ticks predicted forward (each once), and confirmed ticks stepped with nothing predicted (the client was not ahead). */
  predicted: number;
  followed: number;
  /** Rollbacks, the ticks they re-simulated (the confirmed step included), and their cost in `clock` ms. */
  rollbacks: number;
  resimulated: number;
  resimMs: number;
  /** Rollbacks by how many ticks each re-simulated (index = ticks). */
  resimHistogram: number[];
  /** Own inputs sent, and how many the server did not apply at their tick (they arrived late). */
  inputsSent: number;
  inputsLate: number;
}

export class PredictedClient {
  readonly room: Room<unknown, ArenaState>;
  /** The replica, at the predicted tick (`sim.physics.tick`); undefined until the join state arrived. */
  sim: Sim | undefined;
  ring: RollbackRing | undefined;
  /** The local player's sphere, 0 until its spawn is confirmed (from the room's player list). */
  myEid = 0;
  /** The newest tick the server confirmed (its events applied and its hash checked). */
  confirmedTick = -1;
  /** The newest tick the server announced. */
  serverTick = -1;
  /** The tick of the first join state. */
  joinTick = -1;
  /** The round trip, ms: the median of the last 5 pings (one every 0.5 s); jitter is left to the margin. */
  rttMs = 0;
  /** The newest tick whose own input the server did not apply (it arrived late), −1 if none. */
  lastLateTick = -1;
  readonly stats: PredictionStats = {
    checked: 0, matched: 0, mismatchTicks: [], firstChecked: -1, lastChecked: -1, joins: 0, joinsMatched: 0,
    predicted: 0, followed: 0, rollbacks: 0, resimulated: 0, resimMs: 0, resimHistogram: [], inputsSent: 0, inputsLate: 0,
  };
  /** Bytes received: all WebSocket messages, S_TICK payloads, join states; bytes sent in inputs and hash reports. */
  readonly bytes = { frames: 0, ticks: 0, tickMessages: 0, join: 0, sent: 0 };
  readonly notices: Notice[] = [];

  private readonly o: PredictedClientOptions;
  private readonly depth: number;
  private readonly clock: () => number;
  private readonly now: () => number;
  private readonly header: TickHeader = { tick: 0, hashHi: 0, hashLo: 0, events: 0 };
  private stickDx = 0;
  private stickDz = 0;
  /** Own inputs by tick % SLOTS: the tick (−1 none), dx, dz. */
  private readonly ownTick = new Int32Array(SLOTS).fill(-1);
  private readonly ownDx = new Int8Array(SLOTS);
  private readonly ownDz = new Int8Array(SLOTS);
  /** The replica's hash after tick t at [2 (t % SLOTS)], for the tick at hashTick[t % SLOTS]. */
  private readonly hashes = new Uint32Array(2 * SLOTS);
  private readonly hashTick = new Int32Array(SLOTS).fill(-1);
  /** Other players' last known inputs: their steers at the newest confirmed tick. */
  private readonly knownEid = new Int32Array(MAX_PLAYERS);
  private readonly knownDx = new Int8Array(MAX_PLAYERS);
  private readonly knownDz = new Int8Array(MAX_PLAYERS);
  private knownN = 0;
  /**
   * The server's clock: max over recent arrivals of (tick − arrival / TICK_MS), in two 1 s windows:
   * a late message does not pull it back, and a server that fell behind (it drops time after a long
   * stall) is followed within 2 s.
   */
  private clockCur = -Infinity;
  private clockPrev = -Infinity;
  private clockWindow = 0;
  private readonly pings: number[] = [];
  private pingCount = 0;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private extraSafety = 0;
  /** The first tick the server cannot have run yet, as seen from here (set by `update`). */
  private firstInputTick = 0;
  private lastLateAt = 0;
  private resyncAt = -1;
  private readonly inputBytes = new Uint8Array(6);
  private readonly inputView = new DataView(this.inputBytes.buffer);
  private readonly hashBytes = new Uint8Array(12);
  private readonly hashView = new DataView(this.hashBytes.buffer);
  private waiters: { tick: number; resolve: () => void }[] = [];

  private constructor(room: Room<unknown, ArenaState>, o: PredictedClientOptions) {
    this.room = room;
    this.o = o;
    this.depth = o.depth ?? 48;
    this.clock = o.clock ?? (() => performance.now());
    this.now = o.now ?? (() => performance.now());
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
    // One ping at a time: Colyseus keeps one callback, and a second ping would time the first pong.
    let pending = false;
    const ping = () => {
      if (!room.connection.isOpen || pending) return;
      pending = true;
      room.ping((ms) => {
        pending = false;
        // The first ping goes out while the connection is still being set up: not a round trip.
        if (this.pingCount++ === 0) return;
        this.pings.push(ms);
        if (this.pings.length > 5) this.pings.shift();
        this.rttMs = median(this.pings);
      });
    };
    if (o.fixedRttMs !== undefined) {
      this.rttMs = o.fixedRttMs;
      this.pings.push(o.fixedRttMs);
    } else {
      ping();
      this.pingTimer = setInterval(ping, 500);
    }
  }

  /**
   * A client for a room the caller joined itself (before the join state arrived: right after the
   * SDK's join call resolved). `o.endpoint` and `o.join` are not used.
   */
  static attach(room: Room<unknown, ArenaState>, o: PredictedClientOptions): PredictedClient {
    return new PredictedClient(room, o);
  }

  /** Joins (or creates) an arena room through `endpoint` and resolves once the join is confirmed. */
  static async connect(o: PredictedClientOptions): Promise<PredictedClient> {
    return new PredictedClient(await joinArenaRoom(o), o);
  }

  /**
   * The first tick the server cannot have run yet, as estimated at the last `update`: the local
   * stick applies to predicted ticks from this one on (a client lagging behind the server, e.g.
   * starved of CPU, predicts without it until it is ahead again).
   */
  get inputTick(): number {
    return this.firstInputTick;
  }

  /** The tick the replica is at (predicted), −1 before the join state. */
  get predictedTick(): number {
    return this.sim === undefined ? -1 : this.sim.physics.tick;
  }

  /**
   * The ticks the client aims to run ahead of the server's tick as last seen (the newest tick
   * message, corrected for the time since): the round trip, one tick, and the margin.
   */
  get leadTicks(): number {
    return Math.ceil(this.rttMs / TICK_MS) + 1 + (this.o.safetyTicks ?? 2) + this.extraSafety;
  }

  /** The local player's stick, −127 … 127 per axis (rounded, clamped): applied from the next predicted tick on. */
  setStick(dx: number, dz: number): void {
    this.stickDx = clampAxis(dx);
    this.stickDz = clampAxis(dz);
  }

  /**
   * Advances the prediction to where it should be at `now` (ms, the `now` option's clock, by default
   * `performance.now()`): the
   * server's current tick as estimated from the tick messages' arrivals, plus `leadTicks`. Steps at
   * most `maxStepsPerUpdate` (8) ticks per call and never more than depth − 2 ticks ahead of the
   * confirmed tick. Nothing is predicted before the first ping has measured the round trip. Call it
   * every frame (or every few ms).
   */
  update(now = this.now()): void {
    const sim = this.sim;
    if (sim === undefined || this.ring === undefined || this.clockCur === -Infinity || this.pings.length === 0) return;
    if (this.myEid === 0) this.readMyEid();
    if (now - this.lastLateAt > 5000 && this.extraSafety > 0) {
      this.extraSafety--;
      this.lastLateAt = now;
    }
    const server = Math.max(this.clockCur, this.clockPrev) + now / TICK_MS;
    this.firstInputTick = Math.floor(server) + 1;
    const target = Math.ceil(server + this.rttMs / TICK_MS) + 1 + (this.o.safetyTicks ?? 2) + this.extraSafety;
    const steps = this.o.maxStepsPerUpdate ?? MAX_STEPS_PER_UPDATE;
    for (let s = 0; s < steps; s++) {
      const t = sim.physics.tick;
      if (t >= target || t - this.confirmedTick >= this.depth - 2) break;
      this.predictOne(sim, t);
    }
  }

  /** Asks for the join state again (at most once per 30 ticks). */
  requestResync(): void {
    if (this.resyncAt >= 0 && this.serverTick - this.resyncAt < 30) return;
    this.resyncAt = this.serverTick;
    this.room.sendBytes(C_RESYNC, new Uint8Array(0));
  }

  /** Resolves when tick `tick` is confirmed; rejects after `timeoutMs`. */
  waitForConfirmed(tick: number, timeoutMs: number): Promise<void> {
    if (this.confirmedTick >= tick) return Promise.resolve();
    return new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`timed out waiting for confirmed tick ${tick} (at ${this.confirmedTick})`)), timeoutMs);
      this.waiters.push({ tick, resolve: () => { clearTimeout(timer); ok(); } });
    });
  }

  /** Leaves the room (consented); gives up waiting for the server's confirmation after 2 s. */
  async leave(): Promise<void> {
    clearInterval(this.pingTimer);
    if (!this.room.connection.isOpen) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.room.leave(true), new Promise((r) => { timer = setTimeout(r, 2000); })]);
    clearTimeout(timer);
  }

  // ---- Prediction ---------------------------------------------------------------------------

  private readMyEid(): void {
    const me = this.room.state?.players?.get(this.room.sessionId);
    if (me !== undefined && me.eid !== 0) this.myEid = me.eid;
  }

  /** Predicts tick t → t + 1: the own stick (recorded and sent for t), the others' last known inputs. */
  private predictOne(sim: Sim, t: number): void {
    // The own stick applies to every predicted tick the server cannot have run yet (ticks below, only
    // seen when catching up after a resync, are predicted without it): the key press acts at the
    // tick being predicted. An input that still arrives late is rejected by the server, and the
    // confirmed events then differ from the prediction: a rollback corrects it (`inputsLate`).
    if (this.myEid !== 0 && t >= this.firstInputTick) {
      const k = t % SLOTS;
      if (this.ownTick[k] !== t) {
        this.ownTick[k] = t;
        this.ownDx[k] = this.stickDx;
        this.ownDz[k] = this.stickDz;
        this.sendInput(t, this.stickDx, this.stickDz);
      }
    }
    this.applyPredicted(sim, t);
    sim.step();
    this.afterStep(sim);
    this.stats.predicted++;
    this.o.onPredicted?.(this, t + 1);
  }

  private applyPredicted(sim: Sim, t: number): void {
    const k = t % SLOTS;
    if (this.myEid !== 0 && this.ownTick[k] === t) steerPlayer(sim, this.myEid, this.ownDx[k], this.ownDz[k]);
    for (let i = 0; i < this.knownN; i++) steerPlayer(sim, this.knownEid[i], this.knownDx[i], this.knownDz[i]);
  }

  /** After every step: the hash of the new state (checked when its tick is confirmed) and a rollback frame. */
  private afterStep(sim: Sim): void {
    const t = sim.physics.tick;
    hashWords(sim.physics, this.hashes, 2 * (t % SLOTS));
    this.hashTick[t % SLOTS] = t;
    saveRollback(sim.physics, this.ring!);
  }

  private sendInput(t: number, dx: number, dz: number): void {
    this.inputView.setUint32(0, t, true);
    this.inputView.setInt8(4, dx);
    this.inputView.setInt8(5, dz);
    this.room.sendBytes(C_INPUT, this.inputBytes);
    this.bytes.sent += 6;
    this.stats.inputsSent++;
  }

  // ---- Messages -----------------------------------------------------------------------------

  private onJoinState(bytes: Uint8Array): void {
    this.bytes.join += bytes.byteLength;
    this.stats.joins++;
    const state = loadJoinState(bytes);
    const sim = state.sim;
    this.sim = sim;
    if (this.o.interpolation === true) enableInterpolation(sim.physics);
    this.ring = createRollbackRing(sim.physics, this.depth);
    this.confirmedTick = state.tick;
    if (this.joinTick < 0) this.joinTick = state.tick;
    this.knownN = 0;
    this.afterStep(sim);
    const k = 2 * (state.tick % SLOTS);
    if (this.hashes[k] === state.hashHi && this.hashes[k + 1] === state.hashLo) this.stats.joinsMatched++;
  }

  private onTickMessage(bytes: Uint8Array): void {
    const h = this.header;
    if (!readTickHeader(bytes, h)) return;
    this.bytes.ticks += bytes.byteLength;
    this.bytes.tickMessages++;
    this.serverTick = h.tick;
    const now = this.now();
    const sample = h.tick - now / TICK_MS;
    if (now - this.clockWindow > 1000) {
      this.clockPrev = this.clockCur;
      this.clockCur = sample;
      this.clockWindow = now;
    } else if (sample > this.clockCur) this.clockCur = sample;
    const sim = this.sim;
    if (sim !== undefined && h.tick > this.confirmedTick) {
      if (h.tick === this.confirmedTick + 1) this.confirm(sim, bytes);
      else this.mismatch(h.tick); // a gap: cannot happen on one ordered socket
    }
    if (this.waiters.length > 0) {
      const due = this.waiters.filter((w) => w.tick <= this.confirmedTick);
      this.waiters = this.waiters.filter((w) => w.tick > this.confirmedTick);
      for (const w of due) w.resolve();
    }
  }

  /** Confirms tick m = C + 1 from its message: keep the prediction, or roll back and re-simulate. */
  private confirm(sim: Sim, bytes: Uint8Array): void {
    const h = this.header;
    const m = h.tick, c = m - 1;
    const present = sim.physics.tick;
    const hadOwn = this.myEid !== 0 && this.ownTick[c % SLOTS] === c;
    if (hadOwn && !this.ownSteerIn(bytes, h.events, c)) {
      this.stats.inputsLate++;
      this.lastLateTick = c;
      if (this.extraSafety < 8) this.extraSafety++;
      this.lastLateAt = this.now();
    }
    let applied = true;
    if (present === c) {
      // Nothing predicted: follow.
      applied = applyTickEvents(sim, bytes, h.events);
      sim.step();
      this.afterStep(sim);
      this.learnInputs(bytes, h.events);
      this.stats.followed++;
    } else if (!this.matchesPrediction(bytes, h.events, c)) {
      const t0 = this.clock();
      restoreRollback(sim.physics, this.ring!, c);
      applied = applyTickEvents(sim, bytes, h.events);
      sim.step();
      this.afterStep(sim);
      this.learnInputs(bytes, h.events);
      for (let t = m; t < present; t++) {
        this.applyPredicted(sim, t);
        sim.step();
        this.afterStep(sim);
      }
      const s = this.stats;
      s.resimMs += this.clock() - t0;
      s.rollbacks++;
      s.resimulated += present - c;
      s.resimHistogram[present - c] = (s.resimHistogram[present - c] ?? 0) + 1;
    }
    this.confirmedTick = m;
    const k = m % SLOTS;
    const hi = this.hashes[2 * k], lo = this.hashes[2 * k + 1];
    const match = applied && this.hashTick[k] === m && hi === h.hashHi && lo === h.hashLo;
    const s = this.stats;
    s.checked++;
    if (s.firstChecked < 0) s.firstChecked = m;
    s.lastChecked = m;
    if (match) s.matched++;
    else if (s.mismatchTicks.length < 100) s.mismatchTicks.push(m);
    if (this.o.reportHashes !== false) {
      this.hashView.setUint32(0, m, true);
      this.hashView.setUint32(4, hi, true);
      this.hashView.setUint32(8, lo, true);
      this.room.sendBytes(C_HASH, this.hashBytes);
      this.bytes.sent += 12;
    }
    if (!match && this.o.autoResync !== false) this.requestResync();
    this.o.onConfirmed?.(this, m);
  }

  private mismatch(tick: number): void {
    const s = this.stats;
    s.checked++;
    if (s.mismatchTicks.length < 100) s.mismatchTicks.push(tick);
    if (this.o.autoResync !== false) this.requestResync();
  }

  /** Whether the confirmed events of tick c are exactly the predicted ones: steers only, the same set. */
  private matchesPrediction(bytes: Uint8Array, events: number, c: number): boolean {
    const hadOwn = this.myEid !== 0 && this.ownTick[c % SLOTS] === c;
    if (events !== this.knownN + (hadOwn ? 1 : 0)) return false;
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = TICK_HEADER;
    for (let i = 0; i < events; i++) {
      if (at + 7 > bytes.byteLength || v.getUint8(at) !== EV_STEER) return false;
      const eid = v.getUint32(at + 1, true), dx = v.getInt8(at + 5), dz = v.getInt8(at + 6);
      at += 7;
      if (eid === this.myEid) {
        if (!hadOwn || this.ownDx[c % SLOTS] !== dx || this.ownDz[c % SLOTS] !== dz) return false;
        continue;
      }
      let found = false;
      for (let j = 0; j < this.knownN && !found; j++) found = this.knownEid[j] === eid && this.knownDx[j] === dx && this.knownDz[j] === dz;
      if (!found) return false;
    }
    return true;
  }

  /** Whether the server applied my own input of tick c (a steer of my sphere with my stick). */
  private ownSteerIn(bytes: Uint8Array, events: number, c: number): boolean {
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = TICK_HEADER;
    for (let i = 0; i < events && at + 5 <= bytes.byteLength; i++) {
      const kind = v.getUint8(at);
      if (kind === EV_STEER && v.getUint32(at + 1, true) === this.myEid) {
        return v.getInt8(at + 5) === this.ownDx[c % SLOTS] && v.getInt8(at + 6) === this.ownDz[c % SLOTS];
      }
      at += kind === EV_STEER ? 7 : kind === EV_SPAWN ? 21 : 5;
    }
    return false;
  }

  /** The other players' last known inputs become their steers in these confirmed events. */
  private learnInputs(bytes: Uint8Array, events: number): void {
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = TICK_HEADER;
    this.knownN = 0;
    for (let i = 0; i < events && at + 5 <= bytes.byteLength; i++) {
      const kind = v.getUint8(at);
      if (kind === EV_STEER) {
        const eid = v.getUint32(at + 1, true);
        if (eid !== this.myEid && this.knownN < MAX_PLAYERS) {
          this.knownEid[this.knownN] = eid;
          this.knownDx[this.knownN] = v.getInt8(at + 5);
          this.knownDz[this.knownN] = v.getInt8(at + 6);
          this.knownN++;
        }
      }
      at += kind === EV_STEER ? 7 : kind === EV_SPAWN ? 21 : 5;
    }
  }
}

function clampAxis(a: number): number {
  const r = Math.round(a);
  return r > 127 ? 127 : r < -127 ? -127 : r | 0;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
