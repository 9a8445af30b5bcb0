/**
 * Moving platforms and pushers (docs/character.md): a character standing on a kinematic box moving
 * up, down or sideways is carried with it for 600 ticks (always grounded on it, touching its top,
 * its position relative to the box what it walked); a kinematic box pushing it into a corner never
 * leaves it inside the box or the walls (independent distance check: the closest point of each box).
 */
import { describe, expect, it } from 'vitest';
import { addBox, step } from '../../src/index.js';
import { boxDistance, character, floorWorld } from './scenes.js';

const R = 0.5;

describe('character on a moving platform', () => {
  const cases: Array<[string, [number, number, number]]> = [
    ['up', [0, 1.5, 0]],
    ['down', [0, -1.5, 0]],
    ['sideways', [2, 0, 1]],
  ];
  for (const [name, vel] of cases) {
    it(`rides a platform moving ${name} for 600 ticks`, () => {
      const { physics } = floorWorld({ gravity: [0, -9.81, 0] });
      // high above the floor so that moving down for 10 s never reaches it
      const platform = addBox(physics, { position: [0, 20, 0], halfExtents: [3, 0.25, 3], velocity: [0, 0, 0] });
      const a = character(physics, { position: [0, 20.25 + R, 0], radius: R });
      const { Position: P, Velocity: V, Character: C } = physics.components;
      step(physics);
      expect(C.groundEid[a]).toBe(platform);
      const dt = physics.dt;
      for (let t = 0; t < 600; t++) {
        // the platform reverses every 120 ticks (so that it stays over the scene)
        const sign = Math.floor(t / 120) % 2 === 0 ? 1 : -1;
        V.x[platform] = sign * vel[0];
        V.y[platform] = sign * vel[1];
        V.z[platform] = sign * vel[2];
        V.x[a] = 0;
        V.z[a] = 0;
        const px = P.x[platform], py = P.y[platform], pz = P.z[platform];
        const ax = P.x[a], az = P.z[a];
        step(physics);
        expect(C.grounded[a]).toBe(1);
        expect(C.groundEid[a]).toBe(platform);
        // carried: the box moved by its velocity × dt, the character with it (it stands still on it)
        expect(P.x[a] - ax).toBeCloseTo(P.x[platform] - px, 10);
        expect(P.z[a] - az).toBeCloseTo(P.z[platform] - pz, 10);
        expect(P.y[platform] - py).toBeCloseTo(sign * vel[1] * dt, 12);
        // on its top: touching, never inside
        const above = P.y[a] - R - (P.y[platform] + 0.25);
        expect(Math.abs(above)).toBeLessThan(1e-9 * 40);
      }
    });
  }

  it('walks on a platform moving sideways at its own speed relative to it', () => {
    const { physics } = floorWorld();
    const platform = addBox(physics, { position: [0, 5, 0], halfExtents: [20, 0.25, 3], velocity: [1, 0, 0] });
    const a = character(physics, { position: [0, 5.25 + R, 0], radius: R });
    const { Position: P, Velocity: V, Character: C } = physics.components;
    step(physics);
    for (let t = 0; t < 60; t++) {
      V.x[a] = 0;
      V.z[a] = 2;
      const x0 = P.x[a], z0 = P.z[a];
      step(physics);
      expect(C.groundEid[a]).toBe(platform);
      expect(P.x[a] - x0).toBeCloseTo(1 / 60, 12);
      expect(P.z[a] - z0).toBeCloseTo(2 / 60, 12);
      // the velocity written back is its own (the carry is not in it)
      expect(V.x[a]).toBeCloseTo(0, 10);
      expect(V.z[a]).toBeCloseTo(2, 10);
    }
  });
});

describe('character pushed by a kinematic box', () => {
  it('is pushed into a corner and never ends a tick inside the box or the walls', () => {
    const { physics, floor } = floorWorld();
    const wallX = addBox(physics, { position: [5.5, 1, 0], halfExtents: [0.5, 1, 6] }); // face x = 5
    const wallZ = addBox(physics, { position: [0, 1, 5.5], halfExtents: [6, 1, 0.5] }); // face z = 5
    // the pusher slides along wallZ toward wallX; the character stands against wallZ in its way
    const pusher = addBox(physics, { position: [0, 1, 4], halfExtents: [1, 1, 1], velocity: [3, 0, 0] });
    const a = character(physics, { position: [2, R, 5 - R], radius: R });
    const { Position: P, Velocity: V } = physics.components;
    let pushed = 0;
    for (let t = 0; t < 300; t++) {
      // the pusher goes on until the room left between it and wallX is one diameter (to 3 / 60)
      const room = 5 - (P.x[pusher] + 1);
      V.x[pusher] = room - 3 / 60 >= 2 * R ? 3 : 0;
      // the character walks into the pusher half of the time, into the corner the other half
      const input = t % 40 < 20 ? -2 : 2;
      V.x[a] = input;
      V.z[a] = 1;
      const x0 = P.x[a];
      step(physics);
      if (P.x[a] > x0 && input < 0) pushed++;
      for (const box of [pusher, wallX, wallZ, floor]) {
        expect(boxDistance(physics, box, P.x[a], P.y[a], P.z[a])).toBeGreaterThanOrEqual(R - 1e-9 * 20);
      }
    }
    expect(pushed).toBeGreaterThan(10);
    // squeezed into the corner: between the pusher and wallX, against wallZ
    expect(P.x[a]).toBeGreaterThanOrEqual(5 - 2 * R - 1e-9);
    expect(P.z[a]).toBeCloseTo(5 - R, 9);
  });
});
