/**
 * The dense grid (src/grid/dense.ts) and its walks (denseWalk.ts) against brute force: bounds
 * queries list exactly the items whose bounds meet the query's; ray and thick walks reach every item
 * the segment (grown by the radius) meets, in a cell entered no later than the item is met; the table
 * stays within its cell budget; builds that would serve poorly report it; updates in place
 * (`denseUpdate`) keep all of that and re-bucket only the items whose cells changed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DENSE_BIG, DENSE_CROWD, DG_SIDE, denseBuild, denseClear, createDenseGrid, denseInsert, denseQueryBounds, denseUpdate, type DenseGrid,
} from '../../src/grid/dense.js';
import { denseRayBegin, createDenseRay, denseRayNext, denseThickBegin, DR_DX, DR_ENTRY, DR_OX, DR_TMAX } from '../../src/grid/denseWalk.js';
import { createQueryOut } from '../../src/grid/query.js';
import { createTraverse, traverseStep, TR_CELLS, TR_CX, TR_DX, TR_ENTRY, TR_OX, TR_RADIUS, TR_TMAX } from '../../src/grid/traverse.js';

type Box = [number, number, number, number, number, number];

const coord = fc.double({ min: -50, max: 50, noNaN: true });
const size = fc.oneof(fc.constant(0), fc.double({ min: 0, max: 3, noNaN: true }), fc.double({ min: 0, max: 40, noNaN: true }));
const boxArb = fc.tuple(coord, coord, coord, size, size, size).map(([x, y, z, a, b, c]): Box => [x, y, z, x + a, y + b, z + c]);
const gridArb = fc.record({
  boxes: fc.array(boxArb, { minLength: 0, maxLength: 60 }),
  side: fc.oneof(fc.constant(0), fc.double({ min: 0.5, max: 20, noNaN: true })),
});

function build(boxes: Box[], side: number, spare = 0): DenseGrid {
  const g = createDenseGrid();
  g.spare = spare;
  denseClear(g);
  boxes.forEach((b, i) => denseInsert(g, i + 1, Float64Array.from(b), 0));
  g.frame[DG_SIDE] = side;
  denseBuild(g);
  return g;
}

const meets = (a: Box, q: Box) => a[0] <= q[3] && a[3] >= q[0] && a[1] <= q[4] && a[4] >= q[1] && a[2] <= q[5] && a[5] >= q[2];

/** The ids listed for each entry run the walk entered, with the entry time; big items at time 0. */
function runsOf(g: DenseGrid, cell: number, t: number, seen: Map<number, number>): void {
  for (let k = g.cellRun[2 * cell]; k < g.cellRun[2 * cell + 1]; k++) {
    const id = g.ids[g.entryItems[k]];
    if (!seen.has(id)) seen.set(id, t);
  }
}

/** Entry time of the segment o + t·d, t in [0, L], into box b grown by r (slabs); Infinity: missed. */
function entryTime(o: number[], d: number[], L: number, b: Box, r: number): number {
  let t0 = 0, t1 = L;
  for (let a = 0; a < 3; a++) {
    const lo = b[a] - r, hi = b[3 + a] + r;
    if (d[a] === 0) {
      if (o[a] < lo || o[a] > hi) return Infinity;
      continue;
    }
    let ta = (lo - o[a]) / d[a], tb = (hi - o[a]) / d[a];
    if (ta > tb) [ta, tb] = [tb, ta];
    t0 = Math.max(t0, ta);
    t1 = Math.min(t1, tb);
  }
  return t0 <= t1 ? t0 : Infinity;
}

const dirArb = fc.oneof(
  fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })),
  fc.constantFrom([1, 0, 0], [0, -1, 0], [0, 0, 1], [1, 1, 0], [-1, 0, -1]),
).filter((d) => Math.hypot(...d) > 1e-3).map((d) => d.map((v) => v / Math.hypot(...d)));
const segArb = fc.record({ o: fc.tuple(fc.double({ min: -80, max: 80, noNaN: true }), coord, coord), d: dirArb, L: fc.double({ min: 0, max: 200, noNaN: true }), r: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 6, noNaN: true })) });

/** Every item the segment meets is reached no later than it is met (within rounding), in entry order. */
function checkWalk(g: DenseGrid, boxes: Box[], seg: { o: number[]; d: number[]; L: number; r: number }, seen: Map<number, number>): void {
  boxes.forEach((b, i) => {
    const t = entryTime(seg.o, seg.d, seg.L, b, seg.r);
    if (t === Infinity) return;
    expect(seen.has(i + 1), `item ${i + 1} (met at ${t}) reached`).toBe(true);
    expect(seen.get(i + 1)!).toBeLessThanOrEqual(t + 1e-9);
  });
}

function bigRun(g: DenseGrid, seen: Map<number, number>): void {
  if (g.nx > 0) runsOf(g, g.nx * g.ny * g.nz, 0, seen);
}

type Seg = { o: number[]; d: number[]; L: number };

/** Writes the segment's origin, direction and length to a walk state's slots (origin at `o`, direction at `d`, length at `t`). */
function loadWalk(w: Float64Array, seg: Seg, o: number, d: number, t: number): void {
  for (let a = 0; a < 3; a++) {
    w[o + a] = seg.o[a];
    w[d + a] = seg.d[a];
  }
  w[t] = seg.L;
}

function walkRay(g: DenseGrid, seg: Seg): Map<number, number> {
  const seen = new Map<number, number>();
  bigRun(g, seen);
  const w = createDenseRay();
  loadWalk(w, seg, DR_OX, DR_DX, DR_TMAX);
  if (!denseRayBegin(g, w)) return seen;
  let last = -Infinity;
  for (let c = denseRayNext(g, w); c >= 0; c = denseRayNext(g, w)) {
    expect(w[DR_ENTRY]).toBeGreaterThanOrEqual(last);
    last = w[DR_ENTRY];
    runsOf(g, c, w[DR_ENTRY], seen);
  }
  return seen;
}

function walkThick(g: DenseGrid, seg: Seg & { r: number }): Map<number, number> | undefined {
  const seen = new Map<number, number>();
  bigRun(g, seen);
  const w = createTraverse();
  loadWalk(w, seg, TR_OX, TR_DX, TR_TMAX);
  w[TR_RADIUS] = seg.r + 1e-9;
  if (!denseThickBegin(g, w)) return seen;
  // The queries scan instead of walking this many cells (a radius of many cells of a tiny side).
  if (w[TR_CELLS] > 20000) return undefined;
  let last = -Infinity;
  while (traverseStep(w)) {
    expect(w[TR_ENTRY]).toBeGreaterThanOrEqual(last);
    last = w[TR_ENTRY];
    const x = w[TR_CX], y = w[TR_CX + 1], z = w[TR_CX + 2];
    if (x < 0 || y < 0 || z < 0 || x >= g.nx || y >= g.ny || z >= g.nz) continue;
    runsOf(g, x + g.nx * (y + g.ny * z), w[TR_ENTRY], seen);
  }
  return seen;
}

/** Runs `check` on every segment of 400 random usable grids (fast-check, seeded). */
function forSegments(seed: number, check: (g: DenseGrid, boxes: Box[], seg: Seg & { r: number }) => void): void {
  fc.assert(
    fc.property(gridArb, fc.array(segArb, { minLength: 1, maxLength: 10 }), ({ boxes, side }, segs) => {
      const g = build(boxes, side);
      if (g.usable) for (const seg of segs) check(g, boxes, seg);
    }),
    { seed, numRuns: 400 },
  );
}

describe('dense grid', () => {
  it('lists exactly the items whose bounds meet the query bounds, each once; the table keeps its cell budget', () => {
    fc.assert(
      fc.property(gridArb, fc.array(boxArb, { minLength: 1, maxLength: 10 }), ({ boxes, side }, queries) => {
        const g = build(boxes, side);
        if (!g.usable) return;
        expect(g.nx * g.ny * g.nz).toBeLessThanOrEqual(4 * boxes.length + 64);
        const out = createQueryOut(2);
        for (const q of queries) {
          out.count = 0;
          denseQueryBounds(g, out, Float64Array.from(q));
          const got = [...out.ids.subarray(0, out.count)].sort((a, b) => a - b);
          const want = boxes.map((b, i) => (meets(b, q) ? i + 1 : 0)).filter((id) => id > 0);
          expect(got).toEqual(want);
        }
      }),
      { seed: 31, numRuns: 400 },
    );
  });

  it('ray walks reach every item the ray meets, in cells entered no later, in order', () => {
    forSegments(32, (g, boxes, seg) => checkWalk(g, boxes, { ...seg, r: 0 }, walkRay(g, seg)));
  });

  it('thick walks reach every item the swept cube meets, in cells entered no later, in order', () => {
    forSegments(33, (g, boxes, seg) => {
      const seen = walkThick(g, seg);
      if (seen) checkWalk(g, boxes, seg, seen);
    });
  });

  it('an empty grid is usable and holds no cell', () => {
    const g = build([], 1);
    expect(g.usable).toBe(true);
    const out = createQueryOut();
    denseQueryBounds(g, out, Float64Array.from([-1, -1, -1, 1, 1, 1]));
    expect(out.count).toBe(0);
    expect(denseRayBegin(g, createDenseRay())).toBe(false);
  });

  it('reports a build that would serve poorly: non-finite bounds, too many big items, a crowded cell', () => {
    expect(build([[0, 0, 0, 1, 1, 1], [0, 0, 0, Infinity, 1, 1]], 1).usable).toBe(false);
    expect(build([[0, 0, 0, 1, 1, 1], [0, 0, 0, NaN, 1, 1]], 1).usable).toBe(false);
    // Many small items keep the cells small, so each large one covers more than DENSE_ITEM_CELLS.
    const small = Array.from({ length: 500 }, (_, i): Box => [i % 10 * 10, (i / 10 | 0) % 10 * 10, (i / 100 | 0) * 20, 0, 0, 0]).map((b): Box => [b[0], b[1], b[2], b[0] + 0.5, b[1] + 0.5, b[2] + 0.5]);
    const huge = Array.from({ length: DENSE_BIG + 1 }, (_, i): Box => [0, 0, i, 90, 90, i + 80]);
    expect(build([...small, ...huge], 1).usable).toBe(false);
    const g = build([...small, ...huge.slice(1)], 1);
    expect(g.usable).toBe(true);
    const big = g.nx * g.ny * g.nz;
    expect(g.cellRun[2 * big + 1] - g.cellRun[2 * big], 'the large items are the big run').toBe(DENSE_BIG);
    const pile = Array.from({ length: DENSE_CROWD + 1 }, (): Box => [0, 0, 0, 0.1, 0.1, 0.1]);
    expect(build([...pile, [1000, 1000, 1000, 1001, 1001, 1001]], 1).usable).toBe(false);
    expect(build(pile.slice(1), 1).usable).toBe(true);
  });

  it('regression: sparse and flat worlds get a usable table (the side grows until the longest axis loses a cell)', () => {
    const rng = (seed: number) => () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    for (const [w, h, side] of [[61, 61, 3], [100, 100, 3], [200, 200, 3], [300, 1, 3], [20000, 1, 3], [5000, 5000, 0]]) {
      const r = rng(w * 7 + h);
      const boxes = Array.from({ length: 1000 }, (): Box => {
        const x = r() * w, y = r() * h, z = r() * w;
        return [x - 0.5, y - 0.5, z - 0.5, x + 0.5, y + 0.5, z + 0.5];
      });
      const g = build(boxes, side);
      expect(g.usable, `${w} × ${h} × ${w}, wanted side ${side}`).toBe(true);
      expect(g.nx * g.ny * g.nz).toBeLessThanOrEqual(4 * 1000 + 64);
    }
  });
});

/** Cell range of each item as a build would give it (`itemCells`), as a string per item (−1: big). */
function cellsOf(g: DenseGrid, i: number): string {
  return g.itemCells[6 * i] < 0 ? 'big' : Array.from(g.itemCells.subarray(6 * i, 6 * i + 6)).join(',');
}

describe('dense grid updates in place', () => {
  const moveArb = fc.array(fc.tuple(fc.nat(), fc.double({ min: -6, max: 6, noNaN: true }), fc.double({ min: -6, max: 6, noNaN: true }), fc.double({ min: -6, max: 6, noNaN: true })), { maxLength: 40 });

  it('after moves, bounds queries and walks agree with brute force; only the items whose cells changed are re-bucketed', () => {
    let updated = 0;
    fc.assert(
      fc.property(gridArb.filter((x) => x.side > 0 && x.boxes.length > 0), fc.nat(1), fc.array(moveArb, { minLength: 1, maxLength: 4 }), fc.array(segArb, { minLength: 1, maxLength: 4 }), fc.array(boxArb, { minLength: 1, maxLength: 4 }), ({ boxes, side }, spare, rounds, segs, queries) => {
        const g = build(boxes, side, spare);
        if (g.usable && spare > 0) expect(g.nx * g.ny * g.nz).toBeLessThanOrEqual(4 * boxes.length + 64);
        if (!g.usable) return;
        const now = boxes.map((b) => [...b] as Box);
        for (const moves of rounds) {
          const touched = new Set<number>();
          for (const [k, dx, dy, dz] of moves) {
            const i = k % now.length;
            const b = now[i];
            now[i] = [b[0] + dx, b[1] + dy, b[2] + dz, b[3] + dx, b[4] + dy, b[5] + dz];
            touched.add(i);
          }
          const before = now.map((_, i) => cellsOf(g, i));
          let moved = 0;
          for (let i = 0; i < now.length; i++) {
            g.bounds.set(now[i], 6 * i);
            const r = denseUpdate(g, i);
            if (r < 0) return; // the caller builds afresh
            if (r === 1) {
              moved++;
              expect(touched.has(i), 'an item that did not move is not re-bucketed').toBe(true);
            }
            if (before[i] === 'big') expect(cellsOf(g, i), 'a big item stays in the big run').toBe('big');
          }
          expect(moved).toBeLessThanOrEqual(touched.size);
          updated++;
        }
        const out = createQueryOut(2);
        for (const q of queries) {
          out.count = 0;
          denseQueryBounds(g, out, Float64Array.from(q));
          const got = [...out.ids.subarray(0, out.count)].sort((a, b) => a - b);
          expect(got).toEqual(now.map((b, i) => (meets(b, q) ? i + 1 : 0)).filter((id) => id > 0));
        }
        for (const seg of segs) {
          checkWalk(g, now, { ...seg, r: 0 }, walkRay(g, seg));
          const seen = walkThick(g, seg);
          if (seen !== undefined) checkWalk(g, now, seg, seen);
        }
      }),
      { seed: 34, numRuns: 300 },
    );
    expect(updated, 'most rounds were updates, not rebuilds').toBeGreaterThan(100);
  });

  it('reports what it cannot take: an item leaving the table (less often with spare cells), non-finite bounds', () => {
    const g = build([[0, 0, 0, 1, 1, 1], [5, 5, 5, 6, 6, 6]], 1);
    expect(g.usable).toBe(true);
    const side = g.frame[DG_SIDE];
    g.bounds.set([side, 0, 0, side + 1, 1, 1], 0);
    expect(denseUpdate(g, 0), 'a cell further').toBe(1);
    expect(denseUpdate(g, 0), 'same cells: nothing to do').toBe(0);
    g.bounds.set([1e6, 0, 0, 1e6 + 1, 1, 1], 0);
    expect(denseUpdate(g, 0)).toBe(-2);
    g.bounds.set([NaN, 0, 0, 1, 1, 1], 6);
    expect(denseUpdate(g, 1)).toBe(-2);
    // With a cell to spare on each side, an item may move by up to a cell past the first bounds.
    const h = build([[0, 0, 0, 1, 1, 1], [5, 5, 5, 6, 6, 6]], 1, 1);
    const hs = h.frame[DG_SIDE];
    h.bounds.set([-0.9 * hs, 0, 0, 1 - 0.9 * hs, 1, 1], 0);
    expect(denseUpdate(h, 0)).toBe(1);
    h.bounds.set([-1.1 * hs, 0, 0, 1 - 1.1 * hs, 1, 1], 0);
    expect(denseUpdate(h, 0)).toBe(-2);
  });
});
