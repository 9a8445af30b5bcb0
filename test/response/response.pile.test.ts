/**
 * Guarantee 5: a pile of 1,000 spheres (SLIDE, random horizontal velocities) dropped with gravity
 * into an open box (a floor and four walls) settles: none leaves the box, no sphere–box penetration
 * beyond 1e-9 of the scene's scale, sphere–sphere overlap at most 1% of the radius, kinetic energy
 * decays. Figures reported with BITECS_COLLIDE_REPORT=1.
 */
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, step } from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import { createRng } from '../../src/scenes/prng.js';
import { report } from '../support/report.js';
import { freshPhysics } from '../support/response.js';

const W = 5.4, R = 0.25, T = 0.5, N = 1000, TICKS = 120;

describe('guarantee 5: a pile of 1,000 spheres', () => {
  it('settles inside the box without penetration, overlaps at most 1% of the radius, energy decays', () => {
    const physics = freshPhysics({ gravity: [0, -9.81, 0] });
    addBox(physics, { position: [0, -T, 0], halfExtents: [W + 2 * T, T, W + 2 * T] });
    for (const [x, z, hx, hz] of [[W + T, 0, T, W], [-W - T, 0, T, W], [0, W + T, W, T], [0, -W - T, W, T]]) {
      addBox(physics, { position: [x, 20, z], halfExtents: [hx, 20, hz] });
    }
    const rng = createRng(5);
    const ids: number[] = [];
    const per = 18, step2 = (2 * (W - R)) / per;
    for (let i = 0; i < N; i++) {
      const x = -W + R + ((i % per) + 0.5) * step2 + rng.range(-0.005, 0.005);
      const z = -W + R + ((Math.floor(i / per) % per) + 0.5) * step2 + rng.range(-0.005, 0.005);
      const y = 1 + Math.floor(i / (per * per)) * 1.2;
      ids.push(addSphere(physics, { position: [x, y, z], velocity: [rng.range(-1, 1), 0, rng.range(-1, 1)], radius: R, response: 'slide' }));
    }
    const { Position: P, Velocity: V } = physics.components;
    const energy = () => ids.reduce((e, a) => e + 0.5 * R ** 3 * (V.x[a] ** 2 + V.y[a] ** 2 + V.z[a] ** 2), 0);
    const tol = 1e-9 * 2 * W;
    let peak = 0, worstBox = 0, worstPair = 0, frozen = 0, impacts = 0;
    for (let t = 1; t <= TICKS; t++) {
      step(physics);
      const work = internalsOf(physics).response!.work;
      impacts += work[0];
      frozen += work[4];
      peak = Math.max(peak, energy());
      for (const a of ids) {
        const pen = Math.max(R - P.y[a], Math.abs(P.x[a]) - (W - R), Math.abs(P.z[a]) - (W - R));
        worstBox = Math.max(worstBox, pen);
      }
      if (t % 40 !== 0) continue;
      const cell = new Map<string, number[]>();
      for (const a of ids) {
        const k = `${Math.floor(P.x[a] / (2 * R))},${Math.floor(P.y[a] / (2 * R))},${Math.floor(P.z[a] / (2 * R))}`;
        (cell.get(k) ?? cell.set(k, []).get(k)!).push(a);
      }
      for (const a of ids) {
        const cx = Math.floor(P.x[a] / (2 * R)), cy = Math.floor(P.y[a] / (2 * R)), cz = Math.floor(P.z[a] / (2 * R));
        for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) for (let dz = -1; dz <= 1; dz++) {
          for (const b of cell.get(`${cx + dx},${cy + dy},${cz + dz}`) ?? []) {
            if (b <= a) continue;
            worstPair = Math.max(worstPair, 2 * R - Math.hypot(P.x[a] - P.x[b], P.y[a] - P.y[b], P.z[a] - P.z[b]));
          }
        }
      }
    }
    const final = energy();
    report(`pile: ${N} spheres, ${TICKS} ticks: worst sphere–box penetration ${worstBox.toExponential(2)}, worst sphere–sphere overlap ` +
      `${(worstPair / R).toExponential(2)} of the radius, kinetic energy peak ${peak.toFixed(4)} → ${final.toFixed(4)}, ` +
      `${(impacts / TICKS).toFixed(0)} impacts and ${(frozen / TICKS).toFixed(0)} bodies at maxIterations per tick`);
    expect(worstBox).toBeLessThanOrEqual(tol);
    expect(worstPair).toBeLessThanOrEqual(0.01 * R);
    expect(final).toBeLessThan(0.25 * peak);
  }, 120_000);
});
