/**
 * A character walking a course under keyboard control: a ramp up to a plateau, stairs down, and a
 * moving platform that carries it, all static or kinematic boxes, with gravity −9.81 along y. The
 * character is the module's character controller (`addCharacter`: collide-and-slide, slopes up to
 * maxSlope, steps up to stepHeight, snap to ground, carried by moving boxes). The game writes the
 * desired horizontal velocity each tick (arrow keys or A/D along x, W/S along z, Space to jump when
 * grounded); while no key has been pressed for {@link AUTO_AFTER_TICKS} ticks it walks the course
 * back and forth by itself.
 *
 * The course runs along x; seen from the side (the 2D view's xy projection) it is a profile.
 * @module
 */
import { createWorld } from 'bitecs';
import { addBox, addCharacter, createPhysics, step } from '../../../src/index.js';
import { COLORS, type ShowScene } from '../showScene.js';

/** Walking speed, length units per second, and the jump's upward speed. */
const SPEED = 4, JUMP = 5;
const AUTO_AFTER_TICKS = 120;
const RADIUS = 0.5;
/** Highest ledge the character climbs (its stepHeight): above the stairs' steps. */
const STEP_CLIMB = 0.35;
/** Stairs: STEPS steps of STEP_H (below the character's step height, radius / 2) and STEP_W deep. */
const STEPS = 6, STEP_H = 0.15, STEP_W = 0.8;
/** The plateau's height, reached by the ramp and the stairs. */
export const PLATEAU_H = STEPS * STEP_H;
const H = PLATEAU_H;
/** The ramp: from x = RAMP_X0 over a run of RAMP_RUN up to the plateau. */
const RAMP_X0 = -9, RAMP_RUN = 4;
const PLATEAU_X0 = RAMP_X0 + RAMP_RUN, PLATEAU_X1 = PLATEAU_X0 + 3;
/** The moving platform: its top at PLATFORM_Y, sliding along x between PLATFORM_X0 and PLATFORM_X1. */
const PLATFORM_Y = 0.2, PLATFORM_X0 = 5, PLATFORM_X1 = 11, PLATFORM_SPEED = 1.5;
/** The floor is drawn darker than the course on it. */
const FLOOR_COLOR = 0x374151;
/** The autopilot walks between these x. */
const TURN_LEFT = -11, TURN_RIGHT = 14;

export interface CharacterScene extends ShowScene {
  setInput(x: number, y: number, jump?: boolean): void;
  readonly character: number;
  readonly platform: number;
}

export function createCharacterScene(): CharacterScene {
  const world = createWorld();
  const physics = createPhysics(world, { dt: 1 / 60, gravity: [0, -9.81, 0], capacity: 64, contactComponent: false });
  const boxes: number[] = [];
  const box = (c: [number, number, number], h: [number, number, number], q?: [number, number, number, number], v?: [number, number, number]) => {
    const e = addBox(physics, { position: c, halfExtents: h, rotation: q, velocity: v });
    boxes.push(e);
    return e;
  };
  const floor = box([2, -0.5, 0], [16, 0.5, 3]); // the floor, top y = 0, x in [-14, 18]
  // The ramp: a box rotated about z so that its top face rises from (RAMP_X0, 0) to (PLATEAU_X0, H).
  const angle = Math.atan2(H, RAMP_RUN), half = Math.hypot(H, RAMP_RUN) / 2, thick = 0.25;
  const nx = -Math.sin(angle), ny = Math.cos(angle);
  box([RAMP_X0 + RAMP_RUN / 2 - thick * nx, H / 2 - thick * ny, 0], [half, thick, 2], [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)]);
  box([(PLATEAU_X0 + PLATEAU_X1) / 2, H / 2, 0], [(PLATEAU_X1 - PLATEAU_X0) / 2, H / 2, 2]); // the plateau
  for (let k = 1; k < STEPS; k++) {
    // Step k going down from the plateau: its top at H − k · STEP_H.
    const top = H - k * STEP_H, x0 = PLATEAU_X1 + (k - 1) * STEP_W;
    box([x0 + STEP_W / 2, top / 2, 0], [STEP_W / 2, top / 2, 2]);
  }
  const platform = box([PLATFORM_X0 + 1, PLATFORM_Y / 2, 0], [1, PLATFORM_Y / 2, 1.5], undefined, [PLATFORM_SPEED, 0, 0]);
  const character = addCharacter(physics, { position: [TURN_LEFT + 1, RADIUS + 0.01, 0], radius: RADIUS, stepHeight: STEP_CLIMB });
  const { Position: p, Velocity: v, Character: ch } = physics.components;
  const input = { x: 0, z: 0, jump: false, idle: AUTO_AFTER_TICKS };
  let heading = 1;

  function steer(): void {
    // The platform turns at the ends of its run.
    if ((p.x[platform] > PLATFORM_X1 && v.x[platform] > 0) || (p.x[platform] < PLATFORM_X0 && v.x[platform] < 0)) v.x[platform] = -v.x[platform];
    let x = input.x, z = input.z;
    if (input.idle >= AUTO_AFTER_TICKS) {
      if (p.x[character] > TURN_RIGHT) heading = -1;
      if (p.x[character] < TURN_LEFT) heading = 1;
      x = heading;
      z = 0;
    } else input.idle++;
    v.x[character] = SPEED * x;
    v.z[character] = SPEED * z;
    if (input.jump && ch.grounded[character] === 1) v.y[character] = JUMP;
  }

  return {
    world,
    physics,
    character,
    platform,
    spheres: Uint32Array.of(character),
    boxes: Uint32Array.from(boxes),
    tick() {
      steer();
      step(physics);
    },
    setInput(x, y, jump = false) {
      input.x = x;
      input.z = -y;
      input.jump = jump;
      if (x !== 0 || y !== 0 || jump) input.idle = 0;
    },
    color: (e) => (e === character ? (ch.grounded[character] === 1 ? COLORS.player : COLORS.bullet) : e === platform ? COLORS.movingBox : e === floor ? FLOOR_COLOR : COLORS.staticBox),
    labels: () => [
      { x: RAMP_X0 + RAMP_RUN / 2, y: H / 2 + 1.2, z: 0, text: 'ramp', color: COLORS.text },
      { x: PLATEAU_X1 + 1.5, y: H + 0.6, z: 0, text: 'stairs', color: COLORS.text },
      { x: p.x[platform], y: PLATFORM_Y + 1.6, z: 0, text: 'moving platform', color: COLORS.movingBox },
      { x: p.x[character], y: p.y[character] + 1, z: 0, text: ch.grounded[character] === 1 ? 'grounded' : 'in the air', color: COLORS.player },
    ],
    figures: () => ({ x: p.x[character], y: p.y[character], grounded: ch.grounded[character], auto: input.idle >= AUTO_AFTER_TICKS ? 1 : 0 }),
    status: () =>
      `${ch.grounded[character] === 1 ? 'grounded' : 'in the air'} at x ${p.x[character].toFixed(2)}, height ${(p.y[character] - RADIUS).toFixed(2)}\n` +
      (input.idle >= AUTO_AFTER_TICKS ? 'walking the course by itself; arrows / WASD to walk, Space to jump' : 'arrows / WASD: walk · Space: jump'),
    bounds2d: [-14, -1, 18, 5],
    camera3d: { eye: [2, 5, 16], target: [2, 0.8, 0] },
  };
}
