/**
 * The broadphase's state, owned by the physics instance (`internalsOf(physics).broadphase`) and
 * created with it: the cell-size policy (src/grid/policy.ts), the static grid of the boxes without
 * Velocity and the inputs they were bucketed from, the dynamic grid of this tick's moving bodies,
 * the candidate pairs sorted by (a, b) and the work counters. Written by the findPairs stage
 * (src/step/findPairs.ts, boxPairs.ts, staticBoxes.ts); read by the response (the grids), the world
 * queries (the static grid, the cell side) and the snapshot (the cell side). World frame, length
 * units.
 * @module
 */
import { createCellTable, type CellTable } from '../grid/cellTable.js';
import { createGrid, type Grid } from '../grid/grid.js';
import { createSizeStats, type SizeStats } from '../grid/policy.js';
import { createQueryOut, type QueryOut } from '../grid/query.js';
import { createContactList, createPairList } from '../physics/idLists.js';
import type { ContactList, PairList } from '../physics/physicsTypes.js';

/** The broadphase's state (see the module notes). */
export interface BroadphaseState {
  /** Level-0 cell side of both grids (length units); 0 until chosen (see src/grid/policy.ts). */
  cellSize: number;
  /** Whether `cellSize` was given as an option (then never re-chosen). */
  cellSizeFixed: boolean;
  /** Extents of this tick's spheres, for the cell size policy. */
  sizes: SizeStats;
  /** Median and cover buckets of `sizes` (slots B_MEDIAN, B_COVER of policy.ts). */
  buckets: Int32Array;
  /** Size bucket the cell side was chosen for (−1: none), and the margin's cover bucket. */
  cellBucket: number;
  marginBucket: number;
  /** Nonzero when this tick's scan saw a moving box. */
  movingBoxes: number;
  /** Nonzero when this tick's scan found that some sphere may collide with another (groups meet masks). */
  sphereSphere: number;
  /** Deepest time split of a moving body this tick (log2 of the body count, see slices.ts). */
  sliceCap: number;
  /** Most candidate pairs one tick may list (`PhysicsOptions.contactBudget`). */
  contactBudget: number;
  staticGrid: Grid;
  /**
   * The inputs each static box was bucketed from, by static grid slot (`STATIC_INPUTS` per box:
   * Position x, y, z, Box hx, hy, hz, qx, qy, qz, qw), compared at every step to notice direct writes.
   */
  staticInputs: Float64Array;
  staticDirty: boolean;
  /**
   * Set by a snapshot restore that re-bucketed the static boxes itself (snapshot/reader.ts): with
   * `validate`, the next scan checks them all (scanBodies.ts), as it does before a re-bucketing.
   * Cleared by that check and by `rebuildStatic`.
   */
  staticUnchecked: boolean;
  /**
   * The static grid's items in a dense cell table of a finer side (src/grid/cellTable.ts), built
   * with it when the boxes' region is bounded: the spheres' single-cell lookups use it.
   */
  staticCells: CellTable;
  /**
   * Bytes of `staticCells`' cells and entries (4 each) above which the sphere queries read their
   * cells ahead (findPairs.ts, `touchTable`): `TOUCH_BYTES` unless a test lowers it.
   */
  touchBytes: number;
  /** Spheres whose cells were read ahead this tick (a count for the tests: no result depends on it). */
  touched: number;
  /**
   * Per static grid slot, `STATIC_SHAPE` numbers (pairTest.ts): the box's centre, rotation as
   * `loadBox` normalises it, half extents, recorded when bucketed (for the queries' exact test).
   */
  staticShapes: Float64Array;
  dynamicGrid: Grid;
  query: QueryOut;
  /** The broadphase's work counters of the last tick (slots `WORK_*`), deterministic. */
  work: Float64Array;
  /** Candidate pairs from the broadphase, sorted by (a, b). */
  pairs: PairList;
  /**
   * Nonzero when this tick's queries tested the candidate pairs themselves (no dynamic body,
   * character or moving box, no body removed since the last narrowphase): their
   * contacts are in `testedContacts`, which the narrowphase takes over (testPairs.ts): 1 until it
   * does, 2 after (a narrowphase run again on the same broadphase tests the pairs itself).
   */
  tested: number;
  testedContacts: ContactList;
  /** `PhysicsInternal.writes` when the queries tested their pairs: a write since sends the narrowphase to its own test. */
  testedWrites: number;
  /** Scratch of the broadphase: this tick's box–box candidate pairs before the merge (boxPairs.ts). */
  boxPairs: PairList;
}

/**
 * Default `touchBytes`. The arena's tick with the reads ahead forced against without, the same
 * tree side by side (docs/benchmarks.md): 1.054 at 10,000 spheres (a table of 0.08 MiB), 0.98–0.99
 * at 100,000 (0.78 MiB), 0.96 at 150,000 (1.18 MiB), 0.95 at 200,000, 0.92 at 300,000, 0.82 at
 * 500,000 and 700,000; against the tree before, 0.83–0.86 at 1,000,000 (7.6 MiB).
 */
export const TOUCH_BYTES = 1 << 20;

/** Numbers per box in `staticInputs`. */
export const STATIC_INPUTS = 10;

/** Slot of `work`: candidate pairs listed. */
export const WORK_CANDIDATES = 0;
/** Slot of `work`: grid buckets looked up by the queries (both grids). */
export const WORK_CELLS_VISITED = 1;
/** Slot of `work`: grid entries examined by the queries (both grids). */
export const WORK_ITEMS_VISITED = 2;
/** Slot of `work`: grid queries (one per sphere slice). */
export const WORK_QUERIES = 3;
/** Slot of `work`: dynamic grid items (one per moving-body slice). */
export const WORK_SLICES = 4;
/** Slot of `work`: static grid rebuilds since the instance was created (cumulative). */
export const WORK_REBUILDS = 5;
/** Number of slots of `work`. */
export const WORK_SLOTS = 6;

/**
 * A broadphase state for `createPhysics`: `cellSize` the fixed level-0 cell side when given (length
 * units, > 0; undefined: chosen by the policy each tick it drifts), `contactBudget` the most
 * candidate pairs per tick.
 */
export function createBroadphaseState(cellSize: number | undefined, contactBudget: number): BroadphaseState {
  return {
    cellSize: cellSize ?? 0,
    cellSizeFixed: cellSize !== undefined,
    sizes: createSizeStats(),
    buckets: new Int32Array(2),
    cellBucket: -1,
    marginBucket: -1,
    movingBoxes: 0,
    sphereSphere: 0,
    sliceCap: 0,
    contactBudget,
    staticGrid: createGrid(cellSize ?? 1),
    staticInputs: new Float64Array(0),
    staticDirty: true,
    staticUnchecked: false,
    staticCells: createCellTable(),
    touchBytes: TOUCH_BYTES,
    touched: 0,
    staticShapes: new Float64Array(0),
    dynamicGrid: createGrid(cellSize ?? 1),
    query: createQueryOut(),
    work: new Float64Array(WORK_SLOTS),
    pairs: createPairList(),
    tested: 0,
    testedContacts: createContactList(),
    testedWrites: 0,
    boxPairs: createPairList(),
  };
}
