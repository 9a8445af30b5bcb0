/**
 * The broadphase of one tick (its input was validated, and the sizes gathered, by the scan stage
 * before gravity, scanBodies.ts): choose the cell size, (re)bucket the static boxes when needed,
 * bucket the moving bodies, and list candidate pairs sorted by (a, b), with `a` the sphere of a
 * sphere pair (the lower id of two spheres) and the lower id of a box–box pair (listed when at least
 * one of the two boxes moves, see `boxPairs.ts`). Pure over the physics instance's typed arrays; no
 * bitecs calls. World frame, length units, seconds.
 *
 * - Bounds: with continuous contacts on, a moving body's bounds cover its motion over the tick
 *   (velocity × dt); otherwise its current pose (the dynamic grid's items: see `loadBody`). A body
 *   whose motion is longer than a cell (and than itself) is split into time slices
 *   (`src/grid/slices.ts`), at most about as many as there are bodies: each slice queries and
 *   is bucketed on its own, and two slices pair only when their times meet, so a fast mover costs
 *   what its path crosses.
 * - Boxes without Velocity are static: bucketed in their own grid, re-bucketed only when one of them
 *   changes (`staticBoxes.ts`).
 * - Cell size and margin follow the scene (`src/grid/policy.ts`), unless `cellSize` is given.
 * - Work counters (`broadphase.work`, slots `WORK_*` of broadphaseState.ts) count what the tick did.
 * @module
 */
import { CELL_LIMIT, hashCell, WHOLE_TICK } from '../grid/cells.js';
import { CT_INV } from '../grid/cellTable.js';
import { gridBuild, gridClear, gridInsertSlice, gridSetCellSize, gridSetMargin, WORK_CELLS, WORK_ITEMS } from '../grid/grid.js';
import {
  B_COVER, B_MEDIAN, bucketOfBits, CELL_PER_EXTENT, cellFor, DRIFT_BUCKETS, marginFor, sizeStatsBuckets,
} from '../grid/policy.js';
import { gridQuerySlice, queryOutReserve } from '../grid/query.js';
import { SLICE_BODY_SLOTS, sliceBounds, sliceDepth, S_CX, S_HX, S_MX, S_SIDE } from '../grid/slices.js';
import { sortUniqueIds } from '../grid/sortIds.js';
import { BOUNDS_PAD, boxBounds } from '../physics/bodyReads.js';
import { budgetError, emitBoxPairs, mergeBoxPairs } from './boxPairs.js';
import { contactListReserve, pairListPush } from '../physics/idLists.js';
import { STATIC_SHAPE, testCandidate, testSphereStatic, testSphereStaticSwept } from './pairTest.js';
import { rebuildStatic } from './staticBoxes.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import { internalsOf } from '../physics/internal.js';
import { type BroadphaseState, WORK_CANDIDATES, WORK_CELLS_VISITED, WORK_ITEMS_VISITED, WORK_QUERIES, WORK_SLICES } from './broadphaseState.js';

const { SPHERE, BOX, MOVING, RESPONSE } = BodyFlags;

/** Scratch bounds of the current query or item. */
const q = new Float64Array(6);
/** `loadBody`'s scratch: a box's unswept world bounds (per call). */
const bounds = new Float64Array(6);
/** Scratch: the body being sliced (per body: `loadBody` writes it, the slicing reads it). */
const body = new Float64Array(SLICE_BODY_SLOTS);

/** `withinDistance`'s range of accurate squares (src/geometry/kernels/scalar.ts), for the inline rejection. */
const SQ_MIN = 1e-280;
const SQ_MAX = 1e280;

/** Most slices (items, and queries) per tick beyond which moving bodies are no longer split. */
const SLICE_BUDGET = 1 << 20;

/**
 * Applies the cell size and margin policy (src/grid/policy.ts). A steady tick compares bucket
 * indices only (integers: no heap number is made in this once-per-tick code); a tick that
 * re-buckets the static boxes anyway (bodies added or removed, a static box changed, a snapshot
 * restored that held no margin or a re-pick due) re-reads the current cell side, so the choice
 * depends on the state alone. The margin and `marginBucket` are the policy's memory between
 * re-picks: a snapshot holds them (snapshot/format.ts), and a restore sets them with `rebucketStatic`.
 */
function updatePolicy(physics: Physics): void {
  const bp = internalsOf(physics).broadphase;
  const { sizes, buckets, staticGrid, dynamicGrid } = bp;
  sizeStatsBuckets(sizes, buckets);
  const median = buckets[B_MEDIAN];
  const cover = buckets[B_COVER];
  let dirty = bp.staticDirty;
  if (dirty) bp.cellBucket = cellBucketOf(bp);
  if (median >= 0) {
    const cell = bp.cellBucket;
    if (!bp.cellSizeFixed && (cell < 0 || median > cell + DRIFT_BUCKETS || median < cell - DRIFT_BUCKETS)) {
      bp.cellSize = cellFor(sizes, median);
      bp.cellBucket = median;
      dirty = true;
    }
    if (dirty || cover > bp.marginBucket || cover < bp.marginBucket - DRIFT_BUCKETS) {
      gridSetMargin(staticGrid, marginFor(sizes, cover, bp.cellSize || 1));
      bp.marginBucket = cover;
      dirty = true;
    }
  }
  if (!dirty) return;
  gridSetCellSize(staticGrid, bp.cellSize || 1);
  gridSetCellSize(dynamicGrid, bp.cellSize || 1);
  bp.staticDirty = true;
}

/** `cellBucketOf`'s scratch: the extent the cell side was chosen for, and its words (per call). */
const cellExtent = new Float64Array(1);
const cellExtentBits = new Uint32Array(cellExtent.buffer);

/**
 * The size bucket of the cell side `bp.cellSize` (−1 for 0, not chosen): the bucket the policy
 * chose it for, `cellFor` being `CELL_PER_EXTENT` × an extent of that bucket. 3 × an extent,
 * divided by 3, stays in the extent's bucket: the buckets' ends (2^k × 1, 1.25, 1.5, 1.75) go there
 * and back exactly and rounding is monotonic (also checked on every value within 3,000 ulps of each
 * end, 2^-80 to 2^80). Through a typed slot (`bucketOf` with a double argument allocated a heap
 * number per call: measured in a restore loop).
 */
function cellBucketOf(bp: BroadphaseState): number {
  if (!(bp.cellSize > 0)) return -1;
  cellExtent[0] = bp.cellSize / CELL_PER_EXTENT;
  return bucketOfBits(cellExtentBits);
}

/**
 * Re-buckets the static boxes as a tick that re-buckets them does, with the current cell size and
 * static margin and without choosing them again: the grids take the cell side, `cellBucket` is
 * read from it, the static grid is rebuilt. For a snapshot restore (snapshot/reader.ts), which set
 * the cell size and margin the saving instance held.
 */
export function rebucketStatic(physics: Physics): void {
  const bp = internalsOf(physics).broadphase;
  bp.cellBucket = cellBucketOf(bp);
  // Written only when it changes (a double stored in a field may allocate: a restore of the same
  // frame, again and again in a rollback loop, allocates nothing).
  const side = bp.cellSize || 1;
  if (bp.staticGrid.cellSize !== side) gridSetCellSize(bp.staticGrid, side);
  if (bp.dynamicGrid.cellSize !== side) gridSetCellSize(bp.dynamicGrid, side);
  rebuildStatic(physics);
}

/**
 * Loads body `eid` into `b` (a slice body, see src/grid/slices.ts): centre, padded half sizes (as
 * `bodyReads.ts` pads bounds), motion over the tick (0 unless moving, with continuous contacts on
 * or some body with Response: the response always sweeps and finds its kinematic and dynamic
 * partners here), and the slice length: one cell, or the body's own size when larger (a slice
 * shorter than the body would only repeat it). Spheres read their fields; boxes go through their
 * unswept world bounds.
 */
function loadBody(physics: Physics, eid: number, f: number, b: Float64Array): void {
  const { Position: p, Velocity: v, Sphere: s } = physics.components;
  const swept = physics.continuous || internalsOf(physics).responseCount !== 0;
  const t = (f & MOVING) !== 0 && swept ? physics.dt : 0;
  const mx = t === 0 ? 0 : v.x[eid] * t, my = t === 0 ? 0 : v.y[eid] * t, mz = t === 0 ? 0 : v.z[eid] * t;
  b[S_MX] = mx;
  b[S_MX + 1] = my;
  b[S_MX + 2] = mz;
  const cell = internalsOf(physics).broadphase.dynamicGrid.cellSize;
  if ((f & SPHERE) !== 0) {
    const x = p.x[eid], y = p.y[eid], z = p.z[eid];
    // A dynamic sphere (Response) may turn within the tick: its item is the ball its speed reaches.
    const r = s.radius[eid] + ((f & RESPONSE) !== 0 && t !== 0 ? Math.abs(mx) + Math.abs(my) + Math.abs(mz) : 0);
    if (r !== s.radius[eid]) b[S_MX] = b[S_MX + 1] = b[S_MX + 2] = 0;
    const h = r + BOUNDS_PAD * (1 + Math.abs(x) + Math.abs(y) + Math.abs(z) + 3 * r + Math.abs(mx) + Math.abs(my) + Math.abs(mz));
    b[S_CX] = x;
    b[S_CX + 1] = y;
    b[S_CX + 2] = z;
    b[S_HX] = b[S_HX + 1] = b[S_HX + 2] = h;
    b[S_SIDE] = 2 * h > cell ? 2 * h : cell;
    return;
  }
  boxBounds(physics, eid, f, false, bounds, 0);
  const pad = BOUNDS_PAD * (Math.abs(mx) + Math.abs(my) + Math.abs(mz));
  let side = cell;
  for (let a = 0; a < 3; a++) {
    const h = (bounds[a + 3] - bounds[a]) * 0.5;
    b[S_CX + a] = bounds[a] + h;
    b[S_HX + a] = h * (1 + 1e-15) + pad;
    if (2 * h > side) side = 2 * h;
  }
  b[S_SIDE] = side;
}

/**
 * Adds moving boxes to the dynamic grid, and spheres when some sphere may collide with another
 * sphere (sliced); the caller builds it (nothing follows the loop: docs/internals.md, rule 3).
 */
function rebuildDynamic(physics: Physics, sphereSphere: boolean): void {
  const internal = internalsOf(physics);
  const { flags, maxEid } = internal;
  const { dynamicGrid, work } = internal.broadphase;
  gridClear(dynamicGrid);
  if (!sphereSphere && internal.broadphase.movingBoxes === 0) return;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & SPHERE) !== 0 ? !sphereSphere : (f & (BOX | MOVING)) !== (BOX | MOVING)) continue;
    loadBody(physics, eid, f, body);
    let d = sliceDepth(body, internal.broadphase.sliceCap);
    if (d > 0 && work[WORK_SLICES] + (1 << d) > SLICE_BUDGET) d = 0;
    const n = 1 << d;
    for (let j = 0; j < n; j++) {
      sliceBounds(body, d, j, q, 0);
      gridInsertSlice(dynamicGrid, eid, q, 0, d === 0 ? WHOLE_TICK : n + j);
    }
    work[WORK_SLICES] += n;
  }
}

/** Appends the pairs of sphere `a` with its candidates that pass the filters. */
function emitPairs(physics: Physics, a: number): void {
  const internal = internalsOf(physics);
  const { flags } = internal;
  const { query, pairs } = internal.broadphase;
  const { group, mask } = physics.components.CollisionFilter;
  const ids = query.ids;
  const n = sortUniqueIds(ids, query.count);
  const budget = internal.broadphase.contactBudget;
  const ga = group[a];
  const ma = mask[a];
  for (let k = 0; k < n; k++) {
    const b = ids[k];
    if (b === a || ((flags[b] & SPHERE) !== 0 && b < a)) continue;
    if ((ga & mask[b]) === 0 || (group[b] & ma) === 0) continue;
    if (pairs.count >= budget) budgetError(physics, a, pairs.count, n - k);
    pairListPush(pairs, a, b);
  }
}

/**
 * Tests the pairs listed from `from` on into `testedContacts` (the queries test the pairs themselves
 * this tick: `BroadphaseState.tested`).
 */
function testEmitted(physics: Physics, from: number): void {
  const bp = internalsOf(physics).broadphase;
  const { pairs, testedContacts: list } = bp;
  contactListReserve(list, list.count + pairs.count - from);
  for (let i = from; i < pairs.count; i++) testCandidate(physics, list, pairs.a[i], pairs.b[i]);
}

/** Queries one sphere's or moving box's candidates, slice by slice of its motion, and emits its pairs. */
function querySliced(physics: Physics, eid: number, f: number, hasDynamic: boolean): void {
  const internal = internalsOf(physics);
  const { staticGrid, dynamicGrid, query, work } = internal.broadphase;
  loadBody(physics, eid, f, body);
  let d = sliceDepth(body, internal.broadphase.sliceCap);
  if (d > 0 && work[WORK_QUERIES] + (1 << d) > SLICE_BUDGET) d = 0;
  const n = 1 << d;
  query.count = 0;
  for (let j = 0; j < n; j++) {
    sliceBounds(body, d, j, q, 0);
    gridQuerySlice(staticGrid, query, q, 0, WHOLE_TICK);
    if (hasDynamic) gridQuerySlice(dynamicGrid, query, q, 0, d === 0 ? WHOLE_TICK : n + j);
  }
  work[WORK_QUERIES] += n;
  if (query.count === 0) return;
  if ((f & SPHERE) !== 0) emitPairs(physics, eid);
  else emitBoxPairs(physics, eid);
}

/** Spheres per block of `touchTable` (their cells' lines stay in the core's cache until visited). */
const TOUCH_BLOCK = 256;
/** `touchTable`'s sink, so its loads are kept. */
const touchSink = new Int32Array(1);

/**
 * Reads the dense table's cell start and first entry of the centres of spheres `from .. to`
 * before they are queried. The query loop waits for each sphere's misses in turn: its branches
 * depend on the loaded cell (entry counts, bounds tests), and a mispredicted branch on a value
 * still in flight discards the work after it, so the next sphere's misses start only then. This
 * short loop's loads do not steer its branches, so those of many spheres are in flight at once
 * (group prefetching: Chen, Ailamaki, Gibbons, Mowry, "Improving hash join performance through
 * prefetching", ICDE 2004). Reads only: no result depends on it. Also reading each first entry's
 * box bounds, or every entry's (a loop over the cell), measured slower (docs/benchmarks.md).
 */
function touchTable(physics: Physics, from: number, to: number): void {
  const internal = internalsOf(physics);
  const table = internal.broadphase.staticCells;
  const flags = internal.flags;
  const { x: px, y: py, z: pz } = physics.components.Position;
  const tinv = table.frame[CT_INV], tox = table.ox, toy = table.oy, toz = table.oz, tnx = table.nx, tny = table.ny, tnz = table.nz;
  const tstart = table.start, titems = table.items;
  let sink = 0;
  for (let eid = from; eid < to; eid++) {
    if ((flags[eid] & SPHERE) === 0) continue;
    const rx = Math.floor(px[eid] * tinv) - tox, ry = Math.floor(py[eid] * tinv) - toy, rz = Math.floor(pz[eid] * tinv) - toz;
    if (!(rx >= 0 && rx < tnx && ry >= 0 && ry < tny && rz >= 0 && rz < tnz)) continue;
    sink += titems[tstart[(rx * tny + ry) * tnz + rz]];
  }
  touchSink[0] = sink;
  internal.broadphase.touched += to - from;
}

/**
 * Every sphere's queries. The common case (a motion no longer than a cell: one slice) is inline:
 * the swept bounds as `sweptSphereBounds` (bodyReads.ts) writes them, one lookup per grid (with only
 * static boxes to meet, the static grid's single cell is looked up here); longer motions go slice
 * by slice. Returns the number of queries.
 */
function querySpheres(physics: Physics): number {
  const internal = internalsOf(physics);
  const { flags, maxEid } = internal;
  const { staticGrid, dynamicGrid, query, work } = internal.broadphase;
  const { Position: p, Velocity: v, Sphere: s } = physics.components;
  const px = p.x, py = p.y, pz = p.z, vx = v.x, vy = v.y, vz = v.z, radius = s.radius;
  const dt = physics.continuous ? physics.dt : 0;
  const side = dynamicGrid.cellSize;
  const hasDynamic = dynamicGrid.count > 0;
  if (query.ids.length < staticGrid.count) queryOutReserve(query, staticGrid.count);
  // Only level 0 of the static grid in use and no dynamic grid: the single-cell lookup below.
  const staticOnly = !hasDynamic && staticGrid.levelMask === 1 && staticGrid.count > 0;
  const m = staticGrid.margin, inv = staticGrid.levelInv[0], tableMask = staticGrid.tableMask;
  const { cellStart, cellItems, bounds: b, ids: staticIds, work: staticWork } = staticGrid;
  // The dense cell table of the static boxes (src/grid/cellTable.ts), when built: tried first.
  const table = internal.broadphase.staticCells;
  const tableOn = staticOnly && table.usable;
  const tinv = table.frame[CT_INV], tox = table.ox, toy = table.oy, toz = table.oz, tnx = table.nx, tny = table.ny, tnz = table.nz;
  const tstart = table.start, titems = table.items;
  // With `tested`, the pairs are tested here (see `BroadphaseState.tested`), those of the dense
  // table's lookups inline against the boxes' recorded shapes.
  const bp = internal.broadphase;
  const tested = bp.tested !== 0;
  const { pairs, testedContacts, staticShapes: shapes, contactBudget: budget } = bp;
  const { group, mask } = physics.components.CollisionFilter;
  let queries = 0;
  bp.touched = 0;
  // Read ahead once the table outgrows the cache (`BroadphaseState.touchBytes`): integers only.
  const touch = tableOn && 4 * (table.nx * table.ny * table.nz + table.start[table.nx * table.ny * table.nz]) > bp.touchBytes;
  for (let eid = 1; eid <= maxEid; eid++) {
    if (touch && (eid & (TOUCH_BLOCK - 1)) === 1) touchTable(physics, eid, Math.min(eid + TOUCH_BLOCK, maxEid + 1));
    const f = flags[eid];
    // Dynamic spheres (Response) find their candidates as they move (src/response).
    if ((f & SPHERE) === 0 || (f & (MOVING | RESPONSE | BOX)) === (MOVING | RESPONSE)) continue;
    const t = (f & MOVING) !== 0 ? dt : 0;
    const x = px[eid], y = py[eid], z = pz[eid], r = radius[eid];
    // Static contacts (t = 0) read no velocity: the motion is 0, as `loadBody` makes it.
    const mx = t === 0 ? 0 : vx[eid] * t, my = t === 0 ? 0 : vy[eid] * t, mz = t === 0 ? 0 : vz[eid] * t;
    const ax = Math.abs(mx), ay = Math.abs(my), az = Math.abs(mz);
    if (!(ax <= side && ay <= side && az <= side)) {
      work[WORK_QUERIES] = queries;
      const from = pairs.count;
      querySliced(physics, eid, f, hasDynamic);
      if (tested) testEmitted(physics, from);
      queries = work[WORK_QUERIES];
      continue;
    }
    // `sweptSphereBounds` inline: calling it from this loop measured 1.08x the broadphase at 10,000 spheres.
    const pad = BOUNDS_PAD * (1 + Math.abs(x) + Math.abs(y) + Math.abs(z) + 3 * r + ax + ay + az);
    // The bounds stay in locals; `q` is written only for the general lookup below. min(m, 0) and
    // max(m, 0) as (m - |m|) / 2 and (m + |m|) / 2, without a branch on the motion's random signs
    // (0.90 of the continuous tick at 10,000 spheres as selects): exact, since |m| <= side here
    // (2m cannot overflow and halving is exact), and a -0 from them vanishes against pad > 0.
    const x0 = x - r + (mx - ax) * 0.5 - pad;
    const y0 = y - r + (my - ay) * 0.5 - pad;
    const z0 = z - r + (mz - az) * 0.5 - pad;
    const x1 = x + r + (mx + ax) * 0.5 + pad;
    const y1 = y + r + (my + ay) * 0.5 + pad;
    const z1 = z + r + (mz + az) * 0.5 + pad;
    // The dense table's cell, as `querySingleCell` (src/grid/query.ts) finds the hashed grid's: the
    // bounds shrunk by the margin (to their midpoint when thinner) in one cell; outside it, no box.
    if (tableOn) {
      let cx = 0, cy = 0, cz = 0, one = false;
      if (t === 0 && r + pad <= m) {
        // At rest within the margin: the centre's cell (a box meeting the bounds reaches within
        // r + pad <= margin of the centre, and the table grew it by a hair more, cellTable.ts).
        cx = Math.floor(x * tinv);
        cy = Math.floor(y * tinv);
        cz = Math.floor(z * tinv);
        one = true;
      } else {
        let u0 = (x0 + m) * tinv, u1 = (x1 - m) * tinv;
        if (u0 > u1) u0 = u1 = (x0 + (x1 - x0) * 0.5) * tinv;
        let v0 = (y0 + m) * tinv, v1 = (y1 - m) * tinv;
        if (v0 > v1) v0 = v1 = (y0 + (y1 - y0) * 0.5) * tinv;
        let w0 = (z0 + m) * tinv, w1 = (z1 - m) * tinv;
        if (w0 > w1) w0 = w1 = (z0 + (z1 - z0) * 0.5) * tinv;
        cx = Math.floor(u0);
        cy = Math.floor(v0);
        cz = Math.floor(w0);
        one = Math.floor(u1) === cx && Math.floor(v1) === cy && Math.floor(w1) === cz;
      }
      if (one) {
        const rx = cx - tox, ry = cy - toy, rz = cz - toz;
        staticWork[WORK_CELLS]++;
        queries++;
        if (!(rx >= 0 && rx < tnx && ry >= 0 && ry < tny && rz >= 0 && rz < tnz)) continue;
        const c = (rx * tny + ry) * tnz + rz;
        const end = tstart[c + 1];
        staticWork[WORK_ITEMS] += end - tstart[c];
        if (tested) {
          // A cell's entries are in ascending slot order, which is id order (staticBoxes.ts), each
          // once: the pairs come out sorted, as `emitPairs` sorts them.
          const ga = group[eid], ma = mask[eid];
          const swept = t !== 0;
          for (let k = tstart[c]; k < end; k++) {
            const slot = titems[k];
            const o = 6 * slot;
            const hit = (+(b[o] <= x1) & +(b[o + 3] >= x0)) & (+(b[o + 1] <= y1) & +(b[o + 4] >= y0)) & (+(b[o + 2] <= z1) & +(b[o + 5] >= z0));
            if (hit === 0) continue;
            const id = staticIds[slot];
            if ((ga & mask[id]) === 0 || (group[id] & ma) === 0) continue;
            if (pairs.count >= budget) budgetError(physics, eid, pairs.count, end - k);
            pairListPush(pairs, eid, id);
            if (swept) {
              // A moving sphere (continuous contacts): the full test, the static contact else the cast.
              testSphereStaticSwept(physics, testedContacts, eid, id, shapes, STATIC_SHAPE * slot);
              continue;
            }
            // `contactSphereBox`'s rejection (geometry/kernels/boxFrame.ts: loadSphereBox,
            // withinBoxLocal, scalar.ts withinDistance) inline, the same arithmetic: most candidates
            // stop here; the others, and the extreme magnitudes, take the full test.
            const so = STATIC_SHAPE * slot;
            let lx = x - shapes[so], ly = y - shapes[so + 1], lz = z - shapes[so + 2];
            const qx = shapes[so + 3], qy = shapes[so + 4], qz = shapes[so + 5], qw = shapes[so + 6];
            if (!(qx === 0 && qy === 0 && qz === 0)) {
              const ux = -qx, uy = -qy, uz = -qz;
              const tx = 2 * (uy * lz - uz * ly), ty = 2 * (uz * lx - ux * lz), tz = 2 * (ux * ly - uy * lx);
              const rx2 = lx + qw * tx + (uy * tz - uz * ty);
              const ry2 = ly + qw * ty + (uz * tx - ux * tz);
              const rz2 = lz + qw * tz + (ux * ty - uy * tx);
              lx = rx2;
              ly = ry2;
              lz = rz2;
            }
            const hx = shapes[so + 7], hy = shapes[so + 8], hz = shapes[so + 9];
            const rad = r + (qw - qw);
            // The distance outside the box per axis (lx + hx below, lx - hx above, 0 inside) as
            // sums of products by 0 and 1, no branch on which side a candidate lies (0.97 of the
            // static tick): the same d2 while l ± h is finite; else a NaN (0 × ∞) fails the
            // `d2 < SQ_MAX` test below as the selects' infinite d2 did: the full test.
            const sx0 = +(lx < -hx), sx1 = +(lx > hx), sy0 = +(ly < -hy), sy1 = +(ly > hy), sz0 = +(lz < -hz), sz1 = +(lz > hz);
            const dx = sx0 * (lx + hx) + sx1 * (lx - hx);
            const dy = sy0 * (ly + hy) + sy1 * (ly - hy);
            const dz = sz0 * (lz + hz) + sz1 * (lz - hz);
            const d2 = dx * dx + dy * dy + dz * dz;
            const rr = rad * rad;
            if (d2 < SQ_MAX && (d2 > SQ_MIN || rr > 2 * SQ_MIN) && !(d2 <= rr && rad - rad === 0)) continue;
            testSphereStatic(physics, testedContacts, eid, id, shapes, so);
          }
          continue;
        }
        const out = query.ids;
        let n = 0;
        for (let k = tstart[c]; k < end; k++) {
          const o = 6 * titems[k];
          // As below: the six comparisons as bits, one branch.
          const hit = (+(b[o] <= x1) & +(b[o + 3] >= x0)) & (+(b[o + 1] <= y1) & +(b[o + 4] >= y0)) & (+(b[o + 2] <= z1) & +(b[o + 5] >= z0));
          if (hit !== 0) out[n++] = staticIds[titems[k]];
        }
        if (n > 0) {
          query.count = n;
          emitPairs(physics, eid);
        }
        continue;
      }
    }
    // `querySingleCell` (src/grid/query.ts) inline, same arithmetic: calling it measured 1.01–1.05x (10,000 spheres).
    if (staticOnly) {
      let u0 = (x0 + m) * inv, u1 = (x1 - m) * inv;
      if (u0 > u1) u0 = u1 = (x0 + (x1 - x0) * 0.5) * inv;
      let v0 = (y0 + m) * inv, v1 = (y1 - m) * inv;
      if (v0 > v1) v0 = v1 = (y0 + (y1 - y0) * 0.5) * inv;
      let w0 = (z0 + m) * inv, w1 = (z1 - m) * inv;
      if (w0 > w1) w0 = w1 = (z0 + (z1 - z0) * 0.5) * inv;
      const cx = Math.floor(u0), cy = Math.floor(v0), cz = Math.floor(w0);
      if (u0 > -CELL_LIMIT && u1 < CELL_LIMIT && v0 > -CELL_LIMIT && v1 < CELL_LIMIT && w0 > -CELL_LIMIT && w1 < CELL_LIMIT &&
        Math.floor(u1) === cx && Math.floor(v1) === cy && Math.floor(w1) === cz) {
        // `hashCell` at level 0 inline while the coordinates fit 32 bits (its high halves are then 0).
        const xl = cx | 0, yl = cy | 0, zl = cz | 0;
        let h: number;
        if (xl === cx && yl === cy && zl === cz) {
          h = Math.imul(xl, 0x8da6b343) ^ Math.imul(yl, 0xd8163841) ^ Math.imul(zl, 0xcb1ab31f) ^ 0x165667b1;
          h = (h ^ (h >>> 15)) & tableMask;
        } else {
          h = hashCell(cx, cy, cz, 0, tableMask);
        }
        const end = cellStart[h + 1];
        staticWork[WORK_CELLS]++;
        staticWork[WORK_ITEMS] += end - cellStart[h];
        const out = query.ids; // holds every static item (reserved above): a bucket holds each once
        let n = 0;
        for (let k = cellStart[h]; k < end; k++) {
          const o = 6 * cellItems[k];
          // The six comparisons as bits, one branch: about 6 % of the items pass, so that branch is
          // predicted, while a chain of && mispredicted per axis (measured 0.85x the broadphase at 10,000 spheres).
          const hit = (+(b[o] <= x1) & +(b[o + 3] >= x0)) & (+(b[o + 1] <= y1) & +(b[o + 4] >= y0)) & (+(b[o + 2] <= z1) & +(b[o + 5] >= z0));
          if (hit !== 0) out[n++] = staticIds[cellItems[k]];
        }
        queries++;
        if (n > 0) {
          query.count = n;
          const from = pairs.count;
          emitPairs(physics, eid);
          if (tested) testEmitted(physics, from);
        }
        continue;
      }
    }
    q[0] = x0;
    q[1] = y0;
    q[2] = z0;
    q[3] = x1;
    q[4] = y1;
    q[5] = z1;
    query.count = 0;
    gridQuerySlice(staticGrid, query, q, 0, WHOLE_TICK);
    if (hasDynamic) gridQuerySlice(dynamicGrid, query, q, 0, WHOLE_TICK);
    queries++;
    if (query.count > 0) {
      const from = pairs.count;
      emitPairs(physics, eid);
      if (tested) testEmitted(physics, from);
    }
  }
  return queries; // nothing else after the loop (docs/internals.md, rule 3)
}

/** Every moving box's queries (both grids, sliced), into box–box pairs merged with the sphere pairs. */
function queryMovingBoxes(physics: Physics): void {
  const internal = internalsOf(physics);
  const { flags, maxEid } = internal;
  internal.broadphase.boxPairs.count = 0;
  if (internal.broadphase.movingBoxes === 0) return;
  for (let eid = 1; eid <= maxEid; eid++) {
    const f = flags[eid];
    if ((f & (SPHERE | BOX | MOVING)) === (BOX | MOVING)) querySliced(physics, eid, f, true);
  }
  mergeBoxPairs(physics);
}

/**
 * Runs the broadphase: fills `internalsOf(physics).broadphase.pairs` with candidate pairs sorted by
 * (a, b). Throws `PhysicsInputError` when the pairs exceed `contactBudget` (the bodies were validated
 * before gravity, scanBodies.ts, which also gathered the size statistics, `sliceCap`, `movingBoxes`
 * and `sphereSphere` read here). Static boxes written since they were bucketed were noticed by
 * `checkStatic` (checkStatic.ts), a stage of its own before the scan.
 */
export function findPairs(physics: Physics): void {
  const internal = internalsOf(physics);
  const bp = internal.broadphase;
  const { staticGrid, dynamicGrid, work } = bp;
  staticGrid.work.fill(0);
  dynamicGrid.work.fill(0);
  work[WORK_QUERIES] = 0;
  work[WORK_SLICES] = 0;
  bp.pairs.count = 0;
  // Nothing else to meet later (static or continuous contacts): the queries test their pairs themselves.
  bp.tested = internal.responseCount === 0 && internal.characterCount === 0 &&
    internal.purgeList.count === 0 && bp.movingBoxes === 0 ? 1 : 0;
  bp.testedContacts.count = 0;
  bp.testedWrites = internal.writes;
  updatePolicy(physics);
  if (bp.staticDirty) rebuildStatic(physics);
  rebuildDynamic(physics, bp.sphereSphere !== 0);
  gridBuild(dynamicGrid);
  work[WORK_QUERIES] = querySpheres(physics);
  queryMovingBoxes(physics);
  work[WORK_CANDIDATES] = bp.pairs.count;
  work[WORK_CELLS_VISITED] = staticGrid.work[WORK_CELLS] + dynamicGrid.work[WORK_CELLS];
  work[WORK_ITEMS_VISITED] = staticGrid.work[WORK_ITEMS] + dynamicGrid.work[WORK_ITEMS];
}
