/**
 * The character controller stage (docs/character.md): moves every character (a sphere with
 * Position, Velocity and Character) by collide-and-slide, in ascending entity id, after the
 * response and before the contact diff.
 *
 * Per character, world frame, length units, `u` its unit up vector, `v` the Velocity the game wrote
 * (the desired velocity, per second):
 * 1. Motion. Grounded at the last tick and not jumping (v·u <= 0): the horizontal part h = v − (v·u)u
 *    is walked along the ground plane (normal n) at the same horizontal speed,
 *    m = (h − u (h·n)/(n·u)) dt (no gravity). Otherwise (airborne, or a jump: v·u > 0 while
 *    grounded): v += gravity × gravityScale × dt (semi-implicit Euler), m = v dt.
 * 2. Carry. Grounded on a moving box (a kinematic platform), it first moves with the box, by the
 *    box's velocity × dt (slid against the other obstacles).
 * 3. Push-out. An overlap with an obstacle (a kinematic box that moved into it) is pushed out along
 *    the contact normal, deepest first (up to `PUSH_PASSES` times).
 * 4. Collide-and-slide of m (up to `MAX_SLIDES` impacts): the earliest impact of the exact swept
 *    casts (castSphereBox, castSphereSphere) against every candidate, then the rest of m is clipped
 *    against the surface: walking on ground, re-projected onto a walkable surface at the same
 *    horizontal speed; against a wall (steeper than maxSlope) its horizontal part is clipped against
 *    the wall's horizontal normal first and the rest against the wall only when it moves into it
 *    (so sliding along a steep surface never moves up: see `clip`); a ceiling clips m. Two planes
 *    meeting: the motion follows their crease; three: it stops (Quake's PM_SlideMove). Walking into
 *    a wall while grounded tries a step (`tryStep`): up by stepHeight, forward, down onto a walkable
 *    surface no higher than stepHeight above the foot; else the wall stops it.
 * 5. Ground. A downward cast by snapDistance (grounded and not jumping: it snaps onto walkable
 *    ground within it, sliding off steep edges on the way) or by `PROBE` × the pose's scale
 *    (airborne: landing) finds the ground: a surface whose normal is within maxSlope of up.
 * 6. Push-out again (rounding), the contacts touched into `physics.contacts`, Velocity = the
 *    motion actually done / dt (without the carry), with its up component zeroed when grounded.
 *
 * Obstacles are taken at their pose at the end of the tick: static boxes, moving boxes and kinematic
 * spheres at Position + Velocity × dt (the integration moves them after this stage; at Position
 * when `integrate` is off), dynamic spheres where the response left them, other characters where
 * they are now (moved already when their id is lower). Candidates come from the step's grids (the
 * static grid and the dynamic grid of moving bodies, and of every sphere when spheres may collide),
 * queried with bounds that cover everything the character may do this tick. A dynamic sphere hit
 * gets an impulse along the normal: its approach speed times mc / (mc + ms) (mc = Character.mass,
 * 0 = infinite: the full approach speed), taking effect at the next tick. Sensors are ignored.
 * @module
 */
import { castSphereBox } from '../geometry/castSphereBox.js';
import { castSphereSphere } from '../geometry/castSphereSphere.js';
import { contactSphereBox } from '../geometry/contactSphereBox.js';
import { contactSphereSphere } from '../geometry/contactSphereSphere.js';
import { ScratchBox, ScratchCast, ScratchContact, ScratchSphere, ScratchVec3 } from '../geometry/scratch.js';
import { WHOLE_TICK } from '../grid/cells.js';
import { gridQuerySlice } from '../grid/query.js';
import { sortUniqueIds } from '../grid/sortIds.js';
import { heapSort } from '../math/heapSort.js';
import { cosineAt } from '../math/trig.js';
import { BOUNDS_PAD, loadBox } from '../physics/bodyReads.js';
import { contactListCopy, contactListReserve } from '../physics/idLists.js';
import { internalsOf } from '../physics/internal.js';
import { BodyFlags, type ContactList, type Physics } from '../physics/physicsTypes.js';
import { isDynamic } from '../response/isDynamic.js';
import { createCharacterState, CW_CANDIDATES, CW_CASTS, CW_CHARACTERS, CW_STEPS, type CharacterState } from './characterState.js';
import { isCharacter } from './isCharacter.js';

const { SPHERE, BOX, MOVING, SENSOR } = BodyFlags;

/** Impacts resolved per slide. */
export const MAX_SLIDES = 6;
/** Push-out passes (deepest overlap first) at each push-out. */
export const PUSH_PASSES = 8;
/** An overlap deeper than this fraction of the pose's scale (1 + |centre|₁ + radius) is pushed out. */
export const PUSH_EPS = 1e-12;
/** Landing probe of an airborne character: this fraction of the pose's scale. */
export const PROBE = 1e-9;
/** A touch (toi 0) approaching slower than this fraction of the motion is not an impact. */
export const APPROACH_EPS = 1e-12;

// Slots of W, the working values of the character being moved (per call: written before read).
/** Position now. */
const PX = 0;
/** Motion left. */
const MX = 3;
/** Up. */
const UX = 6;
/** Impact of the last cast: toi, normal, point on the obstacle. */
const HT = 9, HN = 10, HP = 13;
/** The ground found: normal, point. */
const GN = 16, GP = 19;
/** Position at the start of the tick, and the carry done. */
const P0 = 22, CARRY = 25;
/** Saved position and motion (a step attempt, a probe). */
const SP = 28, SM = 31;
/** Planes of the current slide (3 normals). */
const PL = 34;
/** Velocity (per second) of the character's own motion: the impulse on dynamic spheres. */
const VX = 43;
/** Scale of the pose (1 + |centre|₁ + radius), radius, cos(maxSlope), stepHeight, snapDistance, dt. */
const SCALE = 46, RAD = 47, COS = 48, STEP = 49, SNAP = 50, DT = 51;
/** The rest of the motion, a contact's depth, an obstacle's end-of-tick lag (× its velocity). */
const TMP = 52, DEPTH = 55, LAG = 56;
/** Argument of `record` (the contact's toi) and of `probe` (the distance): no double crosses a call. */
const ARG = 57;
/** Result of `dot`. */
const DOT = 58;
const W = new Float64Array(59);

/** The character's shape for the casts, an obstacle's, the results (per call scratch). */
const me = new ScratchSphere();
const motion = new ScratchVec3();
const otherSphere = new ScratchSphere();
const otherBox = new ScratchBox();
const cast = new ScratchCast();
const contact = new ScratchContact();

/**
 * W[DOT] = W[a..a+2] · W[b..b+2]. The result travels in W, not as a return value: a double returned
 * from a call that V8 does not inline is boxed (docs/internals.md, performance idiom 1), and in the
 * character stage's deep inlining the inliner's budget runs out (measured: about 1.8 KB per tick at
 * 300 characters, test/character/allocation.test.ts).
 */
function dot(a: number, b: number): void {
  W[DOT] = W[a] * W[b] + W[a + 1] * W[b + 1] + W[a + 2] * W[b + 2];
}

/** Loads obstacle `x` at its end-of-tick pose into `otherSphere` or `otherBox`; returns whether it is a sphere. */
function loadObstacle(physics: Physics, x: number, f: number): boolean {
  const { Position: p, Velocity: v } = physics.components;
  const lag = (f & MOVING) !== 0 && !isDynamic(f) && !isCharacter(f) ? W[LAG] : 0;
  const cx = p.x[x] + (lag === 0 ? 0 : v.x[x] * lag);
  const cy = p.y[x] + (lag === 0 ? 0 : v.y[x] * lag);
  const cz = p.z[x] + (lag === 0 ? 0 : v.z[x] * lag);
  if ((f & SPHERE) !== 0) {
    otherSphere.center.x = cx;
    otherSphere.center.y = cy;
    otherSphere.center.z = cz;
    otherSphere.radius = physics.components.Sphere.radius[x];
    return true;
  }
  loadBox(physics, x, otherBox);
  otherBox.center.x = cx;
  otherBox.center.y = cy;
  otherBox.center.z = cz;
  return false;
}

function loadMe(): void {
  me.center.x = W[PX];
  me.center.y = W[PX + 1];
  me.center.z = W[PX + 2];
  me.radius = W[RAD];
}

/**
 * Casts the character from W[PX] along W[MX] against every candidate but `skip`; returns the
 * obstacle hit first (0: none) with W[HT] (toi), W[HN] (normal toward the character), W[HP]
 * (point). A touch that does not approach is not a hit. Ties: the more upward normal, then the
 * lower id (candidates are in ascending id).
 */
function castAll(physics: Physics, s: CharacterState, skip: number): number {
  dot(MX, MX);
  const len2 = W[DOT];
  if (!(len2 > 0)) return 0;
  const len = Math.sqrt(len2);
  loadMe();
  motion.x = W[MX];
  motion.y = W[MX + 1];
  motion.z = W[MX + 2];
  const flags = internalsOf(physics).flags;
  const ids = s.near.ids;
  let best = 0;
  let bestT = 2;
  let bestUp = -2;
  for (let k = 0; k < s.near.count; k++) {
    const x = ids[k];
    if (x === skip) continue;
    s.work[CW_CASTS]++;
    const hit = loadObstacle(physics, x, flags[x]) ? castSphereSphere(me, motion, otherSphere, cast) : castSphereBox(me, motion, otherBox, cast);
    if (!hit) continue;
    const n = cast.normal;
    const t = cast.toi;
    if (t === 0 && !(n.x * W[MX] + n.y * W[MX + 1] + n.z * W[MX + 2] < -APPROACH_EPS * len)) continue;
    const up = n.x * W[UX] + n.y * W[UX + 1] + n.z * W[UX + 2];
    if (t < bestT || (t === bestT && up > bestUp)) {
      best = x;
      bestT = t;
      bestUp = up;
      W[HN] = n.x;
      W[HN + 1] = n.y;
      W[HN + 2] = n.z;
      W[HP] = cast.point.x;
      W[HP + 1] = cast.point.y;
      W[HP + 2] = cast.point.z;
    }
  }
  W[HT] = bestT;
  return best;
}

/** Moves W[PX] by the fraction W[HT] of W[MX] and leaves the rest of the motion in W[MX]. */
function advanceToHit(): void {
  const t = W[HT];
  for (let k = 0; k < 3; k++) {
    W[PX + k] += t * W[MX + k];
    W[MX + k] *= 1 - t;
  }
}

/** Whether the normal at slot `n` is ground (within maxSlope of up). */
function walkable(n: number): boolean {
  dot(n, UX);
  return W[DOT] >= W[COS];
}

/** Removes from W[MX] its component into the unit normal at slot `n` when it moves into it. */
function clipInto(n: number): void {
  dot(MX, n);
  const d = W[DOT];
  if (!(d < 0)) return;
  for (let k = 0; k < 3; k++) W[MX + k] -= d * W[n + k];
}

/**
 * Clips the motion W[MX] against the surface of normal W[HN] (slot `n`). `walking` (grounded, not
 * jumping): on ground, the horizontal part of the motion is re-projected onto it at the same
 * horizontal speed. A steep surface (a wall): the horizontal part is clipped against its horizontal
 * normal nh (unit), then the rest against n only if it still moves into it. With d = m − (m·nh)nh
 * (no component into nh) the second clip adds −(d·n) n, whose up component −(d·n)(n·u) is <= 0
 * exactly when d·n < 0 moves into the wall (n·u >= 0): sliding along a wall never climbs it. A
 * ceiling (n·u < 0) clips the motion.
 */
function clip(n: number, walking: boolean): void {
  dot(n, UX);
  const nu = W[DOT];
  if (nu >= W[COS]) {
    if (!walking) {
      clipInto(n);
      return;
    }
    dot(MX, UX);
    const mu = W[DOT];
    for (let k = 0; k < 3; k++) W[MX + k] -= mu * W[UX + k];
    dot(MX, n);
    const k1 = W[DOT] / nu;
    for (let k = 0; k < 3; k++) W[MX + k] -= k1 * W[UX + k];
    return;
  }
  if (nu > 0) {
    for (let k = 0; k < 3; k++) W[TMP + k] = W[n + k] - nu * W[UX + k];
    dot(TMP, TMP);
    const l = Math.sqrt(W[DOT]);
    for (let k = 0; k < 3; k++) W[TMP + k] /= l;
    clipInto(TMP);
  }
  clipInto(n);
}

/**
 * Adds the last hit's normal to the slide's planes (count `planes`) and keeps W[MX] out of all of
 * them: along the crease of two, zero against three. Returns the new plane count.
 */
function addPlane(planes: number): number {
  const o = PL + 3 * planes;
  for (let k = 0; k < 3; k++) W[o + k] = W[HN + k];
  dot(MX, MX);
  const len = Math.sqrt(W[DOT]);
  for (let i = 0; i < planes; i++) {
    const pi = PL + 3 * i;
    dot(MX, pi);
    if (!(W[DOT] < -APPROACH_EPS * len)) continue;
    // crease of plane i and the new one
    const ax = W[pi], ay = W[pi + 1], az = W[pi + 2];
    const bx = W[o], by = W[o + 1], bz = W[o + 2];
    W[TMP] = ay * bz - az * by;
    W[TMP + 1] = az * bx - ax * bz;
    W[TMP + 2] = ax * by - ay * bx;
    dot(TMP, TMP);
    const c2 = W[DOT];
    if (!(c2 > 1e-20)) {
      W[MX] = W[MX + 1] = W[MX + 2] = 0;
      return planes + 1;
    }
    dot(MX, TMP);
    const k1 = W[DOT] / c2;
    for (let k = 0; k < 3; k++) W[MX + k] = k1 * W[TMP + k];
    dot(MX, MX);
    const len2 = Math.sqrt(W[DOT]);
    for (let j = 0; j <= planes; j++) {
      dot(MX, PL + 3 * j);
      if (W[DOT] < -APPROACH_EPS * len2) {
        W[MX] = W[MX + 1] = W[MX + 2] = 0;
        break;
      }
    }
    break;
  }
  return planes < 2 ? planes + 1 : planes;
}

/** Copies 3 slots. */
function copy3(to: number, from: number): void {
  W[to] = W[from];
  W[to + 1] = W[from + 1];
  W[to + 2] = W[from + 2];
}

/**
 * Records the last hit (obstacle `x`, W[HN], W[HP], depth W[DEPTH], toi W[ARG]) as a contact of
 * character `a`.
 */
function record(physics: Physics, s: CharacterState, a: number, x: number, start: number): void {
  const list = s.list;
  const sphere = (internalsOf(physics).flags[x] & SPHERE) !== 0;
  const swap = sphere && x < a;
  const pa = swap ? x : a;
  const pb = swap ? a : x;
  for (let i = start; i < list.count; i++) if (list.a[i] === pa && list.b[i] === pb) return;
  contactListReserve(list, list.count + 1);
  const i = list.count++;
  list.a[i] = pa;
  list.b[i] = pb;
  const sign = swap ? -1 : 1;
  list.nx[i] = sign * W[HN];
  list.ny[i] = sign * W[HN + 1];
  list.nz[i] = sign * W[HN + 2];
  list.depth[i] = W[DEPTH];
  // The point is on b's surface: the obstacle's, or the character's when it is b.
  const r = W[RAD];
  list.px[i] = swap ? W[PX] - r * W[HN] : W[HP];
  list.py[i] = swap ? W[PX + 1] - r * W[HN + 1] : W[HP + 1];
  list.pz[i] = swap ? W[PX + 2] - r * W[HN + 2] : W[HP + 2];
  list.toi[i] = W[ARG];
  list.flags[i] = 0;
}

/** A dynamic sphere `x` hit along W[HN]: its velocity gains the approach speed × mc / (mc + ms) along −W[HN]. */
function push(physics: Physics, a: number, x: number): void {
  const { Velocity: v, Response: R, Sphere: S } = physics.components;
  // n from the character toward the sphere is −W[HN]; approach speed of the character relative to x
  const vrel = -((W[VX] - v.x[x]) * W[HN] + (W[VX + 1] - v.y[x]) * W[HN + 1] + (W[VX + 2] - v.z[x]) * W[HN + 2]);
  if (!(vrel > 0)) return;
  const mc = physics.components.Character.mass[a];
  const rs = S.radius[x];
  const ms = R.mass[x] > 0 ? R.mass[x] : rs > 0 ? rs * rs * rs : 1;
  let k = vrel;
  if (mc > 0) {
    const pushed = vrel * mc, sum = mc + ms;
    // Past the doubles' range (masses near Number.MAX_VALUE: vrel·mc or mc + ms overflows) the share
    // is taken of halved masses: 1.7e308 against 1.7e308 at 1.5 u/s gave the ball a NaN velocity.
    k = pushed < Infinity && sum < Infinity ? pushed / sum : vrel * ((0.5 * mc) / (0.5 * mc + 0.5 * ms));
  }
  v.x[x] -= k * W[HN];
  v.y[x] -= k * W[HN + 1];
  v.z[x] -= k * W[HN + 2];
}

/**
 * Collide-and-slide of W[MX] from W[PX] (`walking`: grounded and not jumping; `skip`: an obstacle
 * not to collide with, the platform during the carry). Returns the last walkable obstacle hit
 * (its normal in W[GN], point in W[GP]) or 0.
 */
function slide(physics: Physics, s: CharacterState, a: number, walking: boolean, skip: number, start: number): number {
  let ground = 0;
  let planes = 0;
  let stepped = false;
  const flags = internalsOf(physics).flags;
  for (let it = 0; it < MAX_SLIDES; it++) {
    const x = castAll(physics, s, skip);
    if (x === 0) {
      for (let k = 0; k < 3; k++) W[PX + k] += W[MX + k];
      W[MX] = W[MX + 1] = W[MX + 2] = 0;
      return ground;
    }
    advanceToHit();
    W[DEPTH] = 0;
    W[ARG] = W[HT];
    record(physics, s, a, x, start);
    if (isDynamic(flags[x])) push(physics, a, x);
    dot(HN, UX);
    const nu = W[DOT];
    if (nu >= W[COS]) {
      // walkable
      ground = x;
      copy3(GN, HN);
      copy3(GP, HP);
    } else if (walking && !stepped && W[STEP] > 0 && nu > -1e-9) {
      stepped = true;
      const g = tryStep(physics, s, skip);
      if (g !== 0) {
        s.work[CW_STEPS]++;
        ground = g;
        planes = 0;
        continue;
      }
    }
    clip(HN, walking);
    planes = addPlane(planes);
    dot(MX, MX);
    if (!(W[DOT] > 0)) return ground;
  }
  return ground;
}

/**
 * A step: from W[PX], blocked by a wall with the motion left in W[MX], tries up by stepHeight
 * (less under a ceiling), the horizontal motion left forward, then down onto a walkable surface
 * whose contact point is at most stepHeight above the foot (W[PX]·u − r at the wall). On success
 * the character is on it, W[MX] holds the horizontal motion not yet done, the ground is in
 * W[GN], W[GP], and the obstacle stood on is returned; else W[PX] and W[MX] are as they were and 0.
 */
function tryStep(physics: Physics, s: CharacterState, skip: number): number {
  copy3(SP, PX);
  copy3(SM, MX);
  dot(PX, UX);
  const foot = W[DOT] - W[RAD];
  dot(MX, UX);
  const mu = W[DOT];
  for (let k = 0; k < 3; k++) W[MX + k] -= mu * W[UX + k];
  copy3(TMP, MX); // the horizontal motion
  dot(TMP, TMP);
  const hLen2 = W[DOT];
  const h = W[STEP];
  if (hLen2 > 0) {
    // up
    for (let k = 0; k < 3; k++) W[MX + k] = h * W[UX + k];
    if (castAll(physics, s, skip) === 0) W[HT] = 1;
    const upT = W[HT];
    advanceToHit();
    const up = upT * h;
    if (up > 0) {
      // forward
      copy3(MX, TMP);
      const fwd = castAll(physics, s, skip) === 0 ? 1 : W[HT];
      if (fwd * Math.sqrt(hLen2) > 1e-9 * W[SCALE]) {
        W[HT] = fwd;
        advanceToHit();
        copy3(TMP, MX); // the horizontal motion not done
        // down, by the height gained
        for (let k = 0; k < 3; k++) W[MX + k] = -up * W[UX + k];
        const g = castAll(physics, s, skip);
        if (g !== 0 && walkable(HN)) {
          dot(HP, UX);
          if (W[DOT] - foot <= h * (1 + 1e-9) + 1e-12 * W[SCALE]) {
            advanceToHit();
            copy3(GN, HN);
            copy3(GP, HP);
            copy3(MX, TMP);
            return g;
          }
        }
      }
    }
  }
  copy3(PX, SP);
  copy3(MX, SM);
  return 0;
}

/**
 * Looks for ground below W[PX] within W[ARG] (length units): casts down, and (`slideOff`) slides
 * off steep surfaces on the way (up to three). On walkable ground it stays there (snapped) and
 * returns the obstacle, with W[GN], W[GP]; else W[PX] is as it was and 0.
 */
function probe(physics: Physics, s: CharacterState, slideOff: boolean): number {
  copy3(SP, PX);
  for (let k = 0; k < 3; k++) W[MX + k] = -W[ARG] * W[UX + k];
  for (let it = 0; it < 3; it++) {
    const x = castAll(physics, s, 0);
    if (x === 0) break;
    advanceToHit();
    if (walkable(HN)) {
      copy3(GN, HN);
      copy3(GP, HP);
      return x;
    }
    if (!slideOff) break;
    clip(HN, false);
    dot(MX, MX);
    if (!(W[DOT] > 1e-24 * W[SCALE] * W[SCALE])) break;
  }
  copy3(PX, SP);
  return 0;
}

/**
 * Pushes W[PX] out of every candidate it overlaps deeper than PUSH_EPS × scale, deepest first
 * (up to PUSH_PASSES), recording the contacts.
 */
function pushOut(physics: Physics, s: CharacterState, a: number, start: number): void {
  const flags = internalsOf(physics).flags;
  const ids = s.near.ids;
  const eps = PUSH_EPS * W[SCALE];
  for (let pass = 0; pass < PUSH_PASSES; pass++) {
    loadMe();
    let deepest = 0;
    let depth = eps;
    for (let k = 0; k < s.near.count; k++) {
      const x = ids[k];
      const hit = loadObstacle(physics, x, flags[x]) ? contactSphereSphere(me, otherSphere, contact) : contactSphereBox(me, otherBox, contact);
      if (!hit || !(contact.depth > depth)) continue;
      deepest = x;
      depth = contact.depth;
      W[HN] = contact.normal.x;
      W[HN + 1] = contact.normal.y;
      W[HN + 2] = contact.normal.z;
      W[HP] = contact.point.x;
      W[HP + 1] = contact.point.y;
      W[HP + 2] = contact.point.z;
    }
    if (deepest === 0) return;
    W[DEPTH] = depth;
    W[ARG] = 0;
    record(physics, s, a, deepest, start);
    for (let k = 0; k < 3; k++) W[PX + k] += depth * W[HN + k];
  }
}

/** Whether obstacle `x` may block character `a`: a body, not itself, not a sensor, filters pass. */
function mayBlock(physics: Physics, a: number, x: number): boolean {
  const f = internalsOf(physics).flags[x];
  if (x === a || (f & (SPHERE | BOX)) === 0 || (f & SENSOR) !== 0) return false;
  const { group, mask } = physics.components.CollisionFilter;
  return (group[a] & mask[x]) !== 0 && (group[x] & mask[a]) !== 0;
}

/**
 * Lists the candidates around W[PX] within `reach` (W[TMP]) plus the radius into `s.near`,
 * ascending, filtered. One query per character and tick: the reach covers everything it may do.
 */
function query(physics: Physics, s: CharacterState, a: number): void {
  const bp = internalsOf(physics).broadphase;
  const b = s.bounds;
  const reach = W[RAD] + W[TMP];
  const pad = BOUNDS_PAD * (W[SCALE] + reach);
  for (let k = 0; k < 3; k++) {
    b[k] = W[PX + k] - reach - pad;
    b[k + 3] = W[PX + k] + reach + pad;
  }
  const near = s.near;
  near.count = 0;
  gridQuerySlice(bp.staticGrid, near, b, 0, WHOLE_TICK);
  if (bp.dynamicGrid.count > 0) gridQuerySlice(bp.dynamicGrid, near, b, 0, WHOLE_TICK);
  const n = sortUniqueIds(near.ids, near.count);
  let m = 0;
  for (let k = 0; k < n; k++) {
    const x = near.ids[k];
    if (mayBlock(physics, a, x)) near.ids[m++] = x;
  }
  near.count = m;
  s.work[CW_CANDIDATES] += m;
}

/** Sets W[SCALE] from W[PX] and W[RAD]. */
function setScale(): void {
  W[SCALE] = 1 + Math.abs(W[PX]) + Math.abs(W[PX + 1]) + Math.abs(W[PX + 2]) + W[RAD];
}

/** Moves character `a` through one tick (see the module notes). */
function moveCharacter(physics: Physics, s: CharacterState, a: number): void {
  const internal = internalsOf(physics);
  const { Position: p, Velocity: v, Sphere: S, Character: C } = physics.components;
  const flags = internal.flags;
  const g = internal.gravity;
  const dt = physics.dt;
  const start = s.list.count;
  W[DT] = dt;
  W[LAG] = physics.integrate ? dt : 0;
  W[PX] = p.x[a];
  W[PX + 1] = p.y[a];
  W[PX + 2] = p.z[a];
  copy3(P0, PX);
  W[UX] = C.upX[a];
  W[UX + 1] = C.upY[a];
  W[UX + 2] = C.upZ[a];
  W[RAD] = S.radius[a];
  // not Math.cos: the same bits on every engine (math/trig.ts); in place: no double crosses the call
  W[COS] = C.maxSlope[a];
  cosineAt(W, COS);
  W[STEP] = C.stepHeight[a];
  W[SNAP] = C.snapDistance[a];
  setScale();
  const vx = v.x[a], vy = v.y[a], vz = v.z[a];
  const vu = vx * W[UX] + vy * W[UX + 1] + vz * W[UX + 2];
  let ground = C.grounded[a] !== 0 ? C.groundEid[a] : 0;
  // the ground must still be a body this character collides with
  if (ground !== 0 && (ground >= flags.length || !mayBlock(physics, a, ground))) ground = 0;
  const walking = ground !== 0 && !(vu > 0);
  // 1. the motion
  if (walking) {
    const nu = C.nx[a] * W[UX] + C.ny[a] * W[UX + 1] + C.nz[a] * W[UX + 2];
    const hx = vx - vu * W[UX], hy = vy - vu * W[UX + 1], hz = vz - vu * W[UX + 2];
    const k = nu > 0 ? (hx * C.nx[a] + hy * C.ny[a] + hz * C.nz[a]) / nu : 0;
    W[VX] = hx - k * W[UX];
    W[VX + 1] = hy - k * W[UX + 1];
    W[VX + 2] = hz - k * W[UX + 2];
  } else {
    const gs = C.gravityScale[a] * dt;
    W[VX] = vx + g[0] * gs;
    W[VX + 1] = vy + g[1] * gs;
    W[VX + 2] = vz + g[2] * gs;
  }
  // the candidates: one query covering the carry, a push-out (up to a radius), the motion, a step
  // and the snap
  W[CARRY] = W[CARRY + 1] = W[CARRY + 2] = 0;
  const carried = ground !== 0 && (flags[ground] & (BOX | MOVING)) === (BOX | MOVING) && W[LAG] > 0;
  const cx = carried ? v.x[ground] * dt : 0, cy = carried ? v.y[ground] * dt : 0, cz = carried ? v.z[ground] * dt : 0;
  dot(VX, VX);
  W[TMP] = Math.sqrt(cx * cx + cy * cy + cz * cz) + Math.sqrt(W[DOT]) * dt + W[STEP] + W[SNAP] + W[RAD];
  query(physics, s, a);
  // 2. the carry, on a moving box
  if (carried) {
    W[MX] = cx;
    W[MX + 1] = cy;
    W[MX + 2] = cz;
    slide(physics, s, a, false, ground, start);
    for (let k = 0; k < 3; k++) W[CARRY + k] = W[PX + k] - W[P0 + k];
  }
  // 3. push-out
  pushOut(physics, s, a, start);
  // 4. collide-and-slide
  for (let k = 0; k < 3; k++) W[MX + k] = W[VX + k] * dt;
  setScale();
  const hitGround = slide(physics, s, a, walking, 0, start);
  // 5. the ground
  const movedUp = (W[PX] - W[P0] - W[CARRY]) * W[UX] + (W[PX + 1] - W[P0 + 1] - W[CARRY + 1]) * W[UX + 1] + (W[PX + 2] - W[P0 + 2] - W[CARRY + 2]) * W[UX + 2];
  let found = 0;
  if (walking) {
    W[ARG] = W[SNAP];
    found = probe(physics, s, true);
  } else if (!(movedUp > 0) || hitGround !== 0) {
    W[ARG] = PROBE * W[SCALE];
    found = probe(physics, s, false);
  }
  // 6. push-out (rounding), contacts, outputs
  pushOut(physics, s, a, start);
  if (found !== 0) {
    copy3(HN, GN);
    copy3(HP, GP);
    W[DEPTH] = 0;
    W[ARG] = ground === found ? 0 : 1;
    record(physics, s, a, found, start);
  }
  C.grounded[a] = found !== 0 ? 1 : 0;
  C.groundEid[a] = found;
  C.nx[a] = found !== 0 ? W[GN] : 0;
  C.ny[a] = found !== 0 ? W[GN + 1] : 0;
  C.nz[a] = found !== 0 ? W[GN + 2] : 0;
  let ox = (W[PX] - W[P0] - W[CARRY]) / dt;
  let oy = (W[PX + 1] - W[P0 + 1] - W[CARRY + 1]) / dt;
  let oz = (W[PX + 2] - W[P0 + 2] - W[CARRY + 2]) / dt;
  if (found !== 0) {
    const ou = ox * W[UX] + oy * W[UX + 1] + oz * W[UX + 2];
    ox -= ou * W[UX];
    oy -= ou * W[UX + 1];
    oz -= ou * W[UX + 2];
  }
  v.x[a] = ox;
  v.y[a] = oy;
  v.z[a] = oz;
  p.x[a] = W[PX];
  p.y[a] = W[PX + 1];
  p.z[a] = W[PX + 2];
}

/** Whether contact `i` of list `l` comes after contact `j` by (a, b). */
function after(l: ContactList, i: number, j: number): boolean {
  return l.a[i] > l.a[j] || (l.a[i] === l.a[j] && l.b[i] > l.b[j]);
}

/** Whether the sorted `list` has the pair (a, b) (binary search). */
function hasPair(list: ContactList, n: number, a: number, b: number): boolean {
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const ma = list.a[mid], mb = list.b[mid];
    if (ma === a && mb === b) return true;
    if (ma < a || (ma === a && mb < b)) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * Merges the characters' contacts into the sorted `physics.contacts` (from the back, in place), but
 * for a pair it already has (a dynamic sphere's path found it first) and for a pair recorded twice
 * (two characters touching); the list stays strictly ascending by (a, b) (src/snapshot/checks.ts).
 */
function mergeContacts(physics: Physics, s: CharacterState): void {
  const mine = s.list;
  const list = physics.contacts;
  const n0 = list.count;
  if (s.order.length < mine.count) s.order = new Int32Array(Math.max(mine.count, 2 * s.order.length));
  const order = s.order;
  let n = 0;
  for (let i = 0; i < mine.count; i++) if (!hasPair(list, n0, mine.a[i], mine.b[i])) order[n++] = i;
  heapSort(mine, after, order, n);
  // A pair of two characters is recorded by both (each found the other): keep one, the first
  // recorded (lowest index, so the choice does not depend on the sort), for strictly ascending pairs.
  let m = 0;
  for (let k = 0; k < n; k++) {
    const r = order[k];
    if (m > 0 && mine.a[order[m - 1]] === mine.a[r] && mine.b[order[m - 1]] === mine.b[r]) {
      if (r < order[m - 1]) order[m - 1] = r;
    } else order[m++] = r;
  }
  n = m;
  const total = n0 + n;
  contactListReserve(list, total);
  let i = n0 - 1;
  let j = total - 1;
  for (let k = n - 1; k >= 0; k--) {
    const r = order[k];
    const a = mine.a[r], b = mine.b[r];
    while (i >= 0 && (list.a[i] > a || (list.a[i] === a && list.b[i] > b))) contactListCopy(list, i--, list, j--);
    contactListCopy(mine, r, list, j--);
  }
  list.count = total;
}

/**
 * The character stage: moves every character (ascending id) through the tick and merges their
 * contacts into `physics.contacts`. Reads Position, Velocity, the shapes, Character, the filters,
 * gravity, the grids; writes the characters' Position, Velocity and Character outputs, the
 * Velocity of dynamic spheres they push, `physics.contacts`.
 */
export function moveCharacters(physics: Physics): void {
  const internal = internalsOf(physics);
  if (internal.character === null) internal.character = createCharacterState();
  const s = internal.character;
  s.work.fill(0);
  s.list.count = 0;
  const { flags, maxEid } = internal;
  for (let a = 1; a <= maxEid; a++) {
    if (!isCharacter(flags[a])) continue;
    s.work[CW_CHARACTERS]++;
    moveCharacter(physics, s, a);
  }
  mergeContacts(physics, s);
}
