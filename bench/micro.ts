/**
 * Micro benchmarks of the geometry functions with tinybench. Inputs (1,024 cases per function,
 * about half of them hits) are generated before timing from the seeded PRNG of the scenes; one
 * tinybench iteration runs all 1,024 cases, so the reported ns/op is (median iteration time) / 1,024
 * and the timer overhead is spread over the batch. Every result is consumed into a sink that is
 * printed, so no call can be optimised away.
 *
 * Run alone: `npx tsx bench/micro.ts [--quick]` (run.ts calls `runMicro`).
 */
import { Bench } from 'tinybench';
import {
  castBoxBox, castSphereBox, castSphereSphere, contactBoxBox, contactSphereBox, contactSphereSphere, overlapBoxBox,
  overlapSphereBox, overlapSphereSphere,
  type BoxShape, type CastResult, type ContactResult, type SphereShape, type Vec3,
} from '../src/index.js';
import { createRng, randomQuat } from '../src/scenes/prng.js';

export interface MicroResult {
  fn: string;
  nsPerOp: number;
  nsP25: number;
  nsP75: number;
  hitRate: number;
  samples: number;
}

const CASES = 1024;

export async function runMicro(quick = false, log: (s: string) => void = () => {}): Promise<{ results: MicroResult[]; sink: number }> {
  const rng = createRng(20240611);
  const v = (lo: number, hi: number): Vec3 => ({ x: rng.range(lo, hi), y: rng.range(lo, hi), z: rng.range(lo, hi) });
  const spheres: SphereShape[] = [], boxSpheres: SphereShape[] = [], others: SphereShape[] = [], boxes: BoxShape[] = [], motions: Vec3[] = [];
  for (let i = 0; i < CASES; i++) {
    boxSpheres.push({ center: v(-2.6, 2.6), radius: rng.range(0.25, 1) });
    spheres.push({ center: v(0, 0), radius: rng.range(0.25, 1) });
    // Sphere pairs at a distance uniform in [0, 2·(ra + rb)] along a random direction: ~50% overlap.
    const b: SphereShape = { center: v(-1, 1), radius: rng.range(0.25, 1) };
    others.push(b);
    const d = v(-1, 1);
    const len = Math.hypot(d.x, d.y, d.z) || 1;
    const dist = rng.range(0, 2) * (spheres[i].radius + b.radius);
    spheres[i].center = { x: b.center.x + (d.x / len) * dist, y: b.center.y + (d.y / len) * dist, z: b.center.z + (d.z / len) * dist };
    const q = randomQuat(rng);
    boxes.push({ center: v(-0.2, 0.2), halfExtents: v(0.5, 2), rotation: i % 2 === 0 ? { x: 0, y: 0, z: 0, w: 1 } : { x: q[0], y: q[1], z: q[2], w: q[3] } });
    motions.push(v(-2, 2));
  }
  // Box pairs from their own generator (the cases above stay as they were): a around b, half of them
  // rotated, a's motion as the sphere casts'.
  const boxRng = createRng(20240613);
  const bv = (lo: number, hi: number): Vec3 => ({ x: boxRng.range(lo, hi), y: boxRng.range(lo, hi), z: boxRng.range(lo, hi) });
  const pairsA: BoxShape[] = [], pairsB: BoxShape[] = [], boxMotions: Vec3[] = [];
  for (let i = 0; i < CASES; i++) {
    const qa = randomQuat(boxRng);
    const qb = randomQuat(boxRng);
    pairsB.push({ center: bv(-0.2, 0.2), halfExtents: bv(0.5, 2), rotation: i % 2 === 0 ? { x: 0, y: 0, z: 0, w: 1 } : { x: qb[0], y: qb[1], z: qb[2], w: qb[3] } });
    pairsA.push({ center: bv(-2.6, 2.6), halfExtents: bv(0.25, 1), rotation: i % 4 < 2 ? { x: 0, y: 0, z: 0, w: 1 } : { x: qa[0], y: qa[1], z: qa[2], w: qa[3] } });
    boxMotions.push(bv(-2, 2));
  }
  const contact: ContactResult = { normal: { x: 0, y: 0, z: 0 }, depth: 0, point: { x: 0, y: 0, z: 0 } };
  const cast: CastResult = { toi: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
  let sink = 0;
  const hits = new Map<string, number>();
  const fns: Record<string, () => number> = {
    overlapSphereBox: () => { let h = 0; for (let i = 0; i < CASES; i++) if (overlapSphereBox(boxSpheres[i], boxes[i])) h++; return h; },
    contactSphereBox: () => { let h = 0; for (let i = 0; i < CASES; i++) if (contactSphereBox(boxSpheres[i], boxes[i], contact)) { h++; sink += contact.depth + contact.normal.x; } return h; },
    castSphereBox: () => { let h = 0; for (let i = 0; i < CASES; i++) if (castSphereBox(boxSpheres[i], motions[i], boxes[i], cast)) { h++; sink += cast.toi + cast.normal.y; } return h; },
    overlapSphereSphere: () => { let h = 0; for (let i = 0; i < CASES; i++) if (overlapSphereSphere(spheres[i], others[i])) h++; return h; },
    contactSphereSphere: () => { let h = 0; for (let i = 0; i < CASES; i++) if (contactSphereSphere(spheres[i], others[i], contact)) { h++; sink += contact.depth + contact.normal.x; } return h; },
    castSphereSphere: () => { let h = 0; for (let i = 0; i < CASES; i++) if (castSphereSphere(spheres[i], motions[i], others[i], cast)) { h++; sink += cast.toi + cast.normal.y; } return h; },
    overlapBoxBox: () => { let h = 0; for (let i = 0; i < CASES; i++) if (overlapBoxBox(pairsA[i], pairsB[i])) h++; return h; },
    contactBoxBox: () => { let h = 0; for (let i = 0; i < CASES; i++) if (contactBoxBox(pairsA[i], pairsB[i], contact)) { h++; sink += contact.depth + contact.normal.x + contact.point.z; } return h; },
    castBoxBox: () => { let h = 0; for (let i = 0; i < CASES; i++) if (castBoxBox(pairsA[i], boxMotions[i], pairsB[i], cast)) { h++; sink += cast.toi + cast.normal.y + cast.point.z; } return h; },
  };
  const bench = new Bench({ time: quick ? 150 : 1000, warmupTime: quick ? 50 : 300, iterations: 32, retainSamples: true });
  for (const [name, fn] of Object.entries(fns)) {
    hits.set(name, fn() / CASES);
    bench.add(name, () => { sink += fn(); });
  }
  await bench.run();
  const results: MicroResult[] = [];
  for (const task of bench.tasks) {
    const r = task.result;
    if (r.state !== 'completed') throw new Error(`micro ${task.name}: ${r.state}`);
    const samples = [...(r.latency.samples ?? [])].sort((a, b) => a - b);
    const at = (f: number) => (samples.length ? samples[Math.round((samples.length - 1) * f)] : r.latency.p50);
    results.push({
      fn: task.name,
      nsPerOp: (r.latency.p50 * 1e6) / CASES,
      nsP25: (at(0.25) * 1e6) / CASES,
      nsP75: (at(0.75) * 1e6) / CASES,
      hitRate: hits.get(task.name)!,
      samples: samples.length || r.latency.samplesCount,
    });
    log(`micro ${task.name}: ${((r.latency.p50 * 1e6) / CASES).toFixed(1)} ns/op`);
  }
  return { results, sink };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { results, sink } = await runMicro(process.argv.includes('--quick'));
  console.table(results.map((r) => ({ function: r.fn, 'ns/op (median)': r.nsPerOp.toFixed(1), 'p25–p75': `${r.nsP25.toFixed(1)}–${r.nsP75.toFixed(1)}`, 'hit rate': r.hitRate.toFixed(2) })));
  console.log(`sink ${sink}`);
}
