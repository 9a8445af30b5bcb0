/**
 * The jam mark of dynamic bodies (`ResponseState.jam`): 1 when the body was jammed at its last tick
 * (with gravity, capped without moving beyond the rest skin: `stopJammed`, resolve.ts, which stops
 * a body jammed two ticks running), else 0. It is carried across ticks, so it is state: in
 * snapshots (the Response record, since format version 5) and in the state hash when not 0. Cleared when
 * the game writes the body's Position or Velocity (through the helpers or bitecs `set()`), when the
 * body falls asleep (sleep.ts), and when it stops being a body or loses Velocity or Response (so
 * that a body that takes a recycled id never inherits a mark).
 * @module
 */
import type { PhysicsInternal } from '../physics/internal.js';
import { createResponseState, responseReserveBodies } from './responseState.js';

/** Clears the jam mark of `eid` (nothing before the response state exists or beyond its capacity). */
export function clearJam(internal: PhysicsInternal, eid: number): void {
  const r = internal.response;
  if (r !== null && eid < r.jam.length) r.jam[eid] = 0;
}

/** The jam mark of `eid`: 0 or 1 between ticks (0 before the response state exists). */
export function jamMark(internal: PhysicsInternal, eid: number): number {
  const r = internal.response;
  return r !== null && eid < r.jam.length ? r.jam[eid] : 0;
}

/**
 * Before a snapshot restore writes the jam marks: creates the response state when the world has a
 * body with Response and none exists yet, and makes room for every entity id up to `maxEid`.
 */
export function reserveJam(internal: PhysicsInternal): void {
  if (internal.responseCount === 0) return;
  if (internal.response === null) internal.response = createResponseState(internal.capacity);
  responseReserveBodies(internal.response, internal.maxEid);
}
