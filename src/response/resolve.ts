/**
 * Collision response of one tick, event-driven (see docs/response.md): every dynamic sphere (Position,
 * Sphere, Velocity and Response) has a local time in [0, 1] (a fraction of the tick) and its pose at
 * that time; its earliest impact on its remaining path is predicted (predict.ts) and queued; impacts
 * are processed in order of time (heap.ts: ties by lower id, then higher id), each reaction
 * (react.ts) bumps the version of the bodies it changed, which are predicted again from the impact
 * time; a queued prediction whose bodies changed since is stale and skipped (or, when only the
 * partner changed, the owner is predicted again). A body stops reacting after `maxIterations`
 * impacts: it stays at its last impact for the rest of the tick (leftover motion dropped), an
 * obstacle at rest for the others. At the end every other body moves on to the end of the tick.
 *
 * The contacts of dynamic bodies are those of the path taken (records.ts), merged into
 * `physics.contacts`. Runs inside the narrowphase, after the other pairs were tested.
 * @module
 */
import { ResponseMode } from '../../components/index.js';
import { WHOLE_TICK } from '../grid/cells.js';
import { gridQuerySlice } from '../grid/query.js';
import { SW_MX, SW_R, SW_X, SWEEP_SLOTS, sweptSphereBounds } from '../physics/bodyReads.js';
import { PhysicsInputError } from '../physics/errors.js';
import { contactListCreate } from '../physics/idLists.js';
import { internalsOf } from '../physics/internal.js';
import { BodyFlags, ContactFlags, type ContactList, type Physics } from '../physics/physicsTypes.js';
import { heapPop } from './eventQueue.js';
import { COLLECT, predict } from './predict.js';
import { solveContacts } from './solver.js';
import { C_REST, CONFIG, reactObstacle, reactPair } from './react.js';
import { clearRecords, mergeRecords, recordContact, REC_IN, RI_DEPTH, RI_NX, RI_PX, RI_TOI } from './contactRecords.js';
import { DYNAMIC, FROZEN, R_BODIES, R_EVENTS, R_FROZEN, R_IMPACTS, responseReserveBodies, responseStateCreate, type ResponseState } from './responseState.js';

const { SPHERE, BOX, MOVING, RESPONSE, SENSOR } = BodyFlags;
/** Flags of a dynamic body (and no BOX). */
export const DYNAMIC_FLAGS = SPHERE | MOVING | RESPONSE;

/** Whether body flags `f` make a dynamic body. */
export function isDynamic(f: number): boolean {
  return (f & (DYNAMIC_FLAGS | BOX)) === DYNAMIC_FLAGS;
}

/** The current event time (a typed slot: no boxed number between functions). */
const clock = new Float64Array(1);
/** Bounds of a frozen body's neighbourhood query. */
const nearBounds = new Float64Array(6);
/** Input of `sweptSphereBounds` for that query (slots `SW_*`). */
const SWEEP = new Float64Array(SWEEP_SLOTS);
/** Obstacle velocity at the current event. */
const w = new Float64Array(3);

/** Scratch contact list for the merge (one per process: the merge does not nest). */
let mergeBase: ContactList | null = null;

/** The response buffers of `physics`, created at first use. */
export function responseOf(physics: Physics): ResponseState {
  const internal = internalsOf(physics);
  if (internal.response === null) internal.response = responseStateCreate(internal.capacity);
  return internal.response;
}

function badResponse(eid: number, field: string, value: number, what: string): never {
  throw new PhysicsInputError({ eid, field: `Response.${field}`, problem: `${what}, got ${value}` });
}

/** Checks a dynamic body's Response fields (with `validate`). */
function validateResponse(physics: Physics, eid: number): void {
  const r = physics.components.Response;
  const mode = r.mode[eid], e = r.restitution[eid], m = r.mass[eid];
  if (mode > ResponseMode.BOUNCE) badResponse(eid, 'mode', mode, 'must be ResponseMode.STOP, SLIDE or BOUNCE (0, 1, 2)');
  if (!(e >= 0 && e <= 1)) badResponse(eid, 'restitution', e, 'must be a number in [0, 1]');
  if (!(m >= 0 && m !== Infinity)) badResponse(eid, 'mass', m, 'must be a finite number >= 0 (0: proportional to radius³)');
}

/**
 * Adds gravity × dt to the velocity of every dynamic body (the start of a tick: semi-implicit Euler).
 * Called before the broadphase, so that swept bounds cover the accelerated motion.
 */
export function applyGravity(physics: Physics): void {
  const internal = internalsOf(physics);
  // Integer tests only: this runs once per tick, maybe before V8 optimises it, and a double read
  // from a typed array by unoptimised code makes a heap number.
  if (internal.responseCount === 0 || internal.gravityOn === 0) return;
  const g = internal.gravity;
  const { flags, maxEid } = internal;
  const v = physics.components.Velocity;
  const dt = physics.dt;
  const gx = g[0] * dt, gy = g[1] * dt, gz = g[2] * dt;
  for (let eid = 1; eid <= maxEid; eid++) {
    if (!isDynamic(flags[eid])) continue;
    v.x[eid] += gx;
    v.y[eid] += gy;
    v.z[eid] += gz;
  }
}

/** Moves `a` along its velocity to time `clock[0]` (frozen bodies stay). */
function advance(physics: Physics, s: ResponseState, a: number): void {
  if (s.state[a] !== DYNAMIC) return;
  const t = clock[0];
  const k = (t - s.time[a]) * physics.dt;
  s.time[a] = t;
  if (k === 0) return;
  const { Position: p, Velocity: v } = physics.components;
  p.x[a] += v.x[a] * k;
  p.y[a] += v.y[a] * k;
  p.z[a] += v.z[a] * k;
}

/**
 * Predicts again the dynamic bodies whose paths may reach `a`, which just froze (stopped for the rest
 * of the tick): their predictions assumed it moving on. Their grid items cover their whole paths.
 */
function wakeNeighbours(physics: Physics, s: ResponseState, a: number): void {
  const internal = internalsOf(physics);
  const grid = internal.dynamicGrid;
  if (grid.count === 0) return;
  const p = physics.components.Position;
  SWEEP[SW_X] = p.x[a];
  SWEEP[SW_X + 1] = p.y[a];
  SWEEP[SW_X + 2] = p.z[a];
  SWEEP[SW_R] = physics.components.Sphere.radius[a];
  SWEEP[SW_MX] = SWEEP[SW_MX + 1] = SWEEP[SW_MX + 2] = 0;
  sweptSphereBounds(SWEEP, nearBounds);
  const near = s.near;
  near.count = 0;
  gridQuerySlice(grid, near, nearBounds, 0, WHOLE_TICK);
  for (let k = 0; k < near.count; k++) {
    const b = near.ids[k];
    if (b === a || s.state[b] !== DYNAMIC) continue;
    advance(physics, s, b);
    s.version[b]++;
    predict(physics, s, b, clock);
  }
}

/** Marks `a` changed by an impact: new version, one more iteration, frozen at the cap; predicts it again. */
function changed(physics: Physics, s: ResponseState, a: number): void {
  s.version[a]++;
  s.work[R_IMPACTS]++;
  if (++s.iterations[a] >= internalsOf(physics).maxIterations) {
    s.state[a] = FROZEN;
    s.work[R_FROZEN]++;
    wakeNeighbours(physics, s, a);
    return;
  }
  predict(physics, s, a, clock);
}

/** Records event `e` (owner a, partner x) as the pair's contact at its time. */
function recordEvent(physics: Physics, s: ResponseState, e: number, a: number, x: number, flags: number): void {
  for (let k = 0; k < 3; k++) {
    REC_IN[RI_NX + k] = s.evN[3 * e + k];
    REC_IN[RI_PX + k] = s.evP[3 * e + k];
  }
  REC_IN[RI_DEPTH] = 0;
  REC_IN[RI_TOI] = s.evTime[e];
  recordContact(s, a, x, (internalsOf(physics).flags[x] & SPHERE) !== 0, flags);
}

/** Processes event `e`. */
function processEvent(physics: Physics, s: ResponseState, e: number): void {
  const a = s.evA[e];
  const x = s.evB[e];
  if (s.version[a] !== s.evVa[e] || s.state[a] !== DYNAMIC) return;
  clock[0] = s.evTime[e];
  advance(physics, s, a);
  const xState = s.state[x];
  if (xState !== 0 && s.version[x] !== s.evVb[e]) {
    predict(physics, s, a, clock);
    return;
  }
  const flags = internalsOf(physics).flags;
  if (((flags[a] | flags[x]) & SENSOR) !== 0) {
    recordEvent(physics, s, e, a, x, ContactFlags.SENSOR);
    predict(physics, s, a, clock);
    return;
  }
  recordEvent(physics, s, e, a, x, 0);
  if (xState === DYNAMIC) {
    advance(physics, s, x);
    reactPair(physics, s, a, x, e);
    changed(physics, s, a);
    changed(physics, s, x);
    return;
  }
  const v = physics.components.Velocity;
  const moving = xState === 0 && (flags[x] & MOVING) !== 0;
  w[0] = moving ? v.x[x] : 0;
  w[1] = moving ? v.y[x] : 0;
  w[2] = moving ? v.z[x] : 0;
  reactObstacle(physics, s, a, e, w);
  changed(physics, s, a);
}

/** Lists this tick's dynamic bodies and resets their per-tick state. */
function collectBodies(physics: Physics, s: ResponseState): void {
  const internal = internalsOf(physics);
  const { flags, maxEid } = internal;
  for (let i = 0; i < s.bodyCount; i++) s.state[s.bodies[i]] = 0;
  responseReserveBodies(s, maxEid);
  let n = 0;
  for (let eid = 1; eid <= maxEid; eid++) {
    if (!isDynamic(flags[eid])) continue;
    if (physics.validate) validateResponse(physics, eid);
    s.bodies[n++] = eid;
    s.state[eid] = DYNAMIC;
    s.time[eid] = 0;
    s.iterations[eid] = 0;
    s.planeCount[eid] = 0;
    s.version[eid]++;
  }
  s.bodyCount = n;
}

/**
 * Resolves this tick's motion of the dynamic bodies: moves them to the end of the tick with their
 * impacts, and merges their contacts into `physics.contacts` (which holds the other pairs' contacts).
 */
export function resolveResponse(physics: Physics): void {
  const internal = internalsOf(physics);
  const s = responseOf(physics);
  const g = internal.gravity;
  CONFIG[C_REST] = 2 * Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * physics.dt;
  s.work.fill(0);
  s.evCount = 0;
  s.heapSize = 0;
  clearRecords(s);
  collectBodies(physics, s);
  s.work[R_BODIES] = s.bodyCount;
  clock[0] = 0;
  s.conCount = 0;
  COLLECT[0] = 1;
  for (let i = 0; i < s.bodyCount; i++) predict(physics, s, s.bodies[i], clock);
  COLLECT[0] = 0;
  if (solveContacts(physics, s)) {
    for (let i = 0; i < s.bodyCount; i++) {
      const a = s.bodies[i];
      if (s.solved[a] === 0) continue;
      s.solved[a] = 0;
      s.version[a]++;
      predict(physics, s, a, clock);
    }
  }
  for (let e = heapPop(s); e >= 0; e = heapPop(s)) {
    s.work[R_EVENTS]++;
    processEvent(physics, s, e);
  }
  clock[0] = 1;
  for (let i = 0; i < s.bodyCount; i++) advance(physics, s, s.bodies[i]);
  if (mergeBase === null) mergeBase = contactListCreate();
  mergeRecords(s, physics.contacts, mergeBase);
}

