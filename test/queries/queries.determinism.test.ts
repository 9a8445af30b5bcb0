/**
 * Determinism of the world queries: the hits of a fixed query set on the pinned arena hash to a
 * checked-in value (the query scene of test/determinism/queryScene.ts, which the cross-engine tests
 * also run), and stepping with queries interleaved gives the pinned state hashes (queries never
 * change simulation state or results).
 */
import { describe, expect, it } from 'vitest';
import { hashPhysicsState } from '../../src/index.js';
import { cubeRoot } from '../../src/scenes/arena.js';
import { PINNED } from '../determinism/pinned.js';
import { createOutputs, Hash, PINNED_QUERY_HASH, queryHitsHash, runQueries } from '../determinism/queryScene.js';
import { arenaInOrder } from '../determinism/scenes.js';

describe('world queries determinism', () => {
  it('the hits of a fixed query set on the pinned arena hash to the checked-in value', () => {
    expect(queryHitsHash()).toBe(PINNED_QUERY_HASH);
  });

  for (const p of PINNED) {
    it(`stepping with queries interleaved keeps the pinned state hash: ${p.name}`, () => {
      const run = arenaInOrder(p.scene);
      const size = 4 * cubeRoot(p.scene.spheres);
      const hash = new Hash();
      const outputs = createOutputs();
      for (let t = 0; t < p.ticks; t++) {
        if (t % 5 === 0) runQueries(run.physics, size, t, 4, hash, outputs);
        run.tick();
      }
      expect(hashPhysicsState(run.physics)).toBe(p.hash);
    });
  }
});
