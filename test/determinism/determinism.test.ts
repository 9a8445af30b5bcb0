/**
 * Determinism: the same scene and inputs give bit-identical positions and contacts on every run, in
 * any order of entity creation that yields the same ids, and independently of other physics
 * instances stepped in between (module scratch must not leak state).
 *
 * The pinned hashes are in pinned.ts.
 */
import { hasComponent } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { hashPhysicsState } from '../../src/index.js';
import { PINNED } from './pinned.js';
import { arenaInOrder, arenaShuffled, runHash, type ArenaCase } from './scenes.js';


describe('pinned state hashes (arena 300 spheres, seed 42, 1,000 ticks; static or moving boxes)', () => {
  for (const p of PINNED) {
    it(p.name, () => {
      expect(runHash(arenaInOrder(p.scene), p.ticks)).toBe(p.hash);
    });
  }
});

function hashTrace(run: ReturnType<typeof arenaInOrder>, ticks: number, every: number): string[] {
  const out: string[] = [];
  for (let t = 1; t <= ticks; t++) {
    run.tick();
    if (t % every === 0) out.push(hashPhysicsState(run.physics));
  }
  return out;
}

describe('reproducibility', () => {
  it('two runs in one process give the same hash at every tick', () => {
    const scene: ArenaCase = { spheres: 200, seed: 9, sphereSphere: true };
    expect(hashTrace(arenaInOrder(scene), 300, 1)).toEqual(hashTrace(arenaInOrder(scene), 300, 1));
  });

  it('with moving boxes: two runs give the same hash at every tick, and the boxes touch each other', () => {
    const scene: ArenaCase = { spheres: 200, seed: 9, sphereSphere: true, movingBoxes: 10 };
    const run = arenaInOrder(scene);
    let boxBox = 0;
    const hashes: string[] = [];
    for (let t = 0; t < 300; t++) {
      run.tick();
      hashes.push(hashPhysicsState(run.physics));
      const c = run.physics.contacts;
      for (let i = 0; i < c.count; i++) if (!hasComponent(run.physics.world, c.a[i], run.physics.components.Sphere)) boxBox++;
    }
    expect(boxBox).toBeGreaterThan(0);
    expect(hashTrace(arenaInOrder(scene), 300, 1)).toEqual(hashes);
  });

  for (const sphereSphere of [false, true]) {
    it(`shuffled entity/component creation with the same ids gives the same states (sphereSphere ${sphereSphere})`, () => {
      const scene: ArenaCase = { spheres: 300, seed: 42, sphereSphere };
      const reference = hashTrace(arenaInOrder(scene), 500, 50);
      for (const shuffleSeed of [1, 2, 3]) {
        const run = arenaShuffled(scene, shuffleSeed);
        expect(hashPhysicsState(run.physics)).toBe(hashPhysicsState(arenaInOrder(scene).physics));
        expect(hashTrace(run, 500, 50)).toEqual(reference);
      }
    });
  }

  it('stepping other physics instances in between changes nothing (no state shared through module scratch)', () => {
    const a: ArenaCase = { spheres: 150, seed: 5, sphereSphere: true };
    const b: ArenaCase = { spheres: 250, seed: 6, sphereSphere: false, continuous: false };
    const aliveA = hashTrace(arenaInOrder(a), 300, 1);
    const aliveB = hashTrace(arenaInOrder(b), 300, 1);
    const ra = arenaInOrder(a);
    const rb = arenaInOrder(b);
    const ta: string[] = [];
    const tb: string[] = [];
    for (let t = 0; t < 300; t++) {
      ra.tick();
      rb.tick();
      ta.push(hashPhysicsState(ra.physics));
      tb.push(hashPhysicsState(rb.physics));
    }
    expect(ta).toEqual(aliveA);
    expect(tb).toEqual(aliveB);
  });
});
