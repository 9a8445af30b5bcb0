/**
 * Finer candidates for the predictions of fast dynamic spheres (issue 24, item 4: cost in crowds).
 *
 * The broadphase's dynamic grid holds a dynamic sphere as the cube its speed can reach within the
 * tick (radius + |velocity × dt|₁ about its start, findPairs.ts), since an impact may turn it. When
 * spheres travel many radii per tick those cubes cover much of the scene, and a prediction's path
 * query returned nearly every sphere: the work per prediction grew with the count. This grid holds,
 * instead, each dynamic sphere's remaining path as the response knows it: its segment from its pose
 * at its local time to the end of the tick along its current velocity (a capped sphere: its pose),
 * cut at the quarters of the tick (PATH_SLICES), each piece's bounds grown by its radius. A sphere
 * whose velocity or pose changes, or that is capped, gets new pieces from the current time
 * (`trackPath` in paths.ts, called wherever the response does so); the pieces of its older path
 * are unlinked from the buckets then (`pathGridRetire`), and any left (wide ones) are skipped by the
 * queries (`first`, `latest`). The dynamic grid's other items (kinematic bodies,
 * sleepers, moving boxes: their items cover the whole tick) are copied as they are, in every slice.
 *
 * Conservative (a query reports every body whose cast the dynamic grid's query could report as
 * touching): a cast of sphere a against partner x over the window [now, 1] touches only if, at
 * some time τ in it, |ca(τ) − cx(τ)| ≤ ra + rx (up to the cast's rounding). ca(τ) lies in a's
 * piece of τ's slice (the query, grown by ra) and cx(τ) in x's piece of that slice (x moves
 * linearly until its velocity changes or it is capped, and each such change inserts new pieces from
 * then on), so on every axis the two bounds meet. Items are grown by PATH_SLACK of their
 * magnitudes, 10⁷ ulps, above the rounding of the positions advanced step by step (resolve.ts
 * `advance`) and of the cast (sweptApart.ts). A dynamic sphere is reported only when its
 * dynamic-grid item meets the whole query too (`limited`), as the dynamic grid would: the
 * candidates are the dynamic grid's minus pairs that cannot touch, so the predictions find the same
 * events.
 *
 * Order: at a current time above 0 a prediction's result does not depend on the order of its
 * candidates (the earliest event, ties by partner id; contact records, merged sorted). At time 0
 * it may: push-outs and the resting contacts of the start-of-tick solve are taken in candidate
 * order. `orderMatters` (predict.ts) then sends the prediction back to the dynamic grid whenever
 * its candidates include a body the response does not move (kinematic, sleeping) or two spheres near
 * enough at the start to touch or be within the rest skin. So the response's results are
 * bit-identical with or without this grid (test/determinism's pinned hashes;
 * test/response/pathGrid.test.ts compares every tick with and without it).
 *
 * The end-of-tick projection (project.ts) takes its dynamic candidates from it too, where every
 * body is at the end of its last item, and a body it moves gets an item where it is moved to; with
 * its own rule for when the order matters (`nearByPaths`).
 *
 * Used in a tick only when the dynamic spheres' mean reach (|v dt|₁) is above REACH_RATIO radii
 * (paths.ts): slower crowds (the arena) get little from it. A decision per tick, results unchanged
 * either way.
 * @module
 */
import { CELL_LIMIT, hashCell } from '../grid/cells.js';
import { queryOutReserve, type QueryOut } from '../grid/query.js';
import { growArray as grow } from '../math/grow.js';

/**
 * Time slices: a path is held as one item per quarter of the tick it spans (the piece of its segment
 * within that quarter), bucketed apart per quarter, and a query's path is looked up piece by piece in
 * the same quarters: two spheres touching at a time τ are both in their pieces of τ's quarter.
 */
export const PATH_SLICES = 4;
/** Relative growth of the items and of the "near at the start" bound (see the module notes). */
export const PATH_SLACK = 1e-9;
/**
 * Slots of a path segment (`pathSegment`, `pathPiece`): its start (local time t0, world frame), its
 * velocity, the sphere's radius, t0 (tick fraction), dt (s), and the growth of its pieces (written
 * by `pathSegment`). A Float64Array rather than arguments: a double argument of a call that is not
 * inlined is boxed (docs/internals.md).
 */
export const SEG_P = 0, SEG_V = 3, SEG_R = 6, SEG_T0 = 7, SEG_DT = 8, SEG_H = 9, SEG_SLOTS = 10;

/**
 * Writes `seg[SEG_H]`: how far a piece's bounds are grown, the radius plus PATH_SLACK × the scale of
 * the segment (|start|₁ + |velocity|₁ × the rest of the tick + radius). Inserted items and the
 * queries' pieces use the same growth.
 */
export function pathSegment(seg: Float64Array): void {
  const r = seg[SEG_R];
  const rest = (1 - seg[SEG_T0]) * seg[SEG_DT];
  const v = Math.abs(seg[SEG_V]) + Math.abs(seg[SEG_V + 1]) + Math.abs(seg[SEG_V + 2]);
  seg[SEG_H] = r + PATH_SLACK * (Math.abs(seg[SEG_P]) + Math.abs(seg[SEG_P + 1]) + Math.abs(seg[SEG_P + 2]) + v * rest + r);
}

/** The first time slice a segment starting at tick fraction `t0` spans. */
export function firstSlice(t0: number): number {
  const w = Math.floor(t0 * PATH_SLICES);
  return w > PATH_SLICES - 1 ? PATH_SLICES - 1 : w;
}

/**
 * Writes into `out` (min xyz, max xyz) the bounds of the piece of segment `seg` within time slice
 * `w` (from t0 on; slices are exact binary fractions of the tick), grown by `seg[SEG_H]`.
 */
export function pathPiece(seg: Float64Array, w: number, out: Float64Array): void {
  const t0 = seg[SEG_T0], dt = seg[SEG_DT], h = seg[SEG_H];
  const px = seg[SEG_P], py = seg[SEG_P + 1], pz = seg[SEG_P + 2];
  const vx = seg[SEG_V], vy = seg[SEG_V + 1], vz = seg[SEG_V + 2];
  const ta = w / PATH_SLICES > t0 ? w / PATH_SLICES : t0;
  const ka = (ta - t0) * dt, kb = ((w + 1) / PATH_SLICES - t0) * dt;
  const ax = px + vx * ka, ay = py + vy * ka, az = pz + vz * ka;
  const bx = px + vx * kb, by = py + vy * kb, bz = pz + vz * kb;
  out[0] = (ax < bx ? ax : bx) - h;
  out[1] = (ay < by ? ay : by) - h;
  out[2] = (az < bz ? az : bz) - h;
  out[3] = (ax > bx ? ax : bx) + h;
  out[4] = (ay > by ? ay : by) + h;
  out[5] = (az > bz ? az : bz) + h;
}

/** An item spanning more cells than this is kept in the list every query scans. */
const MAX_ITEM_CELLS = 64;
/** A query spanning more cells than this scans every item. */
const MAX_QUERY_CELLS = 256;

/** The path grid (one per response state; rebuilt at each tick where it is used). */
export interface PathGrid {
  /** Whether this tick's predictions use it. */
  active: boolean;
  /** Whether it may be used at all (tests compare the response with and without it). */
  allowed: boolean;
  /** 1 / cell side. */
  inv: number;
  tableMask: number;
  /** Per bucket: first entry (-1: none). */
  head: Int32Array;
  /** Per entry: next entry of its bucket, and its item. */
  next: Int32Array;
  item: Int32Array;
  entryCount: number;
  /** Per item: entity and bounds (6). */
  ids: Int32Array;
  bounds: Float64Array;
  /**
   * Per item: the first item of the path it is a piece of (-1 for the dynamic grid's items copied
   * as they are); per entity, `latest`: the first item of its latest path. A piece of an older path
   * is skipped: the latest path covers the body from its last change on, and the clock only moves on.
   */
  first: Int32Array;
  latest: Int32Array;
  itemCount: number;
  /** Items spanning more than MAX_ITEM_CELLS cells (or beyond the cell range): every query scans them. */
  wide: Int32Array;
  wideCount: number;
  /** Per entity: 1 when it is in the dynamic grid this tick (so its path is tracked here). */
  tracked: Uint8Array;
  /**
   * Per entity: 1 when it is reported only if its dynamic-grid item (`reach`, 6 per entity) meets the
   * query as well: the dynamic spheres, whose grid item is the cube their start-of-tick speed
   * reaches. A sphere sped up by an impact can leave it; the dynamic grid's query does not report it
   * then (the end-of-tick projection checks it instead, resolve.ts `checkReach`), and neither does
   * this one, so that both give the same events.
   */
  limited: Uint8Array;
  reach: Float64Array;
  /** Per entity: the query that last reported it. */
  stamp: Uint32Array;
  stampValue: number;
  /** Per-call scratch: an item's bounds before insertion. */
  scratch: Float64Array;
  /** Per-call scratch: the segment whose pieces are inserted or looked up (slots `SEG_*`). */
  segment: Float64Array;
}

/** Creates an empty path grid. */
export function createPathGrid(): PathGrid {
  const n = 64;
  return {
    active: false, allowed: true, inv: 1, tableMask: 63, head: new Int32Array(64).fill(-1), next: new Int32Array(n), item: new Int32Array(n), entryCount: 0,
    ids: new Int32Array(n), bounds: new Float64Array(6 * n), first: new Int32Array(n), latest: new Int32Array(n), itemCount: 0, wide: new Int32Array(n), wideCount: 0,
    tracked: new Uint8Array(n), limited: new Uint8Array(n), reach: new Float64Array(6 * n), stamp: new Uint32Array(n), stampValue: 0, scratch: new Float64Array(6), segment: new Float64Array(SEG_SLOTS),
  };
}

/**
 * Appends an item for entity `id` with the bounds in `g.scratch`, bucketed by the cells it covers
 * in time slice `slice` (0 .. PATH_SLICES − 1), as a piece of the path starting at item `first`
 * (-1: not a path).
 */
export function pathGridInsert(g: PathGrid, id: number, slice: number, first: number): void {
  if (g.itemCount === g.ids.length) {
    g.ids = grow(g.ids, 2 * g.ids.length);
    g.bounds = grow(g.bounds, 12 * g.ids.length / 2);
    g.first = grow(g.first, g.ids.length);
  }
  const i = g.itemCount++;
  const b = g.scratch;
  g.ids[i] = id;
  g.first[i] = first;
  const o = 6 * i;
  for (let k = 0; k < 6; k++) g.bounds[o + k] = b[k];
  const inv = g.inv;
  const x0 = Math.floor(b[0] * inv), y0 = Math.floor(b[1] * inv), z0 = Math.floor(b[2] * inv);
  const x1 = Math.floor(b[3] * inv), y1 = Math.floor(b[4] * inv), z1 = Math.floor(b[5] * inv);
  const cells = (x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1);
  if (!(cells <= MAX_ITEM_CELLS && x0 > -CELL_LIMIT && y0 > -CELL_LIMIT && z0 > -CELL_LIMIT && x1 < CELL_LIMIT && y1 < CELL_LIMIT && z1 < CELL_LIMIT)) {
    if (g.wideCount === g.wide.length) g.wide = grow(g.wide, 2 * g.wide.length);
    g.wide[g.wideCount++] = i;
    return;
  }
  if (g.entryCount + cells > g.next.length) {
    let cap = g.next.length;
    while (cap < g.entryCount + cells) cap *= 2;
    g.next = grow(g.next, cap);
    g.item = grow(g.item, cap);
  }
  const mask = g.tableMask;
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) {
      for (let z = z0; z <= z1; z++) {
        const h = hashCell(x, y, z, slice, mask);
        const e = g.entryCount++;
        g.item[e] = i;
        g.next[e] = g.head[h];
        g.head[h] = e;
      }
    }
  }
}

/**
 * Unlinks from the buckets the pieces of entity `id`'s latest path of this tick, if it has one, before
 * a new path replaces it: the queries skipped them anyway (`first`, `latest`), but walking them cost
 * each query a third of its entries in the gas of 1,000 spheres (issue 24, item 4), a share growing
 * with the count as more spheres are hit more often. The other entries keep their order, so the
 * queries report the same entities in the same order. Wide pieces stay listed (and skipped).
 * The path's pieces are consecutive items, one per slice from its first slice to the last.
 */
export function pathGridRetire(g: PathGrid, id: number): void {
  const f = g.latest[id];
  // `latest` is not reset between ticks: item f is this tick's path of `id` only if it starts one.
  if (!(f >= 0 && f < g.itemCount && g.ids[f] === id && g.first[f] === f)) return;
  let end = f + 1;
  while (end < g.itemCount && g.first[end] === f) end++;
  const inv = g.inv, mask = g.tableMask, b = g.bounds;
  for (let i = f; i < end; i++) {
    const slice = PATH_SLICES - (end - i);
    const o = 6 * i;
    const x0 = Math.floor(b[o] * inv), y0 = Math.floor(b[o + 1] * inv), z0 = Math.floor(b[o + 2] * inv);
    const x1 = Math.floor(b[o + 3] * inv), y1 = Math.floor(b[o + 4] * inv), z1 = Math.floor(b[o + 5] * inv);
    const cells = (x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1);
    if (!(cells <= MAX_ITEM_CELLS && x0 > -CELL_LIMIT && y0 > -CELL_LIMIT && z0 > -CELL_LIMIT && x1 < CELL_LIMIT && y1 < CELL_LIMIT && z1 < CELL_LIMIT)) continue;
    for (let x = x0; x <= x1; x++) {
      for (let y = y0; y <= y1; y++) {
        for (let z = z0; z <= z1; z++) {
          const h = hashCell(x, y, z, slice, mask);
          // One entry of item i per cell: unlink the first found (two cells may share a bucket).
          let prev = -1;
          for (let e = g.head[h]; e >= 0; prev = e, e = g.next[e]) {
            if (g.item[e] !== i) continue;
            if (prev < 0) g.head[h] = g.next[e];
            else g.next[prev] = g.next[e];
            break;
          }
        }
      }
    }
  }
}

/**
 * Empties `g` for a tick with cells of side `side` (finite, > 0) and a table of at least `items` × 8
 * buckets per slice (a power of two, never shrunk), and marks it active.
 */
export function pathGridReset(g: PathGrid, side: number, items: number): void {
  g.active = true;
  g.inv = 1 / side;
  // The table only grows (doubling), so that a crowd whose size varies does not reallocate it.
  let table = g.head.length;
  while (table < 8 * PATH_SLICES * items) table *= 2;
  if (g.head.length !== table) g.head = new Int32Array(table);
  g.head.fill(-1);
  g.tableMask = table - 1;
  g.entryCount = g.itemCount = g.wideCount = 0;
}

/** Starts a query (its candidates are reported once each over its slices): returns its stamp. */
export function pathQueryBegin(g: PathGrid, out: QueryOut): number {
  queryOutReserve(out, g.itemCount);
  if (g.stampValue >= 0xfffffff0) {
    g.stamp.fill(0);
    g.stampValue = 0;
  }
  return ++g.stampValue;
}

/**
 * Appends to `out` every entity not yet reported by query `st` with an item of time slice `slice`
 * meeting the closed bounds `q` (the query's piece in that slice) whose dynamic-grid item, when
 * `limited`, meets `whole` (the query's bounds over the rest of the tick, as the dynamic grid is
 * queried). Items of other slices sharing a bucket may be reported too (a superset is safe).
 */
export function pathQuerySlice(g: PathGrid, q: Float64Array, whole: Float64Array, slice: number, st: number, out: QueryOut): void {
  const inv = g.inv;
  const x0 = Math.floor(q[0] * inv), y0 = Math.floor(q[1] * inv), z0 = Math.floor(q[2] * inv);
  const x1 = Math.floor(q[3] * inv), y1 = Math.floor(q[4] * inv), z1 = Math.floor(q[5] * inv);
  const cells = (x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1);
  if (!(cells <= MAX_QUERY_CELLS && x0 > -CELL_LIMIT && y0 > -CELL_LIMIT && z0 > -CELL_LIMIT && x1 < CELL_LIMIT && y1 < CELL_LIMIT && z1 < CELL_LIMIT)) {
    for (let i = 0; i < g.itemCount; i++) visit(g, i, q, whole, st, out);
    return;
  }
  const mask = g.tableMask;
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) {
      for (let z = z0; z <= z1; z++) {
        for (let e = g.head[hashCell(x, y, z, slice, mask)]; e >= 0; e = g.next[e]) visit(g, g.item[e], q, whole, st, out);
      }
    }
  }
  for (let k = 0; k < g.wideCount; k++) visit(g, g.wide[k], q, whole, st, out);
}

/** The path grid's candidates meeting bounds `q` at the end of the tick (the last slice), once each. */
export function queryPathsAtEnd(g: PathGrid, q: Float64Array, out: QueryOut): void {
  pathQuerySlice(g, q, q, PATH_SLICES - 1, pathQueryBegin(g, out), out);
}

/** Reports item `i`'s entity when not yet reported by query `st`, its bounds meet `q` and its reach `whole`. */
function visit(g: PathGrid, i: number, q: Float64Array, whole: Float64Array, st: number, out: QueryOut): void {
  const id = g.ids[i];
  const f = g.first[i];
  if (g.stamp[id] === st || (f >= 0 && f !== g.latest[id])) return;
  const b = g.bounds, o = 6 * i;
  // The six comparisons as bits, one branch (docs/internals.md, rule 6).
  if (((+(b[o] <= q[3]) & +(b[o + 3] >= q[0])) & (+(b[o + 1] <= q[4]) & +(b[o + 4] >= q[1])) & (+(b[o + 2] <= q[5]) & +(b[o + 5] >= q[2]))) === 0) return;
  if (g.limited[id] !== 0) {
    const r = g.reach, l = 6 * id;
    if (((+(r[l] <= whole[3]) & +(r[l + 3] >= whole[0])) & (+(r[l + 1] <= whole[4]) & +(r[l + 4] >= whole[1])) & (+(r[l + 2] <= whole[5]) & +(r[l + 5] >= whole[2]))) === 0) return;
  }
  g.stamp[id] = st;
  out.ids[out.count++] = id;
}
