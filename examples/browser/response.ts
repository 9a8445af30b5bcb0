/**
 * The demo's collision response, a bitecs system written in the example (the module has no built-in
 * response yet; when it has one, the demo's pipe swaps this system for it: see `createDemoScene`).
 *
 * Sphere–box contacts only (the demo's collision filters make no sphere–sphere pairs): the box is
 * kinematic (static, or moving by its own velocity) and the sphere bounces off it with restitution e:
 * with the relative velocity u = v_sphere − v_box and the contact normal n (from the box toward the
 * sphere), a sphere approaching the box (u·n < 0) gets v_sphere −= (1 + e)(u·n) n.
 *
 * Every contact of each sphere is read from `physics.contacts` (sorted by (a, b), so a sphere's
 * contacts are one run), not only its primary contact: a ball touching a box and reaching a second
 * one later in the same tick bounces off both. The run is applied up to {@link PASSES} times (a
 * reflection off one box can turn the ball into another it touches); a ball still approaching one of
 * its boxes after that stops relative to it (takes that box's velocity): it never passes through.
 *
 * It runs between the narrowphase and integration, so the new velocity moves the sphere from where the
 * tick started (not from the impact: a bounce loses the part of the tick before it, which a game at
 * 60 Hz does not see). Frame: world; velocities in length units per second. No allocation.
 * @module
 */
import { hasComponent, type World } from 'bitecs';
import { ContactFlags, type Physics, type System } from '../../src/index.js';

/** Most passes over one sphere's contacts per tick. */
export const PASSES = 4;

export interface BounceOptions {
  /** Restitution e in [0, 1]: 1 elastic (default), 0 the normal velocity is removed (slide). */
  restitution?: number;
}

/** Creates the bounce system of `physics` (see the module comment). */
export function createBounceSystem(physics: Physics, options: BounceOptions = {}): System {
  const k = 1 + (options.restitution ?? 1);
  const { Sphere, Velocity } = physics.components;
  const world = physics.world;

  /**
   * u·n of contact i (the sphere a against the box b); the box's velocity counts when it has one.
   * 0 (nothing to do) for a sensor contact or one with a second sphere.
   */
  const approach = (i: number): number => {
    const c = physics.contacts, V = Velocity, a = c.a[i], b = c.b[i];
    if ((c.flags[i] & ContactFlags.SENSOR) !== 0 || hasComponent(world, b, Sphere)) return 0;
    const moving = hasComponent(world, b, Velocity);
    const ux = V.x[a] - (moving ? V.x[b] : 0), uy = V.y[a] - (moving ? V.y[b] : 0), uz = V.z[a] - (moving ? V.z[b] : 0);
    return ux * c.nx[i] + uy * c.ny[i] + uz * c.nz[i];
  };

  /** Bounces the sphere of contacts first .. end − 1 off each box it approaches; true if it still approaches one. */
  const bounceRun = (first: number, end: number): boolean => {
    const c = physics.contacts, V = Velocity;
    let approaching = false;
    for (let i = first; i < end; i++) {
      const un = approach(i);
      if (!(un < 0)) continue;
      const a = c.a[i];
      V.x[a] -= k * un * c.nx[i];
      V.y[a] -= k * un * c.ny[i];
      V.z[a] -= k * un * c.nz[i];
      approaching = true;
    }
    return approaching;
  };

  /** After the passes: a sphere still approaching a box takes that box's velocity. */
  const stopAgainst = (first: number, end: number): void => {
    const c = physics.contacts, V = Velocity;
    for (let i = first; i < end; i++) {
      if (!(approach(i) < 0)) continue;
      const a = c.a[i], b = c.b[i];
      const moving = hasComponent(world, b, Velocity);
      V.x[a] = moving ? V.x[b] : 0;
      V.y[a] = moving ? V.y[b] : 0;
      V.z[a] = moving ? V.z[b] : 0;
    }
  };

  return (w: World): World => {
    const c = physics.contacts;
    let first = 0;
    while (first < c.count) {
      const a = c.a[first];
      let end = first + 1;
      while (end < c.count && c.a[end] === a) end++;
      if (hasComponent(world, a, Velocity)) {
        let pass = 0;
        while (pass < PASSES && bounceRun(first, end)) pass++;
        if (pass === PASSES) stopAgainst(first, end);
      }
      first = end;
    }
    return w;
  };
}
