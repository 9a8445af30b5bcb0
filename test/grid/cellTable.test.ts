/**
 * The dense cell table over a hashed grid's level-0 items (src/grid/cellTable.ts): a lookup of
 * bounds shrunk by the margin that falls in one cell meets, in that cell, every item whose bounds
 * meet the bounds (checked against a brute force over random boxes, margins, cell sides and
 * queries, as findPairs' sphere lookups compute the cell), and so does the cell of the centre of a
 * sphere at rest whose padded radius is within the margin; a lookup outside the table has no item
 * within reach; the table is not built for items above level 0 or a sparse world.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellTableBuild, createCellTable, CT_INV, CT_SIDE, type CellTable } from '../../src/grid/cellTable.js';
import { createGrid, gridAdd, gridBuild, gridSetMargin, type Grid } from '../../src/grid/grid.js';

type B = [number, number, number, number, number, number];

function overlaps(a: B, b: B): boolean {
  return a[0] <= b[3] && a[3] >= b[0] && a[1] <= b[4] && a[4] >= b[1] && a[2] <= b[5] && a[5] >= b[2];
}

function build(items: B[], cell: number, margin: number, side: number): { g: Grid; t: CellTable } {
  const g = createGrid(cell);
  gridSetMargin(g, margin);
  items.forEach((b, i) => gridAdd(g, i + 1, ...b));
  gridBuild(g);
  const t = createCellTable();
  t.frame[CT_SIDE] = side;
  cellTableBuild(t, g);
  return { g, t };
}

/**
 * The ids in the table cell of query `q` as findPairs' lookup finds it (bounds shrunk by the margin,
 * to their midpoint when thinner), `null` when the shrunk bounds span cells, [] outside the table.
 */
function lookup(g: Grid, t: CellTable, q: B): number[] | null {
  const m = g.margin, inv = t.frame[CT_INV];
  const cell: number[] = [];
  for (let a = 0; a < 3; a++) {
    let u0 = (q[a] + m) * inv, u1 = (q[a + 3] - m) * inv;
    if (u0 > u1) u0 = u1 = (q[a] + (q[a + 3] - q[a]) * 0.5) * inv;
    if (Math.floor(u0) !== Math.floor(u1)) return null;
    cell.push(Math.floor(u0));
  }
  const rx = cell[0] - t.ox, ry = cell[1] - t.oy, rz = cell[2] - t.oz;
  if (!(rx >= 0 && rx < t.nx && ry >= 0 && ry < t.ny && rz >= 0 && rz < t.nz)) return [];
  const c = (rx * t.ny + ry) * t.nz + rz;
  return Array.from(t.items.subarray(t.start[c], t.start[c + 1]), (slot) => g.ids[slot]);
}

const coord = fc.double({ min: -50, max: 50, noNaN: true });
const size = fc.double({ min: 0, max: 6, noNaN: true });
const box = fc.tuple(coord, coord, coord, size, size, size).map(([x, y, z, a, b, c]): B => [x, y, z, x + a, y + b, z + c]);

describe('cellTable', () => {
  it('a single-cell lookup holds every item the query bounds meet (brute force), each once', () => {
    let built = 0;
    fc.assert(fc.property(
      fc.array(box, { minLength: 1, maxLength: 40 }),
      fc.double({ min: 1, max: 8, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }),
      fc.array(fc.tuple(coord, coord, coord, fc.double({ min: 0, max: 1.5, noNaN: true })), { minLength: 1, maxLength: 30 }),
      (items, cell, marginShare, spheres) => {
        const margin = marginShare * cell;
        const { g, t } = build(items, cell, margin, cell);
        // Items above level 0 (more than MAX_ITEM_CELLS cells) or a sparse world: no table.
        if (g.levelMask !== 1) expect(t.usable).toBe(false);
        if (!t.usable) return;
        built++;
        for (const [x, y, z, r] of spheres) {
          const q: B = [x - r, y - r, z - r, x + r, y + r, z + r];
          const got = lookup(g, t, q);
          if (got === null) continue;
          expect(new Set(got).size).toBe(got.length);
          const want = items.flatMap((b, i) => (overlaps(b, q) ? [i + 1] : []));
          for (const id of want) expect(got).toContain(id);
        }
      },
    ), { numRuns: 200 });
    expect(built).toBeGreaterThan(100);
  });

  it('a sphere at rest within the margin: its centre\'s cell holds every item its bounds meet, also far from the origin', () => {
    let built = 0;
    fc.assert(fc.property(
      fc.constantFrom(0, 1e3, 1e6, -1e9, 3e10),
      fc.array(box, { minLength: 1, maxLength: 30 }),
      fc.double({ min: 1, max: 8, noNaN: true }), fc.double({ min: 0.05, max: 1, noNaN: true }),
      fc.array(fc.tuple(fc.nat(29), fc.tuple(fc.integer({ min: -1, max: 1 }), fc.integer({ min: -1, max: 1 }), fc.integer({ min: -1, max: 1 })), fc.double({ min: 0.5, max: 1, noNaN: true })), { minLength: 1, maxLength: 30 }),
      (offset, local, cell, marginShare, near) => {
        const items = local.map((b): B => [b[0] + offset, b[1] + offset, b[2], b[3] + offset, b[4] + offset, b[5]]);
        const margin = marginShare * cell;
        const { g, t } = build(items, cell, margin, cell);
        if (!t.usable) return;
        built++;
        const inv = t.frame[CT_INV];
        for (const [k, side, share] of near) {
          // A sphere just reaching item k's bounds from a side, edge or corner (or inside them).
          const b = items[k % items.length];
          const r = share * margin * 0.999;
          const at = (a: number, sd: number) => (sd < 0 ? b[a] - r * 0.999999 : sd > 0 ? b[a + 3] + r * 0.999999 : (b[a] + b[a + 3]) / 2);
          const x = at(0, side[0]), y = at(1, side[1]), z = at(2, side[2]);
          // The bounds as findPairs pads them (BOUNDS_PAD, 1e-12); r + pad <= margin.
          const pad = 1e-12 * (1 + Math.abs(x) + Math.abs(y) + Math.abs(z) + 3 * r);
          if (!(r + pad <= margin)) continue;
          const q: B = [x - r - pad, y - r - pad, z - r - pad, x + r + pad, y + r + pad, z + r + pad];
          const rx = Math.floor(x * inv) - t.ox, ry = Math.floor(y * inv) - t.oy, rz = Math.floor(z * inv) - t.oz;
          const inside = rx >= 0 && rx < t.nx && ry >= 0 && ry < t.ny && rz >= 0 && rz < t.nz;
          const c = (rx * t.ny + ry) * t.nz + rz;
          const got = inside ? Array.from(t.items.subarray(t.start[c], t.start[c + 1]), (slot) => g.ids[slot]) : [];
          const want = items.flatMap((b, i) => (overlaps(b, q) ? [i + 1] : []));
          for (const id of want) expect(got).toContain(id);
        }
      },
    ), { numRuns: 200 });
    expect(built).toBeGreaterThan(100);
  });

  it('holds one entry more than it fills, so a cell\'s first entry can be read for every cell, also an empty last one', () => {
    fc.assert(fc.property(
      fc.array(box, { minLength: 1, maxLength: 40 }),
      fc.double({ min: 1, max: 8, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }),
      (items, cell, marginShare) => {
        const { g, t } = build(items, cell, marginShare * cell, cell);
        if (!t.usable) return;
        const cells = t.nx * t.ny * t.nz;
        expect(t.items.length).toBeGreaterThan(t.start[cells]);
        // The entry past the last is a valid slot.
        expect(t.items[t.start[cells]]).toBeGreaterThanOrEqual(0);
        expect(t.items[t.start[cells]]).toBeLessThan(g.count);
      },
    ), { numRuns: 100 });
  });

  it('a query within the margin always falls in one cell, and outside the table meets nothing', () => {
    const items: B[] = [[0, 0, 0, 2, 2, 2], [5, 5, 5, 6, 7, 8]];
    const { g, t } = build(items, 2, 1, 2);
    expect(t.usable).toBe(true);
    expect(lookup(g, t, [0.5, 0.5, 0.5, 1.5, 1.5, 1.5])).toContain(1);
    expect(lookup(g, t, [100, 100, 100, 101, 101, 101])).toEqual([]);
    expect(lookup(g, t, [-3.9, -3.9, -3.9, -2.1, -2.1, -2.1])).toEqual([]);
  });

  it('is not built for an item above level 0, for a sparse world, or without items', () => {
    expect(build([[0, 0, 0, 1000, 1, 1]], 1, 0, 1).t.usable).toBe(false);
    expect(build([[0, 0, 0, 1, 1, 1], [1e6, 1e6, 1e6, 1e6 + 1, 1e6 + 1, 1e6 + 1]], 1, 0, 1).t.usable).toBe(false);
    expect(build([], 1, 0, 1).t.usable).toBe(false);
  });
});
