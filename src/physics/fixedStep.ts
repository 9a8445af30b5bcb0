/**
 * Fixed-timestep helper for game loops (the accumulator pattern): feed it real elapsed time, it
 * runs whole steps of `dt` seconds, at most `maxSubSteps` per call (dropping the excess so a slow
 * frame cannot spiral), and leaves `alpha` in [0, 1) to interpolate rendering between the last two
 * states: `render = previous + alpha · (current − previous)`.
 * @module
 */

export interface FixedStepper {
  /** Step length in seconds (> 0). */
  readonly dt: number;
  /** Most steps per `fixedStepAdvance` call. */
  readonly maxSubSteps: number;
  /** Unsimulated time carried to the next call, seconds, in [0, dt). */
  accumulator: number;
  /** accumulator / dt after the last call: the interpolation factor. */
  alpha: number;
  /** Seconds dropped because `maxSubSteps` was reached (summed). */
  droppedTime: number;
}

/**
 * Most steps one `fixedStepAdvance` call may run, whatever the stepper asks: bounds the work of one
 * call (a million steps is hours of simulated time at 60 Hz, far beyond any catch-up a loop wants).
 */
export const MAX_SUB_STEPS = 1_000_000;

/** Creates a stepper. `dt` in seconds (> 0); `maxSubSteps` an integer in 1 .. 1,000,000 (default 5). */
export function createFixedStepper(options: { dt: number; maxSubSteps?: number }): FixedStepper {
  const { dt, maxSubSteps = 5 } = options;
  if (!(dt > 0 && Number.isFinite(dt))) throw new RangeError(`bitecs-collide: fixed step dt must be a finite number > 0, got ${dt}`);
  if (!(Number.isInteger(maxSubSteps) && maxSubSteps >= 1 && maxSubSteps <= MAX_SUB_STEPS)) {
    throw new RangeError(`bitecs-collide: maxSubSteps must be an integer in 1..${MAX_SUB_STEPS}, got ${maxSubSteps}`);
  }
  return { dt, maxSubSteps, accumulator: 0, alpha: 0, droppedTime: 0 };
}

/**
 * Adds `elapsed` seconds (negative or non-finite counts as 0) and calls `stepFn` once per whole
 * step; returns the number of steps run. Updates `alpha` for interpolation. The work of one call is
 * bounded: at most `maxSubSteps` steps (itself at most 1,000,000), and none once the
 * accumulator is so large (about 2^53 steps) that subtracting `dt` no longer changes it: that time
 * is dropped.
 */
export function fixedStepAdvance(stepper: FixedStepper, elapsed: number, stepFn: () => void): number {
  stepper.accumulator += elapsed > 0 && elapsed !== Infinity ? elapsed : 0;
  const maxSteps = Math.min(stepper.maxSubSteps, MAX_SUB_STEPS);
  let steps = 0;
  while (stepper.accumulator >= stepper.dt && steps < maxSteps && stepper.accumulator - stepper.dt !== stepper.accumulator) {
    stepFn();
    stepper.accumulator -= stepper.dt;
    steps++;
  }
  if (stepper.accumulator >= stepper.dt) {
    const keep = stepper.accumulator % stepper.dt;
    stepper.droppedTime += stepper.accumulator - keep;
    stepper.accumulator = keep;
  }
  stepper.alpha = stepper.accumulator / stepper.dt;
  return steps;
}
