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
 * Bits of `ResponseState.suspect` (0: not listed this tick): LISTED for every listed body; the
 * projection (project.ts) adds STOPPED when a static body stopped one of its separations from a
 * sphere (the static side of a squeeze), SQUEEZED when it touches, through touching dynamic spheres,
 * one STOPPED, or is where the spheres touching two kinematic bodies meet (the yield may move it),
 * KINEMATIC when it touched a kinematic body in a pass.
 */
export const SUSPECT_LISTED = 1, SUSPECT_STOPPED = 2, SUSPECT_SQUEEZED = 4, SUSPECT_KINEMATIC = 8;

/** Lists `a` (once per tick) for the end-of-tick projection. */
export function listSuspect(s: ResponseState, a: number): void {
  if (s.suspect[a] !== 0) return;
  s.suspect[a] = SUSPECT_LISTED;
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
