/**
 * Swept queries: every sphere's tick motion (velocity · dt from the arena's start pose) against the
 * boxes, time of impact as queries per second.
 *
 * - pairs: the same candidate pairs for both (boxes whose bounds meet the sphere's swept bounds,
 *   from our public grid, listed before timing): our `castSphereBox` against Rapier's shape-level
 *   `Ball.castShape(…, Cuboid, …, targetDistance 0, maxToi 1, stopAtPenetration true)`. One query
 *   = one pair. The toi of both is compared pair by pair.
 * - first hit: one query per sphere for its earliest impact: ours = `gridQuery` over the boxes'
 *   grid + `castSphereBox` on each candidate; Rapier = `world.castShape` in a world holding only
 *   the boxes (its own BVH).
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { gridAdd, gridBuild, createGrid, gridQuery, createQueryOut } from '../src/grid/index.js';
import { castSphereBox, type BoxShape, type CastResult, type SphereShape } from '../src/index.js';
import type { ArenaSpec } from '../src/scenes/arena.js';
import { gapSphereBox, median, now, quantile } from './common.js';

export interface SweptResult {
  spheres: number;
  pairs: number;
  hits: number;
  oursPairQps: number;
  rapierPairQps: number;
  oursFirstHitQps: number;
  rapierFirstHitQps: number;
  /** Largest |toi ours − toi Rapier| over pairs both report as hits. */
  maxToiDiff: number;
  /** 99th percentile of |toi ours − toi Rapier| over those pairs. */
  p99ToiDiff: number;
  /** Where the largest difference is: 'face' | 'edge/corner' by our contact normal. */
  maxToiDiffAt: string;
  /** Signed gap (float64, computed independently) at our toi and at Rapier's for that pair. */
  maxToiDiffGapOurs: number;
  maxToiDiffGapRapier: number;
  /** Pairs where only one of the two reports a hit. */
  hitMismatches: number;
  firstHitMaxToiDiff: number;
  firstHitMismatches: number;
}

/** Runs `fn` (which does `ops` queries) repeatedly for about `ms`; returns queries per second. */
function rate(fn: () => void, ops: number, ms: number): number {
  let reps = 0;
  const t0 = now();
  let t = t0;
  do {
    fn();
    reps++;
    t = now();
  } while (t - t0 < ms);
  return (reps * ops) / ((t - t0) / 1000);
}

export function runSwept(spec: ArenaSpec, rounds: number, msPerRound: number, log: (s: string) => void): SweptResult {
  const n = spec.spheres.length;
  const m = spec.boxes.length;
  const dt = spec.dt;
  const boxes: BoxShape[] = spec.boxes.map((b) => ({
    center: { x: b.position[0], y: b.position[1], z: b.position[2] },
    halfExtents: { x: b.halfExtents[0], y: b.halfExtents[1], z: b.halfExtents[2] },
    rotation: { x: b.rotation[0], y: b.rotation[1], z: b.rotation[2], w: b.rotation[3] },
  }));
  // Box bounds into our grid (cell ≈ the mean box bounds).
  const grid = createGrid(4, m);
  spec.boxes.forEach((b, j) => {
    const [x, y, z, w] = b.rotation;
    const [hx, hy, hz] = b.halfExtents;
    const r = [
      [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
      [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
      [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ];
    const e = r.map((row) => Math.abs(row[0]) * hx + Math.abs(row[1]) * hy + Math.abs(row[2]) * hz + 1e-9);
    gridAdd(grid, j, b.position[0] - e[0], b.position[1] - e[1], b.position[2] - e[2], b.position[0] + e[0], b.position[1] + e[1], b.position[2] + e[2]);
  });
  gridBuild(grid);
  // Sphere data and motions.
  const px = new Float64Array(n), py = new Float64Array(n), pz = new Float64Array(n), rr = new Float64Array(n);
  const mx = new Float64Array(n), my = new Float64Array(n), mz = new Float64Array(n);
  const lo = new Float64Array(3 * n), hi = new Float64Array(3 * n);
  spec.spheres.forEach((s, i) => {
    px[i] = s.position[0]; py[i] = s.position[1]; pz[i] = s.position[2]; rr[i] = s.radius;
    mx[i] = s.velocity[0] * dt; my[i] = s.velocity[1] * dt; mz[i] = s.velocity[2] * dt;
    const p = [px[i], py[i], pz[i]], mv = [mx[i], my[i], mz[i]];
    for (let a = 0; a < 3; a++) {
      lo[3 * i + a] = p[a] - rr[i] + Math.min(mv[a], 0);
      hi[3 * i + a] = p[a] + rr[i] + Math.max(mv[a], 0);
    }
  });
  const q = createQueryOut(64);
  const ps: number[] = [], pb: number[] = [];
  for (let i = 0; i < n; i++) {
    q.count = 0;
    gridQuery(grid, q, lo[3 * i], lo[3 * i + 1], lo[3 * i + 2], hi[3 * i], hi[3 * i + 1], hi[3 * i + 2]);
    for (let k = 0; k < q.count; k++) {
      ps.push(i);
      pb.push(q.ids[k]);
    }
  }
  const pairS = Int32Array.from(ps), pairB = Int32Array.from(pb);
  const np = pairS.length;
  const tOurs = new Float64Array(np).fill(-1), tRap = new Float64Array(np).fill(-1);
  const edge = new Uint8Array(np);

  // Ours, per pair.
  const sphere: SphereShape = { center: { x: 0, y: 0, z: 0 }, radius: 0 };
  const motion = { x: 0, y: 0, z: 0 };
  const cast: CastResult = { toi: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
  let sink = 0;
  const oursPairs = (record: boolean) => {
    for (let k = 0; k < np; k++) {
      const i = pairS[k];
      sphere.center.x = px[i]; sphere.center.y = py[i]; sphere.center.z = pz[i]; sphere.radius = rr[i];
      motion.x = mx[i]; motion.y = my[i]; motion.z = mz[i];
      if (castSphereBox(sphere, motion, boxes[pairB[k]], cast)) {
        sink += cast.toi;
        if (record) {
          tOurs[k] = cast.toi;
          // Face contact when the normal is one of the box's axes.
          const b = boxes[pairB[k]], qq = b.rotation!;
          const axes = [[1, 0, 0], [0, 1, 0], [0, 0, 1]].map(([ax, ay, az]) => {
            const tx = 2 * (qq.y * az - qq.z * ay), ty = 2 * (qq.z * ax - qq.x * az), tz = 2 * (qq.x * ay - qq.y * ax);
            return [ax + qq.w * tx + (qq.y * tz - qq.z * ty), ay + qq.w * ty + (qq.z * tx - qq.x * tz), az + qq.w * tz + (qq.x * ty - qq.y * tx)];
          });
          const face = axes.some((a) => Math.abs(Math.abs(a[0] * cast.normal.x + a[1] * cast.normal.y + a[2] * cast.normal.z) - 1) < 1e-9);
          edge[k] = face ? 0 : 1;
        }
      }
    }
  };
  // Rapier, per pair (shape-level).
  const ball = new RAPIER.Ball(1);
  const cuboids = spec.boxes.map((b) => new RAPIER.Cuboid(b.halfExtents[0], b.halfExtents[1], b.halfExtents[2]));
  const boxPos = spec.boxes.map((b) => ({ x: b.position[0], y: b.position[1], z: b.position[2] }));
  const boxRot = spec.boxes.map((b) => ({ x: b.rotation[0], y: b.rotation[1], z: b.rotation[2], w: b.rotation[3] }));
  const ident = { x: 0, y: 0, z: 0, w: 1 };
  const zero = { x: 0, y: 0, z: 0 };
  const pos = { x: 0, y: 0, z: 0 };
  const vel = { x: 0, y: 0, z: 0 };
  const hit = new RAPIER.ShapeCastHit(0, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0 });
  const rapierPairs = (record: boolean) => {
    for (let k = 0; k < np; k++) {
      const i = pairS[k], j = pairB[k];
      ball.radius = rr[i];
      pos.x = px[i]; pos.y = py[i]; pos.z = pz[i];
      vel.x = mx[i]; vel.y = my[i]; vel.z = mz[i];
      const h = ball.castShape(pos, ident, vel, cuboids[j], boxPos[j], boxRot[j], zero, 0, 1, true, hit);
      if (h) {
        sink += h.time_of_impact;
        if (record) tRap[k] = h.time_of_impact;
      }
    }
  };
  // First hit per sphere.
  const firstOurs = new Float64Array(n).fill(-1), firstRap = new Float64Array(n).fill(-1);
  const oursFirst = (record: boolean) => {
    for (let i = 0; i < n; i++) {
      q.count = 0;
      gridQuery(grid, q, lo[3 * i], lo[3 * i + 1], lo[3 * i + 2], hi[3 * i], hi[3 * i + 1], hi[3 * i + 2]);
      sphere.center.x = px[i]; sphere.center.y = py[i]; sphere.center.z = pz[i]; sphere.radius = rr[i];
      motion.x = mx[i]; motion.y = my[i]; motion.z = mz[i];
      let best = 2;
      for (let k = 0; k < q.count; k++) {
        if (castSphereBox(sphere, motion, boxes[q.ids[k]], cast) && cast.toi < best) best = cast.toi;
      }
      if (best <= 1) {
        sink += best;
        if (record) firstOurs[i] = best;
      }
    }
  };
  const qworld = new RAPIER.World({ x: 0, y: 0, z: 0 });
  spec.boxes.forEach((b, j) => {
    qworld.createCollider(RAPIER.ColliderDesc.cuboid(b.halfExtents[0], b.halfExtents[1], b.halfExtents[2])
      .setTranslation(b.position[0], b.position[1], b.position[2]).setRotation(boxRot[j]));
  });
  qworld.step();
  const rapierFirst = (record: boolean) => {
    for (let i = 0; i < n; i++) {
      ball.radius = rr[i];
      pos.x = px[i]; pos.y = py[i]; pos.z = pz[i];
      vel.x = mx[i]; vel.y = my[i]; vel.z = mz[i];
      const h = qworld.castShape(pos, ident, vel, ball, 0, 1, true);
      if (h) {
        sink += h.time_of_impact;
        if (record) firstRap[i] = h.time_of_impact;
      }
    }
  };

  // Record once (also a first warm-up), then timed rounds, interleaved.
  oursPairs(true); rapierPairs(true); oursFirst(true); rapierFirst(true);
  const warm = Math.max(200, msPerRound);
  rate(() => oursPairs(false), np, warm); rate(() => rapierPairs(false), np, warm);
  rate(() => oursFirst(false), n, warm); rate(() => rapierFirst(false), n, warm);
  const r: Record<'op' | 'rp' | 'of' | 'rf', number[]> = { op: [], rp: [], of: [], rf: [] };
  for (let k = 0; k < rounds; k++) {
    r.op.push(rate(() => oursPairs(false), Math.max(np, 1), msPerRound));
    r.rp.push(rate(() => rapierPairs(false), Math.max(np, 1), msPerRound));
    r.of.push(rate(() => oursFirst(false), n, msPerRound));
    r.rf.push(rate(() => rapierFirst(false), n, msPerRound));
  }
  let maxToiDiff = 0, maxAt = '-', hitMismatches = 0, hits = 0, maxK = -1;
  const diffs: number[] = [];
  for (let k = 0; k < np; k++) {
    if (tOurs[k] >= 0) hits++;
    if ((tOurs[k] >= 0) !== (tRap[k] >= 0)) hitMismatches++;
    else if (tOurs[k] >= 0) {
      const d = Math.abs(tOurs[k] - tRap[k]);
      diffs.push(d);
      if (d > maxToiDiff) {
        maxToiDiff = d;
        maxAt = edge[k] ? 'edge/corner' : 'face';
        maxK = k;
      }
    }
  }
  const gapAt = (k: number, t: number) => {
    if (k < 0) return 0;
    const i = pairS[k];
    return gapSphereBox(px[i] + t * mx[i], py[i] + t * my[i], pz[i] + t * mz[i], rr[i], spec.boxes[pairB[k]]);
  };
  let firstMax = 0, firstMis = 0;
  for (let i = 0; i < n; i++) {
    if ((firstOurs[i] >= 0) !== (firstRap[i] >= 0)) firstMis++;
    else if (firstOurs[i] >= 0) firstMax = Math.max(firstMax, Math.abs(firstOurs[i] - firstRap[i]));
  }
  qworld.free();
  log(`swept: sink ${sink.toPrecision(6)}`);
  return {
    spheres: n, pairs: np, hits,
    oursPairQps: median(r.op), rapierPairQps: median(r.rp),
    oursFirstHitQps: median(r.of), rapierFirstHitQps: median(r.rf),
    maxToiDiff, p99ToiDiff: quantile(diffs, 0.99), maxToiDiffAt: maxAt, hitMismatches,
    maxToiDiffGapOurs: gapAt(maxK, tOurs[Math.max(maxK, 0)]), maxToiDiffGapRapier: gapAt(maxK, tRap[Math.max(maxK, 0)]),
    firstHitMaxToiDiff: firstMax, firstHitMismatches: firstMis,
  };
}
