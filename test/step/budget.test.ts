/**
 * The contact budget (`PhysicsOptions.contactBudget`): a tick whose candidate contact pairs would
 * exceed it throws a `PhysicsInputError` naming the counts, instead of running out of memory; the
 * default is sized to the machine's memory; the option is validated.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addSphere, createPhysics, PhysicsInputError, step } from '../../src/index.js';
import { defaultContactBudget } from '../../src/physics/createPhysics.js';
import { internalsOf } from '../../src/physics/internal.js';

/** `n` spheres of radius 1 all at one point: n·(n − 1)/2 touching pairs. */
function pile(n: number, contactBudget?: number) {
  const physics = createPhysics(createWorld(), contactBudget === undefined ? {} : { contactBudget });
  for (let i = 0; i < n; i++) addSphere(physics, { position: [0, 0, 0], radius: 1 });
  return physics;
}

describe('contact budget', () => {
  it('regression: bodies at one point throw a clear error naming the counts instead of running out of memory', () => {
    // 2,000 bodies at one point: 1,999,000 pairs. (20,000 of them ran to 12 GB without finishing a tick.)
    const physics = pile(2000, 100_000);
    let error: unknown;
    try {
      step(physics);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PhysicsInputError);
    const e = error as PhysicsInputError;
    expect(e.field).toBe('options.contactBudget');
    expect(e.problem).toMatch(/more than 100000 candidate contact pairs/);
    expect(e.problem).toMatch(/\d+ listed before entity \d+, which adds up to \d+ more/);
    // It stopped at the budget: the pair list never grew far past it.
    expect(internalsOf(physics).broadphase.pairs.a.length).toBeLessThanOrEqual(2 * 131_072);
  });

  it('a tick exactly at the budget runs; one pair more throws', () => {
    const n = 40; // 780 pairs
    const ok = pile(n, 780);
    step(ok);
    expect(ok.contacts.count).toBe(780);
    expect(() => step(pile(n, 779))).toThrow(PhysicsInputError);
  });

  it('the default is sized to the machine (an eighth of its memory at 256 B per pair, at least 2^20)', () => {
    const physics = createPhysics(createWorld());
    const budget = internalsOf(physics).broadphase.contactBudget;
    expect(budget).toBe(defaultContactBudget());
    expect(budget).toBeGreaterThanOrEqual(2 ** 20);
    expect(Number.isInteger(budget)).toBe(true);
  });

  it('createPhysics rejects a budget that is not a positive integer, naming the option', () => {
    for (const bad of [0, -1, 1.5, NaN, Infinity, '10' as unknown as number]) {
      expect(() => createPhysics(createWorld(), { contactBudget: bad }), String(bad)).toThrow(/options\.contactBudget/);
    }
  });
});
