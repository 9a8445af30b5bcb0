/**
 * The broadphase of bitecs-collide as a data structure of its own (subpath `bitecs-collide/broadphase`):
 * a hierarchical hashed uniform grid of axis-aligned bounds, as data-first free functions over typed
 * arrays, no ECS. World frame, the caller's length unit; bounds are closed (touching counts).
 *
 * Typical use: `gridCreate(cellSize)`, then per rebuild `gridClear`, `gridInsert` for each item (its
 * bounds as six numbers in a typed array at an offset: minX, minY, minZ, maxX, maxY, maxZ), `gridBuild`;
 * then `gridQueryBounds` into a `QueryOut` from `queryOutCreate()`. `gridAdd` / `gridQuery` take the
 * six numbers as arguments instead (convenient; the typed-array forms never box a number).
 * @module
 */
export type { Grid, QueryOut } from './grid.js';
export {
  gridCreate,
  gridClear,
  gridSetCellSize,
  gridSetMargin,
  gridInsert,
  gridAdd,
  gridBuild,
  gridQueryBounds,
  gridQuery,
  queryOutCreate,
} from './grid.js';
