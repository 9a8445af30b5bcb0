/**
 * The jam mark (src/response/jam.ts): the jammed-body rule (resolve.ts `stopJammed`) stops only a
 * body jammed two ticks running (with gravity, capped without moving beyond the rest skin), so
 * whether a body was jammed at its last tick is state carried across ticks. It is in the state
 * hash (only when set), in snapshots (since format version 5; a version-4 snapshot restores it as 0;
 * checked: 0 or 1), and cleared when the game writes the body's Position or Velocity (helpers or
 * bitecs `set()`), when the body falls asleep, and when it is removed (bitecs recycles ids
 * last-removed-first: the body that takes the id must not inherit the mark).
 * The scene: a column of 10 balls (radius 0.5, restitution 0.3) standing in a slot whose faces are
 * 1e-7 rad from parallel under gravity, which reaches the budget every tick, every ball of it jammed
 * (`column` below).
 */
import { addComponent, addEntity, createWorld, removeEntity, set } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, createPhysics, hashPhysicsState, restoreSnapshot, saveSnapshot, snapshotSize,
  setPosition, setVelocity, step, type Physics, type PhysicsOptions,
} from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import { jamMark } from '../../src/response/jam.js';
import { HEADER_BYTES, RESPONSE_F64 } from '../../src/snapshot/format.js';
import { expectJamRejected, toVersion4 } from '../support/snapshotEdits.js';
import { JAM_LEAN } from '../support/response.js';

const OPTIONS: PhysicsOptions = { gravity: [0, -9.81, 0], capacity: 64 };

/**
 * A column of `n` balls (ids ascending from the bottom, the first 2) in a V-groove whose faces lean
 * `JAM_LEAN` (1e-7 rad) from the vertical, the lowest ball at y = 0.5 touching both faces: they hold
 * it horizontally, a wedge too close to parallel for the start-of-tick solve, so every ball reaches
 * the budget every tick, jammed. (A column on a flat floor, or in a groove leaning 0.5° or more, no
 * longer jams: the solve starts from the impulse each contact takes at rest, restingChains.test.ts.) One face is added before the balls and one
 * after, so that the balls' ids and snapshot records are those of a column on one floor box.
 */
function column(physics: Physics, n: number): number[] {
  const a = JAM_LEAN, R = 0.5, H = 0.5;
  const face = (side: number): void => {
    const s = Math.sin((-side * a) / 2);
    addBox(physics, { position: [side * (R + H) * Math.cos(a), 0.5 - (R + H) * Math.sin(a), 0], halfExtents: [H, 3 + n, 2], rotation: [0, 0, s, Math.cos((-side * a) / 2)] });
  };
  face(-1);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(addSphere(physics, { position: [0, 0.5 + i, 0], velocity: [0, 0, 0], radius: 0.5, response: 'bounce', restitution: 0.3 }));
  face(1);
  return ids;
}

const marks = (physics: Physics, ids: number[]): number[] => ids.map((e) => jamMark(internalsOf(physics), e));

describe('the jam mark', () => {
  it('is set on the bodies jammed at the last tick; the first jam keeps the velocity, the second stops it; a ball on a jammed one rests', () => {
    const physics = createPhysics(createWorld(), OPTIONS);
    const ids = column(physics, 10);
    step(physics);
    expect(marks(physics, ids)).toEqual(ids.map(() => 1));
    const V = physics.components.Velocity;
    // Jammed for one tick: the velocities they were given are kept (gravity and the column's weight).
    expect(ids.filter((e) => V.y[e] !== 0).length).toBeGreaterThan(5);
    step(physics);
    // The second tick: the nine lower balls, jammed again, end it at rest. The top ball meets the
    // ball under it, jammed at the last tick, as a body at rest that takes no impulse (resolve.ts
    // `processEvent`): it rests on it without reaching the budget, so it is not jammed (before that
    // rule it was, and every ball of the column had the mark).
    expect(marks(physics, ids)).toEqual(ids.map((_, i) => (i < 9 ? 1 : 0)));
    expect(ids.slice(0, 9).map((e) => V.y[e])).toEqual(ids.slice(0, 9).map(() => 0));
    expect(Math.abs(V.y[ids[9]])).toBeLessThan(1e-15);
  });

  it('is in the state hash when set', () => {
    const physics = createPhysics(createWorld(), OPTIONS);
    const ids = column(physics, 10);
    step(physics);
    step(physics);
    const h = hashPhysicsState(physics);
    const jam = internalsOf(physics).response!.jam;
    jam[ids[3]] = 0;
    const cleared = hashPhysicsState(physics);
    expect(cleared).not.toBe(h);
    jam[ids[3]] = 1;
    expect(hashPhysicsState(physics)).toBe(h);
    // A world that never jams hashes as before the mark existed: the pinned hashes of the scenes
    // without a jam (test/determinism/pinned.ts, `npm start`) did not change with it.
  });

  it.each([
    ['setPosition', (physics: Physics, e: number) => setPosition(physics, e, [0, 0.5 + (e - 2), 0])],
    ['setVelocity', (physics: Physics, e: number) => setVelocity(physics, e, [0, 0, 0])],
    ['set(Position)', (physics: Physics, e: number) => addComponent(physics.world, e, set(physics.components.Position, [0, 0.5 + (e - 2), 0]))],
    ['set(Velocity)', (physics: Physics, e: number) => addComponent(physics.world, e, set(physics.components.Velocity, [0, 0, 0]))],
  ])('regression: is cleared when the game writes the body (%s)', (_, write) => {
    const physics = createPhysics(createWorld(), OPTIONS);
    const ids = column(physics, 10);
    step(physics);
    expect(ids[4]).toBe(6);
    expect(jamMark(internalsOf(physics), ids[4])).toBe(1);
    write(physics, ids[4]);
    expect(marks(physics, ids)).toEqual(ids.map((e) => (e === ids[4] ? 0 : 1)));
  });

  it('regression: a body that takes a recycled id (bitecs: last removed, first reused) does not inherit the mark', () => {
    const physics = createPhysics(createWorld(), OPTIONS);
    const ids = column(physics, 10);
    step(physics);
    const top = ids[9];
    expect(jamMark(internalsOf(physics), top)).toBe(1);
    removeEntity(physics.world, top);
    expect(addEntity(physics.world)).toBe(top);
    removeEntity(physics.world, top);
    const again = addSphere(physics, { position: [3, 0.5, 0], velocity: [0, 0, 0], radius: 0.5, response: 'bounce', restitution: 0.3 });
    expect(again).toBe(top);
    expect(jamMark(internalsOf(physics), again)).toBe(0);
  });

  it('regression: is cleared when the body falls asleep (a sleeper wakes with none)', () => {
    const physics = createPhysics(createWorld(), { ...OPTIONS, sleep: { time: 0.1 } });
    const ids = column(physics, 10);
    const sleep = internalsOf(physics).sleep!;
    let asleep = 0;
    for (let t = 0; t < 60 && asleep === 0; t++) {
      step(physics);
      asleep = ids.filter((e) => sleep.asleep[e] === 1).length;
    }
    expect(asleep).toBeGreaterThan(0);
    for (const e of ids) if (sleep.asleep[e] === 1) expect(jamMark(internalsOf(physics), e)).toBe(0);
  });
});

describe('the jam mark in snapshots', () => {
  /** The world's state hash after each of `ticks` more ticks. */
  const hashes = (physics: Physics, ticks: number): string[] => {
    const out: string[] = [];
    for (let t = 0; t < ticks; t++) {
      step(physics);
      out.push(hashPhysicsState(physics));
    }
    return out;
  };
  /** A column of 10 standing in the near-parallel V-groove (every ball jammed from the first tick). */
  const standing = (): { physics: Physics; ids: number[] } => {
    const physics = createPhysics(createWorld(), OPTIONS);
    return { physics, ids: column(physics, 10) };
  };

  it('survives save and restore: restoring mid-jam into a fresh world gives the ticks that follow without the restore', () => {
    const a = standing();
    step(a.physics);
    expect(marks(a.physics, a.ids)).toEqual(a.ids.map(() => 1));
    const buf = new ArrayBuffer(snapshotSize(a.physics));
    saveSnapshot(a.physics, buf);
    const h = hashPhysicsState(a.physics);
    const saved = marks(a.physics, a.ids);
    const expected = hashes(a.physics, 30);
    const b = standing();
    restoreSnapshot(b.physics, buf);
    expect(internalsOf(b.physics).response).not.toBeNull();
    expect(marks(b.physics, b.ids)).toEqual(saved);
    expect(hashPhysicsState(b.physics)).toBe(h);
    expect(hashes(b.physics, 30)).toEqual(expected);
    // Without the marks (cleared after the restore) the next tick differs: the mark decides it.
    const c = standing();
    restoreSnapshot(c.physics, buf);
    internalsOf(c.physics).response!.jam.fill(0);
    expect(hashes(c.physics, 1)[0]).not.toBe(expected[0]);
  });

  it('a version-4 snapshot (before the mark) is read, its marks restored as 0', () => {
    const a = standing();
    step(a.physics);
    const buf = new ArrayBuffer(snapshotSize(a.physics));
    saveSnapshot(a.physics, buf);
    const v4 = toVersion4(a.physics, new Uint32Array(buf));
    const b = standing();
    restoreSnapshot(b.physics, buf);
    internalsOf(b.physics).response!.jam.fill(0);
    const withoutMarks = hashPhysicsState(b.physics);
    const c = standing();
    step(c.physics); // marks set, to be cleared by the restore
    restoreSnapshot(c.physics, v4);
    expect(marks(c.physics, c.ids)).toEqual(c.ids.map(() => 0));
    expect(hashPhysicsState(c.physics)).toBe(withoutMarks);
    expect(hashes(c.physics, 5)).toEqual(hashes(b.physics, 5));
  });

  it.each([2, 0.5, -1, Number.NaN])('a jam mark of %s is rejected naming bodies.jam and the body, with nothing changed', (value) => {
    const a = standing();
    step(a.physics);
    const buf = new ArrayBuffer(snapshotSize(a.physics));
    saveSnapshot(a.physics, buf);
    // The 4th ball's record: the Response record's last word. Records: floor box (position, shape:
    // 10 words), then each ball (position, velocity, radius: 7, Response: 8).
    const f64 = new Float64Array(buf);
    const k = HEADER_BYTES / 8 + 10 + 3 * (7 + RESPONSE_F64) + 7 + RESPONSE_F64 - 1;
    expect(f64[k]).toBe(jamMark(internalsOf(a.physics), a.ids[3]));
    f64[k] = value;
    const b = standing();
    step(b.physics);
    expectJamRejected(b.physics, buf, 4, a.ids[3]);
  });
});

