/**
 * The start of the start-of-tick solve with gravity (solver.ts): each touching contact's
 * accumulated normal impulse starts at the impulse that contact takes at rest, instead of 0 (a warm
 * start from a static estimate, without state kept across ticks; Box2D warm starts from the previous
 * step's impulses).
 *
 * Frame and units: world frame; up is −g/|g|; a contact's normal n points from the partner toward
 * the body (`s.conF`); velocities in length units per second, impulses in mass × length units per
 * second, over the tick.
 *
 * The rule: every contact belongs to one body, its *owner*: the dynamic body when the partner is a
 * static box, a kinematic body or a frozen body; of two dynamic spheres, the higher along up (ties:
 * the larger entity id). Going down the owners by height, each owner b with velocity v (this tick's
 * gravity and the pushes of the owners above already in it) gets impulses λᵢ ≥ 0 on its contacts
 * (normals nᵢ toward b, partner velocities wᵢ) that solve the complementarity problem of b alone
 * against partners held at wᵢ: after them, (v' − wᵢ) · nᵢ ≥ 0 on every contact, with λᵢ = 0 where
 * it is > 0, v' = v + Σ λᵢ nᵢ / m. That is the least-squares problem min ½ ‖Σ λᵢ nᵢ‖² / m +
 * Σ λᵢ (v − wᵢ) · nᵢ over λ ≥ 0, solved exactly by Lawson and Hanson's active set ("Solving Least
 * Squares Problems", 1974, ch. 23: at most three normals are active in three dimensions). A
 * partner's wᵢ: 0 for a static box or a frozen body, a kinematic body's velocity, and for a dynamic
 * partner below the velocity it had at the start of the guess less the gravity of this tick
 * (v − s g dt / (1 + c dt), s its gravity scale, c its damping; as it was when the solve stopped a
 * STOP body against an obstacle): the partner is assumed held where it was by its own contacts,
 * which are solved after.
 * The impulses go to both bodies' velocities, so a dynamic partner below carries b's push when its
 * turn comes. So:
 * - a body at rest on contacts that can hold it (a floor; a ball on three below; a ball wedged
 *   between two faces leaning 1° from the vertical, each carrying L / (2 sin 1°) of the load L above
 *   it) ends the guess at rest, relative to its partners;
 * - a body they cannot hold (one steep support; a ball beside a wall and nothing under it) keeps the
 *   part of its motion they do not oppose, never more: no body is launched by the guess (the
 *   fraction rule before, L c / Σ c², launched balls at 42 u/s in a pit of 1,000; capped at L, it
 *   left the wedge's faces a fiftieth of their share, the sweeps did not converge and the column froze).
 * Then the solve's passes correct the impulses (the projected Gauss–Seidel iteration converges to
 * the same solution from any start ≥ 0). From 0 it needs about n² passes on a chain of n contacts
 * and many more on a wedge (two nearly opposite normals); from this start a resting column, stack,
 * pile or wedge is solved before the first pass.
 * @module
 */
import { internalsOf } from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import { heapSort } from '../math/heapSort.js';
import { inverseMass } from './react.js';
import { applyContactImpulse } from './contactImpulse.js';
import { CON_ACC, CON_MU, CON_SLOTS, DYNAMIC, type ResponseState } from './responseState.js';

/**
 * A contact joins an owner's solution only while it would take more than this fraction of the
 * largest impulse any one of its contacts asks for alone (below, what is left goes to the passes,
 * whose tolerance is 1e-6 of the speeds).
 */
export const GUESS_EPS = 1e-9;
/**
 * A lighter dynamic partner is launched by the unheld part of a push at most this many times the
 * owner's |Δv| + rest speed (`capDynamic`). At 1, ordinary mixed piles changed: 40 random piles of
 * 40 balls of radii 0.25 to 1 (masses r³, up to 64 apart) with friction 0.4 had 12 % more impacts
 * once settled, and the pinned friction arena 12 % more over its run; at 16, 0.6 % and none.
 */
export const LAUNCH_LIMIT = 16;
/**
 * Two or three normals closer to dependent than this (the Gram determinant of unit normals: sin² of
 * the angle between two; 1e-12 is 1e-6 rad) are not solved together: the last one is left out, and
 * its share goes to the passes.
 */
export const DEPENDENT = 1e-12;

/** Whether contact `a` comes after contact `b` in the guess's order: lower owner, then smaller owner id (the owner of a tie is the larger id), then larger index. */
function belowOrLater(s: ResponseState, a: number, b: number): boolean {
  const ka = s.conKey[a], kb = s.conKey[b];
  if (ka !== kb) return ka < kb;
  const oa = s.conOwner[a], ob = s.conOwner[b];
  return oa !== ob ? oa < ob : a > b;
}

/** Sets each contact's accumulated impulse to its share at rest and applies it (see the module). */
export function guessWeights(physics: Physics, s: ResponseState): void {
  const g = internalsOf(physics).gravity;
  const gl = Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  const ux = -g[0] / gl, uy = -g[1] / gl, uz = -g[2] / gl;
  const p = physics.components.Position;
  const { conOrder: order, conKey: key, conOwner: owner } = s;
  const n = s.conCount;
  for (let c = 0; c < n; c++) {
    const a = s.conA[c], x = s.conB[c];
    holdVelocity(physics, s, a);
    let o = a, h = p.x[a] * ux + p.y[a] * uy + p.z[a] * uz;
    if (s.state[x] === DYNAMIC) {
      holdVelocity(physics, s, x);
      const hx = p.x[x] * ux + p.y[x] * uy + p.z[x] * uz;
      if (hx > h || (hx === h && x > a)) {
        o = x;
        h = hx;
      }
    }
    owner[c] = o;
    key[c] = h;
    order[c] = c;
  }
  heapSort(s, belowOrLater, order, n);
  for (let i = 0; i < n; i++) {
    const o = owner[order[i]];
    if (i === 0 || owner[order[i - 1]] !== o) s.guessFirst[o] = i;
  }
  // From the top down (heapSort puts the contacts of lower owners after); an owner's contacts are adjacent.
  for (let i = 0; i < n; ) {
    const b = owner[order[i]];
    let j = i + 1;
    while (j < n && owner[order[j]] === b) j++;
    if (demands(physics, s, b, i, j)) {
      if (j === i + 1) oneContact(s, b, order[i]);
      else ownerImpulses(s, b, i, j);
      capDynamic(physics, s, b, i, j);
      applyImpulses(physics, s, i, j);
    }
    i = j;
  }
}

/**
 * The velocity dynamic body `eid` is assumed held at by its contacts (see the module) into
 * `s.held`: its velocity less this tick's gravity, or as it is when the solve's `prepare` stopped it
 * (`s.solved` is set only there before the guess).
 */
function holdVelocity(physics: Physics, s: ResponseState, eid: number): void {
  const { Velocity: v, Response: r } = physics.components;
  const g = internalsOf(physics).gravity, dt = physics.dt;
  const k = s.solved[eid] !== 0 ? 0 : (r.gravityScale[eid] * dt) / (1 + dt * r.damping[eid]);
  const o = 3 * eid;
  s.held[o] = v.x[eid] - k * g[0];
  s.held[o + 1] = v.y[eid] - k * g[1];
  s.held[o + 2] = v.z[eid] - k * g[2];
}

/** Normal component `k` of contact `c` as its owner `b` sees it (toward b). */
function ownNormal(s: ResponseState, c: number, b: number, k: number): number {
  const v = s.conF[CON_SLOTS * c + k];
  return s.conA[c] === b ? v : -v;
}

/**
 * Each of owner `b`'s contacts `order[i0 .. i1)`: its demand d = −m (v − w) · n (the impulse that
 * contact alone would take to stop b approaching its partner; n toward b, w the partner's velocity
 * as the module states) into `s.conDemand`, its impulse reset to 0. Returns whether any demand is
 * positive, and keeps the largest in `s.guessScale[0]`.
 */
function demands(physics: Physics, s: ResponseState, b: number, i0: number, i1: number): boolean {
  const v = physics.components.Velocity;
  const internal = internalsOf(physics);
  const { conF: f, conOrder: order, conDemand: demand, held, pair } = s;
  inverseMass(physics, b, pair, 4);
  const m = 1 / pair[4];
  const rest = s.rest[0], hb = 3 * b;
  let most = 0;
  for (let i = i0; i < i1; i++) {
    const c = order[i], o = CON_SLOTS * c;
    f[o + CON_ACC] = 0;
    const x = s.conA[c] === b ? s.conB[c] : s.conA[c];
    let wx = 0, wy = 0, wz = 0;
    if (s.state[x] === DYNAMIC) {
      wx = held[3 * x];
      wy = held[3 * x + 1];
      wz = held[3 * x + 2];
    } else if (s.state[x] === 0 && (internal.flags[x] & BodyFlags.MOVING) !== 0) {
      wx = v.x[x];
      wy = v.y[x];
      wz = v.z[x];
    }
    const nx = ownNormal(s, c, b, 0), ny = ownNormal(s, c, b, 1), nz = ownNormal(s, c, b, 2);
    // This tick's gravity and pushes along n, and the approach b had before them, at most the rest speed.
    const added = (v.x[b] - held[hb]) * nx + (v.y[b] - held[hb + 1]) * ny + (v.z[b] - held[hb + 2]) * nz;
    const before = (held[hb] - wx) * nx + (held[hb + 1] - wy) * ny + (held[hb + 2] - wz) * nz;
    const d = -m * (added + (before > -rest ? before : -rest));
    demand[c] = d;
    if (d > most) most = d;
  }
  s.guessScale[0] = most;
  return most > 0;
}

/**
 * Owner `b`'s impulses over its contacts `order[i0 .. i1)`: min ½ ‖Σ λᵢ nᵢ‖² − Σ λᵢ dᵢ over λ ≥ 0
 * (the module's problem times m), by Lawson–Hanson's active set: add the contact whose gradient
 * dⱼ − nⱼ · Σ λᵢ nᵢ is the largest positive, solve the active set's equations exactly, and step back
 * to the last point with every impulse ≥ 0 while some would go negative. Written to each contact's
 * accumulated impulse (`CON_ACC`; 0 for the others).
 */
function ownerImpulses(s: ResponseState, b: number, i0: number, i1: number): void {
  const { conF: f, conOrder: order, conMark: mark, conDemand: demand, guessSet: set, guessZ: z } = s;
  for (let i = i0; i < i1; i++) mark[order[i]] = 0;
  const floor = GUESS_EPS * s.guessScale[0];
  // The active impulses' sum Σ λ n (as b sees the normals).
  let sx = 0, sy = 0, sz = 0;
  let size = 0;
  for (let iter = 4 * (i1 - i0) + 8; iter > 0 && size < 3; iter--) {
    let best = -1, bw = floor;
    for (let i = i0; i < i1; i++) {
      const c = order[i];
      if (mark[c] !== 0) continue;
      const w = demand[c] - (ownNormal(s, c, b, 0) * sx + ownNormal(s, c, b, 1) * sy + ownNormal(s, c, b, 2) * sz);
      if (w > bw) {
        bw = w;
        best = c;
      }
    }
    if (best < 0) break;
    mark[best] = 1;
    set[size++] = best;
    for (;;) {
      if (!leastSquares(s, b, size)) {
        // Dependent on the others: left out for good.
        mark[best] = 2;
        size--;
        break;
      }
      let alpha = 1, first = -1;
      for (let k = 0; k < size; k++) {
        if (z[k] > 0) continue;
        const l = f[CON_SLOTS * set[k] + CON_ACC];
        const t = l > 0 ? l / (l - z[k]) : 0;
        if (first < 0 || t < alpha) {
          alpha = t;
          first = k;
        }
      }
      if (first < 0) {
        for (let k = 0; k < size; k++) f[CON_SLOTS * set[k] + CON_ACC] = z[k];
        break;
      }
      // Move toward z until the first impulse reaches 0 and drop it and any other at 0 (the newest,
      // when its own solution is not positive, for good: it entered with a positive gradient, so that
      // is rounding). The one that set the step is dropped whatever rounding left of it, so the loop
      // ends: each round drops one.
      let kept = 0;
      for (let k = 0; k < size; k++) {
        const c = set[k], o = CON_SLOTS * c + CON_ACC;
        const l = f[o] + alpha * (z[k] - f[o]);
        if (l > 0 && k !== first) {
          f[o] = l;
          set[kept++] = c;
        } else {
          f[o] = 0;
          mark[c] = c === best ? 2 : 0;
        }
      }
      size = kept;
      if (size === 0) break;
    }
    sx = sy = sz = 0;
    for (let k = 0; k < size; k++) {
      const c = set[k], l = f[CON_SLOTS * c + CON_ACC];
      sx += l * ownNormal(s, c, b, 0);
      sy += l * ownNormal(s, c, b, 1);
      sz += l * ownNormal(s, c, b, 2);
    }
  }
}

/**
 * `ownerImpulses` for an owner `b` with one contact `c` (a ball on a floor, on one ball), whose
 * demand is positive (`demands`): the active set's first and only step, z = d / (n · n), the same
 * number without its loops.
 */
function oneContact(s: ResponseState, b: number, c: number): void {
  const nx = ownNormal(s, c, b, 0), ny = ownNormal(s, c, b, 1), nz = ownNormal(s, c, b, 2);
  s.conF[CON_SLOTS * c + CON_ACC] = s.conDemand[c] / (nx * nx + ny * ny + nz * nz);
}

/**
 * The equations of the active contacts `s.guessSet[0 .. size)` (1 to 3; normals as owner `b` sees
 * them): Σₖ (nⱼ · nₖ) zₖ = dⱼ, by Cramer's rule, into `s.guessZ`; false when the normals are
 * dependent (`DEPENDENT`).
 */
function leastSquares(s: ResponseState, b: number, size: number): boolean {
  const { guessSet: set, guessZ: z, guessN: e, conDemand: demand } = s;
  for (let k = 0; k < size; k++) {
    e[3 * k] = ownNormal(s, set[k], b, 0);
    e[3 * k + 1] = ownNormal(s, set[k], b, 1);
    e[3 * k + 2] = ownNormal(s, set[k], b, 2);
  }
  const b0 = demand[set[0]];
  const g00 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
  if (size === 1) {
    z[0] = b0 / g00;
    return true;
  }
  const b1 = demand[set[1]];
  const g11 = e[3] * e[3] + e[4] * e[4] + e[5] * e[5];
  const g01 = e[0] * e[3] + e[1] * e[4] + e[2] * e[5];
  if (size === 2) {
    const det = g00 * g11 - g01 * g01;
    if (!(det > DEPENDENT)) return false;
    z[0] = (b0 * g11 - b1 * g01) / det;
    z[1] = (g00 * b1 - g01 * b0) / det;
    return true;
  }
  const b2 = demand[set[2]];
  const g22 = e[6] * e[6] + e[7] * e[7] + e[8] * e[8];
  const g02 = e[0] * e[6] + e[1] * e[7] + e[2] * e[8];
  const g12 = e[3] * e[6] + e[4] * e[7] + e[5] * e[8];
  // Cofactors of the symmetric Gram matrix.
  const c00 = g11 * g22 - g12 * g12, c01 = g02 * g12 - g01 * g22, c02 = g01 * g12 - g02 * g11;
  const det = g00 * c00 + g01 * c01 + g02 * c02;
  if (!(det > DEPENDENT)) return false;
  const c11 = g00 * g22 - g02 * g02, c12 = g01 * g02 - g00 * g12, c22 = g00 * g11 - g01 * g01;
  z[0] = (c00 * b0 + c01 * b1 + c02 * b2) / det;
  z[1] = (c01 * b0 + c11 * b1 + c12 * b2) / det;
  z[2] = (c02 * b0 + c12 * b1 + c22 * b2) / det;
  return true;
}

/**
 * Scales owner `b`'s impulses down, all by one factor, so that none into a dynamic partner exceeds
 * m (|Δv| + rest speed), Δv what this tick's gravity and the pushes from above added to b's
 * velocity: the problem holds partners where they are, and a dynamic partner pushed sideways by a
 * body wedged between it and another is not held there (its own contacts are below it), so the
 * wedge's exact impulses (L / (2 sin a)) would launch it (measured: balls at 97 u/s, then 5.7e5 u/s
 * in a pit of 1,000; 5.5 u/s at most before). A wedge against static or kinematic faces keeps them.
 * A partner x lighter than b is then given at most `LAUNCH_LIMIT` × (|Δv| + rest speed) by the part
 * of its contact's impulse that x's own contacts (those x owns in the guess, their partners held; the
 * friction of those with obstacles taken off) do not oppose (`unheld`): that contact's impulse alone
 * is lowered. The sweeps give x the rest of its push. A ball of mass 1e4 resting off-centre on a ball
 * of mass 1 on a frictionless floor launched it at 72 u/s (6.9e57 u/s under a mass of 1e60), while
 * a light ball held by a ramp and a wall still carries the whole weight of a heavier ball leaning on
 * it (test/response/weightGuess.test.ts). Frame: world; velocities in length units per second,
 * impulses in mass × length units per second.
 */
function capDynamic(physics: Physics, s: ResponseState, b: number, i0: number, i1: number): void {
  const v = physics.components.Velocity;
  const { conF: f, conOrder: order, held, pair } = s;
  let most = 0;
  for (let i = i0; i < i1; i++) {
    const c = order[i];
    const x = s.conA[c] === b ? s.conB[c] : s.conA[c];
    if (s.state[x] !== DYNAMIC) continue;
    const l = f[CON_SLOTS * c + CON_ACC];
    if (l > most) most = l;
  }
  if (most === 0) return;
  const hb = 3 * b;
  const dx = v.x[b] - held[hb], dy = v.y[b] - held[hb + 1], dz = v.z[b] - held[hb + 2];
  inverseMass(physics, b, pair, 4);
  const speed = Math.sqrt(dx * dx + dy * dy + dz * dz) + s.rest[0];
  const cap = speed / pair[4];
  if (most > cap) {
    const k = cap / most;
    for (let i = i0; i < i1; i++) f[CON_SLOTS * order[i] + CON_ACC] *= k;
  }
  const launch = LAUNCH_LIMIT * speed;
  for (let i = i0; i < i1; i++) {
    const c = order[i];
    const x = s.conA[c] === b ? s.conB[c] : s.conA[c];
    const o = CON_SLOTS * c + CON_ACC;
    if (s.state[x] !== DYNAMIC || !(f[o] > 0)) continue;
    inverseMass(physics, x, pair, 5);
    // Lighter partners only; the whole push first (the part not held is at most that).
    if (!(pair[5] > pair[4]) || !(f[o] * pair[5] > launch)) continue;
    const side = pair[5] * unheld(s, x, -ownNormal(s, c, b, 0), -ownNormal(s, c, b, 1), -ownNormal(s, c, b, 2));
    if (f[o] * side > launch) f[o] = launch / side;
  }
}

/**
 * The length of the part of velocity change (px, py, pz) that dynamic body `x`'s own contacts in
 * the guess (those it owns, below it: `s.guessFirst`) do not oppose, their partners held: |p + Σ λᵢ nᵢ|
 * with λ ≥ 0 the least squares of `ownerImpulses` for demands −p · nᵢ (nᵢ toward x), less what
 * the friction of its contacts with obstacles (static, kinematic, frozen) can hold, Σ μᵢ λᵢ (μᵢ the
 * contact's coefficient, `CON_MU`), at least 0 (a dynamic partner below is not held: counting its
 * friction let a ball of mass 1e60 launch a light ball on a light ball at 3.8e41 u/s, μ = 0.77). Uses the
 * impulses and demands of x's contacts as scratch: x's own turn comes later and sets them anew.
 */
function unheld(s: ResponseState, x: number, px: number, py: number, pz: number): number {
  const { conOrder: order, conOwner: owner, conDemand: demand, conF: f } = s;
  const n = s.conCount;
  const i0 = s.guessFirst[x];
  let i1 = i0;
  if (i0 >= 0 && i0 < n && owner[order[i0]] === x) {
    while (i1 < n && owner[order[i1]] === x) i1++;
  }
  let most = 0;
  for (let i = i0; i < i1; i++) {
    const c = order[i];
    const d = -(px * ownNormal(s, c, x, 0) + py * ownNormal(s, c, x, 1) + pz * ownNormal(s, c, x, 2));
    demand[c] = d;
    f[CON_SLOTS * c + CON_ACC] = 0;
    if (d > most) most = d;
  }
  // What friction can hold: Σ μᵢ λᵢ (each contact's cone, at most).
  let grip = 0;
  if (most > 0) {
    s.guessScale[0] = most;
    if (i1 === i0 + 1) oneContact(s, x, order[i0]);
    else ownerImpulses(s, x, i0, i1);
    for (let i = i0; i < i1; i++) {
      const c = order[i], o = CON_SLOTS * c, l = f[o + CON_ACC];
      px += l * ownNormal(s, c, x, 0);
      py += l * ownNormal(s, c, x, 1);
      pz += l * ownNormal(s, c, x, 2);
      // Friction holds only against a partner that is held (an obstacle), not a dynamic one.
      if (s.state[s.conA[c] === x ? s.conB[c] : s.conA[c]] !== DYNAMIC) grip += f[o + CON_MU] * l;
    }
  }
  const free = Math.sqrt(px * px + py * py + pz * pz) - grip;
  return free > 0 ? free : 0;
}

/** Applies the impulses of contacts `order[i0 .. i1)` to the velocities of both bodies of each. */
function applyImpulses(physics: Physics, s: ResponseState, i0: number, i1: number): void {
  const { conF: f, conOrder: order } = s;
  for (let i = i0; i < i1; i++) {
    const c = order[i];
    const lam = f[CON_SLOTS * c + CON_ACC];
    if (lam > 0) applyContactImpulse(physics, s, c, lam);
  }
}
