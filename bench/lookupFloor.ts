/**
 * The floor of the static lookups of the arena's tick (docs/benchmarks.md, the 1,000,000-sphere
 * tick): plain loops over the arena's spheres on the real dense cell table of the static boxes
 * (src/grid/cellTable.ts, built by a few ticks), each in process CPU time, median of 8 rounds:
 *
 * - `cell`: each centre's table cell (the sphere fields read in id order);
 * - `start`: also the cell's entry range;
 * - `entries`: also every entry's box bounds, the six comparisons against the sphere's bounds;
 * - `entries, read ahead`: the same, each block of 256 ids first reading its cells' starts and
 *   first entries (as findPairs.ts `touchTable`);
 * - `entries, cell order`: the same as `entries`, the spheres visited in the order of their cell
 *   (sorted beforehand, not counted).
 *
 *   npx tsx bench/lookupFloor.ts [--sizes 100000,1000000]
 */
import { buildArena } from '../src/scenes/buildArena.js';
import { internalsOf } from '../src/physics/internal.js';
import { CT_INV } from '../src/grid/cellTable.js';
import { median } from './common.js';
import { argValue } from './sideBySide.js';

const sizes = (argValue(process.argv.slice(2), '--sizes') ?? '100000,1000000').split(',').map(Number);

for (const size of sizes) {
  const arena = buildArena({ spheres: size, seed: 1 });
  for (let i = 0; i < 3; i++) arena.tick();
  const internal = internalsOf(arena.physics);
  const t = internal.broadphase.staticCells;
  if (!t.usable) throw new Error('no dense table');
  const { flags, maxEid } = internal;
  const tb = internal.broadphase.staticGrid.bounds;
  const { x: px, y: py, z: pz } = arena.physics.components.Position;
  const rad = arena.physics.components.Sphere.radius;
  const tinv = t.frame[CT_INV], tox = t.ox, toy = t.oy, toz = t.oz, tnx = t.nx, tny = t.ny, tnz = t.nz;
  const ts = t.start, ti = t.items;
  /** The sphere's table cell, or −1 outside the table. */
  const cellOf = (e: number): number => {
    const rx = Math.floor(px[e] * tinv) - tox, ry = Math.floor(py[e] * tinv) - toy, rz = Math.floor(pz[e] * tinv) - toz;
    return rx >= 0 && rx < tnx && ry >= 0 && ry < tny && rz >= 0 && rz < tnz ? (rx * tny + ry) * tnz + rz : -1;
  };
  const visit = (e: number): number => {
    const c = cellOf(e);
    if (c < 0) return 0;
    const x = px[e], y = py[e], z = pz[e], r = rad[e];
    let s = 0;
    const end = ts[c + 1];
    for (let k = ts[c]; k < end; k++) {
      const o = 6 * ti[k];
      s += (+(tb[o] <= x + r) & +(tb[o + 3] >= x - r)) & (+(tb[o + 1] <= y + r) & +(tb[o + 4] >= y - r)) & (+(tb[o + 2] <= z + r) & +(tb[o + 5] >= z - r));
    }
    return s;
  };
  const ahead = (from: number, to: number): number => {
    let s = 0;
    for (let e = from; e < to; e++) {
      if ((flags[e] & 1) === 0) continue;
      const c = cellOf(e);
      if (c >= 0) s += ti[ts[c]];
    }
    return s;
  };
  const spheres: number[] = [];
  for (let e = 1; e <= maxEid; e++) if ((flags[e] & 1) !== 0) spheres.push(e);
  const byCell = Int32Array.from(spheres.map((e) => [cellOf(e), e]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, e]) => e));
  const loops: [string, () => number][] = [
    ['cell', () => { let s = 0; for (let e = 1; e <= maxEid; e++) if ((flags[e] & 1) !== 0) s += cellOf(e) + rad[e]; return s; }],
    ['start', () => { let s = 0; for (let e = 1; e <= maxEid; e++) { if ((flags[e] & 1) === 0) continue; const c = cellOf(e); if (c >= 0) s += ts[c + 1] - ts[c] + rad[e]; } return s; }],
    ['entries', () => { let s = 0; for (let e = 1; e <= maxEid; e++) if ((flags[e] & 1) !== 0) s += visit(e); return s; }],
    ['entries, read ahead', () => {
      let s = 0;
      for (let e = 1; e <= maxEid; e++) {
        if ((e & 255) === 1) s += ahead(e, Math.min(e + 256, maxEid + 1));
        if ((flags[e] & 1) !== 0) s += visit(e);
      }
      return s;
    }],
    ['entries, cell order', () => { let s = 0; for (let j = 0; j < byCell.length; j++) s += visit(byCell[j]); return s; }],
  ];
  const ms: number[][] = loops.map(() => []);
  let sink = 0;
  for (let round = 0; round < 8; round++) {
    loops.forEach(([, run], i) => {
      const c0 = process.cpuUsage();
      sink += run();
      const c = process.cpuUsage(c0);
      ms[i].push((c.user + c.system) / 1000);
    });
  }
  console.log(`${size} spheres: ` + loops.map(([name], i) => `${name} ${median(ms[i]).toFixed(2)} ms`).join(', ') + ` (${sink > 0 ? 'ok' : '-'})`);
}
