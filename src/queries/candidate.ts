/**
 * The candidates of the cast queries: each body a grid walk brings (src/queries/sweep.ts,
 * sweepDense.ts) is examined once per query (per-entity stamps), then the filter, then the exact
 * cast of the query's sphere (radius 0 for a ray) from the query state's `args` (read by
 * queryArgs.ts) with the geometry API (`castSphereSphere`, `castSphereBox`), keeping the closest hit
 * (the state's `best`, `bestEntity`) or every hit (its `hits`). Distances are `toi · maxDistance`
 * along the unit direction, in length units; equal distances go to the lower entity id. World
 * frame. No allocation (typed scratch, grown by doubling).
 * @module
 */
import * as castBox from '../geometry/castSphereBox.js';
import * as castBall from '../geometry/castSphereSphere.js';
import * as growModule from '../math/grow.js';
import * as bodies from '../physics/bodyReads.js';
import * as internals from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import * as queryGridModule from './queryGrid.js';
import * as slots from './queryState.js';
import type { QueryState } from './queryState.js';

const { SPHERE, BOX, SENSOR } = BodyFlags;
// Imported bindings read once into module constants: see docs/internals.md (imports on hot paths).
const { castSphereBox } = castBox;
const { castSphereSphere } = castBall;
const { growArray } = growModule;
const { loadBox } = bodies;
const { internalsOf } = internals;
const { nextStamp } = queryGridModule;
const { BH_DIST, BH_N, BH_P, loadVec3, QF_EXCLUDE, QF_GROUP, QF_MASK, QF_SENSORS, QI_D, QI_DIST, QI_O, QI_RADIUS } = slots;

/** Whether `eid` (body flags `f`) passes the query's filter `q` (`QF_*` slots: group/mask, exclusion, sensors). */
export function passesFilter(physics: Physics, q: Float64Array, eid: number, f: number): boolean {
  if ((f & (SPHERE | BOX)) === 0) return false;
  if (eid + 1 === q[QF_EXCLUDE]) return false;
  if ((f & SENSOR) !== 0 && q[QF_SENSORS] === 0) return false;
  const filter = physics.components.CollisionFilter;
  return (q[QF_GROUP] & filter.mask[eid]) !== 0 && (filter.group[eid] & q[QF_MASK]) !== 0;
}

/** Starts a cast query on `physics` with its query state `s`: every hit (`every`) or the closest. */
export function beginCandidates(physics: Physics, s: QueryState, every: boolean): void {
  s.flags = internalsOf(physics).flags;
  s.every = every;
  nextStamp(s);
  s.hits.count = 0;
  s.best[BH_DIST] = Infinity;
  s.bestEntity[0] = 0;
  const q = s.args;
  const ray = s.ray;
  loadVec3(ray.center, q, QI_O);
  ray.radius = q[QI_RADIUS];
  const L = q[QI_DIST];
  s.motion.x = q[QI_D] * L;
  s.motion.y = q[QI_D + 1] * L;
  s.motion.z = q[QI_D + 2] * L;
}

/** Loads body `eid` into `s.sphere` or `s.box` and casts the query's sphere (`s.ray`, `s.motion`) against it into `s.cast`. */
function castBody(physics: Physics, s: QueryState, eid: number, f: number): boolean {
  const p = physics.components.Position;
  if ((f & SPHERE) !== 0) {
    const b = s.sphere;
    b.center.x = p.x[eid];
    b.center.y = p.y[eid];
    b.center.z = p.z[eid];
    b.radius = physics.components.Sphere.radius[eid];
    return castSphereSphere(s.ray, s.motion, b, s.cast);
  }
  loadBox(physics, eid, s.box);
  return castSphereBox(s.ray, s.motion, s.box, s.cast);
}

/** Appends the hit in `s.cast` on body `eid` to `s.hits` (its distance from the toi: no double passed). */
function pushHit(s: QueryState, eid: number): void {
  const h = s.hits;
  if (h.count === h.entity.length) {
    const n = h.entity.length * 2;
    h.entity = growArray(h.entity, n);
    h.data = growArray(h.data, 7 * n);
    h.order = new Int32Array(n);
  }
  const k = h.count++;
  const c = s.cast;
  h.entity[k] = eid;
  const o = 7 * k;
  h.data[o] = c.toi * s.args[QI_DIST];
  h.data[o + 1] = c.normal.x;
  h.data[o + 2] = c.normal.y;
  h.data[o + 3] = c.normal.z;
  h.data[o + 4] = c.point.x;
  h.data[o + 5] = c.point.y;
  h.data[o + 6] = c.point.z;
}

/** Keeps the hit in `s.cast` on body `eid` if it is the closest so far (ties: the lower id). */
function keepClosest(s: QueryState, eid: number): void {
  const c = s.cast;
  const best = s.best;
  const d = c.toi * s.args[QI_DIST];
  if (d > best[BH_DIST] || (d === best[BH_DIST] && eid > s.bestEntity[0])) return;
  s.bestEntity[0] = eid;
  best[BH_DIST] = d;
  best[BH_N] = c.normal.x;
  best[BH_N + 1] = c.normal.y;
  best[BH_N + 2] = c.normal.z;
  best[BH_P] = c.point.x;
  best[BH_P + 1] = c.point.y;
  best[BH_P + 2] = c.point.z;
}

/**
 * Examines body `eid` of `physics` (a grid walk found its bounds on the path of the cast in `s`,
 * started by {@link beginCandidates}): once per query, if it passes the filter, casts against it
 * and records a hit.
 */
export function testCandidate(physics: Physics, s: QueryState, eid: number): void {
  const stamp = s.stampValue;
  if (s.stamp[eid] === stamp) return;
  s.stamp[eid] = stamp;
  const f = s.flags[eid];
  if (!passesFilter(physics, s.filter, eid, f) || !castBody(physics, s, eid, f)) return;
  if (s.every) pushHit(s, eid);
  else keepClosest(s, eid);
}
