/**
 * What one server process lets its rooms do: how large a room may be, how many rooms it takes on,
 * and how much of the process's time each room's ticks may use. One `ProcessBudget` per process
 * (startServer makes it; the rooms get it from the server's `define`, never from a client).
 *
 * - Room size is the server's decision: a client's `bodies` is accepted only up to `maxBodies`
 *   (default 2,000); a request above it is refused with an error, not silently trimmed.
 * - Admission by measured tick cost: a room is admitted only when the measured cost of the live
 *   rooms' ticks (per room the larger of its running mean and its estimate; the mean once the room
 *   has run 20 ticks, its first 10 cold ticks left out) plus the new room's
 *   estimate fits `tickBudgetMs` (default 10 ms of every 16.7 ms tick period, leaving room for I/O
 *   and the rest of the event loop). The estimate is the room's bodies times the cost per body
 *   measured on this process once at start (`calibrate`, a scene stepped for a few ticks). Otherwise creating the room fails with
 *   "cannot run it at 60 Hz".
 * - No room's overrun starves another's ticks: each room has a CPU allowance per tick period, the
 *   larger of 1.5 × its admitted estimate and an equal share of the budget; its ticks are charged
 *   against it (a token bucket refilled with wall time, at most 4 periods of credit). A room in
 *   debt skips the ticks that come due (its fixed stepper drops that time: the room runs slower,
 *   its clients stay in sync), and logs it once per second. The rooms share one Node thread, so a
 *   single tick still blocks the others while it runs: the body cap keeps that tick short, and the
 *   others catch up (up to 8 ticks at once: the rooms' fixed steppers) after it.
 *
 * Times are wall-clock milliseconds (performance.now): what the process can deliver on this
 * machine under its current load.
 */
import { performance } from 'node:perf_hooks';
import { createSceneSim, TICK_RATE } from './sim.js';

export const TICK_PERIOD_MS = 1000 / TICK_RATE;

export interface LimitsOptions {
  /** Largest room a client may ask for, in scene bodies (default 2,000; at least 8). */
  maxBodies?: number;
  /** Milliseconds of tick work per 16.7 ms tick period that all rooms together may take (default 10). */
  tickBudgetMs?: number;
  /** Cost per body per tick in ms, instead of calibrating (tests). */
  msPerBody?: number;
}

/** One admitted room's account. */
export interface RoomAccount {
  readonly bodies: number;
  /** Admitted estimate of one tick, ms. */
  estimateMs: number;
  /** Running mean of its measured ticks after the first 10 (ms; 0 until then). */
  meanMs: number;
  ticks: number;
  /** Credit in ms (negative: in debt, ticks are skipped), and when it was last refilled. */
  balance: number;
  refilledAt: number;
  /** Ticks skipped for debt since the last report, and all of them. */
  skippedWindow: number;
  skipped: number;
}

/** Why a room was refused (the error's message names the figures). */
export class AdmissionError extends Error {
  override name = 'AdmissionError';
}

const DEFAULT_MAX_BODIES = 2000;
const DEFAULT_BUDGET_MS = 10;
/** Weight of a new measurement in the running means. */
const EWMA = 0.1;
const BURST_PERIODS = 4;
/**
 * A room's first ticks run cold (the JIT compiling the step for this scene: 10–20 ms each on a new
 * process), so its measured mean starts after them; until then it counts for its estimate.
 */
const WARM_TICKS = 10;

export class ProcessBudget {
  readonly maxBodies: number;
  readonly tickBudgetMs: number;
  /** Cost per body per tick (ms): measured by `calibrate` on this process, or given. */
  msPerBody: number;
  readonly rooms = new Set<RoomAccount>();

  constructor(o: LimitsOptions = {}) {
    this.maxBodies = Math.max(8, Math.floor(o.maxBodies ?? DEFAULT_MAX_BODIES));
    this.tickBudgetMs = o.tickBudgetMs ?? DEFAULT_BUDGET_MS;
    if (!(this.tickBudgetMs > 0)) throw new RangeError(`tickBudgetMs must be > 0, got ${o.tickBudgetMs}`);
    this.msPerBody = o.msPerBody ?? 0;
  }

  /**
   * Measures the cost per body on this process if not given: a scene of `bodies` stepped `ticks`
   * times after a warm-up, the median tick taken. Call once before serving (it blocks while it runs:
   * about `ticks` + 30 ticks of that scene).
   */
  calibrate(bodies = 1000, ticks = 60): void {
    if (this.msPerBody > 0) return;
    const sim = createSceneSim({ bodies, seed: 1 });
    for (let i = 0; i < 30; i++) sim.step();
    const ms: number[] = [];
    for (let i = 0; i < ticks; i++) {
      const t0 = performance.now();
      sim.step();
      ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    this.msPerBody = Math.max(ms[ms.length >> 1], 1e-3) / bodies;
  }

  /** The estimated cost of one tick of a room of `bodies` (ms). */
  estimate(bodies: number): number {
    return this.msPerBody * bodies;
  }

  /** Tick cost the live rooms are counted for (ms per tick period). */
  committedMs(): number {
    let sum = 0;
    for (const r of this.rooms) sum += r.ticks > 2 * WARM_TICKS ? Math.max(r.meanMs, r.estimateMs) : r.estimateMs;
    return sum;
  }

  /**
   * Validates a client's `bodies` (an integer in 8 … maxBodies, or undefined for `fallback`) and
   * admits a room of that size: returns its account, or throws AdmissionError saying why not.
   */
  admit(requested: unknown, fallback: number): RoomAccount {
    const bodies = requested === undefined ? Math.min(fallback, this.maxBodies) : requested;
    if (typeof bodies !== 'number' || !Number.isInteger(bodies) || bodies < 8 || bodies > this.maxBodies) {
      throw new AdmissionError(`bodies must be an integer in 8 … ${this.maxBodies} (this server's limit), got ${JSON.stringify(requested)}`);
    }
    const estimateMs = this.estimate(bodies);
    const committed = this.committedMs();
    if (committed + estimateMs > this.tickBudgetMs) {
      throw new AdmissionError(
        `this process cannot run it at 60 Hz: its rooms take ${committed.toFixed(2)} ms per tick and a room of ${bodies} bodies ` +
        `about ${estimateMs.toFixed(2)} ms more, over the budget of ${this.tickBudgetMs} ms per ${TICK_PERIOD_MS.toFixed(1)} ms tick`,
      );
    }
    const account: RoomAccount = { bodies, estimateMs, meanMs: 0, ticks: 0, balance: 0, refilledAt: performance.now(), skippedWindow: 0, skipped: 0 };
    this.rooms.add(account);
    account.balance = Math.min(this.allowance(account), Number.MAX_VALUE);
    return account;
  }

  release(account: RoomAccount): void {
    this.rooms.delete(account);
  }

  /** A room's allowance per tick period (ms): 1.5 × its estimate, or an equal share of the budget if larger. */
  allowance(account: RoomAccount): number {
    return Math.max(1.5 * account.estimateMs, this.tickBudgetMs / Math.max(1, this.rooms.size));
  }

  /** Whether the room may run a tick now (refills its credit first); false counts a skipped tick. */
  mayTick(account: RoomAccount): boolean {
    const now = performance.now();
    const allowance = this.allowance(account);
    if (!(allowance < Infinity)) return true; // no budget (tickBudgetMs: Infinity)
    account.balance = Math.min(BURST_PERIODS * allowance, account.balance + ((now - account.refilledAt) / TICK_PERIOD_MS) * allowance);
    account.refilledAt = now;
    if (account.balance >= 0) return true;
    account.skipped++;
    account.skippedWindow++;
    return false;
  }

  /**
   * Charges a tick of `ms` to the room and updates its measured mean. (The cost per body stays the
   * calibrated one: a room whose ticks cost far more than its size says is an exception, not a
   * measure of what the next room's bodies cost.)
   */
  charge(account: RoomAccount, ms: number): void {
    account.balance -= ms;
    account.ticks++;
    // Cold ticks are left out of the mean: they say nothing about the room's cost once running.
    if (account.ticks <= WARM_TICKS) return;
    account.meanMs = account.ticks === WARM_TICKS + 1 ? ms : account.meanMs + EWMA * (ms - account.meanMs);
  }
}
