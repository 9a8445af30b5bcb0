/**
 * The sphere queries' reads ahead of the static cell table (findPairs.ts, `touchTable`, run once
 * the table outgrows the cache: `BroadphaseState.touchBytes`) change nothing: the same candidate
 * pairs, contacts and work counters, tick by tick, with static and with continuous contacts, as
 * the same arena without them; they run on every sphere when forced and not at all on a small
 * arena by default.
 */
import { describe, expect, it } from 'vitest';
import { buildArena } from '../../src/scenes/buildArena.js';
import { internalsOf } from '../../src/physics/internal.js';
import type { Physics } from '../../src/index.js';

function state(physics: Physics): unknown {
  const bp = internalsOf(physics).broadphase;
  const c = physics.contacts;
  return {
    pairs: [Array.from(bp.pairs.a.subarray(0, bp.pairs.count)), Array.from(bp.pairs.b.subarray(0, bp.pairs.count))],
    contacts: [c.a, c.b, c.nx, c.ny, c.nz, c.depth, c.px, c.py, c.pz, c.toi].map((f) => Array.from(f.subarray(0, c.count))),
    work: Array.from(bp.work),
  };
}

describe('touchTable', () => {
  for (const continuous of [false, true]) {
    it(`changes no pair, contact or work counter (${continuous ? 'continuous' : 'static'} contacts)`, () => {
      const plain = buildArena({ spheres: 3000, seed: 7, physics: { continuous } });
      const ahead = buildArena({ spheres: 3000, seed: 7, physics: { continuous } });
      internalsOf(ahead.physics).broadphase.touchBytes = 0;
      for (let t = 0; t < 6; t++) {
        plain.tick();
        ahead.tick();
        expect(state(ahead.physics)).toEqual(state(plain.physics));
        expect(internalsOf(plain.physics).broadphase.touched).toBe(0);
        // Every entity id from 1 on is in some block of reads ahead (boxes are skipped inside).
        expect(internalsOf(ahead.physics).broadphase.touched).toBe(internalsOf(ahead.physics).maxEid);
      }
      expect(plain.physics.contacts.count).toBeGreaterThan(0);
    });
  }
});
