/**
 * Bullets against a thin wall, in the plane z = 0: a salvo of {@link BULLETS} small spheres fired along
 * +x at {@link SPEED} length units per second (2 units per tick at 60 Hz) at a wall 0.1 thick, every
 * {@link SALVO_TICKS} ticks. No tick starts with a bullet touching the wall.
 *
 * - Continuous contacts on (`physics.continuous`): the bullets are dynamic (Response BOUNCE), the
 *   response sweeps each one along its path, finds the wall within the tick and sends it back. None
 *   passes.
 * - Off: the bullets are kinematic (no Response), seen by the discrete test only at each tick's start
 *   poses, none of which touches the wall: no contact is ever reported, and they pass. The switch is
 *   read at the start of each tick (createBulletModeSystem, as in the stress scene).
 *
 * Each bullet leaves a trace of this salvo's flight (green: stopped at the wall; red: went through)
 * and waits, stopped, back at its start line or at the end of the lane, until the next salvo.
 * The scene counts, per mode, the bullets fired and those beyond the wall when the next salvo is
 * fired (a salvo during which the switch changed is not counted).
 * @module
 */
import { createWorld, pipe } from 'bitecs';
import { addBox, addSphere, createBroadphaseSystem, createDebugLines, createIntegrateSystem, createNarrowphaseSystem, createPhysics, type System } from '../../../src/index.js';
import { createBulletModeSystem } from '../scene.js';
import { COLORS, pushLine, type ShowScene } from '../showScene.js';

export const BULLETS = 8;
export const SPEED = 120;
export const SALVO_TICKS = 45;
const RADIUS = 0.2;
const SPACING = 1.25;
const WALL_HALF = 0.05;
/** Start 9 units before the wall: 4.5 ticks of flight, tick starts miss the wall by 1. */
const RUN = 9;

export interface BulletsScene extends ShowScene {
  /** Bullets beyond the wall now. */
  through(): number;
}

export function createBulletsScene(options: { continuous: boolean }): BulletsScene {
  const world = createWorld();
  const physics = createPhysics(world, { dt: 1 / 60, capacity: 64, continuous: options.continuous, contactComponent: false });
  const wall = addBox(physics, { position: [0, 0, 0], halfExtents: [WALL_HALF, (BULLETS * SPACING) / 2 + 1, 1] });
  const y = (j: number) => SPACING * (j - (BULLETS - 1) / 2);
  const bullets = Uint32Array.from({ length: BULLETS }, (_, j) =>
    addSphere(physics, { position: [-RUN, y(j), 0], radius: RADIUS, velocity: [SPEED, 0, 0] }),
  );
  const { Position, Velocity } = physics.components;
  const fired = { on: 0, off: 0 }, passed = { on: 0, off: 0 };
  let salvoMode: boolean | undefined = options.continuous;
  let firedAtTick = 0;
  const hit = new Uint8Array(physics.components.Position.x.length);

  const salvo: System = (w) => {
    if (physics.tick % SALVO_TICKS !== 0) return w;
    // Count the salvo that is ending, by the mode it flew in.
    if (salvoMode !== undefined) {
      const mode = salvoMode ? 'on' : 'off';
      fired[mode] += BULLETS;
      passed[mode] += through();
    }
    salvoMode = physics.continuous;
    for (let j = 0; j < BULLETS; j++) {
      const b = bullets[j];
      Position.x[b] = -RUN;
      Position.y[b] = y(j);
      Position.z[b] = 0;
      Velocity.x[b] = SPEED;
      Velocity.y[b] = 0;
      Velocity.z[b] = 0;
      hit[b] = 0;
      reach[j] = -RUN;
    }
    firedAtTick = physics.tick;
    return w;
  };
  // Where each bullet of the salvo got (the farthest x), for its trace; a bullet back at its start
  // line, or past the end of the lane, waits there for the next salvo (velocity zero), in view.
  const reach = new Float64Array(BULLETS).fill(-RUN);
  const park: System = (w) => {
    for (let j = 0; j < BULLETS; j++) {
      const b = bullets[j];
      reach[j] = Math.max(reach[j], Position.x[b]);
      if ((Velocity.x[b] < 0 && Position.x[b] < -RUN) || (Velocity.x[b] > 0 && Position.x[b] > RUN)) {
        Position.x[b] = Velocity.x[b] < 0 ? -RUN : RUN;
        Velocity.x[b] = 0;
      }
    }
    return w;
  };
  const modeWatch: System = (w) => {
    if (salvoMode !== undefined && salvoMode !== physics.continuous) salvoMode = undefined;
    return w;
  };
  const lines = createDebugLines(2 * BULLETS);
  const step = pipe(modeWatch, createBulletModeSystem(physics, bullets), createBroadphaseSystem(physics), createNarrowphaseSystem(physics), createIntegrateSystem(physics), park, salvo);

  function through(): number {
    let n = 0;
    for (const b of bullets) if (Position.x[b] > WALL_HALF) n++;
    return n;
  }

  function refreshLines(): void {
    lines.count = 0;
    // The lane: where the bullets fly, to as far past the wall; over it, each bullet's trace this
    // salvo: green where it stopped at the wall, red where it went through.
    for (let j = 0; j < BULLETS; j++) {
      pushLine(lines, -RUN - 1, y(j), 0, RUN + 1, y(j), 0, 0x3f3a1a);
      pushLine(lines, -RUN, y(j), 0, Math.min(reach[j], RUN), y(j), 0, reach[j] > WALL_HALF ? COLORS.enemy : COLORS.player);
    }
    // Marks of the wall contacts of the last tick (a short tick at each contact point).
    const c = physics.contacts;
    for (let i = 0; i < c.count; i++) {
      const bullet = c.a[i] === wall ? c.b[i] : c.a[i];
      hit[bullet] = 1;
    }
  }

  const share = (m: 'on' | 'off') => (fired[m] === 0 ? 'none fired yet' : `${passed[m]} of ${fired[m]} passed`);
  return {
    world,
    physics,
    spheres: bullets,
    boxes: Uint32Array.of(wall),
    tick() {
      step(world);
      refreshLines();
    },
    color: (e) => (e === wall ? COLORS.wall : hit[e] === 1 ? COLORS.touching : COLORS.bullet),
    teleported: () => firedAtTick === physics.tick,
    lines,
    labels: () => [
      { x: -RUN, y: y(BULLETS - 1) + 1.4, z: 0, text: `${SPEED} units/s →`, color: COLORS.bullet },
      { x: 0.4, y: y(BULLETS - 1) + 2.0, z: 0, text: 'wall 0.1 thick', color: COLORS.wall },
      { x: RUN - 4, y: y(0) - 1.8, z: 0, text: `passed now: ${through()}/${BULLETS}`, color: through() > 0 ? COLORS.enemy : COLORS.player },
    ],
    figures: () => ({ through: through(), firedOn: fired.on, passedOn: passed.on, firedOff: fired.off, passedOff: passed.off }),
    status: () =>
      `continuous contacts ${physics.continuous ? 'ON' : 'OFF'}: bullets are ${physics.continuous ? 'dynamic (swept, they bounce back)' : 'kinematic, seen only per tick'}\n` +
      `with continuous on: ${share('on')}\nwith continuous off: ${share('off')}`,
    through,
    bounds2d: [-RUN - 2, y(0) - 3, RUN + 2, y(BULLETS - 1) + 3],
    camera3d: { eye: [-6, 4, 16], target: [0, 0, 0] },
  };
}
