/**
 * The demo's scene and collision response in Node (no browser needed): the bullet lane shows
 * tunnelling without continuous contacts and none with them, the response bounces a ball off every
 * box it reaches (not only its primary contact), and the scene is deterministic.
 */
import { createWorld, pipe } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox,
  addSphere,
  createBroadphaseSystem,
  createIntegrateSystem,
  createNarrowphaseSystem,
  createPhysics,
  hashPhysicsState,
} from '../../src/index.js';
import { BULLETS, createDemoScene, SALVO_TICKS } from '../../examples/browser/scene.js';
import { createBounceSystem } from '../../examples/browser/response.js';

describe('demo scene (Node)', () => {
  it('bullets pass the thin wall without continuous contacts, every salvo; with them, none ever does', () => {
    for (const continuous of [false, true]) {
      const scene = createDemoScene({ seed: 4, bodies: 1000, continuous });
      const counts: number[] = [];
      for (let t = 1; t <= 3 * SALVO_TICKS; t++) {
        scene.tick();
        if (continuous) expect(scene.bulletsThrough()).toBe(0);
        if (t % SALVO_TICKS === SALVO_TICKS - 1) counts.push(scene.bulletsThrough());
      }
      expect(counts).toEqual(continuous ? [0, 0, 0] : [BULLETS, BULLETS, BULLETS]);
    }
  });

  it('the bounce system reads every contact: a ball resting on a floor still bounces off a wall it reaches in the same tick', () => {
    const physics = createPhysics(createWorld(), { contactComponent: false });
    addBox(physics, { position: [0, -1, 0], halfExtents: [10, 1, 10] }); // floor, top at y = 0
    addBox(physics, { position: [3, 2, 0], halfExtents: [0.05, 2, 2] }); // thin wall at x = 2.95 .. 3.05
    const ball = addSphere(physics, { position: [2, 0.5, 0], radius: 0.5, velocity: [120, 0, 0] }); // 2 units per tick
    const tick = pipe(createBroadphaseSystem(physics), createNarrowphaseSystem(physics), createBounceSystem(physics), createIntegrateSystem(physics));
    tick(physics.world);
    expect(physics.contacts.count).toBe(2); // the floor (touching, toi 0) and the wall (swept)
    const { Position, Velocity } = physics.components;
    expect(Velocity.x[ball]).toBe(-120);
    expect(Position.x[ball]).toBeLessThan(2.45);
  });

  it('is deterministic: the same options give the same hashes', () => {
    const run = () => {
      const scene = createDemoScene({ seed: 9, bodies: 1500, continuous: true });
      for (let t = 0; t < 90; t++) scene.tick();
      return hashPhysicsState(scene.physics);
    };
    expect(run()).toBe(run());
  });
});
