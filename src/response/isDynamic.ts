/**
 * Which bodies the response moves: dynamic spheres (Position, Sphere, Velocity and Response, and no
 * Box). Read by the stages that treat them apart (gravity, the narrowphase, integration).
 * @module
 */
import { BodyFlags } from '../physics/physicsTypes.js';

const { SPHERE, BOX, MOVING, RESPONSE } = BodyFlags;

/** Flags of a dynamic body (and no BOX). */
export const DYNAMIC_FLAGS = SPHERE | MOVING | RESPONSE;

/** Whether body flags `f` make a dynamic body. */
export function isDynamic(f: number): boolean {
  return (f & (DYNAMIC_FLAGS | BOX)) === DYNAMIC_FLAGS;
}
