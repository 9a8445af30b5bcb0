/**
 * Coulomb friction (docs/response.md, "Friction"; src/response/friction.ts): a sphere on a ramp
 * accelerates at g (sin θ − μ cos θ) above the friction angle and stays put below it; impacts lose
 * μ × the normal velocity change of tangential speed; sphere–sphere friction conserves momentum;
 * the pair's coefficient is √(μa μb); friction 0 (the default) changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, step } from '../../src/index.js';
import { axisAngle, freshPhysics, pos, vel, type V3 } from '../support/response.js';

const G = 9.81;
const DT = 1 / 60;

/**
 * A sphere (radius 0.5) at rest on a ramp of angle `deg` (a box rotated about z, its top descending
 * toward +x) with friction `mu` on both, stepped `ticks` ticks. Returns the speed, the distance moved
 * and the ticks without a contact.
 */
function ramp(deg: number, muSphere: number | undefined, muRamp: number | undefined, ticks: number): { speed: number; moved: number; noContact: number } {
  const th = (deg * Math.PI) / 180;
  const physics = freshPhysics({ gravity: [0, -G, 0], dt: DT });
  addBox(physics, { position: [0, 0, 0], halfExtents: [1000, 1, 10], rotation: axisAngle([0, 0, 1], -th), ...(muRamp === undefined ? {} : { friction: muRamp }) });
  const n: V3 = [Math.sin(th), Math.cos(th), 0];
  const r = 0.5;
  const start: V3 = [n[0] * (1 + r), n[1] * (1 + r), 0];
  const s = addSphere(physics, { position: start, velocity: [0, 0, 0], radius: r, response: 'slide', ...(muSphere === undefined ? {} : { friction: muSphere }) });
  let noContact = 0;
  for (let i = 0; i < ticks; i++) {
    step(physics);
    if (physics.contacts.count === 0) noContact++;
  }
  const v = vel(physics, s), p = pos(physics, s);
  return { speed: Math.hypot(...v), moved: Math.hypot(p[0] - start[0], p[1] - start[1], p[2] - start[2]), noContact };
}

describe('friction on a ramp', () => {
  for (const [deg, mu] of [[30, 0.3], [45, 0.5], [20, 0.1], [60, 1.2]]) {
    it(`θ = ${deg}°, μ = ${mu}: accelerates at g (sin θ − μ cos θ) within 1 %`, () => {
      const th = (deg * Math.PI) / 180;
      const ticks = 120;
      const { speed, noContact } = ramp(deg, mu, mu, ticks);
      const expected = G * (Math.sin(th) - mu * Math.cos(th)) * ticks * DT;
      expect(Math.abs(speed / expected - 1)).toBeLessThan(0.01);
      expect(noContact).toBe(0);
    });
  }

  for (const [deg, mu] of [[30, 0.7], [20, 0.4], [44, 1]]) {
    it(`θ = ${deg}°, μ = ${mu} (below the friction angle): stays put`, () => {
      const { speed, moved, noContact } = ramp(deg, mu, mu, 300);
      expect(speed).toBeLessThan(1e-9);
      expect(moved).toBeLessThan(1e-9);
      expect(noContact).toBe(0);
    });
  }

  it('regression: without friction every ball on a ramp slid off (μ = 0: g sin θ)', () => {
    const { speed } = ramp(20, undefined, undefined, 120);
    expect(Math.abs(speed / (G * Math.sin((20 * Math.PI) / 180) * 2) - 1)).toBeLessThan(1e-9);
  });

  it('the pair mixes as √(μa μb): a frictionless ramp (no Material) gives no friction', () => {
    const free = ramp(30, 0.9, undefined, 60);
    expect(Math.abs(free.speed / (G * 0.5 * 1) - 1)).toBeLessThan(1e-9);
    // √(0.09 × 1) = 0.3
    const mixed = ramp(30, 0.09, 1, 120);
    const th = Math.PI / 6;
    expect(Math.abs(mixed.speed / (G * (Math.sin(th) - 0.3 * Math.cos(th)) * 2) - 1)).toBeLessThan(0.01);
  });
});

describe('friction at impacts', () => {
  it('SLIDE onto a floor: the tangential speed drops by μ × the normal speed removed', () => {
    const physics = freshPhysics({ dt: DT });
    addBox(physics, { position: [0, -1, 0], halfExtents: [100, 1, 100], friction: 0.25 });
    const s = addSphere(physics, { position: [0, 2, 0], velocity: [60, -120, 0], radius: 0.5, response: 'slide', friction: 0.25 });
    step(physics);
    // normal speed removed 120, μ = 0.25: 60 − 30
    expect(vel(physics, s)[0]).toBeCloseTo(30, 12);
    expect(vel(physics, s)[1]).toBe(0);
  });

  it('BOUNCE: the normal change is (1 + e) |vn|; friction never reverses the tangential velocity', () => {
    const physics = freshPhysics({ dt: DT });
    addBox(physics, { position: [0, -1, 0], halfExtents: [100, 1, 100], friction: 2 });
    const s = addSphere(physics, { position: [0, 2, 0], velocity: [60, -120, 0], radius: 0.5, response: 'bounce', restitution: 0.5, friction: 2 });
    step(physics);
    expect(vel(physics, s)).toEqual([0, 60, 0]);
  });

  it('two dynamic spheres: momentum conserved, the tangential relative speed shrinks', () => {
    const physics = freshPhysics({ dt: DT });
    const a = addSphere(physics, { position: [0, 0, 0], velocity: [60, 30, 0], radius: 0.5, response: 'bounce', restitution: 1, friction: 0.5 });
    const b = addSphere(physics, { position: [1.5, 0, 0], velocity: [-60, -30, 0], radius: 0.5, response: 'bounce', restitution: 1, friction: 0.5, mass: 2 });
    const mA = 0.125, mB = 2;
    const before = [0, 1].map((k) => mA * vel(physics, a)[k] + mB * vel(physics, b)[k]);
    step(physics);
    const after = [0, 1].map((k) => mA * vel(physics, a)[k] + mB * vel(physics, b)[k]);
    for (let k = 0; k < 2; k++) expect(Math.abs(after[k] - before[k])).toBeLessThan(1e-12 * 200);
    expect(Math.abs(vel(physics, a)[1] - vel(physics, b)[1])).toBeLessThan(60);
  });
});

describe('friction 0 changes nothing', () => {
  it('Material with friction 0 on every body gives the same motion as no Material', () => {
    const run = (mu: number | undefined): number[] => {
      const physics = freshPhysics({ gravity: [0, -G, 0], dt: DT });
      const m = mu === undefined ? {} : { friction: mu };
      addBox(physics, { position: [0, -1, 0], halfExtents: [10, 1, 10], ...m });
      const ids: number[] = [];
      for (let i = 0; i < 20; i++) ids.push(addSphere(physics, { position: [(i % 5) - 2, 1 + Math.floor(i / 5), 0.1 * i], velocity: [i % 3, 0, 0], radius: 0.4, response: 'bounce', restitution: 0.5, ...m }));
      for (let t = 0; t < 200; t++) step(physics);
      return ids.flatMap((e) => [...pos(physics, e), ...vel(physics, e)]);
    };
    expect(run(0)).toEqual(run(undefined));
  });
});
