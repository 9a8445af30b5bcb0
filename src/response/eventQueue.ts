/**
 * The response's event queue: a binary min-heap of event indices (`ResponseState.heap`) ordered by
 * (time, lower entity id, higher entity id, event index), so that impacts are processed in one
 * deterministic order whatever order they were predicted in. Data-first free functions over the
 * state's typed arrays; no allocation (the caller reserves room with `reserveEvents`).
 * @module
 */
import type { ResponseState } from './responseState.js';

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

/**
 * Removes and returns the first event index (-1 when empty). Its sift-down is written out here rather
 * than taken from `math/heapSort.ts`: through that kernel's comparison call, response ticks measured
 * 1.01–1.02x the time side by side (10,000 dynamic spheres), against 0.98x with this loop.
 */
export function heapPop(s: ResponseState): number {
  if (s.heapSize === 0) return -1;
  const h = s.heap;
  const top = h[0];
  const last = h[--s.heapSize];
  const n = s.heapSize;
  let k = 0;
  for (;;) {
    let c = 2 * k + 1;
    if (c >= n) break;
    if (c + 1 < n && before(s, h[c + 1], h[c])) c++;
    if (!before(s, h[c], last)) break;
    h[k] = h[c];
    k = c;
  }
  if (n > 0) h[k] = last;
  return top;
}
