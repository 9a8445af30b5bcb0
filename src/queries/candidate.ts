/**
 * The candidates of the cast queries: each body a grid walk brings (src/queries/sweep.ts,
 * sweepDense.ts) is examined once per query (per-entity stamps), then the filter, then the exact
 * cast of the query's sphere (radius 0 for a ray) from `QI` (src/queries/queryArgs.ts) with the
 * geometry API (`castSphereSphere`, `castSphereBox`), keeping the closest hit (`BEST`) or every hit
 * (the query state's `hits`). Distances are `toi · maxDistance` along the unit direction, in length
 * units; equal distances go to the lower entity id. World frame. No allocation (typed scratch, grown
 * by doubling).
 * @module
 */
import * as castBox from '../geometry/castSphereBox.js';
import * as castBall from '../geometry/castSphereSphere.js';
import * as growModule from '../math/grow.js';
import * as bodies from '../physics/bodyReads.js';
import * as internals from '../physics/internal.js';
import { BodyFlags, type Physics } from '../physics/physicsTypes.js';
import * as input from './queryArgs.js';
import * as queryStateModule from './queryGrid.js';
import type { QueryState } from './queryState.js';

const { SPHERE, BOX, SENSOR } = BodyFlags;
// Imported bindings copied once into module constants: a transpiler's module interop may read an
// import through a getter on every use, which hot loops must not pay.
const { castSphereBox } = castBox;
const { castSphereSphere } = castBall;
const { growArray } = growModule;
const { loadBox } = bodies;
const { internalsOf } = internals;
const { nextStamp } = queryStateModule;
const { QF, QF_EXCLUDE, QF_GROUP, QF_MASK, QF_SENSORS, QI, QI_D, QI_DIST, QI_O, QI_RADIUS } = input;

/** The best hit so far (closest mode): distance, normal (1–3), point (4–6); entity in `BEST_ENTITY`. */
export const BEST = new Float64Array(7);
/** The entity of the best hit (a typed slot: the cast module reads it without a live-binding getter). */
export const BEST_ENTITY = new Uint32Array(1);
/** Whether the query keeps every hit (in `QueryState.hits`) instead of the closest. */
let all = false;
let stamp = 0;
let state: QueryState;
let physicsNow: Physics;
let flagsNow: Uint8Array = new Uint8Array(0);

/** Whether `eid` passes the current filter (group/mask, exclusion, sensors). */
export function passesFilter(physics: Physics, eid: number, f: number): boolean {
  if ((f & (SPHERE | BOX)) === 0) return false;
  if (eid + 1 === QF[QF_EXCLUDE]) return false;
  if ((f & SENSOR) !== 0 && QF[QF_SENSORS] === 0) return false;
  const filter = physics.components.CollisionFilter;
  return (QF[QF_GROUP] & filter.mask[eid]) !== 0 && (filter.group[eid] & QF[QF_MASK]) !== 0;
}

/** Starts a cast query on `physics` with the query state `s`: every hit (`every`) or the closest. */
export function beginCandidates(physics: Physics, s: QueryState, every: boolean): void {
  state = s;
  physicsNow = physics;
  flagsNow = internalsOf(physics).flags;
  all = every;
  stamp = nextStamp(s);
  s.hits.count = 0;
  BEST[0] = Infinity;
  BEST_ENTITY[0] = 0;
}

/** Loads body `eid` into `state.sphere` or `state.box` and casts the query's sphere against it into `state.cast`. */
function castBody(physics: Physics, s: QueryState, eid: number, f: number): boolean {
  const p = physics.components.Position;
  const ray = s.ray;
  ray.center.x = QI[QI_O];
  ray.center.y = QI[QI_O + 1];
  ray.center.z = QI[QI_O + 2];
  ray.radius = QI[QI_RADIUS];
  const L = QI[QI_DIST];
  s.motion.x = QI[QI_D] * L;
  s.motion.y = QI[QI_D + 1] * L;
  s.motion.z = QI[QI_D + 2] * L;
  if ((f & SPHERE) !== 0) {
    const b = s.sphere;
    b.center.x = p.x[eid];
    b.center.y = p.y[eid];
    b.center.z = p.z[eid];
    b.radius = physics.components.Sphere.radius[eid];
    return castSphereSphere(ray, s.motion, b, s.cast);
  }
  loadBox(physics, eid, s.box);
  return castSphereBox(ray, s.motion, s.box, s.cast);
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
  h.data[o] = c.toi * QI[QI_DIST];
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
  const d = c.toi * QI[QI_DIST];
  if (d > BEST[0] || (d === BEST[0] && eid > BEST_ENTITY[0])) return;
  BEST_ENTITY[0] = eid;
  BEST[0] = d;
  BEST[1] = c.normal.x;
  BEST[2] = c.normal.y;
  BEST[3] = c.normal.z;
  BEST[4] = c.point.x;
  BEST[5] = c.point.y;
  BEST[6] = c.point.z;
}

/**
 * Examines body `eid` (a grid walk found its bounds on the query's path): once per query, if it
 * passes the filter, casts against it and records a hit.
 */
export function testCandidate(eid: number): void {
  const s = state;
  if (s.stamp[eid] === stamp) return;
  s.stamp[eid] = stamp;
  const physics = physicsNow;
  const f = flagsNow[eid];
  if (!passesFilter(physics, eid, f) || !castBody(physics, s, eid, f)) return;
  if (all) pushHit(s, eid);
  else keepClosest(s, eid);
}
