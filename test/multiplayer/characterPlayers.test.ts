/**
 * Regression (issue 28 / 30): the arena with 4 character players (150 bodies, seed 1, random
 * steering). Before the character stage dropped a character–character pair recorded by both
 * characters, the snapshot saved after tick 43 was rejected by `restoreSnapshot` (`contacts.pair[3]:
 * pairs out of (a, b) order or a pair of one entity`), so a rollback to that tick threw. Every tick's
 * snapshot now restores, and the restored state hashes as the saved one. The players stay in the
 * plane y = 0 and are never grounded.
 */
import { describe, expect, it } from 'vitest';
import { hashPhysicsState, restoreSnapshot, saveSnapshot, snapshotSize } from '../../src/index.js';
import { createRng } from '../../src/scenes/prng.js';
import { createSceneSim, PLAYER_SPEED, spawnPlayer, spawnPoint, steerPlayer } from '../../examples/multiplayer/sim.js';

describe('the arena with character players', () => {
  it('saves a snapshot after every tick that restores (seed 1, 4 players, random steering)', () => {
    const sim = createSceneSim({ bodies: 150, seed: 1 });
    const players: number[] = [];
    for (let k = 0; k < 4; k++) {
      // The spawn points of the time (spawnPoint has since put odd players in a second lane).
      players.push(spawnPlayer(sim, -sim.half + 1 + k * 1.75, -sim.half + 1.5));
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

  it('holds a steer across ticks where the player was blocked (issue 30), and a rollback re-simulates it exactly', () => {
    // Two players 1.75 apart in one lane. Player a is steered right once and stops against player b;
    // b is then steered right once and leaves. Without the steer hold, a's Velocity became the zero
    // velocity it had while blocked and it stayed there.
    const sim = createSceneSim({ bodies: 300, seed: 1 });
    const at = { x: 0, z: 0 };
    spawnPoint(sim, 0, at);
    const a = spawnPlayer(sim, at.x, at.z);
    const b = spawnPlayer(sim, at.x + 1.75, at.z);
    const { Position: P, Velocity: V } = sim.physics.components;
    const x0 = P.x[a];
    steerPlayer(sim, a, 127, 0);
    let frame = new Uint8Array(0);
    let blockedAt = 0;
    for (let t = 0; t < 90; t++) {
      if (t === 30) {
        blockedAt = P.x[a];
        steerPlayer(sim, b, 127, 0);
        frame = new Uint8Array(snapshotSize(sim.physics));
        saveSnapshot(sim.physics, frame);
      }
      sim.step();
      // Between ticks a player's Velocity is its steer.
      expect([V.x[a], V.y[a], V.z[a]]).toEqual([PLAYER_SPEED, 0, 0]);
    }
    expect(blockedAt).toBeLessThan(x0 + 1); // it was blocked by player 1 (1.75 − 2 · 0.5 = 0.75 free)
    expect(P.x[a]).toBeGreaterThan(blockedAt + 2); // and moved on once player 1 left
    // A rollback to tick 30 (the hold is in Velocity, hence in the snapshot) re-simulates bit for bit.
    const hash = hashPhysicsState(sim.physics);
    restoreSnapshot(sim.physics, frame);
    for (let t = 30; t < 90; t++) sim.step();
    expect(hashPhysicsState(sim.physics)).toBe(hash);
  });

  it('spawns consecutive players in two lanes, so a player steered along the row passes its neighbour', () => {
    // The browser test's case: players 0 and 1, player 0 steered right (in one lane it stopped after 0.75).
    const sim = createSceneSim({ bodies: 300, seed: 1 });
    const at = { x: 0, z: 0 };
    const players: number[] = [];
    for (let k = 0; k < 2; k++) {
      spawnPoint(sim, k, at);
      players.push(spawnPlayer(sim, at.x, at.z));
    }
    const P = sim.physics.components.Position;
    const x0 = P.x[players[0]];
    steerPlayer(sim, players[0], 127, 0);
    for (let t = 0; t < 60; t++) sim.step();
    expect(P.x[players[0]]).toBeGreaterThan(x0 + 5); // 60 ticks at 0.1 units per tick, unblocked
  });
});
