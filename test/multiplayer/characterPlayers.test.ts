/**
 * Regression (issue 28 / 30): the arena with 4 character players (150 bodies, seed 1, random
 * steering). Before the character stage dropped a character–character pair recorded by both
 * characters, the snapshot saved after tick 43 was rejected by `restoreSnapshot` (`contacts.pair[3]:
 * pairs out of (a, b) order or a pair of one entity`), so a rollback to that tick threw. Every tick's
 * snapshot now restores, and the restored state hashes as the saved one. The players stay in the
 * plane y = 0 and are never grounded.
 */
import { describe, expect, it } from 'vitest';
import { addCharacter, hashPhysicsState, restoreSnapshot, saveSnapshot, snapshotSize } from '../../src/index.js';
import { createRng } from '../../src/scenes/prng.js';
import { createSceneSim, PLAYER_RADIUS, spawnPoint, steerPlayer } from '../../examples/multiplayer/sim.js';

describe('the arena with character players', () => {
  it('saves a snapshot after every tick that restores (seed 1, 4 players, random steering)', () => {
    const sim = createSceneSim({ bodies: 150, seed: 1 });
    const at = { x: 0, z: 0 };
    const players: number[] = [];
    for (let k = 0; k < 4; k++) {
      spawnPoint(sim, k, at);
      // What spawnPlayer would do with character players (the example's players are still dynamic spheres).
      players.push(addCharacter(sim.physics, { position: { x: at.x, y: 0, z: at.z }, radius: PLAYER_RADIUS }));
    }
    const rng = createRng(1);
    let characterPairs = 0;
    for (let t = 0; t < 300; t++) {
      if (t % 10 === 0) for (const e of players) steerPlayer(sim, e, Math.round(rng.range(-127, 127)), Math.round(rng.range(-127, 127)));
      sim.step();
      // The flat arena: players stay at y = 0 and are never grounded.
      for (const e of players) expect([sim.physics.components.Position.y[e], sim.physics.components.Character.grounded[e]]).toEqual([0, 0]);
      const l = sim.physics.contacts;
      for (let i = 0; i < l.count; i++) if (players.includes(l.a[i]) && players.includes(l.b[i])) characterPairs++;
      const buf = new Uint8Array(snapshotSize(sim.physics));
      saveSnapshot(sim.physics, buf);
      const hash = hashPhysicsState(sim.physics);
      restoreSnapshot(sim.physics, buf);
      expect(hashPhysicsState(sim.physics)).toBe(hash);
    }
    // The scene does exercise the case: players touched each other on some ticks.
    expect(characterPairs).toBeGreaterThan(0);
  });
});
