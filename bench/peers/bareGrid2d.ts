/**
 * The 2D speed-limit proxy: bench/peers/bareGrid.ts in the plane, for the 2D arena
 * (src/scenes/arena2d.ts) — static circle–rectangle contacts only, no ECS, no contact output (a
 * count), no filtering, no validation, float64, x and y only.
 *
 * Set-up: each rectangle's world bounds grown by the largest circle radius are bucketed by a counting
 * sort into a dense grid over the rectangles' region (cell side = the largest circle diameter; one
 * entry list of rectangle indices per cell, CSR); per rectangle a record of centre, rotation (cos,
 * sin: the z-rotation matrix of its quaternion, the arithmetic our 3D path uses) and half extents.
 * Per tick: move the circles (x += v·dt, reflect at the walls: bit for bit the arena's motion), then
 * for each circle visit the one cell that holds its centre and test each rectangle there exactly:
 * the centre into the rectangle's frame, clamped to it, squared distance ≤ r² (closed).
 */
import type { ArenaSpec } from '../../src/scenes/arena.js';
import type { Peer } from '../common.js';

/** Per-rectangle record: centre (0, 1), cos, sin (2, 3), half extents (4, 5). */
const STRIDE = 6;

/** Circle state of the 2D peers: x, y, velocity, radius (float64, as our components). */
export interface CircleState {
  n: number;
  px: Float64Array; py: Float64Array; vx: Float64Array; vy: Float64Array; r: Float64Array;
  size: number;
  dt: number;
}

export function circleState(spec: ArenaSpec): CircleState {
  const n = spec.spheres.length;
  const a = () => new Float64Array(n);
  const s: CircleState = { n, px: a(), py: a(), vx: a(), vy: a(), r: a(), size: spec.size, dt: spec.dt };
  spec.spheres.forEach((sp, i) => {
    s.px[i] = sp.position[0]; s.py[i] = sp.position[1];
    s.vx[i] = sp.velocity[0]; s.vy[i] = sp.velocity[1];
    s.r[i] = sp.radius;
  });
  return s;
}

/** x += v·dt, then reflect a velocity component whose position left [0, size] moving outward. */
export function moveCircles(s: CircleState): void {
  const { px, py, vx, vy, dt, size } = s;
  for (let i = 0; i < s.n; i++) {
    px[i] += vx[i] * dt;
    py[i] += vy[i] * dt;
    if ((px[i] < 0 && vx[i] < 0) || (px[i] > size && vx[i] > 0)) vx[i] = -vx[i];
    if ((py[i] < 0 && vy[i] < 0) || (py[i] > size && vy[i] > 0)) vy[i] = -vy[i];
  }
}

/** cos and sin of a rectangle's rotation about z, from its quaternion (0, 0, s, c). */
export function rectRotation(q: readonly number[]): [number, number] {
  const z = q[2], w = q[3];
  return [1 - 2 * (z * z), 2 * (z * w)];
}

export function createBareGrid2d(spec: ArenaSpec): Peer {
  const s = circleState(spec);
  const m = spec.boxes.length;
  let rMax = 0;
  for (let i = 0; i < s.n; i++) rMax = Math.max(rMax, s.r[i]);
  const lo = new Float64Array(2 * m), hi = new Float64Array(2 * m), rec = new Float64Array(STRIDE * m);
  let gMin = [Infinity, Infinity], gMax = [-Infinity, -Infinity];
  spec.boxes.forEach((b, i) => {
    const [c, sn] = rectRotation(b.rotation);
    const [hx, hy] = b.halfExtents;
    const e = [Math.abs(c) * hx + Math.abs(sn) * hy, Math.abs(sn) * hx + Math.abs(c) * hy];
    for (let a = 0; a < 2; a++) {
      const pad = 1e-9 * (1 + Math.abs(b.position[a]) + e[a] + rMax);
      lo[2 * i + a] = b.position[a] - e[a] - rMax - pad;
      hi[2 * i + a] = b.position[a] + e[a] + rMax + pad;
      gMin[a] = Math.min(gMin[a], lo[2 * i + a]);
      gMax[a] = Math.max(gMax[a], hi[2 * i + a]);
    }
    rec.set([b.position[0], b.position[1], c, sn, hx, hy], STRIDE * i);
  });
  if (m === 0) gMin = gMax = [0, 0];
  const cell = rMax > 0 ? 2 * rMax : 1;
  const inv = 1 / cell;
  const dims = gMin.map((v, a) => Math.max(1, Math.floor((gMax[a] - v) * inv) + 1));
  const [nx, ny] = dims;
  const cellOf = (a: number, v: number) => Math.min(dims[a] - 1, Math.max(0, Math.floor((v - gMin[a]) * inv)));
  const start = new Int32Array(nx * ny + 1);
  const forCells = (i: number, f: (c: number) => void) => {
    const x0 = cellOf(0, lo[2 * i]), x1 = cellOf(0, hi[2 * i]);
    const y0 = cellOf(1, lo[2 * i + 1]), y1 = cellOf(1, hi[2 * i + 1]);
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) f(x * ny + y);
  };
  for (let i = 0; i < m; i++) forCells(i, (c) => start[c + 1]++);
  for (let c = 0; c < nx * ny; c++) start[c + 1] += start[c];
  const fill = start.slice(0, nx * ny);
  const boxIndex = new Int32Array(start[nx * ny]);
  for (let i = 0; i < m; i++) forCells(i, (c) => (boxIndex[fill[c]++] = i));
  const data = rec;
  const ox = gMin[0], oy = gMin[1];
  let count = 0;
  let record: number[] | null = null;

  const detect = () => {
    const { px, py, r: radius } = s;
    let n = 0;
    for (let i = 0; i < s.n; i++) {
      const cx = px[i], cy = py[i], r = radius[i];
      const gx = Math.floor((cx - ox) * inv), gy = Math.floor((cy - oy) * inv);
      if (gx < 0 || gy < 0 || gx >= nx || gy >= ny) continue;
      const c = gx * ny + gy;
      const end = start[c + 1];
      const r2 = r * r;
      for (let e = start[c]; e < end; e++) {
        const b = boxIndex[e];
        const o = STRIDE * b;
        const dx = cx - data[o], dy = cy - data[o + 1];
        const co = data[o + 2], si = data[o + 3];
        // Rectangle frame: R^T d, clamped to the half extents.
        let lx = co * dx + si * dy;
        let ly = co * dy - si * dx;
        const hx = data[o + 4], hy = data[o + 5];
        lx = lx > hx ? lx - hx : lx < -hx ? lx + hx : 0;
        ly = ly > hy ? ly - hy : ly < -hy ? ly + hy : 0;
        if (lx * lx + ly * ly <= r2) {
          n++;
          if (record) record.push(i * m + b);
        }
      }
    }
    count = n;
  };
  return {
    id: 'bare-grid-2d',
    bodies: s.n + m,
    lag: 0,
    tick() {
      moveCircles(s);
      detect();
    },
    contacts: () => count,
    pairs(out) {
      record = out;
      detect();
      record = null;
    },
    free() {},
  };
}
