/**
 * Scenes of the character tests: a floor, ramps, stairs, platforms built from boxes, with the
 * hand-computed geometry the tests check against (planes, heights).
 */
import { createWorld } from 'bitecs';
import { addBox, addCharacter, createPhysics, type CharacterOptions, type Physics, type PhysicsOptions } from '../../src/index.js';

export const G = 9.81;

/** A physics instance with gravity −y (G) and a floor box whose top is y = 0 over |x|, |z| < 100. */
export function floorWorld(options: PhysicsOptions = {}): { physics: Physics; floor: number } {
  const physics = createPhysics(createWorld(), { gravity: [0, -G, 0], ...options });
  const floor = addBox(physics, { position: [0, -1, 0], halfExtents: [100, 1, 100] });
  return { physics, floor };
}

/**
 * A ramp rising along +x at `angle` (radians) from the floor line x = x0 (y = 0) over the
 * horizontal run `run`, as a rotated box of thickness 2 × `thick`, z in [−w, w]. Its top plane:
 * normal n = (−sin θ, cos θ, 0) through (x0, 0, 0).
 */
export function addRamp(physics: Physics, x0: number, angle: number, run: number, w = 5, thick = 0.5): number {
  const L = run / Math.cos(angle) / 2;
  const c = Math.cos(angle), s = Math.sin(angle);
  const top = [x0 + L * c, L * s];
  const n = [-s, c];
  const centre: [number, number, number] = [top[0] - thick * n[0], top[1] - thick * n[1], 0];
  return addBox(physics, { position: centre, halfExtents: [L, thick, w], rotation: [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)] });
}

/** Signed distance from point (x, y) to the ramp plane of addRamp(x0, angle). */
export function rampDistance(x: number, y: number, x0: number, angle: number): number {
  return (x - x0) * -Math.sin(angle) + y * Math.cos(angle);
}

export function character(physics: Physics, o: CharacterOptions): number {
  return addCharacter(physics, o);
}

/** Writes the desired horizontal velocity (x, z), keeping the vertical one (the game's usual input). */
export function walk(physics: Physics, eid: number, vx: number, vz: number): void {
  physics.components.Velocity.x[eid] = vx;
  physics.components.Velocity.z[eid] = vz;
}


export { boxDistance } from '../../src/scenes/characterMaze.js';
