/**
 * Render interpolation (src/debug/interpolation.ts): at alpha 0 and 1 the poses of the last two
 * ticks exactly; in between, positions on the segment and rotations on the shorter great arc
 * (against slerp computed here with trigonometry, an independent reference); with the fixed
 * stepper's alpha, a body at constant velocity drawn where it was one tick before the render time;
 * across a rollback and its re-simulation the same poses as without it; the simulation unchanged by
 * it; and its errors.
 */
import fc from 'fast-check';
import { createWorld, hasComponent } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, createFixedStepper, createPhysics, createRollbackRing, disableInterpolation, enableInterpolation,
  fixedStepAdvance, hashPhysicsState, interpolatePose, interpolatePoses, PhysicsInputError, removeBody, restoreRollback, saveRollback,
  setRotation, step, type Physics, type PoseStore,
} from '../../src/index.js';
import { buildAllKindsScene } from '../support/allKindsScene.js';

type F64Store = { [K in keyof Required<PoseStore>]: Float64Array };
const store = (n: number): F64Store => ({
  x: new Float64Array(n), y: new Float64Array(n), z: new Float64Array(n),
  qx: new Float64Array(n), qy: new Float64Array(n), qz: new Float64Array(n), qw: new Float64Array(n),
});

/** Every body's pose as it is now (x y z, and qx qy qz qw for boxes), by id. */
function poses(physics: Physics, ids: readonly number[]): Map<number, number[]> {
  const { Position: P, Box: B } = physics.components;
  const m = new Map<number, number[]>();
  for (const e of ids) {
    const isBox = hasComponent(physics.world, e, B);
    m.set(e, isBox ? [P.x[e], P.y[e], P.z[e], B.qx[e], B.qy[e], B.qz[e], B.qw[e]] : [P.x[e], P.y[e], P.z[e]]);
  }
  return m;
}

function read(out: PoseStore, e: number, n: number): number[] {
  const cols = [out.x, out.y, out.z, out.qx!, out.qy!, out.qz!, out.qw!];
  return cols.slice(0, n).map((c) => c[e]);
}

const same = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

describe('interpolation at alpha 0 and 1 is the two ticks, exactly', () => {
  it('every body, every tick, all kinds (dynamic spheres moved by the response, boxes turned by the game)', () => {
    const scene = buildAllKindsScene(21);
    const { physics, ids } = scene;
    enableInterpolation(physics);
    const out = store(256);
    let before = poses(physics, ids);
    let lerped = 0;
    for (let t = 0; t < 80; t++) {
      scene.tick(t);
      const now = poses(physics, ids);
      for (const [alpha, want] of [[0, before], [1, now]] as const) {
        expect(interpolatePoses(physics, alpha, out)).toBe(ids.length);
        for (const e of ids) {
          const w = want.get(e)!;
          // Static bodies are drawn where they are (at both ends: they did not move).
          const got = read(out, e, w.length);
          if (!same(got, w)) throw new Error(`tick ${t + 1}, alpha ${alpha}, entity ${e}: ${got} ≠ ${w}`);
        }
      }
      for (const e of ids) if (!same(before.get(e)!, now.get(e)!)) lerped++;
      before = now;
    }
    expect(lerped).toBeGreaterThan(500);
  });

  it('interpolatePose writes one body as interpolatePoses does, and nothing else', () => {
    const scene = buildAllKindsScene(5);
    const { physics, ids } = scene;
    enableInterpolation(physics);
    for (let t = 0; t < 10; t++) scene.tick(t);
    const all = store(256);
    const one = store(256);
    for (const alpha of [0, 0.3, 0.5, 0.97, 1]) {
      interpolatePoses(physics, alpha, all);
      for (const e of ids) {
        one.x.fill(-7);
        one.qw.fill(-7);
        interpolatePose(physics, e, alpha, one);
        expect(read(one, e, 7).slice(0, 3)).toEqual(read(all, e, 3));
        expect(one.x.filter((v) => v !== -7).length).toBe(1);
      }
    }
  });
});

/** Slerp by trigonometry (the reference), along the shorter arc. */
function slerp(q0: number[], q1: number[], t: number): number[] {
  let d = q0.reduce((s, v, i) => s + v * q1[i], 0);
  const b = d < 0 ? q1.map((v) => -v) : q1;
  d = Math.min(1, Math.abs(d));
  const o = Math.acos(d);
  if (o < 1e-9) return q0;
  return q0.map((v, i) => (Math.sin((1 - t) * o) * v + Math.sin(t * o) * b[i]) / Math.sin(o));
}
const angle = (p: number[], q: number[]) => 2 * Math.acos(Math.min(1, Math.abs(p.reduce((s, v, i) => s + v * q[i], 0))));

describe('between the ticks', () => {
  const unit = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
    .filter((q) => Math.hypot(...q) > 0.1).map((q) => { const n = Math.hypot(...q); return q.map((v) => v / n); });

  it('positions on the segment, rotations on slerp\'s arc (shorter way) within the documented speed error', () => {
    fc.assert(
      fc.property(unit, unit, fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean(), (q0, q1, alpha, flip) => {
        const physics = createPhysics(createWorld());
        const e = addBox(physics, { position: [1, 2, 3], velocity: [3, -6, 9], halfExtents: [1, 1, 1], rotation: q0 as [number, number, number, number] });
        physics.dt = 1 / 3;
        enableInterpolation(physics);
        step(physics);
        // The game turns the box (q1, or −q1: the same rotation, the other hemisphere).
        setRotation(physics, e, (flip ? q1.map((v) => -v) : q1) as [number, number, number, number]);
        const out = store(e + 1);
        interpolatePose(physics, e, alpha, out);
        const [x, y, z, ...q] = read(out, e, 7);
        expect(x).toBeCloseTo(1 + alpha, 12);
        expect(y).toBeCloseTo(2 - 2 * alpha, 12);
        expect(z).toBeCloseTo(3 + 3 * alpha, 12);
        expect(Math.hypot(...q)).toBeCloseTo(1, 14);
        const total = angle(q0, q1);
        // On the arc: the angles from each end add up to the whole.
        expect(angle(q0, q) + angle(q, q1)).toBeCloseTo(total, 6);
        // Speed along it: within nlerp's bound of slerp (0.92° at 90° of turn, 8.2° at 180°).
        const bound = total <= Math.PI / 2 + 1e-9 ? 0.0161 : 0.143;
        expect(angle(q, slerp(q0, q1, alpha))).toBeLessThanOrEqual(bound);
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('with the fixed stepper\'s alpha, a body at constant velocity is drawn one tick behind the render time', () => {
    const physics = createPhysics(createWorld(), { dt: 1 / 60 });
    const e = addSphere(physics, { position: [0, 0, 0], radius: 0.5, velocity: [6, 0, 0] });
    enableInterpolation(physics);
    const stepper = createFixedStepper({ dt: 1 / 60 });
    const out = store(e + 1);
    let time = 0;
    let last = -Infinity;
    for (let frame = 0; frame < 500; frame++) {
      const elapsed = (frame % 7 === 3 ? 0.031 : 0.0069) + (frame % 5) * 0.001;
      time += elapsed;
      fixedStepAdvance(stepper, elapsed, () => step(physics));
      interpolatePose(physics, e, stepper.alpha, out);
      if (physics.tick > 0) {
        expect(out.x[e]).toBeCloseTo(6 * (time - 1 / 60), 9);
        expect(out.x[e]).toBeGreaterThanOrEqual(last); // smooth: never back
      }
      last = out.x[e];
    }
  });

  it('a static body and a body added since the last tick: the current pose (a new body interpolates from its first step on)', () => {
    const physics = createPhysics(createWorld());
    const s = addSphere(physics, { position: [5, 5, 5], radius: 1 });
    const m = addSphere(physics, { position: [0, 0, 0], radius: 1, velocity: [60, 0, 0] });
    enableInterpolation(physics);
    step(physics);
    step(physics);
    const late = addBox(physics, { position: [9, 0, 0], halfExtents: [1, 1, 1], velocity: [0, 60, 0] });
    const out = store(16);
    interpolatePoses(physics, 0.5, out);
    expect([out.x[s], out.x[m], out.y[late]]).toEqual([5, 1.5, 0]);
    step(physics);
    interpolatePoses(physics, 0.5, out);
    expect([out.x[m], out.y[late]]).toEqual([2.5, 1]); // no pose of the new box at tick 2
    step(physics);
    interpolatePoses(physics, 0.5, out);
    expect([out.x[m], out.y[late]]).toEqual([3.5, 1.5]);
  });

  it('regression: a body given a removed body\'s id (bitecs recycles ids) is not interpolated from the removed body\'s poses', () => {
    // Was: removeBody then addSphere in the same tick reused the id, and interpolatePose drew the
    // new body on the segment from the removed one's last poses (a streak across the screen).
    const physics = createPhysics(createWorld());
    const old = addSphere(physics, { position: [0, 0, 0], radius: 1, velocity: [60, 0, 0] });
    enableInterpolation(physics);
    step(physics);
    step(physics);
    removeBody(physics, old);
    const bullet = addSphere(physics, { position: [100, 0, 0], radius: 1, velocity: [60, 0, 0] });
    expect(bullet).toBe(old); // the premise: the id is recycled at once
    const out = store(16);
    for (const alpha of [0, 0.5]) {
      interpolatePose(physics, bullet, alpha, out);
      expect(out.x[bullet]).toBe(100);
    }
    step(physics); // no pose of the new body at tick 2: the current one
    interpolatePose(physics, bullet, 0.5, out);
    expect(out.x[bullet]).toBe(101);
    step(physics);
    interpolatePose(physics, bullet, 0.5, out);
    expect(out.x[bullet]).toBe(101.5);
  });

  it('right after a restore, before any step: the previous poses only when they belong to the restored timeline', () => {
    const physics = createPhysics(createWorld());
    const m = addSphere(physics, { position: [0, 0, 0], radius: 1, velocity: [60, 0, 0] });
    enableInterpolation(physics);
    const ring = createRollbackRing(physics, 4);
    for (let t = 0; t < 3; t++) {
      step(physics);
      saveRollback(physics, ring);
    }
    const out = store(16);
    restoreRollback(physics, ring, 3);
    interpolatePoses(physics, 0.5, out);
    expect(out.x[m]).toBe(2.5); // tick 2's pose is held
    restoreRollback(physics, ring, 2); // tick 1's pose was overwritten by tick 3's
    interpolatePoses(physics, 0.5, out);
    expect(out.x[m]).toBe(2);
    restoreRollback(physics, ring, 1); // tick 0's pose was overwritten by tick 2's
    interpolatePoses(physics, 0.5, out);
    expect(out.x[m]).toBe(1);
    step(physics); // re-simulated tick 2: from tick 1's pose
    interpolatePoses(physics, 0.5, out);
    expect(out.x[m]).toBe(1.5);
  });
});

describe('across a rollback: no jump when the re-simulation equals the prediction', () => {
  /** Renders at a few alphas after every tick, as strings of every body's pose. */
  const render = (physics: Physics, out: F64Store, ids: readonly number[]) => [0, 0.25, 0.5, 0.8125, 1].map((a) => {
    interpolatePoses(physics, a, out);
    return ids.map((e) => read(out, e, 7).join(' ')).join('\n');
  }).join('\n--\n');

  it('rollbacks of random depth with the same inputs, and mispredictions corrected, render as the straight run', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.array(fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 7 }), fc.boolean()), { minLength: 1, maxLength: 6 }), (seed, events) => {
        const a = buildAllKindsScene(seed);
        const b = buildAllKindsScene(seed);
        enableInterpolation(a.physics);
        enableInterpolation(b.physics);
        const outA = store(128);
        const outB = store(128);
        const ring = createRollbackRing(b.physics, 8);
        saveRollback(b.physics, ring);
        const want: string[] = [render(a.physics, outA, a.ids)];
        let checked = 0;
        for (const [gap, depth, mispredict] of events) {
          const at = b.physics.tick + gap;
          const from = Math.max(ring.oldestTick, at - depth);
          while (b.physics.tick < at) {
            const t = b.physics.tick;
            while (a.physics.tick <= t) {
              a.tick(a.physics.tick);
              want.push(render(a.physics, outA, a.ids));
            }
            // A misprediction inside the window that the rollback re-simulates.
            b.tick(t, mispredict && t >= from ? 1 : 0);
            saveRollback(b.physics, ring);
            if (!(mispredict && t >= from)) {
              expect(render(b.physics, outB, b.ids)).toBe(want[b.physics.tick]);
              checked++;
            }
          }
          restoreRollback(b.physics, ring, from);
          while (b.physics.tick < at) {
            b.tick(b.physics.tick, 0);
            saveRollback(b.physics, ring);
          }
          expect(render(b.physics, outB, b.ids)).toBe(want[at]);
          checked++;
        }
        expect(checked).toBeGreaterThan(0);
      }),
      { numRuns: 25, seed: 0x1e4 },
    );
  });
});

describe('interpolation leaves the simulation alone', () => {
  it('the same state hash every tick with and without it, and after disabling it', () => {
    const a = buildAllKindsScene(8);
    const b = buildAllKindsScene(8);
    enableInterpolation(b.physics);
    for (let t = 0; t < 60; t++) {
      if (t === 40) disableInterpolation(b.physics);
      a.tick(t);
      b.tick(t);
      expect(hashPhysicsState(b.physics)).toBe(hashPhysicsState(a.physics));
    }
  });

  it('keeps poses with integrate off (the game moves bodies itself) and across capacity growth', () => {
    const physics = createPhysics(createWorld(), { capacity: 4, integrate: false });
    enableInterpolation(physics);
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push(addSphere(physics, { position: [i, 0, 0], radius: 0.1, velocity: [0, 0, 0] }));
    step(physics);
    for (const e of ids) physics.components.Position.y[e] = 2;
    step(physics);
    const out = store(64);
    interpolatePoses(physics, 0.25, out);
    for (const e of ids) expect(out.y[e]).toBe(0.5);
  });
});

describe('interpolation errors name the argument and write nothing', () => {
  const setup = () => {
    const physics = createPhysics(createWorld());
    const e = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1], velocity: [1, 0, 0] });
    return { physics, e };
  };
  const problem = (f: () => unknown): PhysicsInputError => {
    try {
      f();
    } catch (err) {
      expect(err).toBeInstanceOf(PhysicsInputError);
      return err as PhysicsInputError;
    }
    throw new Error('did not throw');
  };

  it('off, a bad alpha, not a body, a bad or short store', () => {
    const { physics, e } = setup();
    const out = store(8);
    out.x.fill(-1);
    expect(problem(() => interpolatePoses(physics, 0.5, out)).field).toBe('physics');
    enableInterpolation(physics);
    step(physics);
    for (const alpha of [-0.01, 1.01, NaN, Infinity, '0.5' as unknown as number]) {
      const err = problem(() => interpolatePose(physics, e, alpha, out));
      expect([err.field, err.source]).toEqual(['alpha', 'interpolatePose']);
    }
    for (const eid of [0, e + 1, -1, 1.5, 999]) expect(problem(() => interpolatePose(physics, eid, 0.5, out)).field).toBe('eid');
    expect(problem(() => interpolatePoses(physics, 0.5, { x: new Float64Array(8), y: new Float64Array(1), z: new Float64Array(8) })).field).toBe('out.y');
    expect(problem(() => interpolatePoses(physics, 0.5, { x: out.x, y: out.y, z: out.z, qx: out.qx })).field).toBe('out.qy');
    expect(problem(() => interpolatePoses(physics, 0.5, null as unknown as PoseStore)).field).toBe('out');
    expect(out.x[e]).toBe(-1);
    disableInterpolation(physics);
    expect(problem(() => interpolatePose(physics, e, 0.5, out)).field).toBe('physics');
  });
});
