/**
 * The broadphase of bitecs-collide as a data structure of its own (subpath `bitecs-collide/broadphase`):
 * a hierarchical hashed uniform grid of axis-aligned bounds, as data-first free functions over typed
 * arrays, no ECS. World frame, the caller's length unit; bounds are closed (touching counts). Cell
 * coordinates are hashed at full precision: items far from the origin never share cells they do not
 * share in space.
 *
 * Typical use: `createGrid(cellSize)`, then per rebuild `gridClear`, `gridInsert` for each item (its
 * bounds as six numbers in a typed array at an offset: minX, minY, minZ, maxX, maxY, maxZ), `gridBuild`;
 * then `gridQueryBounds` into a `QueryOut` from `createQueryOut()`. `gridAdd` / `gridQuery` take the
 * six numbers as arguments instead (convenient; the typed-array forms never box a number). A moving
 * item split in time slices of the tick (`gridInsertSlice`, `gridQuerySlice`, slices coded as in
 * `WHOLE_TICK`'s notes) is reported only to queries whose slice meets its own.
 *
 * `gridCreate`, `queryOutCreate` and `traverseCreate` are the former names of the three constructors
 * (deprecated aliases, removed in the next release).
 * @module
 */
export type { Grid } from './grid.js';
export type { QueryOut } from './query.js';
export { WHOLE_TICK, slicesMeet } from './cells.js';
export {
  createGrid, gridCreate, gridClear, gridSetCellSize, gridSetMargin,
  gridInsert, gridInsertSlice, gridAdd, gridBuild,
} from './grid.js';
export { gridQueryBounds, gridQuerySlice, gridQuery, createQueryOut, queryOutCreate } from './query.js';
export { createTraverse, traverseCreate, traverseBegin, traverseNext, traverseNextCell, TR_OX, TR_DX, TR_TMAX, TR_RADIUS, TR_ENTRY, TR_CELLS, TR_SLOTS } from './traverse.js';
