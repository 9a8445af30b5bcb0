/** heapSort / siftDown (src/math/heapSort.ts) against Array.prototype.sort with the same comparison. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heapSort, siftDown } from '../../src/math/heapSort.js';

/** Keys of items by index: a distance (many ties) and a unique tie-breaker. */
interface Keys {
  d: Float64Array;
  id: Int32Array;
}

function after(k: Keys, a: number, b: number): boolean {
  return k.d[a] > k.d[b] || (k.d[a] === k.d[b] && k.id[a] > k.id[b]);
}

function keysOf(ds: readonly number[]): Keys {
  return { d: Float64Array.from(ds), id: Int32Array.from(ds.map((_, i) => ds.length - i)) };
}

describe('heapsort kernel', () => {
  it('property: an index array sorted by (key, tie) as Array.prototype.sort orders it (seed 5)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }).map((x) => x / 4), { maxLength: 200 }), (ds) => {
        const k = keysOf(ds);
        const order = Int32Array.from(ds.map((_, i) => i));
        heapSort(k, after, order, order.length);
        const expected = ds.map((_, i) => i).sort((a, b) => (after(k, a, b) ? 1 : after(k, b, a) ? -1 : 0));
        expect(Array.from(order)).toEqual(expected);
      }),
      { seed: 5, numRuns: 300 },
    );
  });

  it('property: siftDown keeps a heap, so popping the top repeatedly yields the descending order (seed 6)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 100 }), (xs) => {
        const greater = (_: null, a: number, b: number): boolean => a > b;
        const h = Int32Array.from(xs);
        let n = h.length;
        for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(null, greater, h, i, h[i], n);
        const popped: number[] = [];
        while (n > 0) {
          popped.push(h[0]);
          const last = h[--n];
          if (n > 0) siftDown(null, greater, h, 0, last, n);
        }
        expect(popped).toEqual([...xs].sort((p, q) => q - p));
      }),
      { seed: 6, numRuns: 300 },
    );
  });

  it('sorts only the first n items', () => {
    const a = Int32Array.from([3, 1, 2, 0]);
    heapSort(null, (_: null, p: number, q: number) => p > q, a, 3);
    expect(Array.from(a)).toEqual([1, 2, 3, 0]);
  });
});
