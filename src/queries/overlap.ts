/**
 * Overlap queries against a physics world: `overlapSphere` and `overlapBox` list every body that
 * touches or overlaps the query shape (closed solids), sorted by entity id. World frame, length
 * units. Candidates come from the queries' grids (see queryGrid.ts: the dense grid of every body, or the
 * step's static grid unless stale and the hashed grid of current poses) by the query shape's
 * bounds; each passes the filter, then the exact test of the geometry API (`overlapSphereSphere`,
 * `overlapSphereBox`, `overlapBoxSphere`, `overlapBoxBox`). Every body is seen where its data is
 * now (after direct writes, call `markStaticDirty`). Bad input throws `PhysicsInputError` naming
 * the argument; `out` is written only on success. No allocation unless a list grows.
 * @module
 */
import * as denseModule from '../grid/dense.js';
import * as query from '../grid/query.js';
import * as sortIds from '../grid/sortIds.js';
import * as boxBox from '../geometry/overlapBoxBox.js';
import * as boxSphere from '../geometry/overlapBoxSphere.js';
import * as sphereBox from '../geometry/overlapSphereBox.js';
import * as sphereSphere from '../geometry/overlapSphereSphere.js';
import * as bodies from '../physics/bodyReads.js';
import * as internals from '../physics/internal.js';
import * as quat from '../math/quat.js';
import type { QuatLike, Vec3Like } from '../physics/readInput.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import * as candidate from './candidate.js';
import * as input from './queryArgs.js';
import * as lists from './hitLists.js';
import type { EntityList, QueryFilter } from './hitLists.js';
import * as queryGrid from './queryGrid.js';
import * as slots from './queryState.js';
import type { QueryState } from './queryState.js';

const { SPHERE } = BodyFlags;
// Imported bindings read once into module constants: see docs/internals.md (imports on hot paths).
const { denseQueryBounds } = denseModule;
const { gridQueryBounds } = query;
const { sortUniqueIds } = sortIds;
const { overlapBoxBox } = boxBox;
const { overlapBoxSphere } = boxSphere;
const { overlapSphereBox } = sphereBox;
const { overlapSphereSphere } = sphereSphere;
const { BOUNDS_PAD, loadBox } = bodies;
const { internalsOf } = internals;
const { rotatedHalfExtents } = quat;
const { entityListReserve } = lists;
const { queryStateOf, updateQueryGrid } = queryGrid;
const { passesFilter } = candidate;
const { readFilter, readHalfExtents, readEntityOut, readPhysics, readQueryRadius, readQueryRotation, readStart } = input;
const { loadVec3, QI_H, QI_O, QI_Q, QI_RADIUS } = slots;

/**
 * The query shape's bounds (minX, minY, minZ, maxX, maxY, maxZ), padded against rounding: private
 * scratch, written by each query before it is read.
 */
const QB = new Float64Array(6);

/** Writes to `QB` the bounds of the centre `q[QI_O..]` with the half sizes in `QB[3..5]`, padded. */
function queryBounds(q: Float64Array): void {
  const b = QB;
  const x = q[QI_O], y = q[QI_O + 1], z = q[QI_O + 2];
  const hx = b[3], hy = b[4], hz = b[5];
  const pad = BOUNDS_PAD * (1 + Math.abs(x) + Math.abs(y) + Math.abs(z) + hx + hy + hz);
  b[0] = x - hx - pad;
  b[1] = y - hy - pad;
  b[2] = z - hz - pad;
  b[3] = x + hx + pad;
  b[4] = y + hy + pad;
  b[5] = z + hz + pad;
}

/** Collects the candidates of `QB` from the grids, sorted by id, without repeats; returns how many. */
function candidates(physics: Physics, s: QueryState): number {
  const out = s.candidates;
  out.count = 0;
  if (s.useDense) denseQueryBounds(s.dense, out, QB);
  else {
    if (!s.withStatic) gridQueryBounds(internalsOf(physics).broadphase.staticGrid, out, QB, 0);
    gridQueryBounds(s.grid, out, QB, 0);
  }
  return sortUniqueIds(out.ids, out.count);
}

/** Whether body `eid` touches the query shape in `s.sphere` (`box` false) or `s.queryBox`. */
function touches(physics: Physics, s: QueryState, eid: number, f: number, box: boolean): boolean {
  if ((f & SPHERE) !== 0) {
    const b = s.ray;
    const p = physics.components.Position;
    b.center.x = p.x[eid];
    b.center.y = p.y[eid];
    b.center.z = p.z[eid];
    b.radius = physics.components.Sphere.radius[eid];
    return box ? overlapBoxSphere(s.queryBox, b) : overlapSphereSphere(s.sphere, b);
  }
  loadBox(physics, eid, s.box);
  return box ? overlapBoxBox(s.queryBox, s.box) : overlapSphereBox(s.sphere, s.box);
}

function collect(physics: Physics, s: QueryState, out: EntityList, box: boolean): number {
  const n = candidates(physics, s);
  const ids = s.candidates.ids;
  const flags = internalsOf(physics).flags;
  const filter = s.filter;
  let count = 0;
  for (let k = 0; k < n; k++) {
    const eid = ids[k];
    const f = flags[eid];
    if (!passesFilter(physics, filter, eid, f) || !touches(physics, s, eid, f, box)) continue;
    if (count === out.ids.length) entityListReserve(out, count + 1);
    out.ids[count++] = eid;
  }
  out.count = count;
  return count;
}

/**
 * Every body that touches or overlaps the sphere of `radius` (>= 0) at `center`, into `out`, sorted
 * by entity id. Returns `out.count`. See the module notes.
 */
export function overlapSphere(physics: Physics, center: Vec3Like, radius: number, out: EntityList, filter?: QueryFilter): number {
  const source = 'overlapSphere';
  readPhysics(physics, source);
  const s = queryStateOf(physics);
  const q = s.args;
  readStart(center, false, source, q);
  readQueryRadius(radius, source, q);
  readEntityOut(out, source);
  readFilter(filter, source, s.filter);
  updateQueryGrid(physics, s);
  const r = q[QI_RADIUS];
  loadVec3(s.sphere.center, q, QI_O);
  s.sphere.radius = r;
  QB[3] = QB[4] = QB[5] = r;
  queryBounds(q);
  return collect(physics, s, out, false);
}

/**
 * Every body that touches or overlaps the box of `halfExtents` (>= 0) at `center`, rotated by the
 * unit quaternion `rotation` (local → world; undefined: axis-aligned; normalised), into `out`,
 * sorted by entity id. Returns `out.count`. See the module notes.
 */
export function overlapBox(physics: Physics, center: Vec3Like, halfExtents: Vec3Like, rotation: QuatLike | undefined, out: EntityList, filter?: QueryFilter): number {
  const source = 'overlapBox';
  readPhysics(physics, source);
  const s = queryStateOf(physics);
  const q = s.args;
  readStart(center, false, source, q);
  readHalfExtents(halfExtents, source, q);
  readQueryRotation(rotation, source, q);
  readEntityOut(out, source);
  readFilter(filter, source, s.filter);
  updateQueryGrid(physics, s);
  const b = s.queryBox;
  loadVec3(b.center, q, QI_O);
  loadVec3(b.halfExtents, q, QI_H);
  const rot = b.rotation;
  rot.x = q[QI_Q];
  rot.y = q[QI_Q + 1];
  rot.z = q[QI_Q + 2];
  rot.w = q[QI_Q + 3];
  // World half sizes of the rotated box: Σ |R_ij|·h_j (Ericson 4.2.6).
  rotatedHalfExtents(q, QI_Q, q, QI_H, QB, 3);
  queryBounds(q);
  return collect(physics, s, out, true);
}
