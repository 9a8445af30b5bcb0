/** sortIds / sortUniqueIds (insertion sort up to 32 ids, heapsort beyond) against Array.prototype.sort. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortIds, sortUniqueIds } from '../../src/grid/sortIds.js';

describe('sorting candidate ids in place', () => {
  it('property: ascending, the same multiset; unique drops repeats (seed 11)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 300 }), (xs) => {
        const a = Int32Array.from(xs);
        sortIds(a, a.length);
        expect(Array.from(a)).toEqual([...xs].sort((p, q) => p - q));
        const b = Int32Array.from(xs);
        const n = sortUniqueIds(b, b.length);
        expect(Array.from(b.subarray(0, n))).toEqual([...new Set(xs)].sort((p, q) => p - q));
      }),
      { seed: 11, numRuns: 300 },
    );
  });

  it('sorts only the first n ids', () => {
    const a = Int32Array.from([3, 1, 2, 0]);
    sortIds(a, 3);
    expect(Array.from(a)).toEqual([1, 2, 3, 0]);
  });
});
