/**
 * Collision response of one tick, event-driven (see docs/response.md): every dynamic sphere (Position,
 * Sphere, Velocity and Response) has a local time in [0, 1] (a fraction of the tick) and its pose at
 * that time; its earliest impact on its remaining path is predicted (predict.ts) and queued; impacts
 * are processed in order of time (eventQueue.ts: ties by lower id, then higher id), each reaction
 * (react.ts) bumps the version of the bodies it changed, which are predicted again from the impact
 * time; a queued prediction whose bodies changed since is stale and skipped (or, when only the
 * partner changed, the owner is predicted again). A body stops reacting after `maxIterations`
 * impacts: it stays at its last impact for the rest of the tick (leftover motion dropped), an
 * obstacle at rest for the casts of the others (with gravity, one that moved no farther than the rest
 * skin in this tick and the previous one ends the tick at rest: `stopJammed`, with the jam mark of
 * jam.ts, after the end-of-tick projection); a body that meets it is met as `processEvent` says. At
 * the end every other body moves on to the end of the tick.
 *
 * The contacts of dynamic bodies are those of the path taken (contactRecords.ts), merged into
 * `physics.contacts`, which holds the narrowphase's contacts of the other pairs.
 * A stage of the tick (src/step/step.ts), after the narrowphase (testPairs) and before the contact
 * diff. Its state is the instance's `ResponseState` (responseState.ts); nothing is kept in modules.
 * @module
 */
import { internalsOf } from '../physics/internal.js';
import { BodyFlags, ContactFlags, type Physics } from '../physics/physicsTypes.js';
import { heapPop } from './eventQueue.js';
import { isDynamic } from './isDynamic.js';
import { predict, predictionCap, PUSH_EPS, recordNearHeld, REST_SKIN } from './predict.js';
import { holdSleeperContacts, recordHeld, updateSleep, wakeByInput, wakeIntoTick } from './sleep.js';
import { solveContacts } from './solver.js';
import { approaches, reactObstacle, reactPair } from './react.js';
import { clearRecords, mergeRecords, recordContact, RI_DEPTH, RI_NX, RI_PX, RI_TOI } from './contactRecords.js';
import { WHOLE_TICK } from '../grid/cells.js';
import { gridQuerySlice } from '../grid/query.js';
import { SW_MX, SW_R, SW_X, SWEEP_SLOTS, sweptSphereBounds } from '../physics/bodyReads.js';
import { project } from './project.js';
import { buildPaths, trackPath } from './paths.js';
import { capBody, listSuspect } from './suspects.js';
import { CAPPED, DYNAMIC, R_BODIES, R_EVENTS, R_IMPACTS, responseReserveBodies, createResponseState, type ResponseState } from './responseState.js';

const { SPHERE, MOVING, SENSOR } = BodyFlags;

/** The response state of `physics`, created at first use. */
export function responseOf(physics: Physics): ResponseState {
  const internal = internalsOf(physics);
  if (internal.response === null) internal.response = createResponseState(internal.capacity);
  return internal.response;
}

/** Moves `a` along its velocity to the current time `s.clock[0]` (a capped body stays where it is). */
function advance(physics: Physics, s: ResponseState, a: number): void {
  const t = s.clock[0];
  const k = (t - s.time[a]) * physics.dt;
  s.time[a] = t;
  if (k === 0 || s.state[a] === CAPPED) return;
  const { Position: p, Velocity: v } = physics.components;
  p.x[a] += v.x[a] * k;
  p.y[a] += v.y[a] * k;
  p.z[a] += v.z[a] * k;
}

/** Bounds of a capped body's neighbourhood query (per-call scratch). */
const nearBounds = new Float64Array(6);
/** Input of `sweptSphereBounds` for that query (per-call scratch, slots `SW_*`). */
const SWEEP = new Float64Array(SWEEP_SLOTS);

/**
 * Predicts again the dynamic bodies whose paths may reach capped body `a`, which stays where it is
 * for the rest of the tick: their predictions assumed it moving on. Each such prediction counts
 * toward that body's prediction cap (predict.ts), so the work stays bounded whatever happens.
 */
function wakeNeighbours(physics: Physics, s: ResponseState, a: number): void {
  const grid = s.dynamicGrid!;
  if (grid.count === 0) return;
  const p = physics.components.Position;
  SWEEP[SW_X] = p.x[a];
  SWEEP[SW_X + 1] = p.y[a];
  SWEEP[SW_X + 2] = p.z[a];
  SWEEP[SW_R] = physics.components.Sphere.radius[a];
  SWEEP[SW_MX] = SWEEP[SW_MX + 1] = SWEEP[SW_MX + 2] = 0;
  sweptSphereBounds(SWEEP, nearBounds);
  const near = s.wake;
  near.count = 0;
  gridQuerySlice(grid, near, nearBounds, 0, WHOLE_TICK);
  const { Velocity: v, Sphere: sp } = physics.components;
  const now = s.clock[0], dt = physics.dt;
  for (let k = 0; k < near.count; k++) {
    const b = near.ids[k];
    if (b === a || s.state[b] !== DYNAMIC) continue;
    // Only a body whose remaining path's bounds meet a's (the grid's items are the larger balls of
    // the bodies' start-of-tick reach): so a wake costs a few comparisons per body it passes over.
    const lag = (now - s.time[b]) * dt, rest = (1 - now) * dt, h = sp.radius[b] + nearBounds[3] - p.x[a];
    if (!pathMeets(p.x[b] + v.x[b] * lag, v.x[b] * rest, h, p.x[a]) || !pathMeets(p.y[b] + v.y[b] * lag, v.y[b] * rest, h, p.y[a]) ||
      !pathMeets(p.z[b] + v.z[b] * lag, v.z[b] * rest, h, p.z[a])) continue;
    advance(physics, s, b);
    s.version[b]++;
    predict(physics, s, b);
  }
}

/** Whether the interval from `x0` to `x0 + m`, grown by `h`, contains `c`. */
function pathMeets(x0: number, m: number, h: number, c: number): boolean {
  const lo = m < 0 ? x0 + m : x0, hi = m < 0 ? x0 : x0 + m;
  return c >= lo - h && c <= hi + h;
}

/** Wakes the neighbours of the bodies capped since the last call, in that order. */
function drainWakes(physics: Physics, s: ResponseState): void {
  for (let i = 0; i < s.wakeCount; i++) wakeNeighbours(physics, s, s.wakeList[i]);
  s.wakeCount = 0;
}

/**
 * Lists `a` for the end-of-tick projection when its pose is outside its dynamic-grid item (the cube
 * of half side radius + reach about its start): the other bodies' queries may not have found it.
 */
function checkReach(physics: Physics, s: ResponseState, a: number): void {
  if (s.suspect[a] !== 0) return;
  const p = physics.components.Position;
  const r = s.reach[a];
  const dx = p.x[a] - s.start[3 * a], dy = p.y[a] - s.start[3 * a + 1], dz = p.z[a] - s.start[3 * a + 2];
  if ((dx < 0 ? -dx : dx) > r || (dy < 0 ? -dy : dy) > r || (dz < 0 ? -dz : dz) > r) listSuspect(s, a);
}

/**
 * Marks `a` changed by an impact: new version, one more iteration, capped at `maxIterations`
 * (`capBody`); predicts it again. A capped body is not predicted: it goes on along its new velocity.
 */
function changed(physics: Physics, s: ResponseState, a: number): void {
  s.version[a]++;
  s.work[R_IMPACTS]++;
  checkReach(physics, s, a);
  if (s.state[a] === CAPPED) return;
  if (++s.iterations[a] >= internalsOf(physics).maxIterations) {
    capBody(s, a);
    trackPath(physics, s, a);
    return;
  }
  predict(physics, s, a);
}

/** Records event `e` (owner a, partner x) as the pair's contact at its time. */
function recordEvent(physics: Physics, s: ResponseState, e: number, a: number, x: number, flags: number): void {
  const rec = s.recIn;
  for (let k = 0; k < 3; k++) {
    rec[RI_NX + k] = s.evN[3 * e + k];
    rec[RI_PX + k] = s.evP[3 * e + k];
  }
  rec[RI_DEPTH] = 0;
  rec[RI_TOI] = s.evTime[e];
  recordContact(s, a, x, (internalsOf(physics).flags[x] & SPHERE) !== 0, flags);
}

/**
 * Wakes sleeper `x` when `a` hits it (event `e`) approaching faster than the sleep speed and the rest
 * speed: from now on it is a dynamic body of this tick (at the current time, where it sleeps).
 */
function wakeHit(physics: Physics, s: ResponseState, e: number, a: number, x: number): void {
  const sleep = internalsOf(physics).sleep!;
  if (sleep.asleep[x] === 0) return;
  const v = physics.components.Velocity;
  const o = 3 * e;
  const un = v.x[a] * s.evN[o] + v.y[a] * s.evN[o + 1] + v.z[a] * s.evN[o + 2];
  if (!(-un >= sleep.speed && -un >= s.rest[0])) return;
  wakeIntoTick(physics, sleep, s, x);
}

/**
 * With gravity, ends the tick at rest (velocity 0) every capped body that moved no farther than the
 * rest skin from its start-of-tick pose (REST_SKIN × radius + PUSH_EPS × the pose's scale, as
 * `withinSkin` in predict.ts) in this tick and was jammed so at the previous tick too (its mark
 * `s.jam`, carried across ticks): a body jammed in a resting pile, whose resting contacts use up its
 * budget where it stands tick after tick. The velocity it kept (gravity and the impulses of the
 * bodies resting on it, which its contacts could no longer answer) is not one it had; kept, it came
 * back tick after tick and the body never came to rest (docs/response.md, "The budget and the
 * fallback"). A body capped without moving in one tick only keeps its velocity: it may be passing an
 * impulse on (a rack's break, a launch from the bottom of a column), whose momentum stopping it
 * would throw away. Marks every body jammed this tick (1) for the next one. Capped bodies are all
 * suspects (suspects.ts), so this reads the suspects only (after the projection, which may have
 * listed more: the CAPPED test skips them). Runs after the projection, so that its moves count in
 * the distance moved and its impulses do not reach a stopped body.
 */
function stopJammed(physics: Physics, s: ResponseState): void {
  const { Position: p, Velocity: v, Sphere: sp } = physics.components;
  for (let i = 0; i < s.suspectCount; i++) {
    const a = s.suspects[i];
    if (s.state[a] !== CAPPED) continue;
    const x = p.x[a], y = p.y[a], z = p.z[a], r = sp.radius[a];
    const dx = x - s.start[3 * a], dy = y - s.start[3 * a + 1], dz = z - s.start[3 * a + 2];
    const skin = REST_SKIN * r + PUSH_EPS * (1 + Math.abs(x) + Math.abs(y) + Math.abs(z) + r);
    if (dx * dx + dy * dy + dz * dz > skin * skin) continue;
    if (s.jam[a] === 2) v.x[a] = v.y[a] = v.z[a] = 0;
    s.jam[a] = 1;
  }
}

/** Clears the marks of the bodies jammed at the previous tick and not at this one (still 2). */
function clearStaleJams(s: ResponseState): void {
  for (let i = 0; i < s.jamCount; i++) if (s.jam[s.jamList[i]] === 2) s.jam[s.jamList[i]] = 0;
  s.jamCount = 0;
}

/**
 * Processes event `e` (owner a, partner x): a sensor pair is recorded only; an obstacle (static or
 * kinematic box, sleeper) gets `reactObstacle`; two dynamic spheres exchange the impulse of
 * `reactPair` on their relative velocity. A capped partner (it stays where it is for the rest of the
 * tick, its velocity kept) is met so that no energy is made: the impulse on the relative velocity
 * (the impulse on a's velocity alone, as against a body at rest, pushed a capped ball whose velocity
 * ran away from the balls hitting it with each of them: piles gained up to 0.52 of Σ m g (y + 1),
 * balls reached 830 u/s, test/response/pileEnergy.test.ts), then a, if it still moves toward x's
 * place, is capped where it is too (velocity kept, momentum conserved: the motion it cannot make is
 * dropped, as x's). A capped partner jammed at the last tick too (`s.jam` 2: its velocity is what
 * its contacts could not answer, and `stopJammed` stops it) is met as a body at rest that takes no
 * impulse (a's reaction to a static obstacle), so that a ball resting on a jammed one is not capped.
 */
function processEvent(physics: Physics, s: ResponseState, e: number): void {
  const a = s.evA[e];
  const x = s.evB[e];
  if (s.version[a] !== s.evVa[e] || s.state[a] !== DYNAMIC) return;
  s.clock[0] = s.evTime[e];
  advance(physics, s, a);
  const xState = s.state[x];
  if (xState !== 0 && s.version[x] !== s.evVb[e]) {
    predict(physics, s, a);
    return;
  }
  const flags = internalsOf(physics).flags;
  if (((flags[a] | flags[x]) & SENSOR) !== 0) {
    recordEvent(physics, s, e, a, x, ContactFlags.SENSOR);
    predict(physics, s, a);
    return;
  }
  recordEvent(physics, s, e, a, x, 0);
  if (xState === 0 && internalsOf(physics).sleep !== null) wakeHit(physics, s, e, a, x);
  const xNow = s.state[x];
  const w = s.obstacleV;
  if (xNow === CAPPED && s.jam[x] === 2) {
    // Jammed at the last tick too: its velocity is what its contacts could not answer, not one it
    // has; met as a body at rest that takes no impulse.
    w[0] = w[1] = w[2] = 0;
    reactObstacle(physics, s, a, e, w);
    trackPath(physics, s, a);
    changed(physics, s, a);
    return;
  }
  if (xNow !== 0) {
    advance(physics, s, x);
    reactPair(physics, s, a, x, e);
    // A capped partner stays where it is: a that still moves toward it stays where it is too.
    if (xNow === CAPPED && s.state[a] === DYNAMIC && approaches(physics, s, a, e)) capBody(s, a);
    trackPath(physics, s, a);
    trackPath(physics, s, x);
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
  trackPath(physics, s, a);
  changed(physics, s, a);
}

/** Lists this tick's dynamic bodies and resets their per-tick state. */
function collectBodies(physics: Physics, s: ResponseState): void {
  const internal = internalsOf(physics);
  const { flags, maxEid } = internal;
  for (let i = 0; i < s.bodyCount; i++) s.state[s.bodies[i]] = 0;
  for (let i = 0; i < s.suspectCount; i++) s.suspect[s.suspects[i]] = s.pinned[s.suspects[i]] = s.squeezeSide[s.suspects[i]] = 0;
  s.suspectCount = 0;
  s.wakeCount = 0;
  s.jamCount = 0;
  responseReserveBodies(s, maxEid);
  const asleep = internal.sleep === null ? null : internal.sleep.asleep;
  const { Position: p, Velocity: v } = physics.components;
  const dt = physics.dt;
  const jam = s.jam;
  let n = 0, staticSpheres = 0;
  for (let eid = 1; eid <= maxEid; eid++) {
    if ((flags[eid] & (SPHERE | MOVING)) === SPHERE) staticSpheres++;
    if (!isDynamic(flags[eid]) || (asleep !== null && asleep[eid] === 1)) continue;
    if (jam[eid] === 1) {
      jam[eid] = 2;
      s.jamList[s.jamCount++] = eid;
    }
    s.bodies[n++] = eid;
    s.state[eid] = DYNAMIC;
    s.time[eid] = 0;
    s.iterations[eid] = 0;
    s.predictions[eid] = 0;
    s.planeCount[eid] = 0;
    s.version[eid]++;
    s.start[3 * eid] = p.x[eid];
    s.start[3 * eid + 1] = p.y[eid];
    s.start[3 * eid + 2] = p.z[eid];
    // The dynamic grid's item of a dynamic sphere: radius + |velocity × dt|₁ about its start (findPairs.ts).
    s.reach[eid] = (Math.abs(v.x[eid]) + Math.abs(v.y[eid]) + Math.abs(v.z[eid])) * dt;
  }
  s.bodyCount = n;
  s.staticSpheres = staticSpheres;
}

/**
 * The response stage: resolves this tick's motion of the dynamic bodies (moves them to the end of
 * the tick through their impacts) and merges the contacts of the paths taken into
 * `physics.contacts` (which holds the narrowphase's contacts of the other pairs).
 */
export function respond(physics: Physics): void {
  const internal = internalsOf(physics);
  const s = responseOf(physics);
  s.staticGrid = internal.broadphase.staticGrid;
  s.dynamicGrid = internal.broadphase.dynamicGrid;
  const sleep = internal.sleep;
  if (sleep !== null) wakeByInput(physics, sleep);
  const g = internal.gravity;
  s.rest[0] = 2 * Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * physics.dt;
  s.predictCap = predictionCap(physics);
  s.work.fill(0);
  s.evCount = 0;
  s.heapSize = 0;
  clearRecords(s);
  collectBodies(physics, s);
  s.work[R_BODIES] = s.bodyCount;
  buildPaths(physics, s);
  s.clock[0] = 0;
  s.conCount = 0;
  s.collect = 1;
  for (let i = 0; i < s.bodyCount; i++) predict(physics, s, s.bodies[i]);
  s.collect = 0;
  if (solveContacts(physics, s)) {
    recordNearHeld(physics, s);
    // Every changed path first: each prediction below casts against the others' new velocities.
    if (s.paths.active) for (let i = 0; i < s.bodyCount; i++) if (s.solved[s.bodies[i]] !== 0) trackPath(physics, s, s.bodies[i]);
    for (let i = 0; i < s.bodyCount; i++) {
      const a = s.bodies[i];
      if (s.solved[a] === 0) continue;
      s.solved[a] = 0;
      s.version[a]++;
      predict(physics, s, a);
    }
  }
  if (s.wakeCount !== 0) drainWakes(physics, s);
  for (let e = heapPop(s); e >= 0; e = heapPop(s)) {
    s.work[R_EVENTS]++;
    processEvent(physics, s, e);
    if (s.wakeCount !== 0) drainWakes(physics, s);
  }
  s.clock[0] = 1;
  for (let i = 0; i < s.bodyCount; i++) {
    const a = s.bodies[i];
    advance(physics, s, a);
    checkReach(physics, s, a);
  }
  // After the projection, whose moves and inelastic impulses between overlapping spheres would
  // otherwise give a stopped body part of a neighbour's approach (a body it moves beyond the rest
  // skin is not jammed).
  project(physics, s);
  if (internal.gravityOn !== 0 && s.suspectCount !== 0) stopJammed(physics, s);
  if (s.jamCount !== 0) clearStaleJams(s);
  if (sleep !== null) {
    recordHeld(physics, sleep, s);
    updateSleep(physics, sleep);
  }
  mergeRecords(s, physics.contacts);
  if (sleep !== null) holdSleeperContacts(physics, sleep);
}

