/**
 * Unit and property tests of the broadphase grid through its public functions (createGrid, gridAdd,
 * gridBuild, gridQuery, gridClear, createQueryOut, and the time-sliced gridInsertSlice /
 * gridQuerySlice): a query returns exactly the items whose closed bounds overlap its own (and whose
 * slices meet), each once, for any mix of tiny, large, huge (1e300), far-away (cell coordinates
 * beyond 2^31, hashed at full precision), flat and malformed bounds, at any cell size, without long
 * loops; the grid's work counters show that far-away items keep cells of their own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  gridAdd, gridBuild, gridClear, createGrid, gridInsertSlice, gridQuery, gridQuerySlice, createQueryOut, slicesMeet, WHOLE_TICK, type Grid, type QueryOut,
} from '../../src/grid/index.js';
import { WORK_CELLS, WORK_ITEMS } from '../../src/grid/grid.js';

type B = [number, number, number, number, number, number];

function overlaps(a: B, b: B): boolean {
  return a[0] <= b[3] && a[3] >= b[0] && a[1] <= b[4] && a[4] >= b[1] && a[2] <= b[5] && a[5] >= b[2];
}

function build(cellSize: number, items: B[], capacity?: number): Grid {
  const g = createGrid(cellSize, capacity);
  items.forEach((b, i) => gridAdd(g, i + 1, ...b));
  gridBuild(g);
  return g;
}

function run(g: Grid, q: B, out: QueryOut = createQueryOut()): number[] {
  out.count = 0;
  gridQuery(g, out, ...q);
  return Array.from(out.ids.subarray(0, out.count));
}

function expectExact(g: Grid, items: B[], q: B, label = ''): void {
  const got = run(g, q);
  const want = items.flatMap((b, i) => (overlaps(b, q) ? [i + 1] : []));
  expect(new Set(got).size, `${label} duplicates in ${got}`).toBe(got.length);
  expect([...got].sort((x, y) => x - y), label).toEqual(want);
}

const cube = (x: number, y: number, z: number, h: number): B => [x - h, y - h, z - h, x + h, y + h, z + h];

describe('grid unit tests', () => {
  it('finds overlapping items, touching bounds included (closed intervals), misses the rest', () => {
    const items: B[] = [cube(0, 0, 0, 0.5), [0.5, 0, 0, 1.5, 1, 1], [2, 2, 2, 3, 3, 3], [-5, -5, -5, -4, -4, -4]];
    const g = build(1, items);
    expectExact(g, items, [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]); // a point on the corner of item 1 and the face of 2
    expect(run(g, [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]).sort()).toEqual([1, 2]);
    expect(run(g, [1.5000001, 0, 0, 1.9, 1, 1])).toEqual([]);
    expect(run(g, [1.5, 1, 1, 2, 2, 2]).sort()).toEqual([2, 3]);
    expectExact(g, items, [-100, -100, -100, 100, 100, 100]);
  });

  it('an empty grid returns nothing; a query appends to out without resetting it', () => {
    const g = createGrid(1);
    gridBuild(g);
    const out = createQueryOut();
    gridQuery(g, out, -1, -1, -1, 1, 1, 1);
    expect(out.count).toBe(0);
    const g2 = build(1, [cube(0, 0, 0, 1)]);
    out.ids[0] = 42;
    out.count = 1;
    gridQuery(g2, out, 0, 0, 0, 0, 0, 0);
    expect(Array.from(out.ids.subarray(0, out.count))).toEqual([42, 1]);
  });

  it('gridClear forgets items; rebuilding with other items reuses the grid', () => {
    const g = build(1, [cube(0, 0, 0, 1), cube(10, 0, 0, 1)]);
    gridClear(g);
    gridBuild(g);
    expect(run(g, [-100, -100, -100, 100, 100, 100])).toEqual([]);
    gridAdd(g, 7, ...cube(10, 0, 0, 0.1));
    gridBuild(g);
    expect(run(g, [-100, -100, -100, 100, 100, 100])).toEqual([7]);
    expect(run(g, cube(0, 0, 0, 1))).toEqual([]);
  });

  it('grows past its initial capacity (1) and the query buffer past its own (1)', () => {
    const items: B[] = [];
    for (let i = 0; i < 1000; i++) items.push(cube(i % 10, Math.floor(i / 10) % 10, Math.floor(i / 100), 0.6));
    const g = build(1, items, 1);
    const out = createQueryOut(1);
    gridQuery(g, out, -1, -1, -1, 20, 20, 20);
    expect(out.count).toBe(1000);
    expect(new Set(out.ids.subarray(0, out.count)).size).toBe(1000);
    expectExact(g, items, cube(4.5, 4.5, 4.5, 1));
  });

  it('an item spanning many cells is returned once; a query spanning many cells returns each item once', () => {
    const items: B[] = [[-50, -50, -50, 50, 50, 50], [-50, 0, 0, 50, 0.1, 0.1], cube(3, 3, 3, 0.1)];
    const g = build(0.1, items);
    expectExact(g, items, [-60, -60, -60, 60, 60, 60]);
    expectExact(g, items, cube(3, 3, 3, 0.05));
    expectExact(g, items, [-49, 0.05, 0.05, 49, 0.05, 0.05]);
  });

  it('huge bounds (±1e300) and far-away items (1e15: cell coordinates beyond 2^31) are found exactly and quickly', () => {
    const items: B[] = [
      [-1e300, -1e300, -1e300, 1e300, 1e300, 1e300],
      cube(1e15, 1e15, 1e15, 1),
      cube(1e15 + 10, 1e15, 1e15, 1),
      cube(-1e15, 0, 0, 1),
      cube(0, 0, 0, 1),
      [1e300, 1e300, 1e300, 1e300, 1e300, 1e300],
      [-1e308, 0, 0, 1e308, 0, 0],
      cube(5e9, -5e9, 0, 1e-3),
    ];
    const t0 = performance.now();
    for (const cellSize of [1e-6, 1, 1e6]) {
      const g = build(cellSize, items);
      for (const q of [cube(1e15, 1e15, 1e15, 0.5), cube(1e15 + 10, 1e15, 1e15, 0.5), cube(1e15 + 5, 1e15, 1e15, 0.5), cube(-1e15, 0, 0, 2),
        cube(0, 0, 0, 0.5), [1e300, 1e300, 1e300, 1e300, 1e300, 1e300] as B, [-1e300, -1e300, -1e300, 1e300, 1e300, 1e300] as B,
        cube(5e9, -5e9, 0, 1e-4), cube(3e9, 0, 0, 1)]) {
        expectExact(g, items, q, `cell ${cellSize} query ${q}`);
      }
    }
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('non-finite bounds (NaN, ±Infinity) neither hang the build nor the queries, and finite items stay exact', () => {
    const finite: B[] = [cube(0, 0, 0, 1), cube(5, 5, 5, 1)];
    const g = createGrid(1);
    finite.forEach((b, i) => gridAdd(g, i + 1, ...b));
    gridAdd(g, 100, NaN, 0, 0, 1, 1, 1);
    gridAdd(g, 101, -Infinity, -Infinity, -Infinity, Infinity, Infinity, Infinity);
    gridAdd(g, 102, 0, 0, 0, NaN, NaN, NaN);
    const t0 = performance.now();
    gridBuild(g);
    const got = run(g, cube(5, 5, 5, 0.5)).filter((id) => id < 100);
    expect(got).toEqual([2]);
    expect(run(g, [NaN, NaN, NaN, NaN, NaN, NaN]).filter((id) => id < 100)).toEqual([]);
    run(g, [-Infinity, -Infinity, -Infinity, Infinity, Infinity, Infinity]);
    expect(run(g, cube(0, 0, 0, 0.5))).not.toContain(100);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('regression: thousands of far-away items (2e12, cell 1) keep cells of their own; a point query examines a few entries, not all', () => {
    // The grid of issue 11 clamped cell coordinates to ±2^30: all 2000 items shared one cell.
    const items: B[] = [];
    for (let i = 0; i < 2000; i++) items.push(cube(2e12 + i * 1000, 2e12, 2e12, 1));
    const g = build(1, items);
    g.work.fill(0);
    expectExact(g, items, cube(2e12 + 500 * 1000, 2e12, 2e12, 0.5));
    expect(g.work[WORK_ITEMS]).toBeLessThan(64); // clamped: 2000 per cell looked up
    expectExact(g, items, [2e12, 2e12, 2e12, 2e12 + 10_000, 2e12, 2e12]);
  });

  it('a query beyond the extent of the items looks up no cell; one touching its edge still finds them (closed bounds)', () => {
    // Bullets sliced along paths beside the arena each looked up a static cell holding the arena's boxes.
    const items: B[] = [cube(0, 0, 0, 1), cube(3, 0, 0, 1)];
    const g = build(1, items);
    g.work.fill(0);
    expect(run(g, cube(100, 0, 0, 0.5))).toEqual([]);
    expect(run(g, [-3, -3, -3, -2.5, 3, 3])).toEqual([]);
    expect(g.work[WORK_CELLS]).toBe(0);
    expectExact(g, items, [4, -5, -5, 9, 5, 5]);
    expectExact(g, items, [-9, -9, -9, -1, -1, -1]);
    // A huge item (beyond every level) is scanned by every query, wherever it is.
    const huge: B[] = [...items, [-1e300, -1e300, -1e300, 1e300, 1e300, 1e300]];
    expectExact(build(1, huge), huge, cube(100, 0, 0, 0.5));
  });

  it('regression: an item with inverted bounds (a negative radius) leaves every other item exact', () => {
    // It used to add a negative entry count: a 16-bucket table, and entries written past the end.
    const items: B[] = [];
    for (let i = 0; i < 200; i++) items.push([i * 2, 0, 0, i * 2 + 1, 1, 1]);
    const g = build(1, [...items, [5 + 1e6, 5 + 1e6, 5 + 1e6, 5 - 1e6, 5 - 1e6, 5 - 1e6]]);
    for (let i = 0; i < 200; i += 7) expect(run(g, [i * 2 + 0.5, 0.5, 0.5, i * 2 + 0.5, 0.5, 0.5]), `item ${i + 1}`).toEqual([i + 1]);
  });
});

describe('grid property: query = brute-force overlap, each id once', () => {
  const coord = fc.oneof(
    { weight: 6, arbitrary: fc.double({ min: -20, max: 20, noNaN: true }) },
    { weight: 2, arbitrary: fc.integer({ min: -20, max: 20 }) },
    { weight: 1, arbitrary: fc.constantFrom(-1e15, 1e15, 1e9, -3e9, 1e300, -1e300) },
  );
  const size = fc.oneof(
    { weight: 4, arbitrary: fc.double({ min: 0, max: 3, noNaN: true }) },
    { weight: 2, arbitrary: fc.constantFrom(0, 0.5, 1) },
    { weight: 1, arbitrary: fc.double({ min: 0, max: 1e4, noNaN: true }) },
    { weight: 1, arbitrary: fc.constantFrom(1e300, 1e15) },
  );
  const box: fc.Arbitrary<B> = fc
    .tuple(coord, coord, coord, size, size, size)
    .map(([x, y, z, a, b, c]) => [x - a, y - b, z - c, x + a, y + b, z + c]);

  it('random items and queries at several cell sizes (seed 4242)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0.01, 0.3, 1, 7, 1000),
        fc.array(box, { maxLength: 80 }),
        fc.array(box, { minLength: 1, maxLength: 20 }),
        (cellSize, items, queries) => {
          const g = build(cellSize, items, 4);
          for (const q of queries) expectExact(g, items, q);
          // Rebuilt after a clear with half of them: still exact.
          gridClear(g);
          const half = items.filter((_, i) => i % 2 === 0);
          half.forEach((b, i) => gridAdd(g, i + 1, ...b));
          gridBuild(g);
          for (const q of queries) expectExact(g, half, q);
        },
      ),
      { seed: 4242, numRuns: 400, interruptAfterTimeLimit: 20_000 },
    );
  });
});

describe('time slices: gridInsertSlice / gridQuerySlice', () => {
  it('slicesMeet: slices share a moment iff one contains the other', () => {
    expect(slicesMeet(WHOLE_TICK, 5)).toBe(true);
    expect(slicesMeet(2, 5)).toBe(true); // [0, 1/2) contains [1/4, 1/2)
    expect(slicesMeet(3, 5)).toBe(false); // [1/2, 1) and [1/4, 1/2)
    expect(slicesMeet(4, 5)).toBe(false);
    expect(slicesMeet(10, 5)).toBe(true); // [1/4, 3/8) in [1/4, 1/2)
  });

  it('property: a sliced query returns exactly the items that overlap it and whose slice meets its own (seed 99)', () => {
    const slice = fc.integer({ min: 0, max: 3 }).chain((d) => fc.integer({ min: 0, max: (1 << d) - 1 }).map((j) => (1 << d) + j));
    const item = fc.tuple(fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: 0, max: 3, noNaN: true }), slice);
    fc.assert(
      fc.property(fc.constantFrom(0.5, 1, 4), fc.array(item, { maxLength: 60 }), fc.array(item, { minLength: 1, maxLength: 10 }), (cell, items, queries) => {
        const g = createGrid(cell, 2);
        const boxes = items.map(([x, y, h]): B => cube(x, y, 0, h));
        boxes.forEach((b, i) => gridInsertSlice(g, i + 1, Float64Array.from(b), 0, items[i][3]));
        gridBuild(g);
        const out = createQueryOut();
        for (const [x, y, h, s] of queries) {
          const q = cube(x, y, 0, h);
          out.count = 0;
          gridQuerySlice(g, out, Float64Array.from(q), 0, s);
          const got = Array.from(out.ids.subarray(0, out.count)).sort((a, b) => a - b);
          const want = boxes.flatMap((b, i) => (overlaps(b, q) && slicesMeet(items[i][3], s) ? [i + 1] : []));
          expect(got).toEqual(want);
        }
      }),
      { seed: 99, numRuns: 300 },
    );
  });
});

describe('regressions (grid)', () => {
  it('regression: gridQuery reports an item twice when a cell of another level hashes to the same bucket', () => {
    // Cell 0.01: item 1 (a point) sits on level 0, item 2 (a 2-long segment, 201 level-0 cells) on
    // level 1. The point query visits one cell on each level; the level-0 cell's bucket also holds
    // item 2 (hash collision across levels), so item 2 is reported on level 0 and again on level 1.
    const g = createGrid(0.01);
    gridAdd(g, 1, 0, 0, 0, 0, 0, 0);
    gridAdd(g, 2, 0, -1, 0, 0, 1, 0);
    gridBuild(g);
    const out = createQueryOut();
    gridQuery(g, out, 0, 0, 0, 0, 0, 0);
    expect(Array.from(out.ids.subarray(0, out.count)).sort()).toEqual([1, 2]); // actual: [1, 2, 2]
  });
});

describe('bitecs-collide/broadphase: the former constructor names', () => {
  it('gridCreate, queryOutCreate and traverseCreate are deprecated aliases of createGrid, createQueryOut and createTraverse', async () => {
    const api = await import('../../src/grid/index.js');
    expect(api.gridCreate).toBe(api.createGrid);
    expect(api.queryOutCreate).toBe(api.createQueryOut);
    expect(api.traverseCreate).toBe(api.createTraverse);
    const g = api.gridCreate(2);
    api.gridAdd(g, 1, 0, 0, 0, 1, 1, 1);
    api.gridBuild(g);
    const out = api.queryOutCreate();
    api.gridQuery(g, out, 0.5, 0.5, 0.5, 0.6, 0.6, 0.6);
    expect(Array.from(out.ids.subarray(0, out.count))).toEqual([1]);
  });
});
