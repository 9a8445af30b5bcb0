/**
 * The scan of a tick's bodies, before anything is written: one pass over the spheres and moving
 * boxes that, with `physics.validate`, checks them (throwing `PhysicsInputError` naming the entity
 * and field for the first bad one, so that a tick that throws has changed nothing: fix the field and
 * step again, and the world is as if the bad tick never ran), and adds each body's extent to the
 * size statistics the broadphase chooses its cell size from. Reads Position, Velocity, the shapes,
 * the filters, Response, gravity and `dt`; writes only the tick's derived counts (the size
 * statistics, `sliceCap`, `movingBoxes`, `sphereSphere`), which every scan rebuilds. World frame,
 * length units, seconds.
 *
 * Checked with `validate`:
 * - spheres: position, radius, and the motion over the tick (velocity × dt; for a dynamic body the
 *   velocity after gravity, (v + g·dt)·dt, the motion the broadphase will sweep);
 * - moving boxes: every field (`validateBody`) and their motion;
 * - dynamic bodies (spheres with Response): `Response.mode`, `restitution`, `mass`;
 * - characters: their Character settings (`checkCharacters`: the ranges of `set(Character, …)`, a unit `up`);
 * - static boxes: every one of them when they will be re-bucketed this tick (`staticDirty`, set by
 *   the stage before this one when a static box was written), or were re-bucketed by a snapshot
 *   restore since the last check (`staticUnchecked`): an unchanged static box was checked when it
 *   was bucketed;
 * - gravity · dt must be finite (when some body has Response and gravity is not zero).
 *
 * The checks share the size pass: validation as a pass of its own before gravity measured 1.012–1.036×
 * the tick at 10,000 spheres (`bench/compare.ts --mode tick`).
 * @module
 */
import { ResponseMode } from '../../components/index.js';
import { checkCharacters } from '../character/characterSettings.js';
import { sizeStatsAdd, sizeStatsAddFast, sizeStatsClear } from '../grid/policy.js';
import { BOUNDS_PAD, boxBounds, checkFriction, checkGravityStep, validateBody } from '../physics/bodyReads.js';
import { PhysicsInputError } from '../physics/errors.js';
import { internalsOf } from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';

const { SPHERE, BOX, MOVING, RESPONSE } = BodyFlags;
const DYNAMIC = SPHERE | MOVING | RESPONSE;
const BOUNCE = ResponseMode.BOUNCE;

/** `scanLoop`'s select of the largest motion component (per body). */
const PICK = new Float64Array(2);

/** `movingBoxSize`'s scratch bounds (per call). */
const BOUNDS = new Float64Array(6);

/**
 * Adds moving box `eid`'s extent (the largest side of its bounds, swept with continuous contacts) to
 * the tick's size statistics: it queries the grids as spheres do, so the cell size follows it too.
 */
function movingBoxSize(physics: Physics, eid: number, f: number): void {
  const bounds = BOUNDS;
  boxBounds(physics, eid, f, physics.continuous, bounds, 0);
  const x = bounds[3] - bounds[0], y = bounds[4] - bounds[1], z = bounds[5] - bounds[2];
  const sizes = internalsOf(physics).broadphase.sizes;
  sizes.input[0] = x > y ? (x > z ? x : z) : y > z ? y : z;
  sizeStatsAdd(sizes);
}

function badResponse(eid: number, field: string, value: number, what: string): never {
  throw new PhysicsInputError({ eid, field: `Response.${field}`, problem: `${what}, got ${value}` });
}

/** The full check of a dynamic body's Response fields (a body that failed the fast test). */
function responseError(physics: Physics, eid: number): void {
  const r = physics.components.Response;
  const mode = r.mode[eid], e = r.restitution[eid], m = r.mass[eid];
  if (mode > BOUNCE) badResponse(eid, 'mode', mode, 'must be ResponseMode.STOP, SLIDE or BOUNCE (0, 1, 2)');
  if (!(e >= 0 && e <= 1)) badResponse(eid, 'restitution', e, 'must be a number in [0, 1]');
  if (!(m >= 0 && m !== Infinity)) badResponse(eid, 'mass', m, 'must be a finite number >= 0 (0: proportional to radius³)');
  const c = r.damping[eid], gs = r.gravityScale[eid];
  if (!(c >= 0 && c !== Infinity)) badResponse(eid, 'damping', c, 'must be a finite number >= 0 (per second)');
  if (!(gs - gs === 0)) badResponse(eid, 'gravityScale', gs, 'must be a finite number (1: the world\'s gravity)');
}

/**
 * The full check of a sphere that failed the fast test: its fields (`validateBody`), then, for a
 * dynamic body, its velocity after gravity and the motion of that velocity.
 */
function sphereError(physics: Physics, eid: number, f: number): void {
  validateBody(physics, eid, f);
  const internal = internalsOf(physics);
  const dynamic = (f & (DYNAMIC | BOX)) === DYNAMIC && internal.gravityOn !== 0 && internal.responseCount !== 0;
  const v = physics.components.Velocity;
  const dt = physics.dt;
  const gs = physics.components.Response.gravityScale[eid];
  for (const axis of ['x', 'y', 'z'] as const) {
    const k = axis === 'x' ? 0 : axis === 'y' ? 1 : 2;
    const u = v[axis][eid], w = dynamic ? u + internal.gravity[k] * dt * gs : u;
    if (!(w - w === 0)) {
      throw new PhysicsInputError({
        eid,
        field: `Velocity.${axis}`,
        problem: `Velocity.${axis} + gravity.${axis} × dt overflows: ${u} + ${internal.gravity[k]} × ${dt} s is not finite (gravity is added to a dynamic body's velocity at the start of the tick)`,
      });
    }
    if (!(w * dt - w * dt === 0)) {
      throw new PhysicsInputError({
        eid,
        field: `Velocity.${axis}`,
        problem: `velocity × dt overflows after gravity: (${u} + ${internal.gravity[k]} × ${dt} s) × ${dt} s is not finite (the motion over one tick must be finite)`,
      });
    }
  }
}

/** Checks every static box (they are re-bucketed this tick). */
function validateStatic(physics: Physics): void {
  const { flags, maxEid } = internalsOf(physics);
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & BOX) === 0 || (f & (MOVING | SPHERE)) !== 0) continue;
    validateBody(physics, eid, f);
  }
}

/**
 * One pass over the bodies: with `validate` (`check` 1), a fast test of each sphere's position,
 * radius and motion (velocity after gravity × dt), the full check (which names the field) for a
 * sphere that fails it and for every moving box, and a fast test of each dynamic body's Response
 * fields; adds each sphere's and moving box's extent (swept by that motion with continuous contacts)
 * to the size statistics. Returns, packed in one small integer (see `SCAN_*`): the body count,
 * whether some sphere may collide with another sphere (the OR of sphere groups meets the OR of
 * sphere masks), whether a moving box is present. Nothing but the return follows the loop (code
 * after a loop optimised on stack replacement deoptimised every tick: docs/internals.md).
 */
function scanLoop(physics: Physics, check: number): number {
  const internal = internalsOf(physics);
  const { flags, maxEid } = internal;
  const { sizes, cellSize: cell } = internal.broadphase;
  const { Position: p, Velocity: v, Sphere: s, CollisionFilter: filter, Response: resp } = physics.components;
  const px = p.x, py = p.y, pz = p.z, vx = v.x, vy = v.y, vz = v.z, radius = s.radius;
  const group = filter.group, mask = filter.mask;
  const mode = resp.mode, restitution = resp.restitution, mass = resp.mass, damping = resp.damping, gravityScale = resp.gravityScale;
  const dt = physics.dt;
  const asleep = internal.sleep === null ? null : internal.sleep.asleep;
  const hasMaterial = internal.hasMaterial;
  const swept = physics.continuous ? 1 : 0;
  const pick = PICK;
  const g = internal.gravity;
  const on = internal.gravityOn !== 0 && internal.responseCount !== 0;
  // gravity · dt, as applyGravity adds it after this stage (0 without gravity).
  const gx = on ? g[0] * dt : 0, gy = on ? g[1] * dt : 0, gz = on ? g[2] * dt : 0;
  let groups = 0;
  let masks = 0;
  let bodies = 0;
  let movingBoxes = 0;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & (SPHERE | BOX)) !== 0) bodies++;
    if ((f & SPHERE) !== 0) {
      groups |= group[eid];
      masks |= mask[eid];
      const x = px[eid], y = py[eid], z = pz[eid], r = radius[eid];
      const moving = (f & MOVING) !== 0;
      // A sleeper (src/response/sleep.ts) gets no gravity or damping: not dynamic for its motion.
      const dynamic = (f & (DYNAMIC | BOX)) === DYNAMIC && (asleep === null || asleep[eid] === 0);
      // The velocity after gravity and damping: the same sums applyGravity stores, so the extents are
      // bit-identical (0 added without gravity, no division without damping).
      const gs = dynamic ? gravityScale[eid] : 0, c = dynamic ? damping[eid] : 0;
      const kd = c === 0 ? 1 : 1 / (1 + dt * c);
      const ux = moving ? (dynamic ? (on ? vx[eid] + gx * gs : vx[eid]) * kd : vx[eid]) : 0;
      const uy = moving ? (dynamic ? (on ? vy[eid] + gy * gs : vy[eid]) * kd : vy[eid]) : 0;
      const uz = moving ? (dynamic ? (on ? vz[eid] + gz * gs : vz[eid]) * kd : vz[eid]) : 0;
      const mx = ux * dt, my = uy * dt, mz = uz * dt;
      if (check === 1) {
        // Response first: a bad gravityScale or damping makes the motion below not finite.
        if (dynamic) {
          const e = restitution[eid], m = mass[eid];
          if (!(mode[eid] <= BOUNCE && e >= 0 && e <= 1 && m >= 0 && m !== Infinity && c >= 0 && c !== Infinity && gs - gs === 0)) responseError(physics, eid);
        }
        if (!(x * 0 + y * 0 + z * 0 + mx * 0 + my * 0 + mz * 0 === 0 && r >= 0 && r !== Infinity)) sphereError(physics, eid, f);
        if (hasMaterial[eid] !== 0) checkFriction(physics, eid);
      }
      const ax = Math.abs(mx), ay = Math.abs(my), az = Math.abs(mz);
      // Static contacts sweep nothing: the extent is the diameter, and the largest motion component
      // is not chosen (its branches mispredicted: measured 0.95x the tick at 10,000 spheres).
      let e = 2 * r;
      // With continuous contacts, the largest motion component as a select through `pick` (a
      // two-slot table indexed by the comparison), not a branch: the components' order is random
      // per body, and the nested selects mispredicted (this scan alone took 1.7x the one with no
      // choice at 100,000 spheres). The number of ax > ay ? (ax > az ? ax : az) : (ay > az ? ay : az)
      // for every input, NaN included (test/step/scanExtent.test.ts). Continuous tick 0.957 and
      // 0.958 at 100,000 spheres, 1.010 and 0.972 at 10,000 (docs/benchmarks.md).
      if (swept === 1) {
        pick[0] = ay;
        pick[1] = ax;
        const axy = pick[+(ax > ay)];
        pick[0] = az;
        pick[1] = axy;
        e += pick[+(axy > az)];
      }
      // A point at rest: its extent is the padding of its bounds (the cell then sorts points apart).
      if (e === 0) e = 2 * BOUNDS_PAD * (1 + Math.abs(x) + Math.abs(y) + Math.abs(z));
      sizes.input[0] = e;
      // A motion longer than a cell is sliced (see findPairs' `querySpheres`): a fast mover (see policy.ts).
      if (swept === 1 && cell > 0 && !(ax <= cell && ay <= cell && az <= cell)) sizeStatsAddFast(sizes);
      else sizeStatsAdd(sizes);
    } else if ((f & (BOX | MOVING)) === (BOX | MOVING)) {
      movingBoxes++;
      if (check === 1) validateBody(physics, eid, f);
      movingBoxSize(physics, eid, f);
    }
  }
  return bodies * SCAN_BODIES + ((groups & masks) !== 0 ? SCAN_SPHERE_SPHERE : 0) + (movingBoxes > 0 ? SCAN_MOVING_BOXES : 0);
}

/** Packing of `scanLoop`'s result: flag bits, then the body count times `SCAN_BODIES`. */
const SCAN_SPHERE_SPHERE = 1;
const SCAN_MOVING_BOXES = 2;
const SCAN_BODIES = 4;

/**
 * The scan stage, before gravity: with `validate`, throws `PhysicsInputError` for the first bad
 * input of the tick before any stage writes (see the module comment); sets the size statistics,
 * `sliceCap` (the deepest time split: log2 of the body count), `movingBoxes` and `sphereSphere` for
 * `findPairs`.
 */
export function scanBodies(physics: Physics): void {
  const internal = internalsOf(physics);
  const check = physics.validate ? 1 : 0;
  if (check === 1 && internal.gravityOn !== 0 && internal.responseCount !== 0) checkGravityStep(physics);
  const bp = internal.broadphase;
  if (check === 1 && (bp.staticDirty || bp.staticUnchecked)) {
    validateStatic(physics);
    // Checked (it throws otherwise): a restore's re-bucketed boxes need no second check.
    bp.staticUnchecked = false;
  }
  if (check === 1 && internal.characterCount !== 0) checkCharacters(physics);
  sizeStatsClear(bp.sizes);
  const scan = scanLoop(physics, check);
  bp.sliceCap = 31 - Math.clz32(Math.floor(scan / SCAN_BODIES));
  bp.movingBoxes = scan & SCAN_MOVING_BOXES;
  bp.sphereSphere = scan & SCAN_SPHERE_SPHERE;
}
