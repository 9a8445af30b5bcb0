/**
 * The state type of the world queries and its `create` function: what one physics instance's
 * queries keep (`internalsOf(physics).queries`, created by the first query, see queryGrid.ts) — the
 * grids of bodies at their current pose, per-entity stamps, scratch shapes and hits — and the typed
 * slots one query passes between its stages: its arguments and filter (read by queryArgs.ts), its
 * mode, its best hit (candidate.ts → cast.ts). The slot layouts are defined here, beside the arrays
 * that hold them. World frame, length units.
 * @module
 */
import * as denseModule from '../grid/dense.js';
import type { DenseGrid } from '../grid/dense.js';
import * as gridModule from '../grid/grid.js';
import type { Grid } from '../grid/grid.js';
import * as query from '../grid/query.js';
import type { QueryOut } from '../grid/query.js';
import * as traverse from '../grid/traverse.js';
import * as scratch from '../geometry/scratch.js';
import type { ScratchBox, ScratchCast, ScratchSphere, ScratchVec3 } from '../geometry/scratch.js';

// Imported bindings read once into module constants: see docs/internals.md (imports on hot paths).
const { createDenseGrid } = denseModule;
const { createGrid } = gridModule;
const { createQueryOut } = query;
const { createTraverse } = traverse;
const { ScratchBox: Box, ScratchCast: Cast, ScratchSphere: Sphere, ScratchVec3: Vec3 } = scratch;

/**
 * Slots of `QueryState.args` (the query's arguments, checked): origin or centre (0–2), unit
 * direction (3–5), max distance, radius, half extents (8–10), unit rotation (11–14).
 */
export const QI_O = 0, QI_D = 3, QI_DIST = 6, QI_RADIUS = 7, QI_H = 8, QI_Q = 11;
/** Number of slots of `QueryState.args`. */
export const QI_SLOTS = 15;
/** Slots of `QueryState.filter`: group, mask, excluded entity + 1 (0: none), sensors (1 or 0). */
export const QF_GROUP = 0, QF_MASK = 1, QF_EXCLUDE = 2, QF_SENSORS = 3;
/** Slots of `QueryState.best`: distance (Infinity: no hit yet), normal (1–3), point (4–6). */
export const BH_DIST = 0, BH_N = 1, BH_P = 4;

/** Copies slots `a[o .. o + 3)` into a scratch vector of the query state (one class: its stores stay monomorphic; a caller's own objects are written field by field, see cast.ts). */
export function loadVec3(out: ScratchVec3, a: Float64Array, o: number): void {
  out.x = a[o];
  out.y = a[o + 1];
  out.z = a[o + 2];
}

/**
 * Slots of `QueryState.work`, cumulative counts of the work keeping the queries' structure current
 * (deterministic; tests read them): full builds, items bucketed by them, incremental updates (the
 * first query after a tick, see queryGrid.ts), items whose bounds an update recomputed, items it
 * moved between cells.
 */
export const QW_BUILDS = 0, QW_BUILT_ITEMS = 1, QW_UPDATES = 2, QW_CHECKED = 3, QW_REBUCKETED = 4;
/** Number of slots of `QueryState.work`. */
export const QW_SLOTS = 5;

/** Scratch hits of one query before they are sorted into the caller's list. */
export interface HitScratch {
  count: number;
  entity: Uint32Array;
  /** distance, normal (3), point (3) per hit: 7 numbers. */
  data: Float64Array;
  order: Int32Array;
}

/** The per-instance state of the world queries (internal). */
export interface QueryState {
  /** Every body at its current pose (used when `useDense`). */
  dense: DenseGrid;
  /** Whether the queries walk `dense` (it was usable at the last build) rather than `grid` and the step's static grid. */
  useDense: boolean;
  /** Whether builds may use `dense` (true; tests turn it off to exercise the hashed grids). */
  denseAllowed: boolean;
  /** Rebuilds left before `dense` is tried again after a build found it unusable (0: try). */
  denseRetry: number;
  /** Bodies at their current pose that the step's static grid does not cover (used unless `useDense`). */
  grid: Grid;
  /** Whether `grid` holds the static boxes too (the step's static grid was stale when it was built). */
  withStatic: boolean;
  /** Whether `grid` is current. */
  built: boolean;
  /** `physics.tick` when `grid` was built or `dense` last updated. */
  builtTick: number;
  /** The step's cell side (`broadphase.cellSize`) when `dense` was built. */
  builtSide: number;
  /** The static grid's rebuild count (`broadphase.work[WORK_REBUILDS]`) when `dense` was built or updated. */
  builtStatic: number;
  /** Work counters (`QW_*` slots). */
  work: Float64Array;
  /** Per entity: the query that last examined it (dedupes cells, buckets and grids). */
  stamp: Uint32Array;
  /** The current query's stamp. */
  stampValue: number;
  /** The current query's arguments (`QI_*` slots), written by queryArgs.ts. */
  args: Float64Array;
  /** The current query's filter (`QF_*` slots), written by queryArgs.ts. */
  filter: Float64Array;
  /** Whether the current cast keeps every hit (in `hits`) rather than the closest (in `best`). */
  every: boolean;
  /** The instance's body flags, read once per cast (the array is replaced when it grows). */
  flags: Uint8Array;
  /** The closest hit so far of the current cast (`BH_*` slots). */
  best: Float64Array;
  /** The entity of the closest hit so far (valid when `best[BH_DIST]` is finite). */
  bestEntity: Uint32Array;
  /** Traversal state (see src/grid/traverse.ts). */
  walk: Float64Array;
  /** Candidates of an overlap query. */
  candidates: QueryOut;
  /** Every hit of the current cast (`every`), unsorted. */
  hits: HitScratch;
  /** A sphere body (casts), or the query's sphere (overlapSphere). */
  sphere: ScratchSphere;
  /** The cast's sphere (radius 0 for a ray), set once per cast; overlaps load sphere bodies into it. */
  ray: ScratchSphere;
  /** A box body. */
  box: ScratchBox;
  /** The query's box (overlapBox). */
  queryBox: ScratchBox;
  /** The cast's motion (unit direction · maxDistance), set once per cast. */
  motion: ScratchVec3;
  /** The result of one exact cast. */
  cast: ScratchCast;
  /** A batch's casts in walking order (batch.ts), and its second buffer for the radix sort. */
  batchOrder: Int32Array;
  batchSwap: Int32Array;
  /** Per cast of a batch: the dense grid's cell of its start (the sort key). */
  batchKeys: Int32Array;
  /** The radix sort's digit counts (2^11). */
  batchCounts: Int32Array;
  /** A ray batch's unit directions and their inverses, 6 per ray (batchRays.ts `prepareRays`; grows with `batchOrder`). */
  batchRays: Float64Array;
}

/** A fresh query state (grids and scratch grown on demand). */
export function createQueryState(): QueryState {
  return {
    dense: createDenseGrid(),
    useDense: false,
    denseAllowed: true,
    denseRetry: 0,
    grid: createGrid(1),
    withStatic: false,
    built: false,
    builtTick: 0,
    builtSide: 0,
    builtStatic: 0,
    work: new Float64Array(QW_SLOTS),
    stamp: new Uint32Array(64),
    stampValue: 0,
    args: new Float64Array(QI_SLOTS),
    filter: new Float64Array(4),
    every: false,
    flags: new Uint8Array(0),
    best: new Float64Array(7),
    bestEntity: new Uint32Array(1),
    walk: createTraverse(),
    candidates: createQueryOut(),
    hits: { count: 0, entity: new Uint32Array(16), data: new Float64Array(16 * 7), order: new Int32Array(16) },
    // Scratch shapes whose fields are doubles from the start: writing a double then never boxes.
    sphere: new Sphere(),
    ray: new Sphere(),
    box: new Box(),
    queryBox: new Box(),
    motion: new Vec3(),
    cast: new Cast(),
    batchOrder: new Int32Array(64),
    batchSwap: new Int32Array(64),
    batchKeys: new Int32Array(64),
    batchCounts: new Int32Array(2048),
    batchRays: new Float64Array(6 * 64),
  };
}
