/**
 * The bodies the end-of-tick projection (project.ts) checks, and the cap that bounds a body's work
 * in a tick: a body past `maxIterations` impacts or the prediction cap (predict.ts) is CAPPED: it is
 * no longer predicted and stays where it is for the rest of the tick (its leftover motion is dropped,
 * its velocity kept), an obstacle at rest for the casts of the others; it still exchanges impulses
 * with the dynamic bodies that hit it (on their relative velocity, momentum conserved), and one that
 * still moves toward it is capped where it is too (resolve.ts `processEvent`); the dynamic bodies near it are
 * predicted again (each within its own cap: resolve.ts), and it is listed here so that the
 * projection moves it out of a kinematic body that walked into it, or a sphere. With gravity, a
 * capped body that moved no farther than the rest skin in the tick, and so at the previous tick too,
 * ends it at rest (`stopJammed`, resolve.ts; the jam mark, jam.ts).
 * @module
 */
import { growArray as grow } from '../math/grow.js';
import { CAPPED, R_CAPPED, type ResponseState } from './responseState.js';

/**
 * `ResponseState.suspect` of a listed body a static body stopped in a move of the projection
 * (project.ts: the tick has the static side of a squeeze); 1 for the others.
 */
export const SUSPECT_STOPPED = 2;

/** Lists `a` (once per tick) for the end-of-tick projection. */
export function listSuspect(s: ResponseState, a: number): void {
  if (s.suspect[a] !== 0) return;
  s.suspect[a] = 1;
  s.suspects[s.suspectCount++] = a;
}

/** Lists capped body `a` for a wake of its neighbours (resolve.ts). */
export function listWake(s: ResponseState, a: number): void {
  if (s.wakeCount === s.wakeList.length) s.wakeList = grow(s.wakeList, 2 * s.wakeList.length);
  s.wakeList[s.wakeCount++] = a;
}

/** Caps `a` for the rest of the tick (see the module notes). */
export function capBody(s: ResponseState, a: number): void {
  s.state[a] = CAPPED;
  s.work[R_CAPPED]++;
  listSuspect(s, a);
  listWake(s, a);
}
