/**
 * Sensors, in the plane z = 0: balls (dynamic, Response BOUNCE, restitution 1, no gravity) fly in a
 * walled room through four sensor zones (two boxes, two circles, `sensor: true`). A sensor reports
 * contacts (flagged `ContactFlags.SENSOR`) but nothing collides with it: the response moves the balls
 * through. A zone lights up while a ball touches it, and so does the ball; `physics.began` with the
 * SENSOR flag counts the entries. Balls do not collide with each other (collision groups).
 * @module
 */
import { createWorld } from 'bitecs';
import { addBox, addSphere, ContactFlags, createPhysics, step } from '../../../src/index.js';
import { createRng } from '../../../src/scenes/prng.js';
import { COLORS, type ShowScene } from '../showScene.js';

const WALLS = 1, BALLS = 2, SENSORS = 4;
const HALF_W = 15, HALF_H = 10;
export const BALL_COUNT = 24;

export function createSensorsScene(options: { seed: number }): ShowScene {
  const world = createWorld();
  const physics = createPhysics(world, { dt: 1 / 60, capacity: 64, contactComponent: false });
  const rng = createRng(options.seed);
  const walls = [
    addBox(physics, { position: [0, HALF_H + 0.5, 0], halfExtents: [HALF_W + 1, 0.5, 1], group: WALLS, mask: BALLS }),
    addBox(physics, { position: [0, -HALF_H - 0.5, 0], halfExtents: [HALF_W + 1, 0.5, 1], group: WALLS, mask: BALLS }),
    addBox(physics, { position: [HALF_W + 0.5, 0, 0], halfExtents: [0.5, HALF_H, 1], group: WALLS, mask: BALLS }),
    addBox(physics, { position: [-HALF_W - 0.5, 0, 0], halfExtents: [0.5, HALF_H, 1], group: WALLS, mask: BALLS }),
  ];
  const zoneBoxes = [
    addBox(physics, { position: [-8, 4, 0], halfExtents: [3, 2, 1], sensor: true, group: SENSORS, mask: BALLS }),
    addBox(physics, { position: [7, -4, 0], halfExtents: [2, 3, 1], rotation: [0, 0, 0.3826834323650898, 0.9238795325112867], sensor: true, group: SENSORS, mask: BALLS }),
  ];
  const zoneSpheres = [
    addSphere(physics, { position: [-7, -5, 0], radius: 2.5, sensor: true, group: SENSORS, mask: BALLS }),
    addSphere(physics, { position: [8, 5, 0], radius: 2, sensor: true, group: SENSORS, mask: BALLS }),
  ];
  const zones = [...zoneBoxes, ...zoneSpheres];
  const balls = Uint32Array.from({ length: BALL_COUNT }, () => {
    // A direction drawn in the square, normalised (no trigonometry: the same bits in every engine).
    let dx = rng.range(-1, 1), dy = rng.range(-1, 1);
    const l = Math.hypot(dx, dy) || 1, speed = rng.range(3, 7);
    dx /= l;
    dy /= l;
    return addSphere(physics, {
      position: [rng.range(-HALF_W + 1, HALF_W - 1), rng.range(-HALF_H + 1, HALF_H - 1), 0],
      radius: 0.4,
      velocity: [speed * dx, speed * dy, 0],
      response: 'bounce',
      restitution: 1,
      group: BALLS,
      mask: WALLS | SENSORS,
    });
  });
  const lit = new Uint8Array(physics.components.Position.x.length);
  let entries = 0;

  function light(): void {
    lit.fill(0);
    const c = physics.contacts;
    for (let i = 0; i < c.count; i++) {
      if ((c.flags[i] & ContactFlags.SENSOR) === 0) continue;
      lit[c.a[i]] = 1;
      lit[c.b[i]] = 1;
    }
    const b = physics.began;
    for (let i = 0; i < b.count; i++) if ((b.flags[i] & ContactFlags.SENSOR) !== 0) entries++;
  }

  const litZones = () => zones.reduce((n, z) => n + lit[z], 0);
  const inside = () => balls.reduce((n, e) => n + lit[e], 0);
  return {
    world,
    physics,
    spheres: Uint32Array.from([...zoneSpheres, ...balls]),
    boxes: Uint32Array.from([...walls, ...zoneBoxes]),
    translucent: Uint32Array.from(zones),
    tick() {
      step(physics);
      light();
    },
    color: (e) => (zones.includes(e) ? (lit[e] ? COLORS.sensorLit : COLORS.sensorIdle) : walls.includes(e) ? COLORS.staticBox : lit[e] ? COLORS.sensorLit : COLORS.ball),
    labels: () => zones.map((z, k) => {
      const p = physics.components.Position;
      return { x: p.x[z], y: p.y[z], z: 0, text: `${k < 2 ? 'box' : 'sphere'} sensor${lit[z] ? ': triggered' : ''}`, color: lit[z] ? COLORS.sensorLit : COLORS.sensorIdle };
    }),
    figures: () => ({ zones: zones.length, lit: litZones(), inside: inside(), entries }),
    status: () =>
      `zones triggered now: ${litZones()} of ${zones.length} · balls inside: ${inside()}\n` +
      `entries so far: ${entries} (physics.began with ContactFlags.SENSOR)`,
    bounds2d: [-HALF_W - 1, -HALF_H - 1, HALF_W + 1, HALF_H + 1],
    camera3d: { eye: [0, -20, 26], target: [0, 0, 0] },
  };
}
