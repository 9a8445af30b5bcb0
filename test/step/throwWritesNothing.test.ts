/**
 * A step that throws has changed nothing (issue 24, item 5): the tick's input is validated
 * (the scan stage, src/step/scanBodies.ts) before gravity, the first stage that writes; fix the field, step again, and
 * the world is as if the bad tick never ran. Gravity × dt that overflows is reported as gravity,
 * not as the user's velocity, with nothing written.
 */
import { describe, expect, it } from 'vitest';
import { addBox, addSphere, hashPhysicsState, step, type Physics } from '../../src/index.js';
import { expectError } from '../support/inputError.js';
import { freshPhysics, vel } from '../support/response.js';
import { internalsOf } from '../../src/physics/internal.js';

const DT = 1 / 60;

/** A floor, a static wall, three dynamic spheres (one per mode) and a kinematic sphere, under gravity. */
function scene(): { physics: Physics; ids: number[] } {
  const physics = freshPhysics({ dt: DT, gravity: [0, -9.81, 0] });
  const floor = addBox(physics, { position: [0, -1, 0], halfExtents: [20, 1, 20] });
  const wall = addBox(physics, { position: [6, 2, 0], halfExtents: [1, 3, 5] });
  const a = addSphere(physics, { position: [0, 2, 0], velocity: [1, 0, 0], radius: 0.5, response: 'bounce', restitution: 0.5 });
  const b = addSphere(physics, { position: [2, 3, 0], velocity: [0, 0, 1], radius: 0.4, response: 'slide' });
  const c = addSphere(physics, { position: [-2, 1, 1], velocity: [-1, 2, 0], radius: 0.3, response: 'stop' });
  const k = addSphere(physics, { position: [0, 5, 3], velocity: [0, 0, -1], radius: 0.5 });
  return { physics, ids: [floor, wall, a, b, c, k] };
}

function stepN(physics: Physics, n: number): void {
  for (let i = 0; i < n; i++) step(physics);
}

/** Steps `physics` 3 ticks, spoils one field with `spoil`, expects `step` to throw naming it, restores it, steps 3 more. */
function throwAndResume(
  spoil: (physics: Physics, ids: number[]) => () => void,
  eid: (ids: number[]) => number,
  field: string,
): { physics: Physics; clean: Physics } {
  const { physics, ids } = scene();
  const clean = scene().physics;
  stepN(physics, 3);
  stepN(clean, 3);
  const before = hashPhysicsState(physics);
  const restore = spoil(physics, ids);
  expectError(() => step(physics), eid(ids), field);
  restore();
  expect(hashPhysicsState(physics)).toBe(before);
  stepN(physics, 3);
  stepN(clean, 3);
  expect(hashPhysicsState(physics)).toBe(hashPhysicsState(clean));
  return { physics, clean };
}

describe('a step that throws has changed nothing', () => {
  it('regression: a bad restitution written directly throws before gravity; fixed, the world equals a clean one', () => {
    // Before: gravity was added to every dynamic body, then the Response fields were checked in the
    // response stage: after the fix the valid bodies had had gravity twice.
    throwAndResume((physics, ids) => {
      const r = physics.components.Response.restitution;
      const old = r[ids[2]];
      r[ids[2]] = 2;
      return () => { r[ids[2]] = old; };
    }, (ids) => ids[2], 'Response.restitution');
  });

  it('a bad Response.mode and mass written directly: the same', () => {
    throwAndResume((physics, ids) => {
      const m = physics.components.Response.mode;
      const old = m[ids[3]];
      m[ids[3]] = 7;
      return () => { m[ids[3]] = old; };
    }, (ids) => ids[3], 'Response.mode');
    throwAndResume((physics, ids) => {
      const m = physics.components.Response.mass;
      const old = m[ids[4]];
      m[ids[4]] = -1;
      return () => { m[ids[4]] = old; };
    }, (ids) => ids[4], 'Response.mass');
  });

  it('a bad position of a kinematic sphere throws before gravity is applied to the dynamic ones', () => {
    throwAndResume((physics, ids) => {
      const p = physics.components.Position.x;
      const old = p[ids[5]];
      p[ids[5]] = NaN;
      return () => { p[ids[5]] = old; };
    }, (ids) => ids[5], 'Position.x');
  });

  it('a static box written with a bad half extent throws before gravity (static boxes are checked when re-bucketed)', () => {
    throwAndResume((physics, ids) => {
      const h = physics.components.Box.hy;
      const old = h[ids[1]];
      h[ids[1]] = -3;
      return () => { h[ids[1]] = old; };
    }, (ids) => ids[1], 'Box.hy');
  });
});

describe('gravity × dt that overflows', () => {
  it('regression: names gravity, not the velocity, and writes nothing', () => {
    const physics = freshPhysics({ dt: DT, gravity: [0, -1e300, 0] });
    const s = addSphere(physics, { position: [0, 2, 0], velocity: [1, 2, 3], radius: 0.5, response: 'slide' });
    step(physics); // 1e300 / 60: finite
    const v = vel(physics, s);
    const before = hashPhysicsState(physics);
    physics.dt = 1e10;
    // Before: Infinity was written into Velocity.y and the broadphase blamed the user's Velocity.y.
    expectError(() => step(physics), -1, 'gravity.y', /gravity × dt overflows: -1e\+300 × 10000000000 s/);
    expect(vel(physics, s)).toEqual(v);
    // Without validation too: the gravity stage checks before writing.
    physics.validate = false;
    expectError(() => step(physics), -1, 'gravity.y', /overflows/);
    expect(vel(physics, s)).toEqual(v);
    physics.validate = true;
    physics.dt = DT;
    expect(hashPhysicsState(physics)).toBe(before);
    step(physics);
  });

  it('a finite velocity plus a finite gravity × dt that overflows names the velocity and gravity, writing nothing', () => {
    const physics = freshPhysics({ dt: 1, gravity: [0, 1e308, 0] });
    const other = addSphere(physics, { position: [0, 0, 0], velocity: [0, 0, 0], radius: 0.5, response: 'slide' });
    const s = addSphere(physics, { position: [5, 2, 0], velocity: [0, 1.7e308, 0], radius: 0.5, response: 'slide' });
    expectError(() => step(physics), s, 'Velocity.y', /Velocity\.y \+ gravity\.y × dt overflows: 1\.7e\+308 \+ 1e\+308 × 1 s/);
    expect(vel(physics, other)).toEqual([0, 0, 0]);
    expect(vel(physics, s)).toEqual([0, 1.7e308, 0]);
  });
});

describe('the contact budget (thrown by the broadphase after gravity) leaves the world unchanged', () => {
  it('regression: a step over the contact budget undoes its gravity; stepped again within it, the world equals a clean one', () => {
    // Issue 24, item 5's leftover: findPairs throws when the candidate pairs exceed contactBudget,
    // after applyGravity had written every dynamic body's Velocity (hash differed from a clean run).
    const build = (budget: number): Physics => {
      const physics = freshPhysics({ dt: DT, gravity: [0, -9.81, 0], contactBudget: budget });
      addBox(physics, { position: [0, -1, 0], halfExtents: [20, 1, 20] });
      for (let i = 0; i < 6; i++) addSphere(physics, { position: [i * 0.9, 1 + (i % 2) * 0.3, 0], velocity: [0.1 * i, 0, 0], radius: 0.5, response: 'slide' });
      for (let i = 0; i < 6; i++) addSphere(physics, { position: [i * 0.9, 3, 0], velocity: [0, 0, 0], radius: 0.5 });
      return physics;
    };
    const physics = build(1);
    const clean = build(1e6);
    const before = hashPhysicsState(physics);
    expect(() => step(physics)).toThrow(/contactBudget/);
    expect(hashPhysicsState(physics)).toBe(before);
    internalsOf(physics).broadphase.contactBudget = 1e6;
    stepN(physics, 3);
    stepN(clean, 3);
    expect(hashPhysicsState(physics)).toBe(hashPhysicsState(clean));
  });
});
