/**
 * The data of the world queries' per-instance state (see state.ts for when it is built): a dense
 * grid of every body at its current pose, or (when that grid would serve poorly) a hashed grid of
 * the bodies the step's static grid does not hold, per-entity stamps, traversal and scratch shapes. Kept apart from
 * state.ts so that the internal state of src/world can hold it without importing the queries.
 * World frame, length units.
 * @module
 */
import { denseCreate, type DenseGrid } from '../grid/dense.js';
import { gridCreate, type Grid } from '../grid/grid.js';
import { queryOutCreate, type QueryOut } from '../grid/query.js';
import { traverseCreate } from '../grid/traverse.js';
import { ScratchBox, ScratchCast, ScratchSphere, ScratchVec3 } from '../geometry/scratch.js';

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
  stampValue: number;
  /** Traversal state (see src/grid/traverse.ts). */
  walk: Float64Array;
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
    walk: traverseCreate(),
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
