/**
 * README's ball pit (its Usage block, same bodies) comes to rest: with friction 0.5 on the floor and
 * the balls, every ball ends on the floor and the kinetic energy falls below 1e-6 of its peak.
 * Without friction the balls kept sliding along the floor (and off it) forever.
 */
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, step } from '../../src/index.js';
import { freshPhysics } from '../support/response.js';

function readmePit(friction: number | undefined): { ratio: number; onFloor: number } {
  const physics = freshPhysics({ dt: 1 / 60, gravity: [0, -9.81, 0] });
  const mu = friction === undefined ? {} : { friction };
  addBox(physics, { position: [0, -1, 0], halfExtents: [20, 1, 20], ...mu });
  const ids: number[] = [];
  for (let i = 0; i < 20; i++) {
    ids.push(addSphere(physics, { position: [i - 10, 3 + (i % 3), 0], radius: 0.4, velocity: [2, 0, 1], response: 'bounce', restitution: 0.7, ...mu }));
  }
  const { Velocity: V, Position: P } = physics.components;
  let peak = 0, ke = 0;
  for (let t = 0; t < 600; t++) {
    step(physics);
    ke = 0;
    for (const e of ids) ke += 0.5 * (V.x[e] ** 2 + V.y[e] ** 2 + V.z[e] ** 2);
    if (ke > peak) peak = ke;
  }
  return { ratio: ke / peak, onFloor: ids.filter((e) => Math.abs(P.y[e] - 0.4) < 1e-9 && Math.abs(P.x[e]) < 20 && Math.abs(P.z[e]) < 20).length };
}

describe("README's ball pit", () => {
  it('with friction 0.5 comes to rest within 10 s, every ball on the floor', () => {
    const { ratio, onFloor } = readmePit(0.5);
    expect(ratio).toBeLessThan(1e-6);
    expect(onFloor).toBe(20);
  });

  it('regression: without friction it never came to rest', () => {
    expect(readmePit(undefined).ratio).toBeGreaterThan(0.1);
  });
});
