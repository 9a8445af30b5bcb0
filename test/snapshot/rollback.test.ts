/**
 * Rollback: a random scene with per-tick inputs (velocity changes, resizes, re-rotations, static box
 * moves from a seeded PRNG) is run for N ticks, saving a snapshot and recording the full state after
 * every tick. Restoring tick k and re-simulating to tick n with the same inputs must give exactly the
 * state first seen at tick n (hash, began/ended/previous, touching, Contact presence and data), for
 * many random (k, n) from fast-check — including restores "forward" and repeated restores of one
 * world.
 */
import { addComponent, hasComponent, removeComponent } from 'bitecs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  restoreSnapshot, saveSnapshot, setHalfExtents, setPosition, setRadius, setRotation, setVelocity, snapshotSize,
  type SnapshotOptions,
} from '../../src/index.js';
import { buildInputScene, digest, type InputScene, type InputSceneOptions } from './scene.js';

const N = 150;

interface Recording {
  scene: InputScene;
  digests: string[];
  /** One buffer per tick (what a game's rollback ring holds). */
  snapshots: Uint8Array[];
}

function record(seed: number, o: InputSceneOptions = {}, options?: SnapshotOptions): Recording {
  const scene = buildInputScene(seed, o);
  const digests: string[] = [];
  const snapshots: Uint8Array[] = [];
  for (let t = 0; t <= N; t++) {
    if (t > 0) scene.tick(t - 1);
    digests.push(digest(scene.physics, scene.ids));
    const buf = new Uint8Array(snapshotSize(scene.physics, options) + 64);
    saveSnapshot(scene.physics, buf, 0, options);
    snapshots.push(buf);
  }
  return { scene, digests, snapshots };
}

/** Restores tick k, checks it, replays to n, checks every tick on the way. */
function replay(r: Recording, k: number, n: number): void {
  const { scene } = r;
  restoreSnapshot(scene.physics, r.snapshots[k]);
  expect(scene.physics.tick).toBe(k);
  expect(digest(scene.physics, scene.ids)).toBe(r.digests[k]);
  for (let t = k; t < n; t++) {
    scene.tick(t);
    if (digest(scene.physics, scene.ids) !== r.digests[t + 1]) {
      throw new Error(`rollback from tick ${k}: state at tick ${t + 1} differs from the first run`);
    }
  }
}

const kn = fc.tuple(fc.integer({ min: 0, max: N }), fc.integer({ min: 0, max: N })).map(([a, b]): [number, number] => (a <= b ? [a, b] : [b, a]));

describe('rollback: restore tick k, re-simulate to n, same state as first seen at n', () => {
  it('fresh recordings over random scenes and random (k, n)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), kn, (seed, [k, n]) => {
        const r = record(seed, { spheres: 30, movingBoxes: 3, staticBoxes: 5 });
        replay(r, k, n);
      }),
      { numRuns: 25, seed: 0x5eed },
    );
  });

  it('with dynamic spheres (collision response with gravity; inputs change Response data)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), kn, (seed, [k, n]) => {
        const r = record(seed, { spheres: 30, movingBoxes: 3, staticBoxes: 5, response: true });
        replay(r, k, n);
      }),
      { numRuns: 20, seed: 0x7e5 },
    );
  });

  it('one world restored again and again, backwards and forwards (Contact presence flips each time)', () => {
    const r = record(4242);
    fc.assert(
      fc.property(kn, ([k, n]) => {
        replay(r, k, n);
      }),
      { numRuns: 150, seed: 0xbeef },
    );
  });

  it('with shapes: none and staticBoxes: false when the game never changes those', () => {
    const options: SnapshotOptions = { shapes: 'none', staticBoxes: false };
    const r = record(77, { shapeInputs: false, staticInputs: false }, options);
    fc.assert(
      fc.property(kn, ([k, n]) => {
        replay(r, k, n);
      }),
      { numRuns: 60, seed: 7 },
    );
  });
});

describe('rollback with despawn / respawn by pooling (Position removed and added back, ids kept)', () => {
  it('restoring component presence, then the snapshot, replays the same states', () => {
    const scene = buildInputScene(99, { spheres: 30, movingBoxes: 3, staticBoxes: 4 });
    const { world, physics } = scene;
    const P = physics.components.Position;
    const pooled = [scene.spheres[0], scene.spheres[1], scene.movingBoxes[0]];
    /** The game's own per-tick logic: despawn/respawn pooled bodies on a fixed schedule. */
    const game = (t: number) => {
      for (let i = 0; i < pooled.length; i++) {
        const e = pooled[i];
        const phase = (t + 7 * i) % 30;
        if (phase === 10 && hasComponent(world, e, P)) removeComponent(world, e, P);
        if (phase === 20 && !hasComponent(world, e, P)) {
          // A despawned entity is not a body: its data is not in the physics snapshot, so a respawn
          // sets every field (as a game does when it takes an entity from its pool).
          addComponent(world, e, P);
          setPosition(physics, e, [5, 5 + i, 5]);
          setVelocity(physics, e, [1, -i, 0.5]);
          if (e === scene.movingBoxes[0]) {
            setHalfExtents(physics, e, [0.5, 0.6, 0.7]);
            setRotation(physics, e, [0, 0, 0, 1]);
          } else setRadius(physics, e, 0.4 + 0.1 * i);
        }
      }
    };
    const presence: boolean[][] = [];
    const digests: string[] = [];
    const snaps: Uint8Array[] = [];
    const rec = () => {
      presence.push(pooled.map((e) => hasComponent(world, e, P)));
      digests.push(digest(physics, scene.ids));
      const b = new Uint8Array(snapshotSize(physics));
      saveSnapshot(physics, b);
      snaps.push(b);
    };
    rec();
    for (let t = 0; t < 120; t++) {
      game(t);
      scene.tick(t);
      rec();
    }
    expect(new Set(presence.map((p) => p.join())).size).toBeGreaterThan(1);
    fc.assert(
      fc.property(kn.filter(([a, b]) => b <= 120 && a <= 120), ([k, n]) => {
        pooled.forEach((e, i) => {
          const want = presence[k][i];
          if (want && !hasComponent(world, e, P)) addComponent(world, e, P);
          if (!want && hasComponent(world, e, P)) removeComponent(world, e, P);
        });
        restoreSnapshot(physics, snaps[k]);
        expect(digest(physics, scene.ids)).toBe(digests[k]);
        for (let t = k; t < n; t++) {
          game(t);
          scene.tick(t);
          if (digest(physics, scene.ids) !== digests[t + 1]) throw new Error(`pooled rollback from ${k}: tick ${t + 1} differs`);
        }
      }),
      { numRuns: 80, seed: 3 },
    );
  });
});
