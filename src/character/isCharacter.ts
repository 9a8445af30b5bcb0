/**
 * Which bodies the character controller moves: spheres with Velocity and Character (and no Box).
 * Read by the stages that treat them apart (the narrowphase, the integration).
 * @module
 */
import { BodyFlags } from '../physics/physicsTypes.js';

const { SPHERE, BOX, MOVING, CHARACTER } = BodyFlags;

/** Flags of a character (and no BOX). */
export const CHARACTER_FLAGS = SPHERE | MOVING | CHARACTER;

/** Whether body flags `f` make a character. */
export function isCharacter(f: number): boolean {
  return (f & (CHARACTER_FLAGS | BOX)) === CHARACTER_FLAGS;
}
