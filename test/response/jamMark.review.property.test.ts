/**
 * The jam mark (src/response/jam.ts) against two independent references, over random programs on
 * columns of balls in a V-groove under gravity (every ball of a column standing in it is jammed
 * from the first tick: jamMark.test.ts), with friction (Material) and CollisionFilter on some balls so
 * that the jam word's place in the Response record is checked with the words that follow it:
 * - a twin world running the same program without any save or restore: the state hash after every
 *   operation is equal (a rollback restore, `restoreSnapshot` into the same world after three more
 *   ticks, and `restoreRollback`, change nothing that follows);
 * - the documented clear paths: right after `setPosition`, `setVelocity`, bitecs `set(Position)` /
 *   `set(Velocity)` and `removeBody` (then a new ball that takes the recycled id) the body's mark is
 *   0; between ticks every mark is 0 or 1, and 1 only on an awake dynamic body.
 */
import { addComponent, createWorld, set } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, createPhysics, createRollbackRing, hashPhysicsState, removeBody, restoreRollback, restoreSnapshot,
  saveRollback, saveSnapshot, setPosition, setVelocity, snapshotSize, step, type Physics,
} from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import { isDynamic } from '../../src/response/isDynamic.js';
import { jamMark } from '../../src/response/jam.js';
import { JAM_LEAN } from '../support/response.js';

const RUNS = Number(process.env.JAM_RUNS ?? 80);

interface Ball { x: number; z: number; friction: number | null; group: number | null; restitution: number }
type Op =
  | { k: 'step'; n: number }
  | { k: 'setPosition' | 'setVelocity' | 'setP' | 'setV' | 'replace'; who: number }
  | { k: 'rollback' | 'ring' };

const ballArb: fc.Arbitrary<Ball> = fc.record({
  x: fc.constantFrom(0, 0, 0, 0, 0.3),
  z: fc.constant(0),
  friction: fc.option(fc.constantFrom(0.25, 0.5, 1, 2), { nil: null }),
  group: fc.option(fc.constantFrom(1, 3), { nil: null }),
  restitution: fc.constantFrom(0, 0.3, 0.9),
});
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ k: fc.constant('step' as const), n: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constantFrom('setPosition' as const, 'setVelocity' as const, 'setP' as const, 'setV' as const, 'replace' as const), who: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constantFrom('rollback' as const, 'ring' as const) }) },
);

/** A V-groove, a floor and walls, and a column of `balls` (radius 0.5) stacked in the order given. */
function build(balls: Ball[], sleep: boolean): { physics: Physics; ids: number[] } {
  const physics = createPhysics(createWorld(), { gravity: [0, -9.81, 0], capacity: 64, ...(sleep ? { sleep: { time: 0.05 } } : {}) });
  // The V-groove of jamMark.test.ts (faces JAM_LEAN from parallel): a column standing in it jams
  // every tick (a column on a flat floor or in a wider groove no longer does); a floor and walls for
  // the balls off the column.
  const a = JAM_LEAN, R = 0.5, H = 0.5;
  for (const side of [-1, 1]) {
    const s = Math.sin((-side * a) / 2);
    addBox(physics, { position: [side * (R + H) * Math.cos(a), 0.5 - (R + H) * Math.sin(a), 0], halfExtents: [H, 10, 2], rotation: [0, 0, s, Math.cos((-side * a) / 2)] });
  }
  addBox(physics, { position: [0, -1, 0], halfExtents: [4, 0.5, 4] });
  addBox(physics, { position: [-3.6, 3, 0], halfExtents: [0.5, 4, 4] });
  addBox(physics, { position: [3.6, 3, 0], halfExtents: [0.5, 4, 4] });
  const ids = balls.map((b, i) => addBall(physics, b, 0.5 + i));
  return { physics, ids };
}

function addBall(physics: Physics, b: Ball, y: number): number {
  return addSphere(physics, {
    position: [b.x, y, b.z], velocity: [0, 0, 0], radius: 0.5, response: 'bounce', restitution: b.restitution,
    ...(b.friction === null ? {} : { friction: b.friction }), ...(b.group === null ? {} : { group: b.group }),
  });
}

/** Every mark 0 or 1, and 1 only on an awake dynamic body. */
function marksValid(physics: Physics): boolean {
  const internal = internalsOf(physics);
  const asleep = internal.sleep === null ? null : internal.sleep.asleep;
  for (let e = 1; e <= internal.maxEid; e++) {
    const m = jamMark(internal, e);
    if (m !== 0 && m !== 1) return false;
    if (m === 1 && (!isDynamic(internal.flags[e]) || (asleep !== null && asleep[e] === 1))) return false;
  }
  return true;
}

/** Runs `op` on `w` (`twin`: without saves or restores); returns the state hash after it. */
function run(w: { physics: Physics; ids: number[] }, balls: Ball[], op: Op, twin: boolean, jammedSeen: number[]): string {
  const p = w.physics;
  if (op.k === 'step') {
    for (let t = 0; t < op.n; t++) {
      step(p);
      jammedSeen[0] += w.ids.filter((e) => jamMark(internalsOf(p), e) === 1).length;
    }
  } else if (op.k === 'rollback' || op.k === 'ring') {
    if (twin) {
      for (let t = 0; t < 3; t++) step(p);
    } else if (op.k === 'rollback') {
      const buf = new ArrayBuffer(snapshotSize(p));
      saveSnapshot(p, buf);
      const h = hashPhysicsState(p);
      for (let t = 0; t < 3; t++) step(p);
      const after = hashPhysicsState(p);
      restoreSnapshot(p, buf);
      expect(hashPhysicsState(p)).toBe(h);
      for (let t = 0; t < 3; t++) step(p);
      expect(hashPhysicsState(p)).toBe(after);
    } else {
      const ring = createRollbackRing(p, 4);
      saveRollback(p, ring);
      const tick = p.tick;
      for (let t = 0; t < 3; t++) step(p);
      const after = hashPhysicsState(p);
      restoreRollback(p, ring, tick);
      for (let t = 0; t < 3; t++) step(p);
      expect(hashPhysicsState(p)).toBe(after);
    }
  } else {
    const i = (op as { who: number }).who % w.ids.length;
    const e = w.ids[i];
    const V = p.components.Velocity, P = p.components.Position;
    if (op.k === 'setPosition') setPosition(p, e, [P.x[e], P.y[e], P.z[e]]);
    else if (op.k === 'setVelocity') setVelocity(p, e, [V.x[e], V.y[e], V.z[e]]);
    else if (op.k === 'setP') addComponent(p.world, e, set(p.components.Position, { x: P.x[e], y: P.y[e], z: P.z[e] }));
    else if (op.k === 'setV') addComponent(p.world, e, set(p.components.Velocity, { x: V.x[e], y: V.y[e], z: V.z[e] }));
    else {
      // Removed mid-jam and replaced by a ball at the same place: bitecs recycles the id.
      const at: [number, number, number] = [P.x[e], P.y[e], P.z[e]];
      removeBody(p, e);
      const again = addBall(p, balls[i], at[1]);
      setPosition(p, again, at);
      w.ids[i] = again;
    }
    expect(jamMark(internalsOf(p), w.ids[i]), `${op.k} clears the mark`).toBe(0);
  }
  expect(marksValid(p)).toBe(true);
  return hashPhysicsState(p);
}

describe('the jam mark over random programs', () => {
  it('rollbacks at any tick give the hashes of a world never restored; every documented write clears the mark', () => {
    let jammed = 0;
    fc.assert(fc.property(fc.array(ballArb, { minLength: 2, maxLength: 7 }), fc.array(opArb, { minLength: 4, maxLength: 16 }), fc.boolean(), (balls, ops, sleep) => {
      const a = build(balls, sleep);
      const b = build(balls, sleep);
      const seen = [0];
      for (const op of ops) expect(run(a, balls, op, false, seen)).toBe(run(b, balls, op, true, [0]));
      jammed += seen[0];
    }), { numRuns: RUNS, seed: 2411 });
    // The programs jam bodies (not a vacuous check).
    expect(jammed).toBeGreaterThan(1000);
  });
});
