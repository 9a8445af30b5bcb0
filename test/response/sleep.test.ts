/**
 * Sleep (docs/response.md, "Sleep"; src/response/sleep.ts): settled bodies fall asleep (not moved,
 * still obstacles, still in contact every tick), wake when hit with speed, when the game writes their
 * Position or Velocity (helpers, set(), a direct non-zero velocity), by wakeBody, or when a kinematic
 * body comes near; off by default; the sleep state is in snapshots and the hash.
 */
import { addComponent, createWorld, set } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox, addSphere, ContactFlags, createPhysics, hashPhysicsState, isAsleep, removeBody, restoreSnapshot, saveSnapshot, setPosition, setVelocity,
  snapshotSize, step, wakeBody, type Physics,
} from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import { freshPhysics, pos, vel } from '../support/response.js';

const G = -9.81;

/** A floor and a row of `n` balls at rest on it, with friction; sleep on unless `sleep` is false. */
function row(n: number, sleep = true): { physics: Physics; ids: number[] } {
  const physics = freshPhysics({ gravity: [0, G, 0], ...(sleep ? { sleep: {} } : {}) });
  addBox(physics, { position: [0, -1, 0], halfExtents: [50, 1, 50], friction: 0.5 });
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(addSphere(physics, { position: [i * 1.5 - n, 0.5, 0], velocity: [0, 0, 0], radius: 0.5, response: 'slide', friction: 0.5 }));
  return { physics, ids };
}

function settle(physics: Physics, ticks = 60): void {
  for (let t = 0; t < ticks; t++) step(physics);
}

describe('falling asleep', () => {
  it('after 0.5 s below 0.05 u/s (the defaults) a resting ball sleeps; asleep it is not moved and stays in contact, PERSISTING', () => {
    const { physics, ids } = row(3);
    for (let t = 0; t < 29; t++) step(physics);
    expect(ids.some((e) => isAsleep(physics, e))).toBe(false);
    settle(physics, 2);
    expect(ids.every((e) => isAsleep(physics, e))).toBe(true);
    const before = ids.map((e) => pos(physics, e));
    for (let t = 0; t < 30; t++) {
      step(physics);
      expect(physics.contacts.count).toBe(3);
      for (let k = 0; k < 3; k++) expect(physics.contacts.flags[k]).toBe(ContactFlags.PERSISTING);
      expect(physics.contacts.ny[0]).toBe(1);
      expect(physics.components.Contact.ny[ids[0]]).toBe(1);
    }
    expect(ids.map((e) => pos(physics, e))).toEqual(before);
    expect(ids.map((e) => vel(physics, e))).toEqual(ids.map(() => [0, 0, 0]));
  });

  it('sleep is off by default: the same scene never sleeps', () => {
    const { physics, ids } = row(3, false);
    settle(physics, 120);
    expect(ids.some((e) => isAsleep(physics, e))).toBe(false);
    expect(internalsOf(physics).sleep).toBeNull();
  });

  it('a stack of sleepers: the sleeper–sleeper contacts are reported too', () => {
    const physics = freshPhysics({ gravity: [0, G, 0], sleep: {} });
    addBox(physics, { position: [0, -1, 0], halfExtents: [10, 1, 10], friction: 0.5 });
    const a = addSphere(physics, { position: [0, 0.5, 0], velocity: [0, 0, 0], radius: 0.5, response: 'slide', friction: 0.5 });
    const b = addSphere(physics, { position: [0, 1.5, 0], velocity: [0, 0, 0], radius: 0.5, response: 'slide', friction: 0.5 });
    settle(physics, 60);
    expect(isAsleep(physics, a) && isAsleep(physics, b)).toBe(true);
    for (let t = 0; t < 10; t++) {
      step(physics);
      expect(physics.contacts.count).toBe(2);
    }
  });
});

describe('waking', () => {
  it('a ball rolling into a sleeper wakes it and gives it the impulse', () => {
    const { physics, ids } = row(1);
    settle(physics);
    const s = ids[0];
    expect(isAsleep(physics, s)).toBe(true);
    const p = pos(physics, s);
    const ball = addSphere(physics, { position: [p[0] - 3, 0.5, 0], velocity: [5, 0, 0], radius: 0.5, response: 'bounce', restitution: 0.8 });
    let woke = -1;
    for (let t = 0; t < 30 && woke < 0; t++) {
      step(physics);
      if (!isAsleep(physics, s)) woke = t;
    }
    expect(woke).toBeGreaterThanOrEqual(0);
    expect(vel(physics, s)[0]).toBeGreaterThan(2);
    expect(vel(physics, ball)[0]).toBeLessThan(2);
  });

  it('a slow touch (slower than two ticks of gravity) does not wake it', () => {
    const { physics, ids } = row(2);
    settle(physics);
    // a ball resting on top of the first sleeper, placed touching: it presses at one tick of gravity per tick
    const top = addSphere(physics, { position: [pos(physics, ids[0])[0], 1.5, 0], velocity: [0, 0, 0], radius: 0.5, response: 'slide', friction: 0.5 });
    for (let t = 0; t < 20; t++) {
      step(physics);
      expect(isAsleep(physics, ids[0])).toBe(true);
    }
    expect(pos(physics, top)[1]).toBeCloseTo(1.5, 9);
  });

  it('setVelocity, setPosition, set(Velocity), set(Position), a direct non-zero velocity and wakeBody each wake it', () => {
    const wakers: Array<(physics: Physics, e: number) => void> = [
      (physics, e) => setVelocity(physics, e, [1, 0, 0]),
      (physics, e) => setPosition(physics, e, [pos(physics, e)[0], 0.5, 2]),
      (physics, e) => addComponent(physics.world, e, set(physics.components.Velocity, [0, 0, 1])),
      (physics, e) => addComponent(physics.world, e, set(physics.components.Position, [pos(physics, e)[0], 0.5, -2])),
      (physics, e) => {
        physics.components.Velocity.x[e] = 2;
      },
      (physics, e) => wakeBody(physics, e),
    ];
    for (const w of wakers) {
      const { physics, ids } = row(1);
      settle(physics);
      expect(isAsleep(physics, ids[0])).toBe(true);
      w(physics, ids[0]);
      step(physics);
      expect(isAsleep(physics, ids[0])).toBe(false);
    }
  });

  it('a kinematic box coming near wakes it, and it is pushed instead of overlapped', () => {
    const { physics, ids } = row(1);
    settle(physics);
    const x = pos(physics, ids[0])[0];
    addBox(physics, { position: [x - 2, 0.5, 0], halfExtents: [0.5, 0.5, 0.5], velocity: [3, 0, 0] });
    settle(physics, 40);
    expect(isAsleep(physics, ids[0])).toBe(false);
    expect(pos(physics, ids[0])[0]).toBeGreaterThan(x + 0.5);
  });

  it('wakeBody names a non-body', () => {
    const { physics } = row(1);
    expect(() => wakeBody(physics, 999)).toThrow(/wakeBody/);
  });
});

describe('sleep in snapshots and the hash', () => {
  it('save while some sleep, run on; restore and run again: the same hash; the hash sees the sleep state', () => {
    const { physics, ids } = row(4);
    settle(physics, 20);
    const h0 = hashPhysicsState(physics);
    const buf = new ArrayBuffer(snapshotSize(physics));
    settle(physics, 20);
    saveSnapshot(physics, buf);
    const asleepAtSave = ids.map((e) => isAsleep(physics, e));
    settle(physics, 40);
    const expected = hashPhysicsState(physics);
    wakeBody(physics, ids[0]);
    settle(physics, 5);
    restoreSnapshot(physics, buf);
    expect(ids.map((e) => isAsleep(physics, e))).toEqual(asleepAtSave);
    settle(physics, 40);
    expect(hashPhysicsState(physics)).toBe(expected);
    expect(h0).not.toBe(expected);
    const sleep = internalsOf(physics).sleep!;
    const slow = sleep.slow[ids[1]];
    sleep.slow[ids[1]] = slow + 1;
    expect(hashPhysicsState(physics)).not.toBe(expected);
    sleep.slow[ids[1]] = slow;
    expect(hashPhysicsState(physics)).toBe(expected);
  });
});

describe('the sleep option', () => {
  it('is validated, naming the field', () => {
    for (const [sleep, field] of [[{ speed: -1 }, 'options.sleep.speed'], [{ time: NaN }, 'options.sleep.time'], [{ sped: 1 }, 'options.sleep.sped'], [true, 'options.sleep']] as const) {
      expect(() => freshPhysics({ sleep: sleep as never })).toThrow(new RegExp(field.replace(/\./g, '\\.')));
    }
  });

  it('speed and time are used: with time 0.25 s a ball sleeps after 15 ticks at 60 Hz', () => {
    const physics = freshPhysics({ gravity: [0, G, 0], sleep: { speed: 0.05, time: 0.25 } });
    addBox(physics, { position: [0, -1, 0], halfExtents: [10, 1, 10] });
    const s = addSphere(physics, { position: [0, 0.5, 0], velocity: [0, 0, 0], radius: 0.5, response: 'slide' });
    settle(physics, 14);
    expect(isAsleep(physics, s)).toBe(false);
    settle(physics, 2);
    expect(isAsleep(physics, s)).toBe(true);
  });
});

describe('sleep and recycled entity ids', () => {
  it('regression: a body given a removed sleeper\'s id (bitecs recycles ids) is born awake and falls', () => {
    // Was: removeBody left the id's asleep flag set, so the next body added with that id hung in the
    // air asleep until something woke it.
    const physics = createPhysics(createWorld(), { gravity: [0, -10, 0], sleep: {} });
    addBox(physics, { position: [0, -1, 0], halfExtents: [10, 1, 10] });
    const old = addSphere(physics, { position: [0, 0.5, 0], radius: 0.5, velocity: [0, 0, 0], response: 'slide' });
    for (let t = 0; t < 300 && !isAsleep(physics, old); t++) step(physics);
    expect(isAsleep(physics, old)).toBe(true);
    removeBody(physics, old);
    const fresh = addSphere(physics, { position: [3, 5, 0], radius: 0.5, velocity: [0, 0, 0], response: 'slide' });
    expect(fresh).toBe(old); // the premise: the id is recycled at once
    expect(isAsleep(physics, fresh)).toBe(false);
    step(physics);
    step(physics);
    expect(physics.components.Position.y[fresh]).toBeLessThan(5);
    expect(internalsOf(physics).sleep!.count).toBe(0);
  });
});
