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

/**
 * Distance from point (x, y, z) to box `eid` (0 inside), computed independently of the library:
 * the point is taken into the box's frame with the conjugate of its (normalised) rotation and
 * clamped to the half extents.
 */
export function boxDistance(physics: Physics, eid: number, x: number, y: number, z: number): number {
  const { Position: P, Box: B } = physics.components;
  const l = Math.hypot(B.qx[eid], B.qy[eid], B.qz[eid], B.qw[eid]);
  const qx = -B.qx[eid] / l, qy = -B.qy[eid] / l, qz = -B.qz[eid] / l, qw = B.qw[eid] / l;
  const px = x - P.x[eid], py = y - P.y[eid], pz = z - P.z[eid];
  // v' = v + 2w (q × v) + 2 q × (q × v)
  const tx = 2 * (qy * pz - qz * py), ty = 2 * (qz * px - qx * pz), tz = 2 * (qx * py - qy * px);
  const lx = px + qw * tx + (qy * tz - qz * ty);
  const ly = py + qw * ty + (qz * tx - qx * tz);
  const lz = pz + qw * tz + (qx * ty - qy * tx);
  const dx = Math.max(0, Math.abs(lx) - B.hx[eid]);
  const dy = Math.max(0, Math.abs(ly) - B.hy[eid]);
  const dz = Math.max(0, Math.abs(lz) - B.hz[eid]);
  return Math.hypot(dx, dy, dz);
}
