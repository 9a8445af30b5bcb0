/**
 * The cell size policy's statistics (src/grid/policy.ts): a robust median and a covering
 * quantile, indifferent to a few outliers and to bad extents.
 */
import { describe, expect, it } from 'vitest';
import {
  B_COVER, B_MEDIAN, bucketOf, cellFor, CELL_PER_EXTENT, marginFor, MARGIN_SLACK, sizeStatsAdd, sizeStatsAddFast, sizeStatsBuckets, sizeStatsClear, createSizeStats,
} from '../../src/grid/policy.js';

function stats(extents: number[]) {
  const s = createSizeStats();
  for (const e of extents) {
    s.input[0] = e;
    sizeStatsAdd(s);
  }
  const b = new Int32Array(2);
  sizeStatsBuckets(s, b);
  return { s, median: b[B_MEDIAN], cover: b[B_COVER] };
}

describe('size statistics', () => {
  it('an empty histogram has no median (nothing is chosen)', () => {
    expect(stats([]).median).toBe(-1);
    expect(stats([NaN, -1, Infinity, -Infinity]).median).toBe(-1);
  });

  it('the median ignores a giant, a bullet and bad extents; the cover leaves the top 1 % out', () => {
    const xs = Array.from({ length: 1000 }, (_, i) => 1 + (i % 10) * 0.01);
    const { s, median, cover } = stats([...xs, 2000, 1e9, NaN, -5]);
    expect(median).toBe(bucketOf(1.05));
    expect(cellFor(s, median)).toBeCloseTo(CELL_PER_EXTENT * 1.09, 12);
    expect(cover).toBe(bucketOf(1.09));
    expect(marginFor(s, cover, 100)).toBeCloseTo(MARGIN_SLACK * 0.5 * 1.09, 12);
    expect(marginFor(s, cover, 0.1)).toBe(0.1); // at most one cell
  });

  it('fast movers count toward the median but not toward the cover (the margin)', () => {
    // The bullets scene: 2 % of the spheres sliced along paths of 100 lengths grew every static box by a cell.
    const s = createSizeStats();
    for (let i = 0; i < 980; i++) {
      s.input[0] = 1 + (i % 10) * 0.01;
      sizeStatsAdd(s);
    }
    for (let i = 0; i < 20; i++) {
      s.input[0] = 100;
      sizeStatsAddFast(s);
    }
    const b = new Int32Array(2);
    sizeStatsBuckets(s, b);
    expect(b[B_MEDIAN]).toBe(bucketOf(1.05));
    expect(b[B_COVER]).toBe(bucketOf(1.09));
    expect(stats([...Array.from({ length: 980 }, () => 1), ...Array.from({ length: 20 }, () => 100)]).cover).toBe(bucketOf(100));
    // Only fast movers: they are the cover.
    sizeStatsClear(s);
    s.input[0] = 100;
    sizeStatsAddFast(s);
    sizeStatsBuckets(s, b);
    expect(b[B_COVER]).toBe(bucketOf(100));
  });

  it('clear forgets everything', () => {
    const { s } = stats([1, 2, 3]);
    sizeStatsClear(s);
    const b = new Int32Array(2);
    sizeStatsBuckets(s, b);
    expect(b[B_MEDIAN]).toBe(-1);
    expect(s.total).toBe(0);
  });
});
