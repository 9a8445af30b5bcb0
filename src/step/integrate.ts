/**
 * The last stage of a tick (with the `integrate` option): moves the moving bodies the response did
 * not move.
 * @module
 */
import { internalsOf } from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import { isDynamic } from '../response/isDynamic.js';
import { isCharacter } from '../character/isCharacter.js';

const { SPHERE, BOX, MOVING, RESPONSE, CHARACTER } = BodyFlags;

/**
 * Moves every moving body (a sphere or box with Velocity) by velocity × dt (world frame, length
 * units), except dynamic bodies (spheres with Response), which the response moved, and characters
 * (spheres with Character), which the character stage moved.
 */
export function integrate(physics: Physics): void {
  const { flags, maxEid } = internalsOf(physics);
  const { Position: p, Velocity: v } = physics.components;
  const dt = physics.dt;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & MOVING) === 0 || (f & (SPHERE | BOX)) === 0) continue;
    // the bodies moved by other stages (a bit test first: most bodies have neither)
    if ((f & (RESPONSE | CHARACTER)) !== 0 && (isDynamic(f) || isCharacter(f))) continue;
    p.x[eid] += v.x[eid] * dt;
    p.y[eid] += v.y[eid] * dt;
    p.z[eid] += v.z[eid] * dt;
  }
}
