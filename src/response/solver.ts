/**
 * Resting contacts at the start of a tick: the pairs a dynamic sphere touches at time 0 (found by
 * the first predictions: toi 0, or within the rest skin, approaching or not) are solved together
 * before the events, by sequential impulses
 * (Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005; Box2D's velocity solver) with
 * accumulated impulses clamped ≥ 0, so that a stack or a ball in a corner gets velocities that no
 * longer approach any of its touching partners in a few passes, instead of one impact per event.
 * Targets: the relative normal velocity after the solve is −e × before for an approach faster than
 * the rest threshold (e: BOUNCE restitution against obstacles, the larger restitution of two
 * dynamic spheres), else 0, or with gravity the speed that gives back a small overlap of two dynamic
 * spheres (`separateTarget`); a STOP body approaching an obstacle is stopped first. The passes hold
 * the targets of dynamic pairs; the bounce against an obstacle comes once after them (`bounce`). With gravity the
 * passes start from the weight each contact carries at rest (`guessWeights`, weightGuess.ts) instead of 0. What the
 * passes leave approaching is resolved as impacts by the events. World frame; normals from partner
 * to body.
 * @module
 */
import { ResponseMode } from '../../components/index.js';
import { internalsOf } from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import { frictionContact, pairFriction } from './friction.js';
import { PUSH_EPS, REST_SKIN } from './predict.js';
import { inverseMass, restitutionOf } from './react.js';
import { CON_BOUNCE, CON_MU, CON_SLOTS, CON_TX, DYNAMIC, reserveConstraint, type ResponseState } from './responseState.js';
import { guessWeights } from './weightGuess.js';
import { applyContactImpulse } from './contactImpulse.js';

/** Most passes over the contacts per tick. */
export const SOLVER_SWEEPS = 128;
/**
 * The passes stop once no velocity changed by more than this fraction of the largest approach
 * speed (or of the rest speed) in a pass.
 */
export const SOLVER_TOL = 1e-6;
/** Slots of `ResponseState.solverScale`: the largest approach speed of the contacts, the largest velocity change of the last pass. */
const S_APPROACH = 0, S_CHANGE = 1;

/** Appends a touching contact of dynamic `a` with `x`, normal from x toward a at `n[0..3]`. */
export function addConstraint(s: ResponseState, a: number, x: number, n: Float64Array): void {
  reserveConstraint(s);
  const c = s.conCount++;
  s.conA[c] = a;
  s.conB[c] = x;
  s.conNear[c] = 0;
  const o = CON_SLOTS * c;
  s.conF[o] = n[0];
  s.conF[o + 1] = n[1];
  s.conF[o + 2] = n[2];
}

/** Loads the velocity of partner `x` into `w` (0 when static or frozen). */
function loadW(physics: Physics, s: ResponseState, x: number, w: Float64Array): void {
  const v = physics.components.Velocity;
  const moving = s.state[x] === DYNAMIC || (s.state[x] === 0 && (internalsOf(physics).flags[x] & BodyFlags.MOVING) !== 0);
  w[0] = moving ? v.x[x] : 0;
  w[1] = moving ? v.y[x] : 0;
  w[2] = moving ? v.z[x] : 0;
}

/** Sets each contact's target, inverse mass sum and impulse 0; stops STOP bodies that approach. */
function prepare(physics: Physics, s: ResponseState): void {
  const v = physics.components.Velocity;
  const mode = physics.components.Response.mode;
  const rest = s.rest[0];
  const { obstacleV: w, pair, solverScale: scale } = s;
  scale[S_APPROACH] = 0;
  for (let c = 0; c < s.conCount; c++) {
    const a = s.conA[c], x = s.conB[c], o = CON_SLOTS * c;
    const nx = s.conF[o], ny = s.conF[o + 1], nz = s.conF[o + 2];
    loadW(physics, s, x, w);
    const dyn = s.state[x] === DYNAMIC;
    let vn = (v.x[a] - w[0]) * nx + (v.y[a] - w[1]) * ny + (v.z[a] - w[2]) * nz;
    if (!dyn && vn < 0 && mode[a] === ResponseMode.STOP) {
      v.x[a] = v.y[a] = v.z[a] = 0;
      s.solved[a] = 1;
      vn = -(w[0] * nx + w[1] * ny + w[2] * nz);
    }
    restitutionOf(physics, a, pair, 0);
    pair[1] = 0;
    if (dyn) restitutionOf(physics, x, pair, 1);
    inverseMass(physics, a, pair, 2);
    pair[3] = 0;
    if (dyn) inverseMass(physics, x, pair, 3);
    const e = dyn ? (pair[0] > pair[1] ? pair[0] : pair[1]) : mode[a] === ResponseMode.BOUNCE ? pair[0] : 0;
    if (-vn > scale[S_APPROACH]) scale[S_APPROACH] = -vn;
    s.conF[o + 3] = 0;
    const target = vn < -rest ? -e * vn : 0;
    s.conF[o + 4] = dyn ? target : 0;
    s.conF[o + CON_BOUNCE] = dyn ? 0 : target;
    if (dyn && rest > 0) separateTarget(physics, s, c);
    s.conF[o + 5] = pair[2] + pair[3];
    s.conF[o + CON_TX] = s.conF[o + CON_TX + 1] = s.conF[o + CON_TX + 2] = 0;
    pairFriction(physics, a, x, s.conF, o + CON_MU);
  }
}

/**
 * The target of contact `c`, a touching pair of dynamic spheres with gravity (`s.conF`, read and
 * written in place: docs/internals.md rule 1): its bounce target, or the speed that removes their
 * overlap in one tick, d / dt, when that is larger and they overlap by d beyond rounding
 * (PUSH_EPS × the pose's scale, as the push-outs) and within the rest skin (REST_SKIN × a's radius
 * + the rounding): what a resting touch let in (a dynamic pair approaching slower than REST_TOL × the
 * rest speed is not an impact, predict.ts) is given back the next tick instead of accumulating (two
 * balls stacked on a floor sank into each other by 5.2e-9 a tick without bound). Deeper overlaps keep
 * their target (they separate by their velocities, as without gravity). World frame; d in length
 * units, the target a separating normal speed in length units per second.
 */
function separateTarget(physics: Physics, s: ResponseState, c: number): void {
  const { Position: p, Sphere: sp } = physics.components;
  const a = s.conA[c], x = s.conB[c];
  const dx = p.x[a] - p.x[x], dy = p.y[a] - p.y[x], dz = p.z[a] - p.z[x];
  const ra = sp.radius[a];
  const d = ra + sp.radius[x] - Math.sqrt(dx * dx + dy * dy + dz * dz);
  const round = PUSH_EPS * (1 + Math.abs(p.x[a]) + Math.abs(p.y[a]) + Math.abs(p.z[a]) + ra);
  if (!(d > round) || d > REST_SKIN * ra + round) return;
  const k = d / physics.dt, o = CON_SLOTS * c + 4;
  if (k > s.conF[o]) s.conF[o] = k;
}

/**
 * One pass of sequential impulses (projected Gauss–Seidel) over the contacts, forward or backward
 * (alternating converges faster on chains).
 */
function gaussSeidelPass(physics: Physics, s: ResponseState, backward: boolean): void {
  const v = physics.components.Velocity;
  const n = s.conCount;
  const { obstacleV: w, pair, solverScale: scale } = s;
  scale[S_CHANGE] = 0;
  for (let i = 0; i < n; i++) {
    const c = backward ? n - 1 - i : i;
    const a = s.conA[c], x = s.conB[c], o = CON_SLOTS * c;
    const nx = s.conF[o], ny = s.conF[o + 1], nz = s.conF[o + 2];
    loadW(physics, s, x, w);
    const vn = (v.x[a] - w[0]) * nx + (v.y[a] - w[1]) * ny + (v.z[a] - w[2]) * nz;
    const acc = s.conF[o + 3];
    let next = acc + (s.conF[o + 4] - vn) / s.conF[o + 5];
    if (next < 0) next = 0;
    const d = next - acc;
    if (s.conF[o + CON_MU] > 0) solveFriction(physics, s, c);
    if (d === 0) continue;
    s.conF[o + 3] = next;
    // applyContactImpulse (contactImpulse.ts) written out: the call cost this loop 6-7 % of a
    // 1,000-ball pile's tick (docs/internals.md, rule 4).
    inverseMass(physics, a, pair, 2);
    const ia = pair[2];
    const dv = (d < 0 ? -d : d) * ia;
    if (dv > scale[S_CHANGE]) scale[S_CHANGE] = dv;
    v.x[a] += d * ia * nx;
    v.y[a] += d * ia * ny;
    v.z[a] += d * ia * nz;
    s.solved[a] = 1;
    if (s.state[x] !== DYNAMIC) continue;
    inverseMass(physics, x, pair, 3);
    const ix = pair[3];
    v.x[x] -= d * ix * nx;
    v.y[x] -= d * ix * ny;
    v.z[x] -= d * ix * nz;
    s.solved[x] = 1;
  }
}

/**
 * The friction update of contact `c` (friction.ts), before its normal update in the same pass, with
 * the accumulated normal impulse of the passes before (Box2D's order: friction first). It changes
 * only the tangential velocity, so the normal update computed before it stays valid.
 */
function solveFriction(physics: Physics, s: ResponseState, c: number): void {
  const w = s.obstacleV;
  const pair = s.pair;
  inverseMass(physics, s.conA[c], pair, 2);
  pair[3] = 0;
  if (s.state[s.conB[c]] === DYNAMIC) inverseMass(physics, s.conB[c], pair, 3);
  frictionContact(physics, s, c, w, S_CHANGE);
}

/** Solves the start-of-tick contacts; returns whether some velocity changed (`s.solved` marks which). */
export function solveContacts(physics: Physics, s: ResponseState): boolean {
  if (s.conCount === 0) return false;
  prepare(physics, s);
  if (internalsOf(physics).gravityOn !== 0) guessWeights(physics, s);
  const rest = s.rest[0], approach = s.solverScale[S_APPROACH];
  const tol = SOLVER_TOL * (rest > approach ? rest : approach);
  for (let k = 0; k < SOLVER_SWEEPS; k++) {
    gaussSeidelPass(physics, s, (k & 1) === 1);
    if (s.solverScale[S_CHANGE] <= tol) break;
  }
  bounce(physics, s);
  return true;
}

/**
 * The restitution against obstacles (static boxes, kinematic and frozen bodies) of the contacts that
 * approached them faster than the rest speed, once, after the passes (Box2D v3's
 * `b2ApplyRestitution`): each such contact's accumulated impulse is raised (or lowered, never below
 * 0) until the body's normal velocity relative to the obstacle is its bounce target, −e × the
 * approach before the solve. The passes solve these contacts without restitution, so that a ball
 * bouncing out of a corner does not push the balls resting on it with the corner's bounce: with the
 * bounce among the passes' targets, a ball hitting a floor and a wall at once under a ball resting
 * on it (e ≈ 1) kept its whole bounce while the passes pushed the ball above away at 12.7 u/s (that
 * pile's energy rose by 0.15 of Σ m g (y + 1) in one tick). What the bounce leaves approaching (the
 * ball above) the events meet as an impact. Two dynamic spheres keep their bounce among the passes'
 * targets: the impulses between them conserve momentum, and an impulse running through a chain of
 * touching balls (a launch from the bottom of a column, the break of a rack) needs every contact's
 * target solved together. World frame; speeds in length units per second.
 */
function bounce(physics: Physics, s: ResponseState): void {
  const v = physics.components.Velocity;
  const w = s.obstacleV;
  for (let c = 0; c < s.conCount; c++) {
    const o = CON_SLOTS * c;
    const target = s.conF[o + CON_BOUNCE];
    if (!(target > 0)) continue;
    const a = s.conA[c], x = s.conB[c];
    const nx = s.conF[o], ny = s.conF[o + 1], nz = s.conF[o + 2];
    loadW(physics, s, x, w);
    const vn = (v.x[a] - w[0]) * nx + (v.y[a] - w[1]) * ny + (v.z[a] - w[2]) * nz;
    const acc = s.conF[o + 3];
    let next = acc + (target - vn) / s.conF[o + 5];
    if (next < 0) next = 0;
    const d = next - acc;
    if (d === 0) continue;
    s.conF[o + 3] = next;
    applyContactImpulse(physics, s, c, d);
  }
}
