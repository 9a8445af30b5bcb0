/**
 * Sleep of dynamic bodies (docs/response.md, "Sleep"), with the `sleep` option of `createPhysics`
 * (off by default). A dynamic sphere whose speed at the end of a tick stays below `speed` (length
 * units per second) for `time` seconds falls asleep: its velocity becomes 0 and, while asleep, it gets
 * no gravity or damping, is not predicted, moved or swept by the response (an obstacle at rest for
 * the others, like a static body), and its contacts with static bodies, kinematic bodies at rest
 * and other sleepers are reported every tick as they were when it fell asleep (its contacts with
 * awake bodies are found by them). It wakes when
 * - an awake dynamic sphere hits it approaching faster than both `speed` and the rest speed (two
 *   ticks of gravity, 2 |g| dt): it then takes the impulse as a dynamic body;
 * - a moving body without Response (a kinematic body) is a broadphase candidate of it;
 * - the game writes its Position or Velocity through the helpers (`setPosition`, `setVelocity`) or
 *   bitecs `set()`, or gives it a non-zero Velocity directly, or calls `wakeBody`.
 * Its sleep state (the time it has been slow, whether asleep) is in snapshots and the state hash.
 * Box2D sleeps whole islands with the same two tolerances (`b2_linearSleepTolerance` 0.01 m/s in
 * v2.4, 0.05 m/s in v3; `b2_timeToSleep` 0.5 s): here each body sleeps on its own and a sleeping
 * neighbour is an obstacle, which is what lets a settled pile cost almost nothing.
 * @module
 */
import { WHOLE_TICK } from '../grid/cells.js';
import { createQueryOut, gridQuerySlice, type QueryOut } from '../grid/query.js';
import { growArray } from '../math/grow.js';
import { boxBounds } from '../physics/bodyReads.js';
import { checkLive, internalsOf } from '../physics/internal.js';
import { BodyFlags, ContactFlags, type Physics } from '../physics/physicsTypes.js';
import { recordContact } from './contactRecords.js';
import { isDynamic } from './isDynamic.js';
import { DYNAMIC, type ResponseState } from './responseState.js';

const { MOVING, SPHERE, BOX } = BodyFlags;

/** The sleep state of a physics instance (`internalsOf(physics).sleep`, null with sleep off). */
export interface SleepState {
  /** Speed below which a body counts as slow (length units per second). */
  speed: number;
  /** Seconds a body must stay slow to fall asleep. */
  time: number;
  /** Per entity: seconds it has been slow (reset by any faster tick and by waking). */
  slow: Float64Array;
  /** Per entity: 1 while asleep. */
  asleep: Uint8Array;
  /** Bodies asleep now (how many). */
  count: number;
  /** Scratch of `wakeByInput`: a kinematic body's swept bounds and the ids near it. */
  bounds: Float64Array;
  near: QueryOut;
  /**
   * The last tick's contacts with no awake dynamic body and at least one sleeper, re-reported each
   * tick while that holds (in `physics.contacts` order: pairs a < b as the list has them).
   */
  held: { count: number; a: Uint32Array; b: Uint32Array; f: Float64Array; flags: Uint8Array };
}

/** float64 slots of a held contact: nx ny nz depth px py pz toi (as the contact list's). */
export const HELD_SLOTS = 8;

/** Creates the sleep state for entity ids below `capacity`. */
export function createSleepState(speed: number, time: number, capacity: number): SleepState {
  const n = 64;
  return {
    speed, time,
    slow: new Float64Array(capacity),
    asleep: new Uint8Array(capacity),
    count: 0,
    bounds: new Float64Array(6),
    near: createQueryOut(),
    held: { count: 0, a: new Uint32Array(n), b: new Uint32Array(n), f: new Float64Array(HELD_SLOTS * n), flags: new Uint8Array(n) },
  };
}

/** Grows the per-entity arrays to `capacity`. */
export function growSleepState(s: SleepState, capacity: number): void {
  s.slow = growArray(s.slow, capacity);
  s.asleep = growArray(s.asleep, capacity);
}

/** Wakes `eid` (nothing when it is not asleep): it is a dynamic body again from the next prediction. */
export function wake(s: SleepState, eid: number): void {
  s.slow[eid] = 0;
  if (s.asleep[eid] === 0) return;
  s.asleep[eid] = 0;
  s.count--;
}

/**
 * Wakes sleeper `x` within the response of this tick: from now on (`s.clock[0]`, where it sleeps)
 * it is a dynamic body of this tick, with a fresh budget. For an impact on it (resolve.ts) and for
 * the end-of-tick projection moving a sphere into it (project.ts).
 */
export function wakeIntoTick(physics: Physics, sleep: SleepState, s: ResponseState, x: number): void {
  wake(sleep, x);
  s.state[x] = DYNAMIC;
  s.time[x] = s.clock[0];
  s.iterations[x] = 0;
  s.predictions[x] = 0;
  s.planeCount[x] = 0;
  s.version[x]++;
  const p = physics.components.Position;
  s.start[3 * x] = p.x[x];
  s.start[3 * x + 1] = p.y[x];
  s.start[3 * x + 2] = p.z[x];
  s.reach[x] = 0;
  s.bodies[s.bodyCount++] = x;
}

/** Whether `eid` is asleep (false with sleep off). */
export function isAsleep(physics: Physics, eid: number): boolean {
  checkLive(physics, 'isAsleep');
  const s = internalsOf(physics).sleep;
  return s !== null && s !== undefined && s.asleep[eid] === 1;
}

/**
 * At the start of the response: wakes the sleepers the game gave a non-zero velocity, and those
 * whose item in the dynamic grid meets the swept bounds of a moving body without Response (a
 * kinematic body) this tick: one grid query per moving kinematic body while some body sleeps.
 */
export function wakeByInput(physics: Physics, s: SleepState): void {
  if (s.count === 0) return;
  const internal = internalsOf(physics);
  const { flags, maxEid } = internal;
  const v = physics.components.Velocity;
  for (let eid = 1; eid <= maxEid; eid++) {
    if (s.asleep[eid] === 0) continue;
    if (!isDynamic(flags[eid]) || v.x[eid] !== 0 || v.y[eid] !== 0 || v.z[eid] !== 0) wake(s, eid);
  }
  if (s.count === 0) return;
  const grid = internal.broadphase.dynamicGrid;
  if (grid.count === 0) return;
  const p = physics.components.Position;
  const r = physics.components.Sphere.radius;
  const dt = physics.dt;
  const near = s.near;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & MOVING) === 0 || (f & (SPHERE | BOX)) === 0 || isDynamic(f)) continue;
    if (v.x[eid] === 0 && v.y[eid] === 0 && v.z[eid] === 0) continue;
    const b = s.bounds;
    if ((f & BOX) !== 0) boxBounds(physics, eid, f, true, b, 0);
    else {
      const mx = v.x[eid] * dt, my = v.y[eid] * dt, mz = v.z[eid] * dt, re = r[eid];
      b[0] = p.x[eid] + (mx < 0 ? mx : 0) - re;
      b[1] = p.y[eid] + (my < 0 ? my : 0) - re;
      b[2] = p.z[eid] + (mz < 0 ? mz : 0) - re;
      b[3] = p.x[eid] + (mx > 0 ? mx : 0) + re;
      b[4] = p.y[eid] + (my > 0 ? my : 0) + re;
      b[5] = p.z[eid] + (mz > 0 ? mz : 0) + re;
    }
    near.count = 0;
    gridQuerySlice(grid, near, b, 0, WHOLE_TICK);
    for (let k = 0; k < near.count; k++) if (s.asleep[near.ids[k]] === 1) wake(s, near.ids[k]);
  }
}

/**
 * At the end of the response: counts the slow time of every awake dynamic body (speed at the end of
 * the tick below `s.speed`) and puts to sleep those slow for `s.time` seconds (velocity set to 0).
 */
export function updateSleep(physics: Physics, s: SleepState): void {
  const { flags, maxEid } = internalsOf(physics);
  const v = physics.components.Velocity;
  const dt = physics.dt;
  const limit = s.speed * s.speed;
  // A sleeper's jam mark (resolve.ts `stopJammed`) is cleared: it wakes with none.
  const jam = internalsOf(physics).response!.jam;
  for (let eid = 1; eid <= maxEid; eid++) {
    if (s.asleep[eid] === 1 || !isDynamic(flags[eid])) continue;
    const vx = v.x[eid], vy = v.y[eid], vz = v.z[eid];
    if (!(vx * vx + vy * vy + vz * vz < limit)) {
      s.slow[eid] = 0;
      continue;
    }
    s.slow[eid] += dt;
    if (s.slow[eid] < s.time) continue;
    s.asleep[eid] = 1;
    s.count++;
    v.x[eid] = v.y[eid] = v.z[eid] = 0;
    jam[eid] = 0;
  }
}

/**
 * Whether `e` does not move: asleep, without Velocity, or a kinematic body at rest (velocity 0: a
 * ball asleep on a stopped platform, or left in a box that squeezed it, keeps its contact).
 */
function still(physics: Physics, s: SleepState, e: number): boolean {
  const f = internalsOf(physics).flags[e];
  if (s.asleep[e] === 1 || (f & MOVING) === 0) return true;
  const v = physics.components.Velocity;
  return !isDynamic(f) && v.x[e] === 0 && v.y[e] === 0 && v.z[e] === 0;
}

/**
 * Records the held contacts that still hold (a sleeper, nothing moving, both still bodies) as
 * contacts of this tick (contactRecords.ts), after the predictions (a pair an awake body touched is
 * recorded first by it).
 */
export function recordHeld(physics: Physics, s: SleepState, r: ResponseState): void {
  const held = s.held;
  const { flags, purgeMark } = internalsOf(physics);
  const rec = r.recIn;
  for (let k = 0; k < held.count; k++) {
    const a = held.a[k], b = held.b[k];
    if ((s.asleep[a] === 0 && s.asleep[b] === 0) || !still(physics, s, a) || !still(physics, s, b)) continue;
    if ((flags[a] & (SPHERE | BOX)) === 0 || (flags[b] & (SPHERE | BOX)) === 0 || purgeMark[a] !== 0 || purgeMark[b] !== 0) continue;
    for (let j = 0; j < HELD_SLOTS; j++) rec[j] = held.f[HELD_SLOTS * k + j];
    recordContact(r, a, b, (flags[b] & SPHERE) !== 0, held.flags[k] & ContactFlags.SENSOR);
  }
}

/**
 * After the contact list is complete: keeps (in `s.held`) the contacts that have a sleeper and no
 * awake dynamic or moving body, to report them again while that holds. Called at the end of the
 * response and after a snapshot restore.
 */
export function holdSleeperContacts(physics: Physics, s: SleepState): void {
  const held = s.held;
  held.count = 0;
  if (s.count === 0) return;
  const list = physics.contacts;
  for (let i = 0; i < list.count; i++) {
    const a = list.a[i], b = list.b[i];
    if ((s.asleep[a] === 0 && s.asleep[b] === 0) || !still(physics, s, a) || !still(physics, s, b)) continue;
    if (held.count === held.a.length) {
      const cap = 2 * held.a.length;
      held.a = growArray(held.a, cap);
      held.b = growArray(held.b, cap);
      held.f = growArray(held.f, HELD_SLOTS * cap);
      held.flags = growArray(held.flags, cap);
    }
    const k = held.count++;
    held.a[k] = a;
    held.b[k] = b;
    held.flags[k] = list.flags[i];
    const o = HELD_SLOTS * k;
    held.f[o] = list.nx[i];
    held.f[o + 1] = list.ny[i];
    held.f[o + 2] = list.nz[i];
    held.f[o + 3] = list.depth[i];
    held.f[o + 4] = list.px[i];
    held.f[o + 5] = list.py[i];
    held.f[o + 6] = list.pz[i];
    held.f[o + 7] = list.toi[i];
  }
}

/**
 * After a snapshot restore wrote `slow` and `asleep` of the bodies with Response: clears them on every
 * other entity, counts the sleepers and takes the held contacts from the restored contact list.
 */
export function restoreSleep(physics: Physics, s: SleepState): void {
  const { flags, maxEid } = internalsOf(physics);
  let n = 0;
  for (let eid = 1; eid < s.asleep.length; eid++) {
    if (eid > maxEid || (flags[eid] & BodyFlags.RESPONSE) === 0) {
      s.asleep[eid] = 0;
      s.slow[eid] = 0;
    } else if (s.asleep[eid] !== 0) {
      s.asleep[eid] = 1;
      n++;
    }
  }
  s.count = n;
  holdSleeperContacts(physics, s);
}
