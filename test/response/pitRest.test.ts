/**
 * A pit of 1,000 balls with friction comes to rest and stays inside (issue 24, "Done means"): five
 * layers of balls (radius 0.25, restitution 0.3, friction 0.5 on balls, floor and walls) dropped with
 * sideways velocities into an 8 × 8 pit under gravity (a second case with other velocities and ball
 * friction 0.2), with sleep on and the default options: within
 * 10 s the kinetic energy falls below 1e-6 of its peak and stays there for the last second, and no
 * ball ends outside the walls or in the floor (beyond 1e-9). Without sleep the deep pile kept about
 * 1e-2 of its peak energy (measured: 2.7e-2 at 2.5 s, 2.2e-2 at 5 s, frictionless or not).
 * Regression (jammed capped bodies): balls wedged between a wall and a sleeper, or squeezed in a row
 * between two sleepers, with a column of awake balls on them, used up their budget (maxIterations
 * impacts) on resting contacts at the start of the tick, tick after tick: capped, they stayed where
 * they were but kept their velocity (gravity and the impulses of the balls on them), which came back
 * the next tick; 15 balls stayed awake and the energy grew back to its peak (one ball reached
 * 159 u/s without moving). With `maxIterations: 16` 2 balls stayed awake at 1.05e-6 of the peak.
 * In the second case 846 of the 1,000 balls were awake after 10 s.
 * Now the start-of-tick solve includes the pairs within the rest skin that fall together, and a
 * capped body that moved no farther than the rest skin, in this tick and the previous one, ends the tick
 * at rest (test/response/jammed.test.ts, jamMark.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, step } from '../../src/index.js';
import { freshPhysics } from '../support/response.js';

const W = 4, R = 0.25, N = 1000;

describe('a pit of 1,000 balls with friction and sleep', () => {
  it.each([
    [7, 3, 0.5],
    [9, 5, 0.2],
  ])('comes to rest with the default options (kinetic energy below 1e-6 of its peak for the last second) and stays inside: velocities from i × %i and i × %i, ball friction %s', (kx, kz, mu) => {
    const physics = freshPhysics({ gravity: [0, -9.81, 0], capacity: 2048, sleep: {}, contactComponent: false });
    addBox(physics, { position: [0, -1, 0], halfExtents: [W + 1, 1, W + 1], friction: 0.5 });
    for (const [x, z, hx, hz] of [[-W - 0.5, 0, 0.5, W], [W + 0.5, 0, 0.5, W], [0, -W - 0.5, W, 0.5], [0, W + 0.5, W, 0.5]]) {
      addBox(physics, { position: [x, 10, z], halfExtents: [hx, 11, hz], friction: 0.5 });
    }
    const ids: number[] = [];
    for (let i = 0; i < N; i++) {
      const gx = i % 14, gz = Math.floor(i / 14) % 14, gy = Math.floor(i / 196);
      ids.push(addSphere(physics, {
        position: [-3.25 + gx * 0.5 + 0.01 * (i % 7), 0.5 + gy * 0.6, -3.25 + gz * 0.5], velocity: [((i * kx) % 5) - 2, 0, ((i * kz) % 5) - 2],
        radius: R, response: 'bounce', restitution: 0.3, friction: mu,
      }));
    }
    const { Velocity: V, Position: P } = physics.components;
    const energy = (): number => {
      let ke = 0;
      for (const e of ids) ke += 0.5 * (V.x[e] ** 2 + V.y[e] ** 2 + V.z[e] ** 2);
      return ke;
    };
    let peak = 0;
    const last: number[] = [];
    for (let t = 0; t < 600; t++) {
      step(physics);
      const ke = energy();
      if (ke > peak) peak = ke;
      if (t >= 540) last.push(ke / peak);
    }
    expect(Math.max(...last)).toBeLessThan(1e-6);
    let outside = 0;
    for (const e of ids) {
      if (Math.abs(P.x[e]) > W - R + 1e-9 || Math.abs(P.z[e]) > W - R + 1e-9 || P.y[e] < R - 1e-9) outside++;
    }
    expect(outside).toBe(0);
  }, 300_000);
});
