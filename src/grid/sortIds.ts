/**
 * In-place sorting of candidate id lists without allocation: insertion sort for the short runs of
 * the common case, heapsort (`math/heapSort.ts`: Williams 1964, Floyd's construction) past
 * `INSERTION_MAX`, so a list of n ids costs O(n log n) at worst. Used to put a query's candidates in ascending id order and drop
 * the repeats (one body reported by several of its slices, or by several queries).
 * @module
 */
import { heapSort } from '../math/heapSort.js';

const INSERTION_MAX = 32;

function insertionSort(ids: Int32Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const v = ids[i];
    let j = i - 1;
    while (j >= 0 && ids[j] > v) {
      ids[j + 1] = ids[j];
      j--;
    }
    ids[j + 1] = v;
  }
}

/** Whether id a comes after id b (ascending ids). */
function greater(_ids: Int32Array, a: number, b: number): boolean {
  return a > b;
}

/** Sorts `ids[0 .. n)` ascending. */
export function sortIds(ids: Int32Array, n: number): void {
  if (n <= INSERTION_MAX) insertionSort(ids, n);
  else heapSort(ids, greater, ids, n);
}

/** Sorts `ids[0 .. n)` ascending and removes repeats; returns the new length. */
export function sortUniqueIds(ids: Int32Array, n: number): number {
  sortIds(ids, n);
  let m = n > 0 ? 1 : 0;
  for (let i = 1; i < n; i++) if (ids[i] !== ids[m - 1]) ids[m++] = ids[i];
  return m;
}
