/**
 * The end-of-tick projection: the response's fallback, and what makes it robust against moving
 * obstacles. After every dynamic body has moved to the end of the tick, each listed suspect
 * (suspects.ts: a capped body, a body whose path left its dynamic-grid item, a body pushed out of a
 * kinematic body at the start of the tick and stopped by a static one, a body this projection
 * moved) is checked against the kinematic bodies at their end-of-tick poses and the dynamic spheres
 * where they ended, and moved out of each it overlaps: a position-level projection (as position
 * based dynamics projects constraints, Müller et al. 2007), in passes (Gauss–Seidel, ascending
 * order of listing) until a pass moves nothing or leaves every sphere where one of the three passes
 * before it left it (`PROJECT_STILL`: its moves undo one another, as in a squeeze, which holds its
 * depth: a ball between a closing box and a wall is pushed out of the box and back by the wall,
 * pass after pass; in a row of balls of different masses the moves come back every second or third
 * pass): at most
 * `PROJECT_PASSES`, and past those up to `PROJECT_MAX_PASSES` while a pass still corrects more than
 * `PROJECT_TOL` (of a radius, or of a radii sum): the passes past the first few run only where a
 * cluster is still far from resolved (a heap pushed by a kinematic body, each of its balls capped;
 * an overfull squeeze that still creeps runs them all, a bounded price; stopping them on a lack of
 * progress in the corrections left spheres of a heap or of a crowd squeezed into a corner
 * overlapping by up to 0.33 of their radii sum), so that what is left is below the guarantee (1 % of
 * the radii sum) rather than where the first passes stopped.
 *
 * - Out of a kinematic body: along the contact normal n (from the body toward the sphere, world
 *   frame) by the depth; the relative normal velocity is made ≥ 0 (v −= min(0, (v − w)·n) n, w the
 *   body's velocity). The sphere is "pinned" for the rest of the pass, at level 0.
 * - Two dynamic spheres overlapping by more than `PROJECT_EPS` of their radii sum: moved apart along
 *   the line of centres, shares by inverse mass (past `PROJECT_PASSES` within 1 :
 *   `PROJECT_SHARE_RATIO`), but all of it to the other one when one is pinned
 *   and the other is not or is pinned at a higher level; the one moved all the way is pinned in
 *   turn, one level higher (so that a chain or a heap on a pusher moves as one, away from it: a
 *   shock propagation, as Guendelman et al. 2003 order a stack from the ground up; two pinned at the
 *   same level share). Past `PROJECT_PASSES` a pin holds a sphere only against a move back into
 *   what pinned it (within 45° of the way it was pushed, `s.pinNormal`): a ball touching a pusher's
 *   face can still move along it (a column of balls along the face, its top one pinned, was pressed
 *   into the floor pass after pass, the balls between leaving only by the slant of their contacts).
 *   An approach along n is removed by the inelastic impulse (momentum conserved). The other one is
 *   listed.
 * - Every move is swept against the static bodies (sweepStatic.ts) and stops at the first one: a
 *   dynamic sphere never ends inside, nor crosses, a static box. When the static body leaves no room
 *   (a squeeze), the sphere keeps overlapping the kinematic body, and that contact is reported with
 *   the depth left.
 * - After the last pass, the kinematic bodies once more (what is left is then between spheres), and
 *   the **yield** when two spheres are left overlapping by more than `PROJECT_YIELD` of their radii
 *   sum: passes over the spheres alone, nothing pinned by a kinematic body, so that a squeeze goes
 *   into the kinematic bodies (rule 2 of docs/response.md) rather than between two spheres pressed
 *   from both sides (a row driven into a wall: the pinned sphere at the box pushes the next, the
 *   wall stops the last, and one pair kept the whole squeeze, up to merged). Only spheres on a hard
 *   side of a squeeze move in it (SUSPECT_SQUEEZED, spread through touching spheres first): touching,
 *   through touching spheres, one a static body stopped in a separation (SUSPECT_STOPPED), or where
 *   the spheres touching two kinematic bodies meet (a vice); a heap an elevator lifts with nothing
 *   above it is on no hard side, and what the passes left there stays between its spheres. A sphere
 *   a static body stopped is blocked (pinned at level 0) along the way into that body (its normal,
 *   within 45°), so the separation runs out from the wall through the spheres pressing on it to the
 *   kinematic body as the pinning runs out from a pusher. `PROJECT_YIELD_PASSES`, then up to
 *   `PROJECT_YIELD_MAX` while they converge, until one moves nothing or its moves undo one another.
 * - At the end, every overlap of a suspect that touched a kinematic body (or took part in the
 *   yield) with one is reported as a contact with its depth at the end of the tick.
 * No allocation; the work is bounded: passes × suspects × the candidates of one sphere's bounds.
 * @module
 */
import { WHOLE_TICK } from '../grid/cells.js';
import { gridBuild, gridClear, gridInsert, gridSetCellSize } from '../grid/grid.js';
import { gridQuerySlice } from '../grid/query.js';
import { contactSphereBox } from '../geometry/contactSphereBox.js';
import { contactSphereSphere } from '../geometry/contactSphereSphere.js';
import { castSphereBox } from '../geometry/castSphereBox.js';
import { castSphereSphere } from '../geometry/castSphereSphere.js';
import { loadBox } from '../physics/bodyReads.js';
import { internalsOf } from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import { recordOverlap, RI_DEPTH, RI_NX, RI_PX, RI_TOI } from './contactRecords.js';
import { inverseMass } from './react.js';
import { PROJECT_END_SLOTS, R_PROJECTED, R_SUSPECTS, type ResponseState } from './responseState.js';
import { listSuspect, SUSPECT_KINEMATIC, SUSPECT_SQUEEZED, SUSPECT_STOPPED } from './suspects.js';
import { isDynamic } from './isDynamic.js';
import { wakeIntoTick } from './sleep.js';
import { sweepStatic } from './sweepStatic.js';
import { PATH_SLACK, queryPathsAtEnd } from './pathGrid.js';
import { trackPath } from './paths.js';

const { SPHERE, BOX, MOVING, SENSOR } = BodyFlags;

/** Passes of the projection per tick while anything moves. */
export const PROJECT_PASSES = 8;
/**
 * Past `PROJECT_PASSES`, two spheres share a separation by inverse mass only up to this ratio (the
 * lighter one makes at most this many times the heavier one's part): a light ball between two heavy
 * ones, each correction made almost all by the light one, undid one overlap into the other, pass after
 * pass, and a heap of masses 2^±6.6 ended its 128 passes with overlaps of 1.4e-2 of a radii sum
 * shrinking by about 1e-3 a pass (then the yield moved balls into the pusher, or left two 1.03 %
 * apart). The shares of the first passes are the masses'; positions carry no momentum, and the
 * impulse that removes an approach stays by mass.
 */
export const PROJECT_SHARE_RATIO = 4;
/** The least share of a separation past `PROJECT_PASSES` (`massShare`). */
const LEAST_SHARE = 1 / (PROJECT_SHARE_RATIO + 1);
/** Most passes per tick: past `PROJECT_PASSES`, only while a pass corrects more than `PROJECT_TOL`. */
export const PROJECT_MAX_PASSES = 128;
/** A pass past `PROJECT_PASSES` whose deepest correction is at most this fraction of a radius (radii sum) is the last. */
export const PROJECT_TOL = 1e-3;
/**
 * A pass after which no suspect is farther than this fraction of its radius (in x, y or z) from
 * where the pass before, or the second or third before, left it is the last: its moves undo one
 * another, and the next would repeat them.
 */
export const PROJECT_STILL = 1e-7;
/** Two dynamic spheres overlapping by at most this fraction of their radii sum are left as they are. */
export const PROJECT_EPS = 1e-6;
/**
 * The yield (a squeeze): two spheres the passes left overlapping by more than this fraction of their
 * radii sum, on a hard side of a squeeze, are moved apart into the kinematic bodies (module notes).
 */
export const PROJECT_YIELD = 2e-3;
/** Passes of the yield; more (up to `PROJECT_YIELD_MAX`) only while it converges. */
export const PROJECT_YIELD_PASSES = 32;
/**
 * Most passes of the yield: past `PROJECT_YIELD_PASSES`, only while the deepest correction of its
 * last two passes (fractions of a radii sum) is beyond `PROJECT_YIELD` and below
 * `PROJECT_YIELD_RATE` of that of the two before (it converges): a row of seven balls (masses 2^±3)
 * a box stopped past its squeeze shrank its overlap by about 0.87 every second pass and ended the 32
 * at 1.0003 % of a radii sum, 0.12 % now (test/response/response.robust.properties.test.ts).
 */
export const PROJECT_YIELD_MAX = 96;
/** The yield's passes past `PROJECT_YIELD_PASSES` go on while the deepest correction shrinks at least this fast (per two passes). */
export const PROJECT_YIELD_RATE = 0.98;
/**
 * The pass number (`ResponseState.pinned`, a byte) of the yield's first pass: after the passes
 * (1 to `PROJECT_MAX_PASSES`) and their last kinematic phase (at most `PROJECT_MAX_PASSES` + 1);
 * the yield's last is `PROJECT_MAX_PASSES` + 1 + `PROJECT_YIELD_MAX` (225 < 256).
 */
const YIELD_FIRST = PROJECT_MAX_PASSES + 2;

/** A sphere within this fraction of its radius of a kinematic body touches it (pinned in the pass). */
const PIN_SLACK = 1e-9;

/** Bounds of a projection query or grid item (per-call scratch). */
const b = new Float64Array(6);
/** A projection query's bounds grown by twice an overlap (`nearByPaths`; per-call scratch). */
const grown = new Float64Array(6);

/** Writes the bounds of sphere `a` where it is to `b`. */
function sphereBounds(physics: Physics, a: number): void {
  const p = physics.components.Position;
  const r = physics.components.Sphere.radius[a];
  const x = p.x[a], y = p.y[a], z = p.z[a];
  const h = r + 1e-12 * (1 + Math.abs(x) + Math.abs(y) + Math.abs(z) + r);
  b[0] = x - h;
  b[1] = y - h;
  b[2] = z - h;
  b[3] = x + h;
  b[4] = y + h;
  b[5] = z + h;
}

/** Buckets the suspects where they are now. */
function buildSuspectGrid(physics: Physics, s: ResponseState): void {
  const grid = s.suspectGrid;
  const radius = physics.components.Sphere.radius;
  let side = 0;
  for (let i = 0; i < s.suspectCount; i++) {
    const r = radius[s.suspects[i]];
    if (r > side) side = r;
  }
  gridClear(grid);
  gridSetCellSize(grid, side > 0 ? 4 * side : 1);
  for (let i = 0; i < s.suspectCount; i++) {
    const a = s.suspects[i];
    sphereBounds(physics, a);
    gridInsert(grid, a, b, 0);
  }
  gridBuild(grid);
}

/** Whether `a` and `x` may touch (shapes, no sensor, filters). */
function solid(physics: Physics, a: number, x: number): boolean {
  const flags = internalsOf(physics).flags;
  if (x === a || (flags[x] & (SPHERE | BOX)) === 0 || ((flags[a] | flags[x]) & SENSOR) !== 0) return false;
  const { group, mask } = physics.components.CollisionFilter;
  return (group[a] & mask[x]) !== 0 && (group[x] & mask[a]) !== 0;
}

/**
 * Moves `a` by `k` × n swept against the static bodies (through `s.move`); returns the fraction made.
 * A separation from a sphere (`apart`) that a static body stops marks `a` (listed) SUSPECT_STOPPED:
 * the static side of a squeeze (not a push out of a kinematic body: that sphere is on its side).
 */
function moveSwept(physics: Physics, s: ResponseState, a: number, nx: number, ny: number, nz: number, k: number, apart: boolean): number {
  const m = s.move;
  m[0] = nx * k;
  m[1] = ny * k;
  m[2] = nz * k;
  sweepStatic(physics, s, a);
  trackPath(physics, s, a);
  if (apart && m[3] < 1) {
    listSuspect(s, a);
    s.suspect[a] |= SUSPECT_STOPPED;
    const n = s.sweepShapes.contact.normal;
    writeNormal(s.stopNormal, a, n.x, n.y, n.z);
  }
  return m[3];
}

/**
 * How far the sphere in `s.shapes.sphere` (its centre inside the kinematic partner loaded in
 * `s.shapes`, a sphere when `xSphere`) must move along unit (ux, uy, uz) to leave it: a cast back
 * from beyond the partner. Leaves the exit's normal (from the partner toward the sphere) in
 * `s.shapes.cast`; returns -1 when the cast finds nothing (only for inputs that are not finite).
 */
function exitAlong(s: ResponseState, xSphere: boolean, ux: number, uy: number, uz: number): number {
  const { sphere, partnerSphere, partnerBox, motion, cast } = s.shapes;
  const c = sphere.center;
  const q = xSphere ? partnerSphere.center : partnerBox.center;
  const dx = c.x - q.x, dy = c.y - q.y, dz = c.z - q.z;
  const reach = xSphere ? partnerSphere.radius : partnerBox.halfExtents.x + partnerBox.halfExtents.y + partnerBox.halfExtents.z;
  // Beyond the partner and the sphere's own size from where it is, with room for rounding.
  const L = 2 * (Math.sqrt(dx * dx + dy * dy + dz * dz) + reach + sphere.radius) + 1e-9 * (1 + Math.abs(c.x) + Math.abs(c.y) + Math.abs(c.z));
  c.x += ux * L;
  c.y += uy * L;
  c.z += uz * L;
  motion.x = -ux * L;
  motion.y = -uy * L;
  motion.z = -uz * L;
  const hit = xSphere ? castSphereSphere(sphere, motion, partnerSphere, cast) : castSphereBox(sphere, motion, partnerBox, cast);
  c.x -= ux * L;
  c.y -= uy * L;
  c.z -= uz * L;
  return hit ? L * (1 - cast.toi) : -1;
}

/**
 * Removes the approach of `a` toward kinematic body `x` along unit (nx, ny, nz), from x toward a:
 * v −= min(0, (v − w)·n) n, w the body's velocity.
 */
function stopApproach(physics: Physics, a: number, x: number, nx: number, ny: number, nz: number): void {
  const v = physics.components.Velocity;
  const un = (v.x[a] - v.x[x]) * nx + (v.y[a] - v.y[x]) * ny + (v.z[a] - v.z[x]) * nz;
  if (un < 0) {
    v.x[a] -= un * nx;
    v.y[a] -= un * ny;
    v.z[a] -= un * nz;
  }
}

/**
 * Loads sphere `a` (its radius grown by `grow`) and kinematic body `x` at its end-of-tick pose into
 * `s.shapes`; returns whether they touch, their contact in `s.shapes.contact` (normal from x toward a).
 */
function kinematicContact(physics: Physics, s: ResponseState, a: number, x: number, xSphere: boolean, grow: number): boolean {
  const { sphere, partnerSphere, partnerBox, contact } = s.shapes;
  const { Position: p, Velocity: v, Sphere: sp } = physics.components;
  const dt = physics.dt;
  sphere.center.x = p.x[a];
  sphere.center.y = p.y[a];
  sphere.center.z = p.z[a];
  sphere.radius = sp.radius[a] + grow;
  if (xSphere) {
    partnerSphere.center.x = p.x[x] + v.x[x] * dt;
    partnerSphere.center.y = p.y[x] + v.y[x] * dt;
    partnerSphere.center.z = p.z[x] + v.z[x] * dt;
    partnerSphere.radius = sp.radius[x];
    return contactSphereSphere(sphere, partnerSphere, contact);
  }
  loadBox(physics, x, partnerBox);
  partnerBox.center.x += v.x[x] * dt;
  partnerBox.center.y += v.y[x] * dt;
  partnerBox.center.z += v.z[x] * dt;
  return contactSphereBox(sphere, partnerBox, contact);
}

/** Moves `a` out of kinematic body `x` (at its end-of-tick pose); returns 1 when it moved. */
function outOfKinematic(physics: Physics, s: ResponseState, a: number, x: number, pass: number): number {
  const { sphere, partnerSphere, partnerBox, contact } = s.shapes;
  const { Position: p, Velocity: v, Sphere: sp } = physics.components;
  const dt = physics.dt;
  const wx = v.x[x], wy = v.y[x], wz = v.z[x];
  // A hair larger than the sphere, so that touching (as a push-out leaves it) pins it too.
  const slack = PIN_SLACK * sp.radius[a];
  const xSphere = (internalsOf(physics).flags[x] & SPHERE) !== 0;
  if (!kinematicContact(physics, s, a, x, xSphere, slack)) return 0;
  s.suspect[a] |= SUSPECT_KINEMATIC;
  // On the sides of two kinematic bodies: squeezed between them.
  if (s.squeezeSide[a] === 0) s.squeezeSide[a] = x;
  else if (s.squeezeSide[a] !== x) s.suspect[a] |= SUSPECT_SQUEEZED;
  s.pinned[a] = pass;
  s.pinLevel[a] = 0;
  writeNormal(s.pinNormal, a, contact.normal.x, contact.normal.y, contact.normal.z);
  let d = contact.depth - slack;
  if (!(d > 0)) return 0;
  if (d > s.projectDepth[0] * sp.radius[a]) s.projectDepth[0] = d / sp.radius[a];
  const wl = Math.sqrt(wx * wx + wy * wy + wz * wz);
  if (d >= sp.radius[a] && wl > 0 && wl < Infinity) {
    // The centre is inside: the body walked over a sphere that stayed (capped) within one tick. Out
    // ahead of it, along its motion, unless a static body is in the way there or that is farther than
    // the body moved in the tick and a radius (a body the game placed over the sphere with
    // setPosition leaves it along the normal of least overlap, not across the whole body).
    const ux = wx / wl, uy = wy / wl, uz = wz / wl;
    const e = exitAlong(s, xSphere, ux, uy, uz);
    if (e > 0 && e <= wl * dt + sp.radius[a]) {
      const f = moveSwept(physics, s, a, ux, uy, uz, e, false);
      if (f === 1) {
        const n = s.shapes.cast.normal;
        writeNormal(s.pinNormal, a, n.x, n.y, n.z);
        stopApproach(physics, a, x, n.x, n.y, n.z);
        s.work[R_PROJECTED]++;
        return 1;
      }
      // Blocked ahead: out along the normal of least overlap from where it got to.
      sphere.center.x = p.x[a];
      sphere.center.y = p.y[a];
      sphere.center.z = p.z[a];
      if (!(xSphere ? contactSphereSphere(sphere, partnerSphere, contact) : contactSphereBox(sphere, partnerBox, contact))) return 1;
      d = contact.depth - slack;
      if (!(d > 0)) return 1;
    }
  }
  const nx = contact.normal.x, ny = contact.normal.y, nz = contact.normal.z;
  const f = moveSwept(physics, s, a, nx, ny, nz, d, false);
  stopApproach(physics, a, x, nx, ny, nz);
  // What is left of the overlap (a squeeze: a static body stopped the push) is reported at the end
  // of the projection (recordKinematicOverlaps).
  s.work[R_PROJECTED]++;
  return f > 0 ? 1 : 0;
}

/**
 * Records each overlap of suspect `a` with a kinematic body (at its end-of-tick pose) as a contact
 * with its depth at the end of the tick (contactRecords.ts `recordOverlap`).
 */
function recordKinematicOverlaps(physics: Physics, s: ResponseState, a: number): void {
  queryNear(physics, s, a);
  const near = s.near;
  const flags = internalsOf(physics).flags;
  const contact = s.shapes.contact;
  const slack = PIN_SLACK * physics.components.Sphere.radius[a];
  for (let k = 0; k < near.count; k++) {
    const x = near.ids[k];
    if (s.state[x] !== 0 || (flags[x] & MOVING) === 0 || isDynamic(flags[x]) || !solid(physics, a, x)) continue;
    const xSphere = (flags[x] & SPHERE) !== 0;
    if (!kinematicContact(physics, s, a, x, xSphere, 0) || !(contact.depth > slack)) continue;
    const rec = s.recIn;
    rec[RI_NX] = contact.normal.x;
    rec[RI_NX + 1] = contact.normal.y;
    rec[RI_NX + 2] = contact.normal.z;
    rec[RI_DEPTH] = contact.depth;
    rec[RI_PX] = contact.point.x;
    rec[RI_PX + 1] = contact.point.y;
    rec[RI_PX + 2] = contact.point.z;
    rec[RI_TOI] = 1;
    recordOverlap(s, a, x, xSphere);
  }
}

/**
 * Whether sphere `a`, moved along unit (ux, uy, uz), moves into the static body that last stopped
 * one of its separations this tick (SUSPECT_STOPPED, `s.stopNormal`): within 45° of its normal.
 */
function blockedAlong(s: ResponseState, a: number, ux: number, uy: number, uz: number): boolean {
  return (s.suspect[a] & SUSPECT_STOPPED) !== 0 && against(s.stopNormal, a, ux, uy, uz);
}

/** Writes unit (nx, ny, nz) as body `a`'s normal in `normals` (3 a body: `s.stopNormal`, `s.pinNormal`). */
function writeNormal(normals: Float64Array, a: number, nx: number, ny: number, nz: number): void {
  const o = 3 * a;
  normals[o] = nx;
  normals[o + 1] = ny;
  normals[o + 2] = nz;
}

/** Whether unit (ux, uy, uz) goes against body `a`'s normal in `normals`, within 45°. */
function against(normals: Float64Array, a: number, ux: number, uy: number, uz: number): boolean {
  const o = 3 * a;
  return ux * normals[o] + uy * normals[o + 1] + uz * normals[o + 2] < -Math.SQRT1_2;
}

/**
 * The share of a separation that the sphere of inverse mass `ia` makes when it shares it with one of
 * inverse mass `ix`: by inverse mass, ia / (ia + ix), in the first `PROJECT_PASSES` passes; past
 * those (the yield's passes included) kept within 1 : `PROJECT_SHARE_RATIO` either way.
 */
function massShare(ia: number, ix: number, pass: number): number {
  const share = ia / (ia + ix);
  if (pass <= PROJECT_PASSES) return share;
  return share < LEAST_SHARE ? LEAST_SHARE : share > 1 - LEAST_SHARE ? 1 - LEAST_SHARE : share;
}

/**
 * Whether sphere `a` is held by its pin in a separation that moves it along unit (ux, uy, uz):
 * pinned in this pass and, past `PROJECT_PASSES`, only when that move goes back into what pins it
 * (against the way it was pushed, within 45°).
 */
function heldAlong(s: ResponseState, a: number, pass: number, ux: number, uy: number, uz: number): boolean {
  return s.pinned[a] === pass && (pass <= PROJECT_PASSES || against(s.pinNormal, a, ux, uy, uz));
}

/** Moves dynamic spheres `a` and `x` apart when they overlap; returns 1 when one moved. */
function apart(physics: Physics, s: ResponseState, a: number, x: number, pass: number): number {
  const { Position: p, Velocity: v, Sphere: sp } = physics.components;
  const rs = sp.radius[a] + sp.radius[x];
  const dx = p.x[a] - p.x[x], dy = p.y[a] - p.y[x], dz = p.z[a] - p.z[x];
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const d = rs - dist;
  // The first yield pass moves only what the passes left beyond PROJECT_YIELD (a squeeze), and the
  // yield only spheres on a hard side (SUSPECT_STOPPED or SUSPECT_SQUEEZED).
  if (!(d > (pass === YIELD_FIRST ? PROJECT_YIELD : PROJECT_EPS) * rs)) return 0;
  if (pass >= YIELD_FIRST && ((s.suspect[a] | s.suspect[x]) & (SUSPECT_STOPPED | SUSPECT_SQUEEZED)) === 0) return 0;
  // Coincident centres: apart along +y (any fixed direction; deterministic).
  const nx = dist > 0 ? dx / dist : 0, ny = dist > 0 ? dy / dist : 1, nz = dist > 0 ? dz / dist : 0;
  const pair = s.pair;
  inverseMass(physics, a, pair, 2);
  inverseMass(physics, x, pair, 3);
  const ia = pair[2], ix = pair[3];
  let pa = heldAlong(s, a, pass, nx, ny, nz), px = heldAlong(s, x, pass, -nx, -ny, -nz);
  let la = s.pinLevel[a], lx = s.pinLevel[x];
  if (pass >= YIELD_FIRST) {
    // Yielding, a sphere is blocked (pinned at level 0) along a way into the static body that last
    // stopped it: the spheres pressing on it take the separation, out to the kinematic body.
    if (blockedAlong(s, a, nx, ny, nz)) {
      pa = true;
      la = 0;
    }
    if (blockedAlong(s, x, -nx, -ny, -nz)) {
      px = true;
      lx = 0;
    }
  }
  // All of it to the one not pinned, or pinned farther (more levels) from the kinematic body.
  const sh = massShare(ia, ix, pass);
  const sa = pa && px ? (la === lx ? sh : la < lx ? 0 : 1) : pa === px ? sh : pa ? 0 : 1;
  // What a static body stops of one sphere's move the other one makes (a blocked sphere is
  // immovable that way): x takes its share and what a could not do; a, unless it was the only one to
  // move, takes back what x could not. Sharing, left to the next pass, a heavy sphere took only its
  // mass share of it, pass after pass; pinned, a takes back what a wall stops of the sphere it moves,
  // so that a chain squeezed between a kinematic body and a wall ends overlapping the kinematic body
  // (rule 2 of docs/response.md), not with the whole squeeze on one pair of spheres (a heap driven
  // against a wall kept 0.32 of a radii sum there).
  const fa = sa > 0 ? moveSwept(physics, s, a, nx, ny, nz, d * sa, true) : 0;
  const kx = d * (1 - sa) + (sa > 0 ? d * sa * (1 - fa) : 0);
  const fx = kx > 0 ? moveSwept(physics, s, x, -nx, -ny, -nz, kx, true) : 0;
  let moved = fa > 0 || fx > 0 ? 1 : 0;
  if (sa < 1 && fx < 1) moved |= moveSwept(physics, s, a, nx, ny, nz, kx * (1 - fx), true) > 0 ? 1 : 0;
  // Moved all the way by a pinned sphere: it rests on what pins that one (a chain on a pusher). Not
  // when the mass ratio alone rounded a share to 0 or 1 (beyond 2^53): the other one is then not
  // pinned in this pass, and its level is a stale one from an earlier pass or tick, which a restored
  // snapshot does not hold (a joined replica diverged from the server).
  if (sa === 0 && pa) {
    s.pinned[x] = pass;
    s.pinLevel[x] = la + 1;
    writeNormal(s.pinNormal, x, -nx, -ny, -nz);
  } else if (sa === 1 && px) {
    s.pinned[a] = pass;
    s.pinLevel[a] = lx + 1;
    writeNormal(s.pinNormal, a, nx, ny, nz);
  }
  const un = (v.x[a] - v.x[x]) * nx + (v.y[a] - v.y[x]) * ny + (v.z[a] - v.z[x]) * nz;
  if (un < 0) {
    const j = -un / (ia + ix);
    v.x[a] += j * ia * nx;
    v.y[a] += j * ia * ny;
    v.z[a] += j * ia * nz;
    v.x[x] -= j * ix * nx;
    v.y[x] -= j * ix * ny;
    v.z[x] -= j * ix * nz;
  }
  listSuspect(s, x);
  if (pass >= YIELD_FIRST) {
    s.suspect[a] |= SUSPECT_SQUEEZED;
    s.suspect[x] |= SUSPECT_SQUEEZED;
  }
  if (d > s.projectDepth[0] * rs) s.projectDepth[0] = d / rs;
  s.work[R_PROJECTED]++;
  return moved;
}

/** Queries the candidates of suspect `a` where it is into `s.near`. */
function queryNear(physics: Physics, s: ResponseState, a: number): void {
  const near = s.near;
  near.count = 0;
  sphereBounds(physics, a);
  const dynamicGrid = s.dynamicGrid!;
  if (dynamicGrid.count > 0 && !(s.paths.active && nearByPaths(physics, s, a))) gridQuerySlice(dynamicGrid, near, b, 0, WHOLE_TICK);
  gridQuerySlice(s.suspectGrid, near, b, 0, WHOLE_TICK);
}

/**
 * The dynamic grid's part of `a`'s candidates from the path grid (pathGrid.ts: every dynamic
 * sphere's items cover where it is now, moves of this projection included, and it is reported only
 * where the dynamic grid would report it), when their order cannot matter; else writes nothing and
 * returns false (the caller queries the dynamic grid). Order matters when a candidate is not moved
 * by the response (a kinematic body, a sleeper: its duplicates and order are the dynamic grid's),
 * when `a` overlaps two of them, or when it overlaps one, x1 by depth d, and another one is within
 * the radii sum plus 2d: `a` meets x1 at most twice in a sweep (its dynamic-grid and suspect-grid
 * entries), each time moved by at most what is left of the overlap, so by 2d at most, and no other
 * candidate farther than that can come to overlap it. Those within 2d are looked for in the path
 * grid again, over `a`'s bounds grown by 2d: they need not meet its bounds (before, a ball
 * overlapping one by d kept its path-grid list while five others the dynamic grid reported were
 * within 2d, and a fast crowd ended tick 0 otherwise with the path grid than without it).
 * (Distances with PATH_SLACK of the magnitudes.)
 */
function nearByPaths(physics: Physics, s: ResponseState, a: number): boolean {
  const near = s.near;
  queryPathsAtEnd(s.paths, b, near);
  const p = physics.components.Position, r = physics.components.Sphere.radius;
  const ax = p.x[a], ay = p.y[a], az = p.z[a], ra = r[a];
  const scaleA = 1 + Math.abs(ax) + Math.abs(ay) + Math.abs(az);
  let over = 0, depth = 0;
  for (let k = 0; k < near.count; k++) {
    const x = near.ids[k];
    if (x === a) continue;
    const dx = ax - p.x[x], dy = ay - p.y[x], dz = az - p.z[x];
    const rs = ra + r[x];
    const reach = rs + PATH_SLACK * (scaleA + Math.abs(p.x[x]) + Math.abs(p.y[x]) + Math.abs(p.z[x]) + rs);
    const d2 = dx * dx + dy * dy + dz * dz;
    if (s.state[x] === 0 || (!(d2 > reach * reach) && ++over >= 2)) {
      near.count = 0;
      return false;
    }
    if (!(d2 > reach * reach)) depth = reach - Math.sqrt(d2);
  }
  if (over === 0) return true;
  const grow = 2 * depth + PATH_SLACK * (scaleA + ra);
  for (let k = 0; k < 3; k++) {
    grown[k] = b[k] - grow;
    grown[k + 3] = b[k + 3] + grow;
  }
  near.count = 0;
  queryPathsAtEnd(s.paths, grown, near);
  let close = 0;
  for (let k = 0; k < near.count; k++) {
    const x = near.ids[k];
    if (x === a) continue;
    const dx = ax - p.x[x], dy = ay - p.y[x], dz = az - p.z[x];
    const rs = ra + r[x] + 2 * depth;
    const reach = rs + PATH_SLACK * (scaleA + Math.abs(p.x[x]) + Math.abs(p.y[x]) + Math.abs(p.z[x]) + rs);
    if (s.state[x] === 0 || (!(dx * dx + dy * dy + dz * dz > reach * reach) && ++close >= 2)) {
      near.count = 0;
      return false;
    }
  }
  return true;
}

/** Moves suspect `a` out of the kinematic bodies it overlaps; returns how many moves it made. */
function kinematicPhase(physics: Physics, s: ResponseState, a: number, pass: number): number {
  queryNear(physics, s, a);
  const near = s.near;
  const flags = internalsOf(physics).flags;
  let moved = 0;
  for (let k = 0; k < near.count; k++) {
    const x = near.ids[k];
    if (s.state[x] === 0 && (flags[x] & MOVING) !== 0 && !isDynamic(flags[x]) && solid(physics, a, x)) moved += outOfKinematic(physics, s, a, x, pass);
  }
  return moved;
}

/**
 * Wakes sleeper `x` into this tick when suspect `a` overlaps it by more than `PROJECT_EPS` of their
 * radii sum (a heap pushed against it: met as a body at rest, it would leave the heap squeezed
 * between the pusher and a body that can move); returns whether `x` is now a dynamic body of the tick.
 */
function wakeOverlapped(physics: Physics, s: ResponseState, a: number, x: number): boolean {
  const sleep = internalsOf(physics).sleep;
  if (sleep === null || sleep.asleep[x] === 0) return false;
  const { Position: p, Sphere: sp } = physics.components;
  const rs = sp.radius[a] + sp.radius[x];
  const dx = p.x[a] - p.x[x], dy = p.y[a] - p.y[x], dz = p.z[a] - p.z[x];
  if (!(rs - Math.sqrt(dx * dx + dy * dy + dz * dz) > PROJECT_EPS * rs)) return false;
  wakeIntoTick(physics, sleep, s, x);
  return true;
}

/** Moves suspect `a` and the dynamic spheres it overlaps apart; returns how many moves it made. */
function spherePhase(physics: Physics, s: ResponseState, a: number, pass: number): number {
  queryNear(physics, s, a);
  const near = s.near;
  const flags = internalsOf(physics).flags;
  let moved = 0;
  for (let k = 0; k < near.count; k++) {
    const x = near.ids[k];
    if (!solid(physics, a, x)) continue;
    if (s.state[x] !== 0 || (isDynamic(flags[x]) && wakeOverlapped(physics, s, a, x))) moved += apart(physics, s, a, x, pass);
  }
  return moved;
}

/** Whether (x, y, z) is within `lim` (in x, y and z) of the place at `end[o .. o + 3)`. */
function leftAt(end: Float64Array, o: number, x: number, y: number, z: number, lim: number): boolean {
  return Math.abs(x - end[o]) <= lim && Math.abs(y - end[o + 1]) <= lim && Math.abs(z - end[o + 2]) <= lim;
}

/**
 * Whether no suspect moved by more than `PROJECT_STILL` of its radius (in x, y or z) since the last
 * pass, or since the pass before it, or the one before that (the moves of a squeeze can undo one
 * another over two or three passes); `recorded` holds how many suspects those three passes had,
 * last first (a suspect listed since has no place to compare: not still). Records where each is now
 * (`s.projectEnd`: this pass, then the last two).
 */
function passStill(physics: Physics, s: ResponseState, recorded: Int32Array): boolean {
  const p = physics.components.Position, r = physics.components.Sphere.radius;
  const end = s.projectEnd, n = s.suspectCount;
  let still = recorded[0] === n, still2 = recorded[1] === n, still3 = recorded[2] === n;
  for (let i = 0; i < n; i++) {
    const a = s.suspects[i], o = PROJECT_END_SLOTS * a;
    const lim = PROJECT_STILL * r[a];
    const x = p.x[a], y = p.y[a], z = p.z[a];
    if (still && !leftAt(end, o, x, y, z, lim)) still = false;
    if (still2 && !leftAt(end, o + 3, x, y, z, lim)) still2 = false;
    if (still3 && !leftAt(end, o + 6, x, y, z, lim)) still3 = false;
    end[o + 6] = end[o + 3];
    end[o + 7] = end[o + 4];
    end[o + 8] = end[o + 5];
    end[o + 3] = end[o];
    end[o + 4] = end[o + 1];
    end[o + 5] = end[o + 2];
    end[o] = x;
    end[o + 1] = y;
    end[o + 2] = z;
  }
  recorded[2] = recorded[1];
  recorded[1] = recorded[0];
  recorded[0] = n;
  return still || still2 || still3;
}

/**
 * The projection (see the module notes). Each pass moves the suspects out of the kinematic bodies
 * first (pinning those that touch one), then apart from the spheres they overlap; a last pass that
 * still moved something ends with the kinematic bodies again, so that what is left is an overlap of
 * spheres (within what the passes reached) rather than of a sphere and a kinematic body.
 */
export function project(physics: Physics, s: ResponseState): void {
  if (s.suspectCount === 0) return;
  const recorded = s.projectRecorded;
  recorded.fill(0);
  for (let pass = 1; pass <= PROJECT_MAX_PASSES; pass++) {
    buildSuspectGrid(physics, s);
    s.projectDepth[0] = 0;
    let moved = 0;
    for (let i = 0; i < s.suspectCount; i++) moved += kinematicPhase(physics, s, s.suspects[i], pass);
    // A forward and a backward sweep carry a correction (and the pinning) along a chain both ways.
    for (let i = 0; i < s.suspectCount; i++) moved += spherePhase(physics, s, s.suspects[i], pass);
    for (let i = s.suspectCount - 1; i >= 0; i--) moved += spherePhase(physics, s, s.suspects[i], pass);
    if (moved === 0) {
      // Nothing could move: either nothing overlaps, or what does is wedged against static bodies.
      if (s.projectDepth[0] > PROJECT_YIELD && deepPair(physics, s)) yieldPhase(physics, s);
      break;
    }
    const still = passStill(physics, s, recorded);
    if (still || pass === PROJECT_MAX_PASSES || (pass >= PROJECT_PASSES && !(s.projectDepth[0] > PROJECT_TOL))) {
      buildSuspectGrid(physics, s);
      for (let i = 0; i < s.suspectCount; i++) kinematicPhase(physics, s, s.suspects[i], pass + 1);
      if (deepPair(physics, s)) yieldPhase(physics, s);
      break;
    }
  }
  let built = false;
  for (let i = 0; i < s.suspectCount; i++) {
    const a = s.suspects[i];
    if ((s.suspect[a] & (SUSPECT_KINEMATIC | SUSPECT_SQUEEZED)) === 0) continue;
    if (!built) {
      buildSuspectGrid(physics, s);
      built = true;
    }
    recordKinematicOverlaps(physics, s, a);
  }
  s.work[R_SUSPECTS] = s.suspectCount;
}

/** Whether two dynamic spheres, one a suspect, overlap by more than `PROJECT_YIELD` of their radii sum. */
function deepPair(physics: Physics, s: ResponseState): boolean {
  const { Position: p, Sphere: sp } = physics.components;
  for (let i = 0; i < s.suspectCount; i++) {
    const a = s.suspects[i];
    queryNear(physics, s, a);
    const near = s.near;
    for (let k = 0; k < near.count; k++) {
      const x = near.ids[k];
      if (x === a || s.state[x] === 0 || !solid(physics, a, x)) continue;
      const rs = (sp.radius[a] + sp.radius[x]) * (1 - PROJECT_YIELD);
      const dx = p.x[a] - p.x[x], dy = p.y[a] - p.y[x], dz = p.z[a] - p.z[x];
      if (dx * dx + dy * dy + dz * dz < rs * rs) return true;
    }
  }
  return false;
}

/**
 * The yield (see the module notes): marks the hard sides (`spreadSqueeze`, in sweeps until one marks
 * nothing), then passes over the dynamic spheres alone, nothing pinned by a kinematic body; the first
 * moves only pairs overlapping by more than `PROJECT_YIELD` of their radii sum. `PROJECT_YIELD_PASSES`
 * passes, then more (to `PROJECT_YIELD_MAX`) while the deepest correction of the last two (a fraction
 * of a radii sum) is beyond `PROJECT_YIELD` and below `PROJECT_YIELD_RATE` of the two before.
 */
function yieldPhase(physics: Physics, s: ResponseState): void {
  for (let k = 0; k < PROJECT_YIELD_PASSES; k++) {
    let spread = 0;
    for (let i = 0; i < s.suspectCount; i++) spread += spreadSqueeze(physics, s, s.suspects[i]);
    for (let i = s.suspectCount - 1; i >= 0; i--) spread += spreadSqueeze(physics, s, s.suspects[i]);
    if (spread === 0) break;
  }
  const recorded = s.projectRecorded;
  recorded.fill(0);
  // The deepest correction of each of the last four passes (fractions of a radii sum): the yield's
  // moves can alternate between two states, so two passes are compared with the two before them.
  let d4 = Infinity, d3 = Infinity, d2 = Infinity, d1 = Infinity;
  for (let k = 0; k < PROJECT_YIELD_MAX; k++) {
    if (k >= PROJECT_YIELD_PASSES) {
      const recent = d1 > d2 ? d1 : d2, earlier = d3 > d4 ? d3 : d4;
      if (!(recent > PROJECT_YIELD && recent < PROJECT_YIELD_RATE * earlier)) break;
    }
    const pass = YIELD_FIRST + k;
    buildSuspectGrid(physics, s);
    s.projectDepth[0] = 0;
    let moved = 0;
    for (let i = 0; i < s.suspectCount; i++) moved += spherePhase(physics, s, s.suspects[i], pass);
    for (let i = s.suspectCount - 1; i >= 0; i--) moved += spherePhase(physics, s, s.suspects[i], pass);
    if (moved === 0) break;
    if (passStill(physics, s, recorded)) break;
    d4 = d3;
    d3 = d2;
    d2 = d1;
    d1 = s.projectDepth[0];
  }
}

/**
 * Spreads from suspect `a` to the dynamic spheres of this tick that touch it (within `PROJECT_EPS`
 * of their radii sum; listing them): SUSPECT_SQUEEZED when `a` is STOPPED or SQUEEZED, and `a`'s
 * kinematic side (`s.squeezeSide`) to one on no side; two touching on the sides of two kinematic
 * bodies are both SQUEEZED. Returns how many marks it made.
 */
function spreadSqueeze(physics: Physics, s: ResponseState, a: number): number {
  const hard = (s.suspect[a] & (SUSPECT_STOPPED | SUSPECT_SQUEEZED)) !== 0;
  const side = s.squeezeSide[a];
  if (!hard && side === 0) return 0;
  queryNear(physics, s, a);
  const near = s.near;
  const { Position: p, Sphere: sp } = physics.components;
  let marked = 0;
  for (let k = 0; k < near.count; k++) {
    const x = near.ids[k];
    if (x === a || s.state[x] === 0 || !solid(physics, a, x)) continue;
    const xHard = (s.suspect[x] & (SUSPECT_STOPPED | SUSPECT_SQUEEZED)) !== 0;
    const xSide = s.suspect[x] === 0 ? 0 : s.squeezeSide[x];
    const meets = side !== 0 && xSide !== 0 && xSide !== side;
    if (xHard && (hard || side === 0 || xSide === side)) continue;
    if (!hard && !meets && xSide !== 0) continue;
    const rs = (sp.radius[a] + sp.radius[x]) * (1 + PROJECT_EPS);
    const dx = p.x[a] - p.x[x], dy = p.y[a] - p.y[x], dz = p.z[a] - p.z[x];
    if (dx * dx + dy * dy + dz * dz > rs * rs) continue;
    listSuspect(s, x);
    if (hard || meets) {
      s.suspect[x] |= SUSPECT_SQUEEZED;
      if (meets) s.suspect[a] |= SUSPECT_SQUEEZED;
    } else s.squeezeSide[x] = side;
    marked++;
  }
  return marked;
}
