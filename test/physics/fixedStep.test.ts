/**
 * The fixed-step helper: accumulator, maxSubSteps (dropping the excess), alpha for interpolation.
 */
import fc from 'fast-check';
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addSphere, createFixedStepper, createPhysics, fixedStepAdvance, step, type FixedStepper } from '../../src/index.js';
import { MAX_SUB_STEPS } from '../../src/physics/fixedStep.js';

describe('createFixedStepper', () => {
  it('validates dt and maxSubSteps (RangeError), defaults maxSubSteps to 5', () => {
    for (const dt of [0, -1, NaN, Infinity]) expect(() => createFixedStepper({ dt })).toThrow(RangeError);
    for (const maxSubSteps of [0, -1, 1.5, NaN]) expect(() => createFixedStepper({ dt: 1, maxSubSteps })).toThrow(RangeError);
    expect(createFixedStepper({ dt: 0.25 })).toEqual({ dt: 0.25, maxSubSteps: 5, accumulator: 0, alpha: 0, droppedTime: 0 });
  });
});

describe('fixedStepAdvance', () => {
  it('accumulates partial frames and runs whole steps (exact binary dt)', () => {
    const s = createFixedStepper({ dt: 0.25 });
    let calls = 0;
    const f = () => void calls++;
    expect(fixedStepAdvance(s, 0.125, f)).toBe(0);
    expect([calls, s.accumulator, s.alpha]).toEqual([0, 0.125, 0.5]);
    expect(fixedStepAdvance(s, 0.125, f)).toBe(1);
    expect([calls, s.accumulator, s.alpha]).toEqual([1, 0, 0]);
    expect(fixedStepAdvance(s, 0.625, f)).toBe(2);
    expect([calls, s.accumulator, s.alpha]).toEqual([3, 0.125, 0.5]);
    expect(s.droppedTime).toBe(0);
  });

  it('runs at most maxSubSteps per call and drops whole steps beyond, keeping the fraction', () => {
    const s = createFixedStepper({ dt: 0.25, maxSubSteps: 3 });
    let calls = 0;
    expect(fixedStepAdvance(s, 2.125, () => void calls++)).toBe(3);
    expect(calls).toBe(3);
    expect(s.accumulator).toBe(0.125);
    expect(s.droppedTime).toBe(1.25);
    expect(s.alpha).toBe(0.5);
    // The next normal frame is unaffected.
    expect(fixedStepAdvance(s, 0.125, () => void calls++)).toBe(1);
    expect(s.accumulator).toBe(0);
  });

  it('negative, NaN and infinite elapsed times count as 0', () => {
    const s = createFixedStepper({ dt: 0.25 });
    fixedStepAdvance(s, 0.125, () => undefined);
    for (const e of [-1, NaN, Infinity, -Infinity]) {
      expect(fixedStepAdvance(s, e, () => { throw new Error('no step expected'); })).toBe(0);
      expect(s.accumulator).toBe(0.125);
    }
  });

  it('dt = 1/60 fed 1/60 per frame steps exactly once per frame for 10 000 frames', () => {
    const s = createFixedStepper({ dt: 1 / 60 });
    let n = 0;
    for (let i = 0; i < 10_000; i++) n += fixedStepAdvance(s, 1 / 60, () => undefined);
    expect(n).toBe(10_000);
    expect(s.droppedTime).toBe(0);
  });

  it('property: steps·dt + accumulator + dropped = total elapsed; 0 <= alpha < 1; steps per call <= maxSubSteps', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1 / 60, 1 / 30, 0.25, 0.01),
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.oneof(fc.double({ min: 0, max: 0.2, noNaN: true }), fc.constantFrom(0, -1, NaN, 5)), { maxLength: 200 }),
        (dt, maxSubSteps, frames) => {
          const s = createFixedStepper({ dt, maxSubSteps });
          let steps = 0;
          let total = 0;
          for (const e of frames) {
            const k = fixedStepAdvance(s, e, () => undefined);
            expect(k).toBeLessThanOrEqual(maxSubSteps);
            steps += k;
            if (e > 0 && e !== Infinity) total += e;
            expect(s.alpha).toBeGreaterThanOrEqual(0);
            expect(s.alpha).toBeLessThan(1);
            expect(s.alpha).toBe(s.accumulator / dt);
          }
          expect(Math.abs(steps * dt + s.accumulator + s.droppedTime - total)).toBeLessThanOrEqual(1e-9 * (1 + total));
        },
      ),
      { seed: 99, numRuns: 300 },
    );
  });

  it('drives a physics instance: positions after N steps, alpha for interpolation', () => {
    const physics = createPhysics(createWorld(), { dt: 0.25 });
    const s = addSphere(physics, { position: [0, 0, 0], velocity: [4, 0, 0], radius: 1 });
    const stepper = createFixedStepper({ dt: physics.dt });
    const ran = fixedStepAdvance(stepper, 0.875, () => step(physics));
    expect(ran).toBe(3);
    expect(physics.tick).toBe(3);
    expect(physics.components.Position.x[s]).toBe(3);
    expect(stepper.alpha).toBe(0.5); // render at 3 + 0.5 · (4 · 0.25)
  });
});

describe('regressions (fixed stepper)', () => {
  it('regression: the work of one call is bounded: huge elapsed times with a huge maxSubSteps return (they never did at >= ~1e14 s)', () => {
    // maxSubSteps is capped at creation...
    for (const maxSubSteps of [MAX_SUB_STEPS + 1, 2 ** 53 - 1]) expect(() => createFixedStepper({ dt: 1 / 60, maxSubSteps })).toThrow(RangeError);
    expect(createFixedStepper({ dt: 1 / 60, maxSubSteps: MAX_SUB_STEPS }).maxSubSteps).toBe(MAX_SUB_STEPS);
    // ... and in each call, for a stepper built by hand; once subtracting dt no longer changes the
    // accumulator (about 4e14 s at 1/60 s), no step runs and the time is dropped.
    const cases: [number, number][] = [[1e13, MAX_SUB_STEPS], [1e14, MAX_SUB_STEPS], [4e14, 0], [1e15, 0], [1e300, 0], [Number.MAX_VALUE, 0]];
    for (const [elapsed, expected] of cases) {
      const s: FixedStepper = { dt: 1 / 60, maxSubSteps: Number.MAX_SAFE_INTEGER, accumulator: 0, alpha: 0, droppedTime: 0 };
      let calls = 0;
      expect(fixedStepAdvance(s, elapsed, () => void calls++), `elapsed ${elapsed}`).toBe(expected);
      expect(calls).toBe(expected);
      expect(s.accumulator).toBeGreaterThanOrEqual(0);
      expect(s.accumulator).toBeLessThan(s.dt);
      expect(s.alpha).toBeGreaterThanOrEqual(0);
      expect(s.alpha).toBeLessThan(1);
      expect(s.droppedTime).toBeGreaterThan(0);
      // The next ordinary frame steps as usual.
      expect(fixedStepAdvance(s, 1 / 60, () => void calls++)).toBeLessThanOrEqual(1);
    }
  });
});
