/**
 * Helpers of the multiplayer tests: bounded waits, the sync checks of a client, and an optional
 * report (BITECS_COLLIDE_REPORT=1) of sync results and bytes on the wire.
 */
import { query } from 'bitecs';
import { expect } from 'vitest';
import type { ArenaClient } from '../../examples/multiplayer/client.js';

export const REPORT = process.env.BITECS_COLLIDE_REPORT === '1';

export function report(line: string): void {
  if (REPORT) console.log(line);
}

/** Polls `done` every 10 ms until it holds; throws after `timeoutMs` with `what`. */
export async function waitUntil(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits until `client` has checked at least `ticks` ticks of its replica. */
export function waitChecked(client: ArenaClient, ticks: number, timeoutMs: number): Promise<void> {
  return waitUntil(() => client.sync.checked >= ticks, timeoutMs, `${ticks} checked ticks (at ${client.sync.checked})`);
}

/**
 * Every tick from the first checked one on was checked, in order, and matched the server's hash;
 * every join state gave the server's hash.
 */
export function expectInSync(client: ArenaClient, minTicks: number): void {
  const s = client.sync;
  expect(s.mismatchTicks).toEqual([]);
  expect(s.checked).toBeGreaterThanOrEqual(minTicks);
  expect(s.matched).toBe(s.checked);
  expect(s.lastChecked - s.firstChecked + 1).toBe(s.checked);
  expect(s.joinsMatched).toBe(s.joins);
}

/** A moving ball of the replica (a sphere with Velocity that is not a player). */
export function someBall(client: ArenaClient): number {
  const sim = client.sim!;
  const { Sphere, Velocity } = sim.physics.components;
  const players = new Set([...client.room.state.players.values()].map((p) => p.eid));
  const ball = query(sim.world, [Sphere, Velocity]).find((e) => !players.has(e));
  if (ball === undefined) throw new Error('no ball in the replica');
  return ball;
}

/** Bytes a client received: mean S_TICK payload, and all WebSocket messages per tick and per second (60 ticks). */
export function describeBytes(client: ArenaClient): string {
  const b = client.bytes;
  const perTick = (b.frames - b.join) / Math.max(1, b.tickMessages); // join states aside
  return `${(b.ticks / Math.max(1, b.tickMessages)).toFixed(1)} B per S_TICK payload, ${perTick.toFixed(1)} B per tick in all messages (${(perTick * 60).toFixed(0)} B/s), join state ${b.join} B`;
}
