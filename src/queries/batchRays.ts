/**
 * The ray batch's walk of the queries' dense grid (`castRays`, batch.ts): first one pass over the
 * batch that checks its values and normalises every direction with its inverse ({@link prepareRays}:
 * no dependence between rays, so the divisions of successive rays overlap; 0.79 of the batch's time
 * with the normalisation inside the walk), then every ray, in the order given, through one function
 * whose per-call constants (the grid's arrays and frame, the body flags, the stamps, the output
 * columns) are read once per call and whose per-ray work — the slab constants, the clipping to the
 * table, the 3D-DDA (Amanatides & Woo 1987) and the entries' slab tests (Kay & Kajiya 1986) — runs
 * in local variables, with no call per ray, per cell or per entry, and no branch on the direction's
 * signs: the faces, the clip's order, the DDA's next axis and its face offsets are picked by index
 * (0.93 and 0.94 of the batch's time in two steps). A body whose bounds pass goes to
 * candidate.ts (`testRayCandidate`: once per ray, the filter, then the exact cast by that file's
 * copies of the geometry API's ray casts where they decide, else by the geometry API itself: the
 * same answer to the bit; the copies took 0.93 of the batch's time through the geometry API).
 *
 * The entries' slab test decides `max(near times, 0) <= min(far times, cap)` by comparing every
 * near time with every far time (sixteen comparisons combined with `&`, no branch): the same
 * verdict as `Math.max` / `Math.min` for every input (a NaN fails both ways; −0 and 0 compare
 * equal), at a third of the cost — measured on random boxes in a plain loop, 4.9 ns an entry
 * against 15 ns (V8 compiles `Math.max` / `Math.min` of doubles to branches on the data, which a
 * random scene mispredicts), and 0.56 of the batch's time before it at 10,000 spheres, against
 * 0.76 without it (bench/compareQueries.ts, kind `batch`, against the batch of single walks); see
 * docs/internals.md (the performance idiom, unpredictable tests).
 *
 * Bit-identical to `castRay`: each step is the arithmetic of the single query's walk, operation for
 * operation and in the same order — `unitDirection` (queryArgs.ts), `prepare`, `testCells` and
 * `walkRay` (sweepDense.ts), `denseRayBegin` / `denseRayNext` (src/grid/denseWalk.ts, the clip by
 * `slabClip`, src/math/slab.ts) — so the same cells are visited in the same order, the same entries
 * pass with the same caps, and the same candidates are cast (test/queries/queries.batch.test.ts
 * checks every ray of random batches against `castRay`). A ray that the single query would walk by
 * the thick walk (an origin beyond ~50× the table's coordinates: see sweepDense.ts) takes the
 * single query's own `sweep`. World frame, length units; times are distances along the unit
 * direction. No allocation.
 * @module
 */
import * as denseModule from '../grid/dense.js';
import * as internals from '../physics/internal.js';
import type { Physics } from '../physics/physicsTypes.js';
import type { BatchHits } from './hitLists.js';
import * as candidate from './candidate.js';
import * as queryGridModule from './queryGrid.js';
import * as slots from './queryState.js';
import type { QueryState } from './queryState.js';
import * as sweepModule from './sweep.js';

// Imported bindings read once into module constants: see docs/internals.md (imports on hot paths).
const { DG_INV, DG_PAD, DG_SIDE, DG_X0 } = denseModule;
const { internalsOf } = internals;
const { testRayCandidate } = candidate;
const { nextStamp } = queryGridModule;
const { BH_DIST, BH_N, QI_D, QI_DIST, QI_O, QI_RADIUS } = slots;
const { sweep } = sweepModule;

/** Unit direction components below this are written as 0 (as queryArgs.ts `unitDirection`). */
const TINY = 1e-300;

/**
 * Scratch of one call (each written before it is read; see docs/internals.md, scratch): the three
 * magnitudes whose largest {@link prepareRays} picks, the two times of a table clip, and the
 * 3D-DDA's per-axis state — next face time, cell coordinate, step (±1), face offset (1 moving up,
 * else 0), cells along the axis, cell index stride, the table corner, the origin and 1 / direction —
 * indexed by the axis that the walk picks, so that picking it is arithmetic, not a branch.
 */
const MAX3 = new Float64Array(3);
const CLIP = new Float64Array(2);
const DT = new Float64Array(3), DF = new Float64Array(9);
const DC = new Int32Array(3), DS = new Int32Array(3), DP = new Int32Array(3), DN = new Int32Array(3), DK = new Int32Array(3);

/**
 * The values of a ray batch checked in one pass, and each ray's unit direction (queryArgs.ts
 * `unitDirection`, operation for operation; the largest of the three magnitudes picked by index,
 * which is `Math.max` for non-negative numbers) and its inverse (0 on a still axis) written to
 * `s.batchRays[6i .. 6i + 6)` (reserved for `n` rays): one loop with no dependence between rays, so
 * that the divisions and square roots of successive rays overlap. Returns false when an origin or a
 * direction component is not finite, a direction is zero, or a max distance is not finite or
 * negative (the caller then throws through `readBatch`, which names the first such entry).
 */
export function prepareRays(s: QueryState, n: number, origins: Float64Array, directions: Float64Array, maxDistances: Float64Array): boolean {
  const r = s.batchRays;
  let ok = 1;
  for (let i = 0; i < n; i++) {
    const ox = origins[3 * i], oy = origins[3 * i + 1], oz = origins[3 * i + 2];
    const sx = directions[3 * i], sy = directions[3 * i + 1], sz = directions[3 * i + 2];
    const L = maxDistances[i];
    // x − x is 0 for a finite x, NaN otherwise.
    const finite = ox - ox + (oy - oy) + (oz - oz) + (sx - sx) + (sy - sy) + (sz - sz) + (L - L);
    ok &= +(finite === 0) & +(L >= 0) & (+(sx !== 0) | +(sy !== 0) | +(sz !== 0));
    const ax = Math.abs(sx), ay = Math.abs(sy), az = Math.abs(sz);
    MAX3[0] = ax;
    MAX3[1] = ay;
    MAX3[2] = az;
    const xy = +(ay > ax);
    const m = MAX3[xy + +(az > MAX3[xy]) * (2 - xy)];
    const ux = sx / m, uy = sy / m, uz = sz / m;
    const inv = 1 / Math.sqrt(ux * ux + uy * uy + uz * uz);
    let dx = ux * inv, dy = uy * inv, dz = uz * inv;
    if (Math.abs(dx) < TINY) dx = 0;
    if (Math.abs(dy) < TINY) dy = 0;
    if (Math.abs(dz) < TINY) dz = 0;
    r[6 * i] = dx;
    r[6 * i + 1] = dy;
    r[6 * i + 2] = dz;
    r[6 * i + 3] = dx === 0 ? 0 : 1 / dx;
    r[6 * i + 4] = dy === 0 ? 0 : 1 / dy;
    r[6 * i + 5] = dz === 0 ? 0 : 1 / dz;
  }
  return ok !== 0;
}

/**
 * Casts the rays `order[0 .. n)` (indices into the columns) through the dense grid of `s` (usable,
 * up to date, `s.filter` read): ray i from `origins[3i ..]` along the unit direction that
 * {@link prepareRays} wrote for it, for `maxDistances[i]`; writes its closest hit (or a miss) to
 * slot i of `out` (grown). Returns the number of rays that hit.
 */
export function castRaysDense(physics: Physics, s: QueryState, n: number, order: Int32Array, origins: Float64Array, maxDistances: Float64Array, out: BatchHits): number {
  const g = s.dense;
  const f = g.frame;
  const nx = g.nx, ny = g.ny, nz = g.nz;
  const x0 = f[DG_X0], y0 = f[DG_X0 + 1], z0 = f[DG_X0 + 2];
  const x1 = f[DG_X0 + 3], y1 = f[DG_X0 + 4], z1 = f[DG_X0 + 5];
  const side = f[DG_SIDE], invSide = f[DG_INV], pad = f[DG_PAD];
  const eb = g.bounds, items = g.entryItems, ids = g.ids, run = g.cellRun;
  const big = nx * ny * nz;
  const bigFrom = run[2 * big], bigTo = run[2 * big + 1];
  const args = s.args, best = s.best, bestEntity = s.bestEntity, ray = s.ray, dirs = s.batchRays;
  const entity = out.entity, distance = out.distance, normal = out.normal;
  // beginCandidates (candidate.ts), the parts that do not change from ray to ray.
  s.flags = internalsOf(physics).flags;
  s.every = false;
  s.hits.count = 0;
  ray.radius = 0;
  args[QI_RADIUS] = 0;
  // The walk's constants per axis (see DF, DN).
  DF[0] = x0;
  DF[1] = y0;
  DF[2] = z0;
  DN[0] = nx;
  DN[1] = ny;
  DN[2] = nz;
  let hits = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    const ox = origins[3 * i], oy = origins[3 * i + 1], oz = origins[3 * i + 2];
    const L = maxDistances[i];
    const dx = dirs[6 * i], dy = dirs[6 * i + 1], dz = dirs[6 * i + 2];
    const ix = dirs[6 * i + 3], iy = dirs[6 * i + 4], iz = dirs[6 * i + 5];
    // The query's arguments (beginCandidates): read by testRayCandidate, which loads the ray's
    // centre and motion for the geometry API only where its own casts do not decide.
    args[QI_O] = ox;
    args[QI_O + 1] = oy;
    args[QI_O + 2] = oz;
    args[QI_D] = dx;
    args[QI_D + 1] = dy;
    args[QI_D + 2] = dz;
    args[QI_DIST] = L;
    nextStamp(s);
    // A miss leaves entity 0, distance Infinity and a zero normal: written out as they are.
    best[BH_DIST] = Infinity;
    best[BH_N] = best[BH_N + 1] = best[BH_N + 2] = 0;
    bestEntity[0] = 0;
    // 1e-12 · max(|o|) <= pad, as one test per axis (no branch on which is largest).
    const near = +(1e-12 * Math.abs(ox) <= pad) & +(1e-12 * Math.abs(oy) <= pad) & +(1e-12 * Math.abs(oz) <= pad);
    if (nx === 0) {
      // An empty grid: nothing to hit.
    } else if (near === 0) {
      // The single query's thick walk (sweepDense.ts): rare, through the single query itself.
      sweep(physics, s, false);
    } else {
      // sweepDense.ts `prepare` for radius 0: the near and far faces by the direction's signs (as
      // integers, no branch); on a still axis the radius signed toward the near face and the still terms.
      const still = ix === 0 || iy === 0 || iz === 0;
      const gx = 3 * +(dx < 0), gy = 3 * +(dy < 0), gz = 3 * +(dz < 0);
      const nfx = gx, ffx = 3 - gx;
      const nfy = 1 + gy, ffy = 4 - gy;
      const nfz = 2 + gz, ffz = 5 - gz;
      let rx = 0, ry = 0, rz = 0, ax = 0, ay = 0, az = 0, bx = 0, by = 0, bz = 0;
      if (still) {
        rx = dx >= 0 ? 0 : -0;
        ry = dy >= 0 ? 0 : -0;
        rz = dz >= 0 ? 0 : -0;
        ax = dx === 0 ? -Infinity : 0;
        ay = dy === 0 ? -Infinity : 0;
        az = dz === 0 ? -Infinity : 0;
        bx = dx === 0 ? Infinity : 0;
        by = dy === 0 ? Infinity : 0;
        bz = dz === 0 ? Infinity : 0;
      }
      // The big run first (sweepDense.ts `testCells(big, big)`).
      let cap = best[BH_DIST];
      for (let e = bigFrom; e < bigTo; e++) {
        const o = 6 * items[e];
        const pn = (eb[o + nfx] - rx - ox) * ix + ax, qn = (eb[o + nfy] - ry - oy) * iy + ay, rn = (eb[o + nfz] - rz - oz) * iz + az;
        const pf = (eb[o + ffx] + rx - ox) * ix + bx, qf = (eb[o + ffy] + ry - oy) * iy + by, rf = (eb[o + ffz] + rz - oz) * iz + bz;
        // The slab test max(pn, qn, rn, 0) <= min(pf, qf, rf, cap) as every near time against every far
        // time, without branches (see the module notes).
        const pass = +(pn <= pf) & +(pn <= qf) & +(pn <= rf) & +(pn <= cap) & +(qn <= pf) & +(qn <= qf) & +(qn <= rf) & +(qn <= cap) &
          +(rn <= pf) & +(rn <= qf) & +(rn <= rf) & +(rn <= cap) & +(0 <= pf) & +(0 <= qf) & +(0 <= rf) & +(0 <= cap);
        if (pass !== 0 && (!still || ((ix !== 0 || (eb[o] - 0 <= ox && ox <= eb[o + 3] + 0)) && (iy !== 0 || (eb[o + 1] - 0 <= oy && oy <= eb[o + 4] + 0)) && (iz !== 0 || (eb[o + 2] - 0 <= oz && oz <= eb[o + 5] + 0))))) {
          testRayCandidate(physics, s, ids[items[e]]);
          cap = best[BH_DIST];
        }
      }
      // denseRayBegin: the segment [0, L] clipped to the table (slabClip, grow 0), copied inline per
      // axis: the batch through the shared walk's calls took 1/0.76 of this (docs/internals.md, rule 4).
      // Each axis's two times ordered by index (the swap's result, without a branch on the direction's sign).
      let t0 = 0, t1 = L, ok = true;
      // x
      if (dx === 0) ok = ox >= x0 - 0 && ox <= x1 + 0;
      else {
        CLIP[0] = (x0 - 0 - ox) * ix;
        CLIP[1] = (x1 + 0 - ox) * ix;
        const sw = +(CLIP[0] > CLIP[1]);
        const ta = CLIP[sw], tb = CLIP[1 - sw];
        if (ta > t0) t0 = ta;
        if (tb < t1) t1 = tb;
        ok = t0 <= t1;
      }
      if (ok) {
        if (dy === 0) ok = oy >= y0 - 0 && oy <= y1 + 0;
        else {
          CLIP[0] = (y0 - 0 - oy) * iy;
          CLIP[1] = (y1 + 0 - oy) * iy;
          const sw = +(CLIP[0] > CLIP[1]);
          const ta = CLIP[sw], tb = CLIP[1 - sw];
          if (ta > t0) t0 = ta;
          if (tb < t1) t1 = tb;
          ok = t0 <= t1;
        }
      }
      if (ok) {
        if (dz === 0) ok = oz >= z0 - 0 && oz <= z1 + 0;
        else {
          CLIP[0] = (z0 - 0 - oz) * iz;
          CLIP[1] = (z1 + 0 - oz) * iz;
          const sw = +(CLIP[0] > CLIP[1]);
          const ta = CLIP[sw], tb = CLIP[1 - sw];
          if (ta > t0) t0 = ta;
          if (tb < t1) t1 = tb;
          ok = t0 <= t1;
        }
      }
      if (ok) {
        // The start cell (clamped: rounding may put the clipped start a hair outside the table) and
        // the times of the next faces (denseWalk.ts `faceTime`: x0 + (cx + 1) · side moving up, x0 +
        // cx · side moving down; a still axis never steps, its time stays Infinity).
        const cx = Math.min(nx - 1, Math.max(0, Math.floor((ox + dx * t0 - x0) * invSide)));
        const cy = Math.min(ny - 1, Math.max(0, Math.floor((oy + dy * t0 - y0) * invSide)));
        const cz = Math.min(nz - 1, Math.max(0, Math.floor((oz + dz * t0 - z0) * invSide)));
        const px = +(dx > 0), py = +(dy > 0), pz = +(dz > 0);
        DT[0] = dx !== 0 ? (x0 + (cx + px) * side - ox) * ix : Infinity;
        DT[1] = dy !== 0 ? (y0 + (cy + py) * side - oy) * iy : Infinity;
        DT[2] = dz !== 0 ? (z0 + (cz + pz) * side - oz) * iz : Infinity;
        DC[0] = cx;
        DC[1] = cy;
        DC[2] = cz;
        DS[0] = 2 * px - 1;
        DS[1] = 2 * py - 1;
        DS[2] = 2 * pz - 1;
        DP[0] = px;
        DP[1] = py;
        DP[2] = pz;
        DK[0] = 2 * px - 1;
        DK[1] = (2 * py - 1) * nx;
        DK[2] = (2 * pz - 1) * nx * ny;
        DF[3] = ox;
        DF[4] = oy;
        DF[5] = oz;
        DF[6] = ix;
        DF[7] = iy;
        DF[8] = iz;
        let cell = cx + nx * (cy + ny * cz);
        const end = t1;
        let entry = t0;
        for (;;) {
          // walkRay: stop once the cell starts beyond the best hit.
          if (entry > best[BH_DIST]) break;
          // testCells(cell, cell).
          cap = best[BH_DIST];
          const to = run[2 * cell + 1];
          if (!still) {
            // No still axis (the rule): the same test without the radius (±0) and still (0) terms,
            // which change nothing but the sign of a zero time, and a zero compares as a zero; and
            // without 0 <= cap (true: cap is Infinity or a hit's distance, toi · L >= 0).
            for (let e = run[2 * cell]; e < to; e++) {
              const o = 6 * items[e];
              const pn = (eb[o + nfx] - ox) * ix, qn = (eb[o + nfy] - oy) * iy, rn = (eb[o + nfz] - oz) * iz;
              const pf = (eb[o + ffx] - ox) * ix, qf = (eb[o + ffy] - oy) * iy, rf = (eb[o + ffz] - oz) * iz;
              const pass = +(pn <= pf) & +(pn <= qf) & +(pn <= rf) & +(pn <= cap) & +(qn <= pf) & +(qn <= qf) & +(qn <= rf) & +(qn <= cap) &
                +(rn <= pf) & +(rn <= qf) & +(rn <= rf) & +(rn <= cap) & +(0 <= pf) & +(0 <= qf) & +(0 <= rf);
              if (pass !== 0) {
                testRayCandidate(physics, s, ids[items[e]]);
                cap = best[BH_DIST];
              }
            }
          } else for (let e = run[2 * cell]; e < to; e++) {
            const o = 6 * items[e];
            const pn = (eb[o + nfx] - rx - ox) * ix + ax, qn = (eb[o + nfy] - ry - oy) * iy + ay, rn = (eb[o + nfz] - rz - oz) * iz + az;
            const pf = (eb[o + ffx] + rx - ox) * ix + bx, qf = (eb[o + ffy] + ry - oy) * iy + by, rf = (eb[o + ffz] + rz - oz) * iz + bz;
            // The slab test max(pn, qn, rn, 0) <= min(pf, qf, rf, cap) as every near time against every far
            // time, without branches (see the module notes).
            const pass = +(pn <= pf) & +(pn <= qf) & +(pn <= rf) & +(pn <= cap) & +(qn <= pf) & +(qn <= qf) & +(qn <= rf) & +(qn <= cap) &
              +(rn <= pf) & +(rn <= qf) & +(rn <= rf) & +(rn <= cap) & +(0 <= pf) & +(0 <= qf) & +(0 <= rf) & +(0 <= cap);
            if (pass !== 0 && ((ix !== 0 || (eb[o] - 0 <= ox && ox <= eb[o + 3] + 0)) && (iy !== 0 || (eb[o + 1] - 0 <= oy && oy <= eb[o + 4] + 0)) && (iz !== 0 || (eb[o + 2] - 0 <= oz && oz <= eb[o + 5] + 0)))) {
              testRayCandidate(physics, s, ids[items[e]]);
              cap = best[BH_DIST];
            }
          }
          // denseRayNext: the axis of the nearest face (ties: x, then y, then z), picked by index.
          const xy = +(DT[1] < DT[0]);
          const a = xy + +(DT[2] < DT[xy]) * (2 - xy);
          const t = DT[a];
          if (!(t <= end)) break;
          const ca = DC[a] + DS[a];
          if (ca < 0 || ca >= DN[a]) break;
          DC[a] = ca;
          cell += DK[a];
          DT[a] = (DF[a] + (ca + DP[a]) * side - DF[3 + a]) * DF[6 + a];
          if (t > entry) entry = t;
        }
      }
    }
    hits += +(best[BH_DIST] !== Infinity);
    entity[i] = bestEntity[0];
    distance[i] = best[BH_DIST];
    normal[3 * i] = best[BH_N];
    normal[3 * i + 1] = best[BH_N + 1];
    normal[3 * i + 2] = best[BH_N + 2];
  }
  return hits;
}
