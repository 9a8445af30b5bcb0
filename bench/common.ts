/**
 * Shared pieces of the benchmark: the peer interface, the arena's sphere motion (the same float64
 * arithmetic as `step` + `reflectInBounds`), statistics and heap helpers.
 */
import type { ArenaSpec } from '../src/scenes/arena.js';

/** One implementation of the arena tick. */
export interface Peer {
  /** Stable id, e.g. 'ours-static'. */
  id: string;
  /** Bodies in the scene (spheres + boxes). */
  bodies: number;
  /**
   * Ticks whose contacts describe the pose *before* the tick's motion. Ours detects at the start
   * pose and then integrates (lag 1); the peers move first and then detect (lag 0).
   */
  lag: 0 | 1;
  /** One arena tick. */
  tick(): void;
  /** Sphere–box contacts found by the last tick. */
  contacts(): number;
  /** Appends the last tick's contacts as keys sphereIndex * boxes + boxIndex (not timed). */
  pairs(out: number[]): void;
  /** Extra memory facts (ours: physics-owned typed arrays). */
  state?(): Record<string, number>;
  /** Frees native (WASM) objects. */
  free(): void;
}

/** Sphere state of the peers: positions and velocities, float64 as in our components. */
export interface SphereState {
  n: number;
  px: Float64Array; py: Float64Array; pz: Float64Array;
  vx: Float64Array; vy: Float64Array; vz: Float64Array;
  r: Float64Array;
  size: number;
  dt: number;
}

export function sphereState(spec: ArenaSpec): SphereState {
  const n = spec.spheres.length;
  const a = () => new Float64Array(n);
  const s: SphereState = { n, px: a(), py: a(), pz: a(), vx: a(), vy: a(), vz: a(), r: a(), size: spec.size, dt: spec.dt };
  spec.spheres.forEach((sp, i) => {
    s.px[i] = sp.position[0]; s.py[i] = sp.position[1]; s.pz[i] = sp.position[2];
    s.vx[i] = sp.velocity[0]; s.vy[i] = sp.velocity[1]; s.vz[i] = sp.velocity[2];
    s.r[i] = sp.radius;
  });
  return s;
}

/**
 * x += v·dt, then reflect each velocity component whose position left [0, size] while moving
 * outward: bit for bit what `runIntegrate` followed by `reflectInBounds` do.
 */
export function moveSpheres(s: SphereState): void {
  const { px, py, pz, vx, vy, vz, dt, size } = s;
  for (let i = 0; i < s.n; i++) {
    px[i] += vx[i] * dt;
    py[i] += vy[i] * dt;
    pz[i] += vz[i] * dt;
    if ((px[i] < 0 && vx[i] < 0) || (px[i] > size && vx[i] > 0)) vx[i] = -vx[i];
    if ((py[i] < 0 && vy[i] < 0) || (py[i] > size && vy[i] > 0)) vy[i] = -vy[i];
    if ((pz[i] < 0 && vz[i] < 0) || (pz[i] > size && vz[i] > 0)) vz[i] = -vz[i];
  }
}

/**
 * Signed gap (distance − radius) between sphere i of `s` and box `b` of the spec, in float64,
 * computed here independently of the library: used to explain contact-set differences.
 */
export function sphereBoxGap(s: SphereState, i: number, b: ArenaSpec['boxes'][number]): number {
  return gapSphereBox(s.px[i], s.py[i], s.pz[i], s.r[i], b);
}

/** Signed gap (distance − radius, negative inside) of a sphere at (cx, cy, cz) to a spec box. */
export function gapSphereBox(cx: number, cy: number, cz: number, r: number, b: ArenaSpec['boxes'][number]): number {
  const [qx, qy, qz, qw] = b.rotation;
  const dx = cx - b.position[0], dy = cy - b.position[1], dz = cz - b.position[2];
  // Rotate d by the inverse (conjugate) of q.
  const x = -qx, y = -qy, z = -qz, w = qw;
  const tx = 2 * (y * dz - z * dy), ty = 2 * (z * dx - x * dz), tz = 2 * (x * dy - y * dx);
  const lx = dx + w * tx + (y * tz - z * ty);
  const ly = dy + w * ty + (z * tx - x * tz);
  const lz = dz + w * tz + (x * ty - y * tx);
  const [hx, hy, hz] = b.halfExtents;
  const ox = Math.max(Math.abs(lx) - hx, 0), oy = Math.max(Math.abs(ly) - hy, 0), oz = Math.max(Math.abs(lz) - hz, 0);
  const out = Math.hypot(ox, oy, oz);
  const inside = Math.min(Math.max(Math.abs(lx) - hx, Math.abs(ly) - hy, Math.abs(lz) - hz), 0);
  return out + inside - r;
}

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const a = [...xs].sort((p, q) => p - q);
  const m = a.length >> 1;
  return a.length % 2 ? a[m] : (a[m - 1] + a[m]) / 2;
}

export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const a = [...xs].sort((p, r) => p - r);
  const pos = (a.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return a[lo] + (a[hi] - a[lo]) * (pos - lo);
}

/** Forces a full GC (the child processes run with --expose-gc). */
export function fullGc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) throw new Error('run with --expose-gc (npm run bench re-spawns node with it)');
  g();
  g();
}

export const now = (): number => performance.now();
