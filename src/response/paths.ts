/**
 * The response's side of the path grid (pathGrid.ts): which bodies it holds in a tick, and their
 * remaining paths, inserted again whenever the response changes a body's velocity or pose.
 * @module
 */
import { internalsOf } from '../physics/internal.js';
import type { Physics } from '../physics/physicsTypes.js';
import { isDynamic } from './isDynamic.js';
import { firstSlice, PATH_SLICES, pathGridInsert, pathGridReset, pathGridRetire, pathPiece, pathSegment, SEG_DT, SEG_P, SEG_R, SEG_T0, SEG_V } from './pathGrid.js';
import { DYNAMIC, type ResponseState } from './responseState.js';

/** The grid is used in a tick when the mean reach of the dynamic spheres exceeds this many mean radii. */
export const REACH_RATIO = 4;

/**
 * Inserts the current remaining path of dynamic body `x` (from its pose at its local time, along its
 * velocity, to the end of the tick; a capped body: its pose), when the path grid is in use and `x`
 * is in the dynamic grid. Called after every change of x's velocity or pose within the tick, and
 * when it is capped (it then stays where it is: its earlier pieces hold that pose only in its slice).
 */
export function trackPath(physics: Physics, s: ResponseState, x: number): void {
  const g = s.paths;
  if (!g.active || g.tracked[x] === 0) return;
  const { Position: p, Velocity: v } = physics.components;
  const dynamic = s.state[x] === DYNAMIC;
  const seg = g.segment;
  seg[SEG_P] = p.x[x];
  seg[SEG_P + 1] = p.y[x];
  seg[SEG_P + 2] = p.z[x];
  seg[SEG_V] = dynamic ? v.x[x] : 0;
  seg[SEG_V + 1] = dynamic ? v.y[x] : 0;
  seg[SEG_V + 2] = dynamic ? v.z[x] : 0;
  seg[SEG_R] = physics.components.Sphere.radius[x];
  seg[SEG_T0] = s.time[x];
  seg[SEG_DT] = physics.dt;
  pathSegment(seg);
  pathGridRetire(g, x);
  const first = g.itemCount;
  g.latest[x] = first;
  // The piece of the segment within each time slice from t0 on.
  for (let w = firstSlice(s.time[x]); w < PATH_SLICES; w++) {
    pathPiece(seg, w, g.scratch);
    pathGridInsert(g, x, w, first);
  }
}

/** Whether this tick's dynamic spheres reach far enough for the path grid to pay (see REACH_RATIO). */
function worthIt(physics: Physics, s: ResponseState): boolean {
  const r = physics.components.Sphere.radius;
  let reach = 0, radii = 0;
  for (let i = 0; i < s.bodyCount; i++) {
    const a = s.bodies[i];
    reach += s.reach[a];
    radii += r[a];
  }
  return reach > REACH_RATIO * radii;
}

/**
 * Builds this tick's path grid from the dynamic grid (`s.dynamicGrid`) and the dynamic bodies' paths
 * at time 0, or leaves it unused (`active` false) when the spheres are slow. After `collectBodies`.
 */
export function buildPaths(physics: Physics, s: ResponseState): void {
  const g = s.paths;
  g.active = false;
  const grid = s.dynamicGrid!;
  if (!g.allowed || grid.count === 0 || s.bodyCount === 0 || !worthIt(physics, s)) return;
  const cap = s.capacity;
  if (g.tracked.length < cap) {
    g.tracked = new Uint8Array(cap);
    g.limited = new Uint8Array(cap);
    g.reach = new Float64Array(6 * cap);
    g.latest = new Int32Array(cap);
    g.stamp = new Uint32Array(cap);
    g.stampValue = 0;
  } else {
    g.tracked.fill(0);
    g.limited.fill(0);
  }
  // Cell side: the mean extent of the paths' pieces (largest axis of |v dt| per slice plus the diameter).
  const { Velocity: v, Sphere: sp } = physics.components;
  const dt = physics.dt;
  let sum = 0;
  for (let i = 0; i < s.bodyCount; i++) {
    const a = s.bodies[i];
    const ax = Math.abs(v.x[a]), ay = Math.abs(v.y[a]), az = Math.abs(v.z[a]);
    sum += (ax > ay ? (ax > az ? ax : az) : ay > az ? ay : az) * (dt / PATH_SLICES) + 2 * sp.radius[a];
  }
  const side = sum / s.bodyCount;
  if (!(side > 0 && side < Infinity)) return;
  pathGridReset(g, side, grid.count + s.bodyCount);
  const b = g.scratch;
  const flags = internalsOf(physics).flags;
  for (let i = 0; i < grid.count; i++) {
    const id = grid.ids[i];
    // Every entity of the dynamic grid is tracked: a sleeper woken by an impact moves from then on.
    g.tracked[id] = 1;
    if (isDynamic(flags[id])) {
      g.limited[id] = 1;
      for (let k = 0; k < 6; k++) g.reach[6 * id + k] = grid.bounds[6 * i + k];
    }
    if (s.state[id] === DYNAMIC) continue;
    for (let k = 0; k < 6; k++) b[k] = grid.bounds[6 * i + k];
    for (let w = 0; w < PATH_SLICES; w++) pathGridInsert(g, id, w, -1);
  }
  for (let i = 0; i < s.bodyCount; i++) trackPath(physics, s, s.bodies[i]);
}
