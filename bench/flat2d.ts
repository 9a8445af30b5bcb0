/**
 * The 2D section of `npm run bench`: the 2D arena (src/scenes/arena2d.ts: N circles r ∈ [0.25, 1],
 * v ∈ ±10, N/10 rectangles half rotated, side 4·√N, dt = 1/60) through ours (the 3D path at z = 0,
 * static and continuous contacts), the bare 2D typed-array grid (the speed-limit proxy), Rapier 2D,
 * detect-collisions and a 2D brute force (bench/peers/flat2d.ts). One fresh process per size (run
 * with --no-liftoff, so Rapier's WASM goes straight to the optimising tier):
 *
 * 1. build; record every implementation's contact pairs per pose (ours one tick later: it detects
 *    at the tick's start pose) and check them against the brute force (at N ≤ 10,000; above, against
 *    the bare grid, itself checked against the brute force at the smaller size); a differing pair
 *    is explained by its 2D gap recomputed in float64 at that pose (float32 rounding of touching
 *    for Rapier, exact touching otherwise);
 * 2. warm-up: ≥ 5 s of Rapier ticks, ≥ 1.5 s of each other's, interleaved;
 * 3. timed rounds: every implementation runs a batch of ~250 ms of ticks in a rotated order; ms/tick
 *    = median over rounds, "÷ X" = median over rounds of this ms / X ms in the same round.
 */
import type { ArenaSpec } from '../src/scenes/arena.js';
import { arena2dSpec } from '../src/scenes/arena2d.js';
import { gapSphereBox, median, now, type Peer } from './common.js';
import { circleState, createBareGrid2d, moveCircles } from './peers/bareGrid2d.js';
import { createBruteForce2d, createDetectCollisions, createOurs2d, createRapier2d, initRapier2d } from './peers/flat2d.js';

export interface Flat2dOptions { size: number; seed: number; quick: boolean }

export interface Flat2dRow {
  id: string;
  msPerTick: number;
  overBare: number;
  overRapier: number;
  contactsPerTick: number;
  check: string;
}

export interface Flat2dResult { size: number; rectangles: number; rows: Flat2dRow[]; continuousOverStatic: number }

const IDS = ['ours-2d', 'ours-2d-continuous', 'bare-grid-2d', 'rapier-2d', 'detect-collisions', 'brute-force-2d'] as const;

function create(id: (typeof IDS)[number], spec: ArenaSpec): Peer {
  switch (id) {
    case 'ours-2d': return createOurs2d(spec, false);
    case 'ours-2d-continuous': return createOurs2d(spec, true);
    case 'bare-grid-2d': return createBareGrid2d(spec);
    case 'rapier-2d': return createRapier2d(spec);
    case 'detect-collisions': return createDetectCollisions(spec);
    case 'brute-force-2d': return createBruteForce2d(spec);
  }
}

/** ms per tick of a batch of about `ms` milliseconds. */
function batch(p: Peer, ms: number): number {
  const t0 = now();
  let k = 0;
  do {
    p.tick();
    k++;
  } while (now() - t0 < ms);
  return (now() - t0) / k;
}

export async function runFlat2d(o: Flat2dOptions, log: (s: string) => void): Promise<Flat2dResult> {
  await initRapier2d();
  const spec = arena2dSpec({ circles: o.size, seed: o.seed });
  const m = spec.boxes.length;
  const brute = o.size <= 10_000;
  const ids = IDS.filter((id) => brute || id !== 'brute-force-2d');
  const peers = new Map<string, Peer>();
  for (const id of ids) {
    const t = now();
    peers.set(id, create(id, spec));
    log(`  2D ${o.size}: built ${id} in ${(now() - t).toFixed(0)} ms`);
  }
  // Contact pairs per pose k (the pose after k moves): peers record after tick k, ours after k + 1.
  const poses = o.quick ? 3 : 5;
  const logs = new Map<string, number[][]>();
  for (const [id, p] of peers) {
    const rec: number[][] = [];
    for (let t = 1; t <= poses + p.lag; t++) {
      p.tick();
      const k = t - p.lag;
      if (k < 1) continue;
      const out: number[] = [];
      p.pairs(out);
      if (id !== 'rapier-2d' && out.length !== p.contacts()) throw new Error(`${id}: ${out.length} pairs listed, ${p.contacts()} counted`);
      if (id === 'rapier-2d' && out.length !== p.contacts()) log(`  rapier-2d: ${out.length} pairs listed, ${p.contacts()} counted from events`);
      rec[k] = out.sort((a, b) => a - b);
    }
    logs.set(id, rec);
  }
  const reference = brute ? 'brute-force-2d' : 'bare-grid-2d';
  const truth = circleState(spec);
  const snaps: Float64Array[] = [];
  for (let k = 0; k <= poses; k++) {
    snaps.push(Float64Array.from([...truth.px, ...truth.py]));
    moveCircles(truth);
  }
  const tol64 = 1e-12 * (spec.size + 4), tol32 = 2 ** -20 * (spec.size + 4);
  const gap = (k: number, key: number) => {
    const i = Math.floor(key / m), b = key % m;
    return gapSphereBox(snaps[k][i], snaps[k][truth.n + i], 0, truth.r[i], spec.boxes[b]);
  };
  const checks = new Map<string, string>();
  checks.set(reference, 'reference');
  for (const id of ids) {
    if (id === reference) continue;
    const rec = logs.get(id)!;
    let exact = 0, f32 = 0, unexplained = 0, missing = 0, extra = 0;
    for (let k = 1; k <= poses; k++) {
      const ref = logs.get(reference)![k];
      const a = new Set(rec[k]), r = new Set(ref);
      if (id === 'ours-2d-continuous') {
        // Continuous contacts hold every pair touching at the start pose (and more: mid-motion).
        for (const key of ref) if (!a.has(key)) missing++;
        extra += rec[k].filter((key) => !r.has(key)).length;
        continue;
      }
      for (const key of [...rec[k].filter((x) => !r.has(x)), ...ref.filter((x) => !a.has(x))]) {
        const g = Math.abs(gap(k, key));
        if (g <= tol64) exact++;
        else if (g <= tol32) f32++;
        else unexplained++;
      }
    }
    checks.set(id, id === 'ours-2d-continuous'
      ? (missing === 0 ? `⊇ ${reference} at the start pose; +${(extra / poses).toFixed(1)}/tick swept` : `MISSING ${missing} start-pose pairs`)
      : unexplained > 0 ? `${unexplained} UNEXPLAINED pair(s)` : exact + f32 === 0 ? `= ${reference}` : `= ${reference} but ${exact + f32} touching pair(s) (${f32} within float32 rounding)`);
  }
  // Warm-up, interleaved: Rapier ≥ 5 s (WASM tier-up), the others ≥ 1.5 s.
  const warm = new Map<string, number>(ids.map((id) => [id, 0]));
  const warmEnd = (id: string) => (id === 'rapier-2d' ? (o.quick ? 2000 : 5000) : o.quick ? 500 : 1500);
  while ([...warm].some(([id, t]) => t < warmEnd(id))) {
    for (const [id, p] of peers) {
      if (warm.get(id)! >= warmEnd(id)) continue;
      const t = now();
      batch(p, 100);
      warm.set(id, warm.get(id)! + now() - t);
    }
  }
  const rounds = o.quick ? 3 : 9;
  const ms = new Map<string, number[]>(ids.map((id) => [id, []]));
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < ids.length; j++) {
      const id = ids[(r + j) % ids.length];
      ms.get(id)!.push(batch(peers.get(id)!, o.quick ? 100 : 250));
    }
  }
  const ratioTo = (id: string, ref: string) => median(ms.get(id)!.map((x, r) => x / ms.get(ref)![r]));
  const rows: Flat2dRow[] = ids.map((id) => ({
    id,
    msPerTick: median(ms.get(id)!),
    overBare: ratioTo(id, 'bare-grid-2d'),
    overRapier: ratioTo(id, 'rapier-2d'),
    contactsPerTick: logs.get(id)!.slice(1).reduce((s, x) => s + x.length, 0) / poses,
    check: checks.get(id)!,
  }));
  for (const p of peers.values()) p.free();
  return { size: o.size, rectangles: m, rows, continuousOverStatic: ratioTo('ours-2d-continuous', 'ours-2d') };
}

/** Markdown lines of the 2D results. */
export function flat2dTable(results: Flat2dResult[]): string[] {
  const out = ['| N circles | implementation | ms / tick (median) | ÷ bare 2D grid | ÷ Rapier 2D | contacts / tick | contact set |', '| ---: | --- | ---: | ---: | ---: | ---: | --- |'];
  for (const r of results) {
    for (const x of r.rows) {
      out.push(`| ${r.size.toLocaleString('en-US')} | ${x.id} | ${x.msPerTick < 10 ? x.msPerTick.toFixed(3) : x.msPerTick.toFixed(1)} | ${x.overBare.toFixed(2)}× | ${x.overRapier.toFixed(2)}× | ${x.contactsPerTick.toFixed(1)} | ${x.check} |`);
    }
  }
  return out;
}
