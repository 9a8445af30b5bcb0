/**
 * The response's event queue: a binary min-heap of event indices (`ResponseState.heap`) ordered by
 * (time, lower entity id, higher entity id, event index), so that impacts are processed in one
 * deterministic order whatever order they were predicted in. Data-first free functions over the
 * state's typed arrays; no allocation (the caller reserves room with `reserveEvents`).
 * @module
 */
import { siftDown } from '../../math/heapSort.js';
import type { ResponseState } from './state.js';

/** Whether event i comes before event j. */
function before(s: ResponseState, i: number, j: number): boolean {
  const ti = s.evTime[i], tj = s.evTime[j];
  if (ti !== tj) return ti < tj;
  const ai = s.evA[i], bi = s.evB[i], aj = s.evA[j], bj = s.evB[j];
  const li = ai < bi ? ai : bi, lj = aj < bj ? aj : bj;
  if (li !== lj) return li < lj;
  const hi = ai < bi ? bi : ai, hj = aj < bj ? bj : aj;
  if (hi !== hj) return hi < hj;
  return i < j;
}

/** Pushes event index `e` (room reserved by the caller). */
export function heapPush(s: ResponseState, e: number): void {
  const h = s.heap;
  let k = s.heapSize++;
  while (k > 0) {
    const parent = (k - 1) >> 1;
    if (!before(s, e, h[parent])) break;
    h[k] = h[parent];
    k = parent;
  }
  h[k] = e;
}

/** Removes and returns the first event index (-1 when empty). */
export function heapPop(s: ResponseState): number {
  if (s.heapSize === 0) return -1;
  const h = s.heap;
  const top = h[0];
  const last = h[--s.heapSize];
  const n = s.heapSize;
  // A min-heap by `before` is a heap whose top comes last by `before`'s reverse: the shared sift.
  if (n > 0) siftDown(s, before, h, 0, last, n);
  return top;
}
