/**
 * Reactions of a dynamic sphere at an impact (world frame; velocities in length units per second;
 * the normal n is unit and points from the partner toward the sphere):
 * - against an obstacle moving at velocity w (0 when static), on the relative velocity u = v − w
 *   with un = u·n < 0: `STOP` v' = max(0, w·n) n (stays touching); `SLIDE` u' = u − un n, with the
 *   slide planes met earlier in the tick: a velocity that enters one of them again is projected on
 *   the crease of the two planes, and stops against a third (collide-and-slide, as Fauerby's
 *   "Improved collision detection and response", 2003); `BOUNCE` u' = u − (1 + e) un n;
 * - two dynamic spheres: an impulse along n, j = −(1 + e) un / (1/ma + 1/mb) on their relative
 *   normal velocity un, e the larger of the two restitutions (as Box2D mixes it): momentum is
 *   conserved, and kinetic energy with e = 1 (never raised). A partner past its budget (capped) stays
 *   where it is for the rest of the tick; the rules for meeting one are in resolve.ts `processEvent`.
 * An approach slower than the rest speed `s.rest[0]` (two ticks of gravity) does not bounce (e = 0), so
 * that bodies come to rest on floors instead of hopping by one tick of gravity forever.
 * @module
 */
import { ResponseMode } from '../../components/index.js';
import type { Physics } from '../physics/physicsTypes.js';
import { frictionImpact, frictionPair, pairFriction } from './friction.js';
import { PLANE_SLOTS, type ResponseState } from './responseState.js';

/** Writes the restitution of `eid`, clamped to [0, 1], to `out[k]`. */
export function restitutionOf(physics: Physics, eid: number, out: Float64Array, k: number): void {
  const e = physics.components.Response.restitution[eid];
  out[k] = e > 0 ? (e < 1 ? e : 1) : 0;
}

/** Bounds of an inverse mass (`inverseMass`): 2^±400, about 2.6e120 and 3.9e-121. */
const INVERSE_MASS_MAX = 2 ** 400;
const INVERSE_MASS_MIN = 2 ** -400;

/**
 * Writes the inverse mass of `eid` (Response.mass, or radius³ when 0; 1 for radius 0) to `out[k]`,
 * clamped to [2^-400, 2^400] (masses beyond about 3.9e-121 … 2.6e120 act as those bounds): the
 * impulses divide by and multiply sums, ratios and products of two inverse masses, which then stay
 * finite. Unclamped, a mass so small that its inverse overflows (a denormal mass) gave an impulse
 * 0 × ∞ = NaN, and two masses more than about 1e308 apart (1 and Number.MAX_VALUE, 1e-10 and
 * 1e300) made both spheres' positions NaN in their first tick.
 */
export function inverseMass(physics: Physics, eid: number, out: Float64Array, k: number): void {
  const m = physics.components.Response.mass[eid];
  const r = physics.components.Sphere.radius[eid];
  const inv = m > 0 ? 1 / m : r > 0 ? 1 / (r * r * r) : 1;
  out[k] = inv < INVERSE_MASS_MAX ? (inv > INVERSE_MASS_MIN ? inv : INVERSE_MASS_MIN) : INVERSE_MASS_MAX;
}

/** The component of `u` along plane `o` of `planes` (unit normal). */
function dotPlane(u: Float64Array, planes: Float64Array, o: number): number {
  return u[0] * planes[o] + u[1] * planes[o + 1] + u[2] * planes[o + 2];
}

/**
 * Collide-and-slide on the relative velocity `s.relV` against normal n (at `n[o..o+3]`) and the
 * body's earlier planes of this tick; stores n as a plane.
 */
function slide(s: ResponseState, a: number, n: Float64Array, o: number): void {
  const u = s.relV;
  const nx = n[o], ny = n[o + 1], nz = n[o + 2];
  let un = u[0] * nx + u[1] * ny + u[2] * nz;
  u[0] -= un * nx;
  u[1] -= un * ny;
  u[2] -= un * nz;
  un = u[0] * nx + u[1] * ny + u[2] * nz;
  if (un < 0) {
    u[0] -= un * nx;
    u[1] -= un * ny;
    u[2] -= un * nz;
  }
  const planes = s.planes;
  const base = PLANE_SLOTS * a;
  const count = s.planeCount[a];
  const speed = Math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (let i = 0; i < count; i++) {
    const o2 = base + 3 * i;
    if (!(dotPlane(u, planes, o2) < -1e-12 * speed)) continue;
    const mx = planes[o2], my = planes[o2 + 1], mz = planes[o2 + 2];
    const dx = ny * mz - nz * my, dy = nz * mx - nx * mz, dz = nx * my - ny * mx;
    const dd = dx * dx + dy * dy + dz * dz;
    const k = dd > 1e-24 ? (u[0] * dx + u[1] * dy + u[2] * dz) / dd : 0;
    u[0] = dx * k;
    u[1] = dy * k;
    u[2] = dz * k;
    const other = base + 3 * (1 - i);
    if (count === 2 && dotPlane(u, planes, other) < -1e-12 * speed) u[0] = u[1] = u[2] = 0;
    break;
  }
  const slot = count < 2 ? count : 1;
  if (count === 2) for (let k = 0; k < 3; k++) planes[base + k] = planes[base + 3 + k];
  planes[base + 3 * slot] = nx;
  planes[base + 3 * slot + 1] = ny;
  planes[base + 3 * slot + 2] = nz;
  if (count < 2) s.planeCount[a] = count + 1;
}

/**
 * Reacts dynamic `a` to event `e` against obstacle `x` moving at `w` (`w[0..3]`, 0 when static or
 * frozen), by a's Response mode.
 */
export function reactObstacle(physics: Physics, s: ResponseState, a: number, e: number, w: Float64Array): void {
  const v = physics.components.Velocity;
  const n = s.evN;
  const o = 3 * e;
  const nx = n[o], ny = n[o + 1], nz = n[o + 2];
  const u = s.relV;
  u[0] = v.x[a] - w[0];
  u[1] = v.y[a] - w[1];
  u[2] = v.z[a] - w[2];
  const un = u[0] * nx + u[1] * ny + u[2] * nz;
  const mode = physics.components.Response.mode[a];
  if (mode === ResponseMode.STOP) {
    const wn = w[0] * nx + w[1] * ny + w[2] * nz;
    const k = wn > 0 ? wn : 0;
    v.x[a] = k * nx;
    v.y[a] = k * ny;
    v.z[a] = k * nz;
    return;
  }
  if (un >= 0) return;
  restitutionOf(physics, a, s.pair, 0);
  const e1 = mode === ResponseMode.BOUNCE && -un >= s.rest[0] ? s.pair[0] : 0;
  if (e1 === 0) slide(s, a, n, o);
  else {
    const k = (1 + e1) * un;
    u[0] -= k * nx;
    u[1] -= k * ny;
    u[2] -= k * nz;
  }
  pairFriction(physics, a, s.evB[e], s.pair, 5);
  if (s.pair[5] > 0) {
    s.pair[6] = -s.pair[5] * (1 + e1) * un;
    frictionImpact(u, n, o, s.pair, 6);
  }
  v.x[a] = w[0] + u[0];
  v.y[a] = w[1] + u[1];
  v.z[a] = w[2] + u[2];
}

/**
 * Exchanges the impulse of event `e` between dynamic spheres `a` (owner) and `b`, on their relative
 * normal velocity (momentum conserved; kinetic energy not raised, kept with e = 1). `b` may be capped
 * (it stays where it is for the rest of the tick, its velocity kept): the caller then caps `a` too
 * when it still approaches b's place (`approaches`), and meets a partner jammed at the last tick as
 * an obstacle instead (resolve.ts `processEvent`).
 */
export function reactPair(physics: Physics, s: ResponseState, a: number, b: number, e: number): void {
  const v = physics.components.Velocity;
  const o = 3 * e;
  const nx = s.evN[o], ny = s.evN[o + 1], nz = s.evN[o + 2];
  const un = (v.x[a] - v.x[b]) * nx + (v.y[a] - v.y[b]) * ny + (v.z[a] - v.z[b]) * nz;
  if (!(un < 0)) return;
  const pair = s.pair;
  restitutionOf(physics, a, pair, 0);
  restitutionOf(physics, b, pair, 1);
  inverseMass(physics, a, pair, 2);
  inverseMass(physics, b, pair, 3);
  const ea = pair[0], eb = pair[1], ia = pair[2], ib = pair[3];
  const e1 = -un >= s.rest[0] ? (ea > eb ? ea : eb) : 0;
  const j = (-(1 + e1) * un) / (ia + ib);
  const ja = j * ia, jb = j * ib;
  v.x[a] += ja * nx;
  v.y[a] += ja * ny;
  v.z[a] += ja * nz;
  v.x[b] -= jb * nx;
  v.y[b] -= jb * ny;
  v.z[b] -= jb * nz;
  pairFriction(physics, a, b, pair, 5);
  if (pair[5] > 0) {
    pair[4] = j;
    frictionPair(physics, a, b, s.evN, o, pair);
  }
}

/** Whether dynamic `a` moves toward the partner of event `e` (its velocity along −n, n from the partner toward a). */
export function approaches(physics: Physics, s: ResponseState, a: number, e: number): boolean {
  const v = physics.components.Velocity;
  const o = 3 * e;
  return v.x[a] * s.evN[o] + v.y[a] * s.evN[o + 1] + v.z[a] * s.evN[o + 2] < 0;
}
