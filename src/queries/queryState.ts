/**
 * The state type of the world queries and its `create` function: what one physics instance's
 * queries keep (`internalsOf(physics).queries`, created by the first query, see queryGrid.ts) — the
 * grids of bodies at their current pose, per-entity stamps — and the typed slots one query passes
 * between its stages: its arguments (read by queryArgs.ts), its filter, its best hit, the walks'
 * per-query constants. Two instances queried in turn share nothing. The slot layouts are defined
 * here, beside the arrays that hold them. World frame, length units.
 * @module
 */
import { denseCreate, type DenseGrid } from '../grid/dense.js';
import { denseRayCreate } from '../grid/denseWalk.js';
import { gridCreate, type Grid } from '../grid/grid.js';
import { queryOutCreate, type QueryOut } from '../grid/query.js';
import { traverseCreate } from '../grid/traverse.js';
import { ScratchBox, ScratchCast, ScratchSphere, ScratchVec3 } from '../geometry/scratch.js';
import { SB_SLOTS } from '../math/slab.js';

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
/**
 * Slots of `QueryState.segment` (the dense sweep's per-query constants, see sweepDense.ts): origin
 * (0–2), 1 / direction (3–5, 0 on a still axis), the radius signed toward the near face (6–8), a
 * term added to each near time (9–11: −∞ on a still axis, else 0) and far time (12–14: +∞ on a
 * still axis, else 0), the radius (15), the padding against rounding (16), whether an axis is still
 * (17: 1 or 0), the swept sphere's padded bounds (18–23: min x, y, z, max x, y, z).
 */
export const SG_O = 0, SG_INV = 3, SG_R = 6, SG_NEAR = 9, SG_FAR = 12, SG_RADIUS = 15, SG_PAD = 16, SG_STILL = 17, SG_SWEPT = 18;
/** Number of slots of `QueryState.segment`. */
export const SG_SLOTS = 24;

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
  /** `physics.tick` when `grid` was built. */
  builtTick: number;
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
  /** The current cast's segment for the slab tests of the hashed sweep (src/math/slab.ts). */
  slab: Float64Array;
  /** The current cast's constants for the dense sweep (`SG_*` slots). */
  segment: Float64Array;
  /** Per axis of the dense sweep: the offset of its near face in a bounds record (0–2), of its far face (3–5). */
  faces: Int32Array;
  /** The dense sweep's ray walk state (src/grid/denseWalk.ts). */
  rayWalk: Float64Array;
  /** Traversal state (see src/grid/traverse.ts). */
  walk: Float64Array;
  /** The current overlap's padded bounds (min x, y, z, max x, y, z). */
  bounds: Float64Array;
  /** Candidates of an overlap query. */
  candidates: QueryOut;
  hits: HitScratch;
  sphere: ScratchSphere;
  ray: ScratchSphere;
  box: ScratchBox;
  queryBox: ScratchBox;
  motion: ScratchVec3;
  cast: ScratchCast;
}

/** A fresh query state (grids and scratch grown on demand). */
export function createQueryState(): QueryState {
  return {
    dense: denseCreate(),
    useDense: false,
    denseAllowed: true,
    denseRetry: 0,
    grid: gridCreate(1),
    withStatic: false,
    built: false,
    builtTick: 0,
    stamp: new Uint32Array(64),
    stampValue: 0,
    args: new Float64Array(QI_SLOTS),
    filter: new Float64Array(4),
    every: false,
    flags: new Uint8Array(0),
    best: new Float64Array(7),
    bestEntity: new Uint32Array(1),
    slab: new Float64Array(SB_SLOTS),
    segment: new Float64Array(SG_SLOTS),
    faces: new Int32Array(6),
    rayWalk: denseRayCreate(),
    walk: traverseCreate(),
    bounds: new Float64Array(6),
    candidates: queryOutCreate(),
    hits: { count: 0, entity: new Uint32Array(16), data: new Float64Array(16 * 7), order: new Int32Array(16) },
    // Scratch shapes whose fields are doubles from the start: writing a double then never boxes.
    sphere: new ScratchSphere(),
    ray: new ScratchSphere(),
    box: new ScratchBox(),
    queryBox: new ScratchBox(),
    motion: new ScratchVec3(),
    cast: new ScratchCast(),
  };
}
