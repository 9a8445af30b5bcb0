/**
 * The check of a tick's input, before anything is written: with `physics.validate` it reads every
 * body the tick will use and throws `PhysicsInputError` naming the entity and field for the first
 * bad one, so that a tick that throws has changed nothing (fix the field and step again: the world
 * is as if the bad tick never ran). Reads Position, Velocity, the shapes, Response, gravity and
 * `dt`; writes nothing. World frame, length units, seconds.
 *
 * - Spheres: position, radius, and the motion over the tick (velocity × dt; for a dynamic body the
 *   velocity after gravity, (v + g·dt)·dt, the motion the broadphase will sweep).
 * - Moving boxes: every field (`validateBody`) and their motion.
 * - Dynamic bodies (spheres with Response): `Response.mode`, `restitution`, `mass`.
 * - Static boxes: every one of them when they will be re-bucketed this tick (`staticDirty`, set by
 *   the stage before this one when a static box was written): an unchanged static box was checked
 *   when it was bucketed.
 * - gravity · dt must be finite (when some body has Response and gravity is not zero).
 * @module
 */
import { ResponseMode } from '../../components/index.js';
import { checkGravityStep, validateBody } from '../physics/bodyReads.js';
import { PhysicsInputError } from '../physics/errors.js';
import { internalsOf } from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';

const { SPHERE, BOX, MOVING, RESPONSE } = BodyFlags;
const DYNAMIC = SPHERE | MOVING | RESPONSE;
const BOUNCE = ResponseMode.BOUNCE;

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
  for (const axis of ['x', 'y', 'z'] as const) {
    const k = axis === 'x' ? 0 : axis === 'y' ? 1 : 2;
    const u = v[axis][eid], w = dynamic ? u + internal.gravity[k] * dt : u;
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
 * One pass over the spheres and moving boxes: a fast test of each sphere's position, radius and
 * motion (velocity after gravity × dt), the full check (which names the field) for a sphere that
 * fails it and for every moving box, and a fast test of each dynamic body's Response fields. Nothing
 * follows the loop (docs/internals.md, rule 3).
 */
function validateMoving(physics: Physics): void {
  const internal = internalsOf(physics);
  const { flags, maxEid } = internal;
  const { Position: p, Velocity: v, Sphere: s, Response: resp } = physics.components;
  const px = p.x, py = p.y, pz = p.z, vx = v.x, vy = v.y, vz = v.z, radius = s.radius;
  const mode = resp.mode, restitution = resp.restitution, mass = resp.mass;
  const dt = physics.dt;
  const g = internal.gravity;
  const on = internal.gravityOn !== 0 && internal.responseCount !== 0;
  // gravity · dt, as applyGravity adds it (0 without gravity).
  const gx = on ? g[0] * dt : 0, gy = on ? g[1] * dt : 0, gz = on ? g[2] * dt : 0;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & SPHERE) !== 0) {
      const x = px[eid], y = py[eid], z = pz[eid], r = radius[eid];
      const moving = (f & MOVING) !== 0;
      const dynamic = (f & (DYNAMIC | BOX)) === DYNAMIC;
      let ux = moving ? vx[eid] : 0, uy = moving ? vy[eid] : 0, uz = moving ? vz[eid] : 0;
      if (dynamic) {
        ux += gx;
        uy += gy;
        uz += gz;
      }
      const mx = ux * dt, my = uy * dt, mz = uz * dt;
      if (!(x * 0 + y * 0 + z * 0 + mx * 0 + my * 0 + mz * 0 === 0 && r >= 0 && r !== Infinity)) sphereError(physics, eid, f);
      if (dynamic) {
        const e = restitution[eid], m = mass[eid];
        if (!(mode[eid] <= BOUNCE && e >= 0 && e <= 1 && m >= 0 && m !== Infinity)) responseError(physics, eid);
      }
    } else if ((f & (BOX | MOVING)) === (BOX | MOVING)) {
      validateBody(physics, eid, f);
    }
  }
}

/**
 * The validation stage (with `physics.validate`; `step` skips it otherwise): throws
 * `PhysicsInputError` for the first bad input of the tick, before any stage writes. See the module
 * comment for what is checked.
 */
export function validateBodies(physics: Physics): void {
  const internal = internalsOf(physics);
  if (internal.gravityOn !== 0 && internal.responseCount !== 0) checkGravityStep(physics);
  if (internal.staticDirty) validateStatic(physics);
  validateMoving(physics);
}
