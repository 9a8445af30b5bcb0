/**
 * Defects of meeting a capped body (resolve.ts `processEvent`: the impulse on the relative
 * velocity, the hitting body capped when it still moves toward the capped one, a capped partner
 * jammed at the last tick met as a body at rest), found by a hostile review of that change (issue 24,
 * docs/response.md, Limits). The open ones are named expected failures until fixed.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, createPhysics, step } from '../../src/index.js';

describe('meeting a capped body (open: issue 24)', () => {
  it('regression: a kinematic box pushing 10 balls along a floor (nothing ahead of them) merges no two of them beyond 1 % of the radii sum', () => {
    // Was 4.19e-2 at tick 86 (7114ea7: 9.8e-7): six to eight of the ten balls capped each tick while
    // the box presses, and the projection stopped after 8 passes. Fixed by its pinning levels and the
    // passes past 8 (project.ts): 3.7e-4.
    const balls = [
      [-1.9935009754961357, 0.52, 0.22829256374388934, 0.011898036472012857], [-0.9799862828967161, 0.52, 0.23368923596572133, 0.012761923178753368],
      [0.04055318206548694, 0.52, 0.34466069848276676, 0.04094258802658446], [1.0655741467536428, 0.52, 0.43214702971745284, 0.08070391384173642],
      [-1.9921074581006541, 1.54, 0.4695736057125032, 0.10354068478319688], [-0.9792011985764839, 1.54, 0.36997064964380116, 0.050640946764886036],
      [0.044506639754399696, 1.54, 0.41900473716668785, 0.07356255401337078], [1.062023618791718, 1.54, 0.40693615453783427, 0.06738742016594564],
      [-1.9936938837124034, 2.56, 0.3928989257663489, 0.06065163660069272], [-0.9723610177193768, 2.56, 0.21722873996477576, 0.01025066048217554],
    ];
    const physics = createPhysics(createWorld(), { gravity: [0, -9.81, 0] });
    addBox(physics, { position: [0, -1, 0], halfExtents: [1000, 1, 1000] });
    addBox(physics, { position: [-3, 2, 0], velocity: [7.372052175831395, 0, 0], halfExtents: [0.5, 2, 4] });
    const ids = balls.map(([x, y, r, m]) => addSphere(physics, { position: [x, y, 0], velocity: [0, 0, 0], radius: r, mass: m, response: 'bounce', restitution: 0 }));
    const P = physics.components.Position, R = physics.components.Sphere.radius;
    let worst = 0;
    for (let t = 0; t < 150; t++) {
      step(physics);
      for (let i = 0; i < ids.length; i++) {
        for (let j = i + 1; j < ids.length; j++) {
          const a = ids[i], b = ids[j];
          worst = Math.max(worst, (R[a] + R[b] - Math.hypot(P.x[a] - P.x[b], P.y[a] - P.y[b], P.z[a] - P.z[b])) / (R[a] + R[b]));
        }
      }
    }
    expect(worst).toBeLessThanOrEqual(0.01);
  });

  it.fails('regression: three balls (restitution 1) stacked in a box far from the origin with maxIterations 1 gain no energy', () => {
    // Measured: 0.0576 of Σ m g (y + 1) at tick 11 (7114ea7: −0.0004); 0.026 at the origin. The
    // capped middle ball is given −2.92 u/s while held in place, which the next tick's solve gives
    // back to the top ball.
    const off = 1e6, W = 1.9978221831843257, mu = 0.7164086597040296;
    const physics = createPhysics(createWorld(), { gravity: [0, -9.81, 0], maxIterations: 1 });
    addBox(physics, { position: [off, -1, 0], halfExtents: [W + 1, 1, W + 1], friction: mu });
    for (const [x, z, hx, hz] of [[-W - 0.5, 0, 0.5, W], [W + 0.5, 0, 0.5, W], [0, -W - 0.5, W, 0.5], [0, W + 0.5, W, 0.5]]) {
      addBox(physics, { position: [off + x, 100, z], halfExtents: [hx, 101, hz], friction: mu });
    }
    const balls = [
      [-0.23445630067194928, 0.4218133313115686, 0.4218133313115686, 0.07505176398738589],
      [0.15649853229639288, 1.2023085157992317, 0.34868185317609457, 0.042392403138521925],
      [0.09683220579876399, 2.055596769070253, 0.49460640009492635, 0.12099827954631577],
    ];
    const ids = balls.map(([x, y, r, m]) => addSphere(physics, { position: [off + x, y, 0], velocity: [0, 0, 0], radius: r, mass: m, response: 'bounce', restitution: 1, friction: mu }));
    const P = physics.components.Position, V = physics.components.Velocity;
    const energy = (): number => ids.reduce((a, b, i) => a + balls[i][3] * (0.5 * (V.x[b] ** 2 + V.y[b] ** 2 + V.z[b] ** 2) + 9.81 * P.y[b]), 0);
    const e0 = energy(), scale = ids.reduce((a, b, i) => a + balls[i][3] * 9.81 * (P.y[b] + 1), 0);
    let gain = -Infinity;
    for (let t = 0; t < 200; t++) {
      step(physics);
      gain = Math.max(gain, (energy() - e0) / scale);
    }
    // The integration's own swing (test/response/pileEnergy.test.ts) is below 0.03.
    expect(gain).toBeLessThan(0.03);
  });
});
