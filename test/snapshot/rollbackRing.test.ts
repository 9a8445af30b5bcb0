/**
 * The rollback ring (src/snapshot/rollback.ts) against straight simulation. A straight run applies
 * the true inputs (velocity writes) every tick and records the state hash and every body after each
 * tick. A predicting run of the same scene steps with wrong inputs before each correction (a
 * misprediction over the last k ticks, k random up to the ring's depth − 1), saving a frame after
 * every step; at the correction it restores tick t − k from the ring and re-simulates to t with the
 * true inputs. Every state it has that should equal the straight run's (every re-simulated tick,
 * every tick after a correction) must equal it exactly: hash, bodies, contacts, began/ended,
 * touching, Contact component (the snapshot tests' `digest`). All body kinds: static, kinematic and
 * dynamic spheres, static and kinematic boxes, sensor spheres and boxes, filtered bodies.
 * Then the ring's bookkeeping (held ticks, drops, growth) and its errors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addSphere, clearRollback, createPhysics, createRollbackRing, destroyPhysics, PhysicsInputError, restoreRollback, saveRollback,
  SnapshotMismatchError, snapshotSize, step, type Physics, type RollbackRing,
} from '../../src/index.js';
import { addComponent, createWorld, removeComponent } from 'bitecs';
import { bodyState, buildAllKindsScene } from '../support/allKindsScene.js';
import { digest } from './scene.js';

const full = (physics: Physics, ids: readonly number[]) => `${bodyState(physics, ids)}\n${digest(physics, ids)}`;

interface Plan {
  seed: number;
  depth: number;
  /** Corrections: after `gap` forward ticks, roll back `k` ticks (k ≤ depth − 1, ≤ the ticks run). */
  events: { gap: number; k: number }[];
}

const plan: fc.Arbitrary<Plan> = fc.integer({ min: 1, max: 16 }).chain((depth) => fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  depth: fc.constant(depth),
  events: fc.array(fc.record({ gap: fc.integer({ min: 1, max: 12 }), k: fc.integer({ min: 0, max: depth - 1 }) }), { minLength: 1, maxLength: 8 }),
}));

/** Runs the plan; returns how many states were compared. */
function runPlan(p: Plan): number {
  // Correction ticks and the first tick each one's misprediction window covers.
  const corrections: { at: number; from: number }[] = [];
  let t = 0;
  for (const e of p.events) {
    t += e.gap;
    corrections.push({ at: t, from: Math.max(0, t - e.k) });
  }
  const end = t + 3;
  const straight = buildAllKindsScene(p.seed);
  const want: string[] = [full(straight.physics, straight.ids)];
  for (let s = 0; s < end; s++) {
    straight.tick(s);
    want.push(full(straight.physics, straight.ids));
  }

  const run = buildAllKindsScene(p.seed);
  const { physics, ids } = run;
  const ring = createRollbackRing(physics, p.depth);
  saveRollback(physics, ring);
  let compared = 0;
  const check = (label: string) => {
    const got = full(physics, ids);
    if (got !== want[physics.tick]) throw new Error(`${label}: tick ${physics.tick} differs from the straight run`);
    compared++;
  };
  let next = 0;
  let clean = true;
  while (physics.tick < end) {
    const now = physics.tick;
    const c = corrections[next];
    // The first time a tick is stepped, inside the next correction's window, the input is a wrong guess.
    const wrong = c !== undefined && now >= c.from && now < c.at;
    run.tick(now, wrong ? 1 + (now % 3) : 0);
    if (wrong) clean = false;
    saveRollback(physics, ring);
    expect(ring.newestTick).toBe(physics.tick);
    if (clean) check('forward');
    if (c !== undefined && physics.tick === c.at) {
      expect(ring.oldestTick).toBeLessThanOrEqual(c.from);
      restoreRollback(physics, ring, c.from);
      expect(physics.tick).toBe(c.from);
      check('restored');
      while (physics.tick < c.at) {
        run.tick(physics.tick, 0);
        saveRollback(physics, ring);
        check('re-simulated');
      }
      clean = true;
      next++;
    }
  }
  return compared;
}

describe('rollback ring: restore + re-simulate equals straight simulation', () => {
  it('random scenes, inputs, depths and mispredicted windows up to the ring size (all body kinds)', () => {
    let compared = 0;
    fc.assert(
      fc.property(plan, (p) => {
        compared += runPlan(p);
      }),
      { numRuns: 40, seed: 0x5011 },
    );
    expect(compared).toBeGreaterThan(500);
  });

  it('the deepest rollback of a full ring, many times over (the ring wraps)', () => {
    const depth = 8;
    const events = Array.from({ length: 12 }, (_, i) => ({ gap: 5 + (i % 4), k: depth - 1 }));
    expect(runPlan({ seed: 31337, depth, events })).toBeGreaterThanOrEqual(90);
  });
});

describe('rollback ring: bookkeeping', () => {
  const scene = () => {
    const s = buildAllKindsScene(7);
    return { ...s, ring: createRollbackRing(s.physics, 4) };
  };

  it('is empty at first (ticks −1), then holds the last depth ticks, oldest dropped', () => {
    const { physics, ring, tick } = scene();
    expect([ring.depth, ring.count, ring.oldestTick, ring.newestTick, ring.frameBytes]).toEqual([4, 0, -1, -1, 0]);
    for (let t = 0; t < 6; t++) {
      tick(t);
      saveRollback(physics, ring);
      expect(ring.frameBytes).toBe(snapshotSize(physics));
    }
    expect([ring.count, ring.oldestTick, ring.newestTick]).toEqual([4, 3, 6]);
  });

  it('saving tick t drops the held frames of ticks ≥ t; frames newer than a restored tick stay until then', () => {
    const { physics, ring, tick } = scene();
    for (let t = 0; t < 4; t++) {
      tick(t);
      saveRollback(physics, ring);
    }
    restoreRollback(physics, ring, 2);
    expect([ring.count, ring.oldestTick, ring.newestTick]).toEqual([4, 1, 4]);
    restoreRollback(physics, ring, 4); // still there: forward again
    expect(physics.tick).toBe(4);
    restoreRollback(physics, ring, 2);
    saveRollback(physics, ring); // saving tick 2 again replaces 2, drops 3 and 4
    expect([ring.count, ring.oldestTick, ring.newestTick]).toEqual([2, 1, 2]);
    tick(2);
    saveRollback(physics, ring);
    expect([ring.count, ring.oldestTick, ring.newestTick]).toEqual([3, 1, 3]);
  });

  it('clearRollback empties it; saving goes on from there', () => {
    const { physics, ring, tick } = scene();
    for (let t = 0; t < 3; t++) {
      tick(t);
      saveRollback(physics, ring);
    }
    clearRollback(ring);
    expect([ring.count, ring.oldestTick, ring.newestTick, ring.frameBytes]).toEqual([0, -1, -1, 0]);
    expect(() => restoreRollback(physics, ring, 3)).toThrow(/empty/);
    saveRollback(physics, ring);
    expect([ring.count, ring.oldestTick, ring.newestTick]).toEqual([1, 3, 3]);
    expect(() => clearRollback({} as RollbackRing)).toThrow(PhysicsInputError);
  });

  it('grows its buffer when the world grows, keeping the held frames', () => {
    const physics = createPhysics(createWorld());
    const ring = createRollbackRing(physics, 3);
    const states: string[] = [];
    const ids: number[] = [];
    for (let t = 0; t < 3; t++) {
      // 40 new spheres a tick: the frame outgrows its slot; the world is not restorable to an
      // older tick (other bodies), but the newest one is, and the older frames are kept.
      for (let i = 0; i < 40; i++) ids.push(addSphere(physics, { position: [i * 3, t * 3, 0], radius: 1, velocity: [1, 0, 0] }));
      step(physics);
      saveRollback(physics, ring);
      states.push(bodyState(physics, ids));
    }
    expect(ring.count).toBe(3);
    step(physics);
    restoreRollback(physics, ring, 3);
    expect(bodyState(physics, ids)).toBe(states[2]);
    // An older frame has fewer bodies than the world: a SnapshotMismatchError, nothing changed.
    expect(() => restoreRollback(physics, ring, 2)).toThrow(SnapshotMismatchError);
    expect(bodyState(physics, ids)).toBe(states[2]);
  });

  it('restores the bodies a frame held when the game restored the entity set (pooled despawn)', () => {
    const s = buildAllKindsScene(11);
    const { physics, world, ids } = s;
    const ring = createRollbackRing(physics, 6);
    const P = physics.components.Position;
    for (let t = 0; t < 3; t++) {
      s.tick(t);
      saveRollback(physics, ring);
    }
    const at3 = full(physics, ids);
    removeComponent(world, s.moving[0], P); // despawn (pooled: the id is kept)
    s.tick(3);
    saveRollback(physics, ring);
    const at4 = full(physics, ids);
    // The entity set is tick 4's: restoring tick 3 throws, nothing changed.
    expect(() => restoreRollback(physics, ring, 3)).toThrow(SnapshotMismatchError);
    expect(full(physics, ids)).toBe(at4);
    // The game restores its entity set first (Position back), then the ring the physics.
    addComponent(world, s.moving[0], P);
    restoreRollback(physics, ring, 3);
    expect(full(physics, ids)).toBe(at3);
    removeComponent(world, s.moving[0], P);
    s.tick(3);
    saveRollback(physics, ring);
    expect(full(physics, ids)).toBe(at4);
  });
});

describe('rollback ring: errors name the argument and change nothing', () => {
  const filled = (): { physics: Physics; ring: RollbackRing; ids: number[] } => {
    const s = buildAllKindsScene(3);
    const ring = createRollbackRing(s.physics, 4);
    for (let t = 0; t < 6; t++) {
      s.tick(t);
      saveRollback(s.physics, ring);
    }
    return { physics: s.physics, ring, ids: s.ids };
  };
  const problem = (f: () => void): PhysicsInputError => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(PhysicsInputError);
      return e as PhysicsInputError;
    }
    throw new Error('did not throw');
  };

  it('a tick not held: older, newer, not an integer, or an empty ring', () => {
    const { physics, ring, ids } = filled();
    const before = full(physics, ids);
    for (const tick of [2, 7, 100, -1]) {
      const e = problem(() => restoreRollback(physics, ring, tick));
      expect([e.field, e.source]).toEqual(['tick', 'restoreRollback']);
      expect(e.message).toContain(`no frame of tick ${tick}`);
      expect(e.message).toContain('3..6');
    }
    // Regression: the string '4' was reported as "no frame of tick 4" while the ring held ticks 3..6.
    for (const tick of [3.5, NaN, '4' as unknown as number, null as unknown as number]) {
      const e = problem(() => restoreRollback(physics, ring, tick));
      expect([e.field, e.source]).toEqual(['tick', 'restoreRollback']);
      expect(e.message).toContain('must be an integer tick');
      expect(e.message).toContain('3..6');
    }
    expect(full(physics, ids)).toBe(before);
    const empty = createRollbackRing(physics, 2);
    expect(problem(() => restoreRollback(physics, empty, 6)).message).toContain('empty');
  });

  it('a bad depth, a ring of another instance, a destroyed instance', () => {
    const { physics, ring } = filled();
    for (const depth of [0, -1, 1.5, NaN, 65537, '4' as unknown as number]) {
      const e = problem(() => createRollbackRing(physics, depth));
      expect([e.field, e.source]).toEqual(['depth', 'createRollbackRing']);
    }
    const other = createPhysics(createWorld());
    expect(problem(() => saveRollback(other, ring)).field).toBe('ring');
    expect(problem(() => restoreRollback(other, ring, 5)).field).toBe('ring');
    expect(problem(() => saveRollback(physics, {} as RollbackRing)).field).toBe('ring');
    destroyPhysics(other);
    expect(problem(() => createRollbackRing(other, 4)).field).toBe('physics');
  });

  it('its public fields cannot be written (regression: a write put the count out of step with the buffer)', () => {
    const { physics, ring } = filled();
    const before = [ring.count, ring.oldestTick, ring.newestTick, ring.frameBytes, ring.depth];
    const w = ring as { -readonly [K in keyof RollbackRing]: number };
    for (const k of ['count', 'oldestTick', 'newestTick', 'frameBytes', 'depth'] as const) {
      expect(() => { w[k] = 99; }).toThrow(TypeError);
    }
    expect([ring.count, ring.oldestTick, ring.newestTick, ring.frameBytes, ring.depth]).toEqual(before);
    expect(Object.keys(ring)).toEqual([]);
    restoreRollback(physics, ring, ring.oldestTick);
    expect(physics.tick).toBe(before[1]);
  });
});
