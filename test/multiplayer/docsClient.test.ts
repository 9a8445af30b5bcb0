/**
 * The client written from docs/multiplayer.md alone (examples/multiplayer/docsClient.ts: only the
 * module, bitecs and the Colyseus SDK, with the page's codes, layouts and rules), against a real
 * server with bots steering: its replica matches the server's hash at the join and at every tick.
 *
 * Regression (issue 30): a client written from an earlier version of the page, which did not state
 * the game's patrol rule, desynced 7 ticks after joining. The same client without the patrol rule
 * must desync here too, so that the rule stays written down and needed.
 */
import { describe, expect, it } from 'vitest';
import { randomSteering } from '../../examples/multiplayer/client.js';
import { docsClient } from '../../examples/multiplayer/docsClient.js';
import { report, serverFixture, waitUntil } from './harness.js';

describe('a client written from docs/multiplayer.md alone', () => {
  const fx = serverFixture({ tickBudgetMs: Infinity });

  it('matches the server at every tick for 300 ticks; without the patrol rule it desyncs (regression)', async () => {
    // 200 bodies: 5 moving boxes, which reach the patrol bound within a few seconds.
    const host = await fx.connect({ name: 'bot0', join: 'create', roomOptions: { bodies: 200, seed: 11 }, onTick: randomSteering(1, 6) });
    await fx.connect({ name: 'bot1', join: { roomId: host.room.roomId }, onTick: randomSteering(2, 6) });
    const docs = await docsClient(fx.endpoint(), host.room.roomId, true);
    const noPatrol = await docsClient(fx.endpoint(), host.room.roomId, false);
    try {
      await waitUntil(() => docs.checked >= 300 && noPatrol.checked >= 300, 60_000, '300 ticks on both docs clients');
      expect(docs.joins).toBeGreaterThan(0);
      expect(docs.joinsMatched).toBe(docs.joins);
      expect(docs.matched).toBe(docs.checked);
      expect(docs.firstMismatch).toBe(-1);
      expect(noPatrol.firstMismatch).toBeGreaterThan(0);
      report(`[docs client] 300 ticks matched; without the patrol rule the first mismatch came ${noPatrol.firstMismatch - noPatrol.joinTick} ticks after joining`);
    } finally {
      await docs.leave();
      await noPatrol.leave();
    }
  });
});
