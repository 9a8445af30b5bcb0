/**
 * The normal impulse of one start-of-tick contact (solver.ts, weightGuess.ts): `d` (mass × length
 * units per second, along the contact's unit normal n, which points from the partner toward the
 * body, world frame) added to the body's velocity as d n / m and taken from a dynamic partner's as
 * d n / m'; both are marked solved. Momentum is conserved between two dynamic spheres; an obstacle
 * partner (box, kinematic, frozen) takes none.
 * @module
 */
import type { Physics } from '../physics/physicsTypes.js';
import { inverseMass } from './react.js';
import { CON_SLOTS, DYNAMIC, type ResponseState } from './responseState.js';

/** Applies impulse `d` along contact `c`'s normal (see the module). */
export function applyContactImpulse(physics: Physics, s: ResponseState, c: number, d: number): void {
  const v = physics.components.Velocity;
  const pair = s.pair;
  const a = s.conA[c], x = s.conB[c], o = CON_SLOTS * c;
  const nx = s.conF[o], ny = s.conF[o + 1], nz = s.conF[o + 2];
  inverseMass(physics, a, pair, 2);
  const ia = pair[2];
  v.x[a] += d * ia * nx;
  v.y[a] += d * ia * ny;
  v.z[a] += d * ia * nz;
  s.solved[a] = 1;
  if (s.state[x] === DYNAMIC) {
    inverseMass(physics, x, pair, 3);
    const ix = pair[3];
    v.x[x] -= d * ix * nx;
    v.y[x] -= d * ix * ny;
    v.z[x] -= d * ix * nz;
    s.solved[x] = 1;
  }
}
