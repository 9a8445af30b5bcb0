/**
 * The response against moving bodies and crowds (issue 24, part 1), as named regressions built
 * with the public API (test/support/responseScenes.ts), measured by an independent point–box
 * distance: kinematic carriers and pushers, a body past maxIterations while a kinematic box walks
 * into it, Newton's cradle (momentum), squeezes against a static wall, and the bounded work in a
 * crowd. Tolerances: 1e-9 of the radius against boxes, 1 % of the radii sum between spheres.
 */
import { describe, expect, it } from 'vitest';
import { step } from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import { predictionCap } from '../../src/response/predict.js';
import { R_BODIES, R_CAPPED } from '../../src/response/responseState.js';
import { buildGas } from '../../src/scenes/gas.js';
import { carrier, cradle, depths, dynamicSphere, emptyScene, kinematicBox, momentum, pusher, runScene, squeeze, staticBox } from '../support/responseScenes.js';

const BOX_TOL = 1e-9, SPHERE_TOL = 0.01;

describe('kinematic carriers and pushers (issue 24, item 1)', () => {
  it.each([3, 10])('regression: a platform rising at 2 u/s carries a column of %i spheres: never inside it, never merged', (n) => {
    // Before: 56 (3 spheres) and 160 (10) of 300 ticks ended with a sphere 0.033 inside the
    // platform, and two spheres fully coincident.
    const { bad, worst } = runScene(carrier(n), 300, BOX_TOL);
    expect(bad.kinematics).toBe(0);
    expect(worst.spheres).toBeLessThanOrEqual(SPHERE_TOL);
  });

  it('regression: with maxIterations 256 too (before: 111 of 300 ticks inside)', () => {
    const { bad, worst } = runScene(carrier(10, { maxIterations: 256 }), 300, BOX_TOL);
    expect(bad.kinematics).toBe(0);
    expect(worst.spheres).toBeLessThanOrEqual(SPHERE_TOL);
  });

  it.each([[5, true], [5, false], [2, false]] as const)('regression: a box pushing a row of %i STOP spheres along a floor (gravity %s): never inside the pusher nor the floor', (n, gravity) => {
    // Before: 298 of 300 ticks inside the pusher with 5 spheres and gravity, spheres merged; 2
    // spheres without gravity already gave 2 bad ticks.
    const { bad, worst } = runScene(pusher(n, gravity), 300, BOX_TOL);
    expect(bad.kinematics).toBe(0);
    expect(bad.statics).toBe(0);
    expect(worst.spheres).toBeLessThanOrEqual(SPHERE_TOL);
  });
});

describe('bodies past their budget (issue 24, item 2)', () => {
  it('regression: maxIterations 1, a kinematic box walking into a sphere head-on never ends inside it', () => {
    for (const v of [0, -3, -30]) {
      const s = emptyScene({ maxIterations: 1 });
      kinematicBox(s, [-2, 0, 0], [0.5, 0.5, 0.5], [3, 0, 0]);
      dynamicSphere(s, [0, 0, 0], 0.5, [v, 0, 0], 'slide');
      expect(runScene(s, 120, BOX_TOL).bad.kinematics).toBe(0);
    }
  });

  it('default maxIterations, a sphere bouncing fast in a 1.2-wide corridor while a kinematic box walks in', () => {
    // The corridor case (an overlap of 1.0e-2 before) with other numbers; this one passed before too.
    const s = emptyScene();
    staticBox(s, [0, 0, 0.85], [20, 2, 0.25]);
    staticBox(s, [0, 0, -0.85], [20, 2, 0.25]);
    kinematicBox(s, [-4, 0, 0], [0.5, 0.5, 0.55], [3, 0, 0]);
    dynamicSphere(s, [0, 0, 0], 0.5, [0.5, 0, 400], 'bounce', 1);
    const { bad } = runScene(s, 240, BOX_TOL);
    expect(bad.statics).toBe(0);
    expect(bad.unsqueezed).toBe(0);
  });

  it("regression: Newton's cradle of 6 equal spheres (e = 1, 6 u/s) conserves momentum to 1e-12", () => {
    // Before: momentum 6 → 2 in one tick (bodies at maxIterations received no impulse).
    const s = cradle(6, 6);
    const m0 = momentum(s);
    for (let t = 0; t < 30; t++) {
      step(s.physics);
      const m = momentum(s);
      for (let k = 0; k < 3; k++) expect(Math.abs(m[k] - m0[k])).toBeLessThanOrEqual(1e-12 * Math.abs(m0[0]));
    }
    expect(depths(s).spheres).toBeLessThanOrEqual(SPHERE_TOL);
  });
});

describe('squeezes (issue 24, item 3)', () => {
  it.each([3, 30])('regression: a kinematic box driving through a wall at %i u/s with a sphere between: the sphere never enters nor crosses the wall', (speed) => {
    // Before: at 3 u/s, 20 ticks up to 0.95 deep in the wall, then behind the pusher; at 30 u/s it
    // jumped across the wall.
    for (const mode of ['stop', 'slide', 'bounce'] as const) {
      const s = squeeze(speed, mode);
      const sphere = s.spheres[0];
      const P = s.physics.components.Position;
      let squeezedWithDepth = 0;
      for (let t = 0; t < Math.ceil(240 / speed); t++) {
        step(s.physics);
        const d = depths(s);
        expect(d.statics).toBeLessThanOrEqual(BOX_TOL);
        expect(P.x[sphere] + 0.5).toBeLessThanOrEqual(3 + BOX_TOL);
        if (d.kinematics > BOX_TOL) {
          // Overlapping the pusher only when squeezed, and reported as a contact with that depth.
          const c = s.physics.contacts;
          let reported = 0;
          for (let i = 0; i < c.count; i++) if (c.a[i] === sphere && c.b[i] === s.kinematics[0].eid) reported = c.depth[i];
          expect(reported / 0.5).toBeCloseTo(d.kinematics, 6);
          squeezedWithDepth++;
        }
      }
      expect(squeezedWithDepth).toBeGreaterThan(0);
    }
  });
});

describe('bounded work in a crowd (issue 24, item 4)', () => {
  it('the bouncing gas (20 radii per tick): no body is predicted more than the cap allows, and none ends inside a wall or merged', () => {
    const gas = buildGas({ spheres: 125, dynamic: true });
    const s = internalsOf(gas.physics);
    for (let t = 0; t < 10; t++) {
      gas.tick();
      const r = s.response!;
      expect(r.work[R_BODIES]).toBe(125);
      let most = 0;
      for (const e of gas.sphereIds) most = Math.max(most, r.predictions[e]);
      expect(most).toBeLessThanOrEqual(predictionCap(gas.physics) + 1);
      expect(r.work[R_CAPPED]).toBeLessThanOrEqual(125);
      const P = gas.physics.components.Position;
      for (const e of gas.sphereIds) for (const x of [P.x[e], P.y[e], P.z[e]]) {
        expect(x).toBeGreaterThanOrEqual(0.5 - 1e-9 * gas.side);
        expect(x).toBeLessThanOrEqual(gas.side - 0.5 + 1e-9 * gas.side);
      }
    }
  });
});
