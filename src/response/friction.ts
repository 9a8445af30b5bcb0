/**
 * Coulomb friction of dynamic spheres (docs/response.md, "Friction"). A pair's coefficient is
 * μ = √(μa μb) (Box2D's `b2MixFriction`), μ of a body being its `Material.friction` (0 without the
 * Material component). Spheres have no spin (no angular velocity, no rolling): friction acts on the
 * relative tangential velocity at the contact only, and never reverses it (it stops it at most).
 * - At an impact that changes the relative normal velocity by Δvn (> 0, in length units per second)
 *   the relative tangential speed drops by μ Δvn (kinetic friction), or to 0 if that is less;
 *   between two dynamic spheres the tangential impulse is at most μ times the normal impulse and is
 *   shared by inverse mass, so momentum is conserved.
 * - On a resting contact of the start-of-tick solve (solver.ts) the accumulated tangential impulse
 *   is clamped to the disc of radius μ × the accumulated normal impulse (Catto, GDC 2005; Box2D's
 *   `b2SolveContact` friction, with a circular cone in 3D): a sphere on a ramp of angle θ under
 *   gravity g stays put when tan θ <= μ and accelerates at g (sin θ − μ cos θ) along it otherwise.
 * With μ = 0 nothing here runs: results are bit for bit those without friction.
 * @module
 */
import { internalsOf } from '../physics/internal.js';
import type { Physics } from '../physics/physicsTypes.js';
import { CON_ACC, CON_INV, CON_MU, CON_SLOTS, CON_TX, DYNAMIC, type ResponseState } from './responseState.js';

/** The friction coefficient of the pair (a, x), √(μa μb) (0 when either has no Material). */
export function pairFriction(physics: Physics, a: number, x: number, out: Float64Array, k: number): void {
  const has = internalsOf(physics).hasMaterial;
  if (has[a] === 0 || has[x] === 0) {
    out[k] = 0;
    return;
  }
  const f = physics.components.Material.friction;
  const m = f[a] * f[x];
  out[k] = m > 0 ? Math.sqrt(m) : 0;
}

/**
 * Kinetic friction on the relative velocity `u[0..3]` after an impact against unit normal `n[o..o+3]`
 * that changed its normal component by `limit[l]` = μ Δvn: the tangential part of u shrinks by that
 * much, or to 0.
 */
export function frictionImpact(u: Float64Array, n: Float64Array, o: number, limit: Float64Array, l: number): void {
  const nx = n[o], ny = n[o + 1], nz = n[o + 2];
  const un = u[0] * nx + u[1] * ny + u[2] * nz;
  const tx = u[0] - un * nx, ty = u[1] - un * ny, tz = u[2] - un * nz;
  const t = Math.sqrt(tx * tx + ty * ty + tz * tz);
  if (t === 0) return;
  const drop = limit[l];
  const k = drop >= t ? 1 : drop / t;
  u[0] -= k * tx;
  u[1] -= k * ty;
  u[2] -= k * tz;
}

/**
 * Friction of an impact between dynamic spheres a and b with normal n (`n[o..o+3]`, b → a) and
 * normal impulse `pair[4]` (> 0), coefficient `pair[5]`, inverse masses `pair[2]`, `pair[3]`: a
 * tangential impulse of at most μ j against the relative tangential velocity, shared by inverse mass.
 */
export function frictionPair(physics: Physics, a: number, b: number, n: Float64Array, o: number, pair: Float64Array): void {
  const v = physics.components.Velocity;
  const nx = n[o], ny = n[o + 1], nz = n[o + 2];
  const rx = v.x[a] - v.x[b], ry = v.y[a] - v.y[b], rz = v.z[a] - v.z[b];
  const rn = rx * nx + ry * ny + rz * nz;
  const tx = rx - rn * nx, ty = ry - rn * ny, tz = rz - rn * nz;
  const t = Math.sqrt(tx * tx + ty * ty + tz * tz);
  if (t === 0) return;
  const ia = pair[2], ib = pair[3];
  const stop = t / (ia + ib);
  const max = pair[5] * pair[4];
  const jt = (max < stop ? max : stop) / t;
  v.x[a] -= jt * ia * tx;
  v.y[a] -= jt * ia * ty;
  v.z[a] -= jt * ia * tz;
  v.x[b] += jt * ib * tx;
  v.y[b] += jt * ib * ty;
  v.z[b] += jt * ib * tz;
}

/**
 * One friction update of start-of-tick contact `c` (solver.ts, slots `CON_*`): the accumulated
 * tangential impulse (a vector in the contact plane) moves to cancel the relative tangential velocity
 * and is clamped to μ × the accumulated normal impulse. `w[0..3]` is the velocity of a partner that is
 * not dynamic (a dynamic partner's is read from Velocity); `s.pair[2]`, `s.pair[3]` the inverse masses
 * of the body and of a dynamic partner. Raises `s.solverScale[change]` to the body's velocity change
 * (no double is returned: it would be boxed, docs/internals.md).
 */
export function frictionContact(physics: Physics, s: ResponseState, c: number, w: Float64Array, change: number): void {
  const v = physics.components.Velocity;
  const a = s.conA[c], x = s.conB[c], o = CON_SLOTS * c;
  const f = s.conF;
  const dyn = s.state[x] === DYNAMIC;
  const nx = f[o], ny = f[o + 1], nz = f[o + 2];
  const rx = v.x[a] - (dyn ? v.x[x] : w[0]), ry = v.y[a] - (dyn ? v.y[x] : w[1]), rz = v.z[a] - (dyn ? v.z[x] : w[2]);
  const rn = rx * nx + ry * ny + rz * nz;
  const inv = f[o + CON_INV];
  // The accumulated impulse that would cancel the tangential velocity, then clamped to the disc.
  let jx = f[o + CON_TX] - (rx - rn * nx) / inv;
  let jy = f[o + CON_TX + 1] - (ry - rn * ny) / inv;
  let jz = f[o + CON_TX + 2] - (rz - rn * nz) / inv;
  const max = f[o + CON_MU] * f[o + CON_ACC];
  const len = Math.sqrt(jx * jx + jy * jy + jz * jz);
  if (len > max) {
    const k = len > 0 ? max / len : 0;
    jx *= k;
    jy *= k;
    jz *= k;
  }
  const dx = jx - f[o + CON_TX], dy = jy - f[o + CON_TX + 1], dz = jz - f[o + CON_TX + 2];
  if (dx === 0 && dy === 0 && dz === 0) return;
  f[o + CON_TX] = jx;
  f[o + CON_TX + 1] = jy;
  f[o + CON_TX + 2] = jz;
  const pair = s.pair;
  const ia = pair[2];
  v.x[a] += dx * ia;
  v.y[a] += dy * ia;
  v.z[a] += dz * ia;
  s.solved[a] = 1;
  if (dyn) {
    const ix = pair[3];
    v.x[x] -= dx * ix;
    v.y[x] -= dy * ix;
    v.z[x] -= dz * ix;
    s.solved[x] = 1;
  }
  const dv = Math.sqrt(dx * dx + dy * dy + dz * dz) * ia;
  if (dv > s.solverScale[change]) s.solverScale[change] = dv;
}
