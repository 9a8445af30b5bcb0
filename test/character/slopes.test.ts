/**
 * Slopes and steps of the character controller (docs/character.md), against hand-computed
 * geometry: ramps of 10°, 30°, 44° (ground with maxSlope 45°) are climbed at the desired horizontal
 * speed and the character never leaves their plane by more than 1e-9 of the scene; ramps of 46° and
 * 60° (walls) block it where a sphere on the floor touches their plane, also when it jumps into them
 * 100 times (never higher than a plain jump's apex); a stair of 0.5 × stepHeight is climbed without
 * a launch, one of 1.5 × stepHeight stops it where the sphere touches the riser; stairs are walked
 * down staying grounded.
 */
import { describe, expect, it } from 'vitest';
import { addBox, step } from '../../src/index.js';
import { addRamp, character, floorWorld, G, rampDistance, walk } from './scenes.js';

const R = 0.5;
const SPEED = 2;
const DT = 1 / 60;
const deg = (d: number) => (d * Math.PI) / 180;

describe('character on ramps (maxSlope 45°)', () => {
  for (const angle of [10, 30, 44]) {
    it(`climbs a ${angle}° ramp at the desired horizontal speed, on its plane`, () => {
      const th = deg(angle);
      const { physics } = floorWorld();
      addRamp(physics, 0, th, 20);
      const a = character(physics, { position: [-2, R, 0], radius: R });
      const { Position: P, Velocity: V, Character: C } = physics.components;
      let onRamp = 0;
      let prevX = P.x[a];
      const scale = 1 + 20 * Math.tan(th) + 20;
      for (let t = 0; t < 400; t++) {
        walk(physics, a, SPEED, 0);
        step(physics);
        const dx = P.x[a] - prevX;
        prevX = P.x[a];
        // on the ramp proper: the contact point is on its face (x of the foot beyond the crease)
        if (P.x[a] - R * Math.sin(th) > 0.01) {
          onRamp++;
          expect(C.grounded[a]).toBe(1);
          expect(Math.abs(dx - SPEED * DT)).toBeLessThan(1e-12 * scale);
          const above = rampDistance(P.x[a], P.y[a], 0, th) - R;
          expect(above).toBeLessThanOrEqual(1e-9 * scale);
          expect(above).toBeGreaterThanOrEqual(-1e-9 * scale);
          expect(V.y[a]).toBe(0);
          expect(C.nx[a]).toBeCloseTo(-Math.sin(th), 12);
          expect(C.ny[a]).toBeCloseTo(Math.cos(th), 12);
        }
        expect(P.z[a]).toBe(0);
      }
      expect(onRamp).toBeGreaterThan(300);
    });
  }

  for (const angle of [46, 60]) {
    it(`is blocked by a ${angle}° ramp where it touches its plane`, () => {
      const th = deg(angle);
      const { physics, floor } = floorWorld();
      addRamp(physics, 0, th, 20);
      const a = character(physics, { position: [-2, R, 0], radius: R });
      const { Position: P, Character: C } = physics.components;
      const blockX = -R * (1 - Math.cos(th)) / Math.sin(th);
      for (let t = 0; t < 300; t++) {
        walk(physics, a, SPEED, 0);
        step(physics);
        expect(P.x[a]).toBeLessThanOrEqual(blockX + 1e-12 * 20);
        expect(P.y[a]).toBeCloseTo(R, 12);
        expect(C.grounded[a]).toBe(1);
        expect(C.groundEid[a]).toBe(floor);
      }
      expect(P.x[a]).toBeCloseTo(blockX, 12);
    });

    it(`is blocked by a ${angle}° ramp when jumping into it 100 times`, () => {
      const th = deg(angle);
      const { physics } = floorWorld();
      addRamp(physics, 0, th, 20);
      const a = character(physics, { position: [-2, R, 0], radius: R });
      const { Position: P, Velocity: V, Character: C } = physics.components;
      const jump = 5;
      // the apex of a plain jump (semi-implicit Euler stays below the analytic one)
      const apex = R + (jump * jump) / (2 * G);
      // where a sphere at that height touches the plane
      const xAtApex = (apex * Math.cos(th) - R) / Math.sin(th);
      let jumps = 0;
      let maxY = 0;
      let t = 0;
      for (; t < 60000 && jumps < 100; t++) {
        walk(physics, a, SPEED, 0);
        if (C.grounded[a]) {
          V.y[a] = jump;
          jumps++;
        }
        step(physics);
        maxY = Math.max(maxY, P.y[a]);
        expect(P.y[a]).toBeLessThanOrEqual(apex + 1e-9);
        expect(P.x[a]).toBeLessThanOrEqual(xAtApex + 1e-9);
        expect(rampDistance(P.x[a], P.y[a], 0, th) - R).toBeGreaterThanOrEqual(-1e-9 * 20);
      }
      expect(jumps).toBe(100);
      expect(maxY).toBeGreaterThan(R + 1);
    });
  }
});

describe('character on stairs (stepHeight 0.4, radius 0.5)', () => {
  // A riser of 0.2 (0.5 × stepHeight) meets the sphere at its edge with a normal 53° from up: a
  // wall for maxSlope 45°, so it is climbed by the step rule, not walked up as a slope.
  const STEP = 0.4;
  /** Five steps of height h and tread 1 from x = 1, then a landing. */
  function stairs(f: number) {
    const { physics, floor } = floorWorld();
    const h = f * STEP;
    const steps: number[] = [];
    for (let i = 0; i < 5; i++) steps.push(addBox(physics, { position: [1 + i + 0.5, ((i + 1) * h) / 2, 0], halfExtents: [0.5, ((i + 1) * h) / 2, 5] }));
    const landing = addBox(physics, { position: [16, (5 * h) / 2, 0], halfExtents: [10, (5 * h) / 2, 5] });
    return { physics, floor, h, steps, landing };
  }

  it('climbs steps of 0.5 × stepHeight without a launch', () => {
    const { physics, h, landing } = stairs(0.5);
    const a = character(physics, { position: [-1, R, 0], radius: R, stepHeight: STEP });
    const { Position: P, Velocity: V, Character: C } = physics.components;
    for (let t = 0; t < 200; t++) {
      walk(physics, a, 3, 0);
      step(physics);
      // never above the tread under its centre (or the next one) plus the radius
      const i = Math.min(5, Math.max(0, Math.floor(P.x[a] - 1) + 1));
      const next = Math.min(5, i + 1);
      expect(P.y[a]).toBeLessThanOrEqual(R + next * h + 1e-9);
      expect(P.y[a]).toBeGreaterThanOrEqual(R - 1e-9);
      expect(C.grounded[a]).toBe(1);
      expect(V.y[a]).toBe(0);
    }
    expect(P.x[a]).toBeCloseTo(-1 + (200 * 3) / 60, 6);
    expect(P.y[a]).toBeCloseTo(R + 5 * h, 12);
    expect(C.groundEid[a]).toBe(landing);
  });

  it('is stopped by a step of 1.5 × stepHeight where it touches the riser edge', () => {
    const { physics, h, floor } = stairs(1.5);
    const a = character(physics, { position: [-1, R, 0], radius: R, stepHeight: STEP });
    const { Position: P, Character: C } = physics.components;
    // the riser (0.6) is higher than the radius: the sphere meets its face
    expect(h).toBeGreaterThan(R);
    const blockX = 1 - R;
    for (let t = 0; t < 200; t++) {
      walk(physics, a, 3, 0);
      step(physics);
      expect(P.x[a]).toBeLessThanOrEqual(blockX + 1e-12 * 10);
      expect(P.y[a]).toBeCloseTo(R, 12);
      expect(C.groundEid[a]).toBe(floor);
    }
    expect(P.x[a]).toBeCloseTo(blockX, 12);
  });

  it('walks down the stairs staying grounded', () => {
    const { physics, h } = stairs(0.5);
    const a = character(physics, { position: [10, R + 5 * h, 0], radius: R, stepHeight: STEP, snapDistance: STEP });
    const { Position: P, Character: C } = physics.components;
    step(physics); // lands (it starts touching the landing)
    for (let t = 0; t < 300; t++) {
      walk(physics, a, -3, 0);
      step(physics);
      expect(C.grounded[a]).toBe(1);
      expect(P.y[a]).toBeGreaterThanOrEqual(R - 1e-9);
    }
    expect(P.y[a]).toBeCloseTo(R, 12);
    expect(P.x[a]).toBeLessThan(0);
  });
});
