/**
 * One arena size. Every implementation runs in its own worker process (run.ts --worker, started with
 * --no-liftoff so Rapier's WASM is compiled by the optimising tier from the start), so no
 * implementation's garbage, GC or JIT state lands in another's timing; the parent drives them one
 * at a time over IPC, so they still share the machine's noise round by round:
 *
 * 1. build, one worker after the other; a first tick over 2 s gets a second chance, then the
 *    implementation is skipped; each worker records its contact pairs per pose (see verify.ts);
 * 2. verification of the contact sets in the parent;
 * 3. warm-up, interleaved: ≥ 5 s of Rapier ticks (WASM tier-up), ≥ 1.5 s of the others'; an
 *    implementation whose fastest warm-up tick still takes over 2 s is skipped;
 * 4. timed rounds: each worker in turn runs a batch of ~300 ms of ticks, order rotated per round.
 *
 * Memory and allocation are measured by isolated.ts and the swept queries by swept.ts (run.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { arenaSpec, type ArenaSpec } from '../src/scenes/arena.js';
import { median, now, type Peer } from './common.js';
import { createBareGrid } from './peers/bareGrid.js';
import { createBruteForce } from './peers/bruteForce.js';
import { createCannon } from './peers/cannon.js';
import { createJolt, initJoltModule } from './peers/jolt.js';
import { createOurs } from './peers/ours.js';
import { createRapier, initRapier } from './peers/rapier.js';
import type { SweptResult } from './swept.js';
import { verify, type PairLog, type VerifyResult } from './verify.js';

export const IMPLS = ['ours-static', 'ours-continuous', 'bare-grid', 'jolt', 'rapier', 'cannon-es', 'brute-force'] as const;
export type ImplId = (typeof IMPLS)[number];
export const SKIP_MS = 2000;
/** Implementations every other one is compared with, round by round. */
export const SPEEDUP_REFERENCES = ['bare-grid', 'jolt', 'rapier'] as const;

export interface ChildOptions {
  size: number;
  seed: number;
  quick: boolean;
  /** Implementations not to build at all, with the reason (predicted too slow). */
  skip: Record<string, string>;
}

export interface ImplResult {
  id: string;
  status: 'ok' | 'skipped';
  reason?: string;
  bodies: number;
  buildMs?: number;
  firstTickMs?: number;
  msPerTick?: number;
  msPerTickP25?: number;
  msPerTickP75?: number;
  rounds?: number[];
  /** Median over rounds of (Rapier ms / this ms) in the same round. */
  speedupVsRapier?: number;
  /** Per reference implementation: median over rounds of (reference ms / this ms) in the same round. */
  speedup?: Record<string, number>;
  contactsPerTick?: number;
  bytesPerTick?: number;
  allocTicks?: number;
  allocNote?: string;
  heapBytesPerBody?: number;
  externalBytesPerBody?: number;
  /**
   * Resident set size (MB) of the implementation's worker process after building the scene and its
   * first tick (everything: Node, the arena spec, the implementation), and before building.
   */
  rssMB?: number;
  rssBeforeMB?: number;
  state?: Record<string, number>;
}

export interface SizeResult {
  size: number;
  boxes: number;
  bodies: number;
  impls: Record<string, ImplResult>;
  /** Median over rounds of ours-continuous ms / ours-static ms. */
  continuousOverStatic?: number;
  verify?: VerifyResult;
  swept?: SweptResult;
}

export function create(id: ImplId, spec: ArenaSpec, size: number, seed: number): Peer {
  switch (id) {
    case 'ours-static': return createOurs(size, seed, false);
    case 'ours-continuous': return createOurs(size, seed, true);
    case 'bare-grid': return createBareGrid(spec);
    case 'jolt': return createJolt(spec);
    case 'rapier': return createRapier(spec);
    case 'cannon-es': return createCannon(spec);
    case 'brute-force': return createBruteForce(spec);
  }
}

// ---------------------------------------------------------------------------------------------
// Worker side (one implementation per process).

export interface WorkerOptions { impl: ImplId; size: number; seed: number; poses: number }
type Request = { op: 'build' } | { op: 'run'; ms: number } | { op: 'batch'; ticks: number } | { op: 'exit' };
interface BuildReply {
  status: 'ok' | 'skipped'; reason?: string; buildMs: number; firstTickMs: number; log: PairLog; secondTickMs?: number;
  /** Resident set size (MB) of the worker after building and the first tick, and before building. */
  rssMB?: number; rssBeforeMB?: number;
}

/** Loads the WASM module `id` needs, if any. */
export async function initPeer(id: ImplId): Promise<void> {
  if (id === 'rapier') await initRapier();
  if (id === 'jolt') await initJoltModule();
}

export async function runWorker(o: WorkerOptions): Promise<void> {
  await initPeer(o.impl);
  const spec = arenaSpec({ spheres: o.size, seed: o.seed });
  let peer: Peer | undefined;
  const reply = (m: unknown) => process.send!(m);
  process.on('message', (req: Request) => {
    if (req.op === 'build') {
      const rssBeforeMB = process.memoryUsage().rss / 2 ** 20;
      let t = now();
      const p = create(o.impl, spec, o.size, o.seed);
      const buildMs = now() - t;
      t = now();
      p.tick();
      const firstTickMs = now() - t;
      let ticks = 1;
      const r: BuildReply = { status: 'ok', buildMs, firstTickMs, log: [], rssBeforeMB, rssMB: process.memoryUsage().rss / 2 ** 20 };
      if (firstTickMs > SKIP_MS) {
        t = now();
        p.tick();
        ticks++;
        r.secondTickMs = now() - t;
        if (r.secondTickMs > SKIP_MS) {
          r.status = 'skipped';
          r.reason = `one tick took ${(r.secondTickMs / 1000).toFixed(2)} s (> ${SKIP_MS / 1000} s)`;
          p.free();
          reply(r);
          return;
        }
      }
      // Pose k: the peers' tick k, ours' tick k+1 (it detects before it moves); ours-static records
      // one pose more for the continuous superset check.
      const want = o.poses + (o.impl === 'ours-static' ? 1 : 0);
      for (let pose = ticks - p.lag; ; pose++) {
        const keys: number[] = [];
        p.pairs(keys);
        keys.sort((a, b) => a - b);
        if (new Set(keys).size !== keys.length) throw new Error(`${o.impl}: duplicate pairs`);
        if (keys.length !== p.contacts()) throw new Error(`${o.impl}: ${p.contacts()} contacts counted, ${keys.length} pairs listed`);
        r.log[pose] = keys;
        if (pose >= want) break;
        p.tick();
      }
      peer = p;
      reply(r);
    } else if (req.op === 'run') {
      const t0 = now();
      let ticks = 0;
      do {
        peer!.tick();
        ticks++;
      } while (now() - t0 < req.ms);
      reply({ ticks, ms: now() - t0 });
    } else if (req.op === 'batch') {
      const t0 = now();
      for (let i = 0; i < req.ticks; i++) peer!.tick();
      reply({ ms: now() - t0 });
    } else {
      peer?.free();
      process.exit(0);
    }
  });
  reply({ ready: true });
}

// ---------------------------------------------------------------------------------------------
// Parent side.

const log = (s: string) => process.stderr.write(`  [${new Date().toISOString().slice(11, 19)}] ${s}\n`);

class Worker {
  private proc: ChildProcess;
  private pending: ((m: unknown) => void)[] = [];
  readonly ready: Promise<unknown>;
  constructor(script: string, o: WorkerOptions) {
    this.proc = spawn(process.execPath, [...process.execArgv, '--no-liftoff', script, '--worker', JSON.stringify(o)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.proc.on('message', (m) => this.pending.shift()?.(m));
    this.proc.on('exit', (code) => {
      if (code !== 0) for (const p of this.pending.splice(0)) p({ error: `worker ${o.impl} exited with ${code}` });
    });
    this.ready = new Promise((r) => this.pending.push(r));
  }
  async ask<T>(req: Request): Promise<T> {
    const r = new Promise<unknown>((res) => this.pending.push(res));
    this.proc.send(req);
    const m = (await r) as T & { error?: string };
    if (m.error) throw new Error(m.error);
    return m;
  }
  close(): void {
    this.proc.send({ op: 'exit' });
  }
}

export async function runSize(o: ChildOptions, script: string = fileURLToPath(new URL('./run.ts', import.meta.url))): Promise<SizeResult> {
  const spec = arenaSpec({ spheres: o.size, seed: o.seed });
  const bodies = spec.spheres.length + spec.boxes.length;
  const out: SizeResult = { size: o.size, boxes: spec.boxes.length, bodies, impls: {} };
  const poses = o.quick ? 4 : o.size <= 2000 ? 30 : o.size <= 20000 ? 10 : 4;
  const workers = new Map<string, Worker>();
  const logs: Record<string, PairLog> = {};
  try {
    for (const id of IMPLS) {
      if (o.skip[id]) {
        out.impls[id] = { id, status: 'skipped', reason: o.skip[id], bodies };
        log(`${id}: skipped (${o.skip[id]})`);
        continue;
      }
      const w = new Worker(script, { impl: id, size: o.size, seed: o.seed, poses });
      await w.ready;
      const b = await w.ask<BuildReply>({ op: 'build' });
      out.impls[id] = { id, status: b.status, reason: b.reason, bodies, buildMs: b.buildMs, firstTickMs: b.firstTickMs, rssMB: b.rssMB, rssBeforeMB: b.rssBeforeMB };
      log(`${id}: built in ${b.buildMs.toFixed(0)} ms, first tick ${b.firstTickMs.toFixed(1)} ms${b.secondTickMs ? `, second ${b.secondTickMs.toFixed(1)} ms` : ''}${b.reason ? ` — skipped: ${b.reason}` : ''}`);
      if (b.status !== 'ok') {
        w.close();
        continue;
      }
      logs[id] = b.log;
      workers.set(id, w);
    }
    // Contacts per tick: mean over the poses every implementation recorded (the same for all).
    const common: number[] = [];
    for (let k = 1; k <= poses; k++) if (Object.values(logs).every((l) => l[k] !== undefined && l[k] !== null)) common.push(k);
    for (const [id, l] of Object.entries(logs)) out.impls[id].contactsPerTick = common.reduce((a, k) => a + l[k]!.length, 0) / common.length;
    const reference = logs['brute-force'] ? 'brute-force' : 'ours-static';
    if (logs[reference]) out.verify = verify(spec, logs, poses, reference);
    log(`verified against ${reference} over ${poses} poses`);

    // Warm-up, interleaved.
    const ids = [...workers.keys()];
    const estimate = new Map<string, number>();
    const budget = (id: string) => (id === 'rapier' ? (o.quick ? 1500 : 5000) : o.quick ? 300 : 1500);
    const spent = new Map(ids.map((id) => [id, 0]));
    for (let pending = ids; pending.length > 0; pending = ids.filter((id) => spent.get(id)! < budget(id))) {
      for (const id of pending) {
        const r = await workers.get(id)!.ask<{ ticks: number; ms: number }>({ op: 'run', ms: 200 });
        spent.set(id, spent.get(id)! + r.ms);
        // Batch sizes come from the fastest warm-up slice (early slices are slow).
        estimate.set(id, Math.min(estimate.get(id) ?? Infinity, r.ms / r.ticks));
      }
    }
    log(`warm: ${ids.map((id) => `${id} ${estimate.get(id)!.toFixed(2)} ms`).join(', ')}`);
    // A tick that stays over the limit through the warm-up (even its fastest slice) is skipped too.
    for (const id of [...ids]) {
      const e = estimate.get(id)!;
      if (e <= SKIP_MS) continue;
      Object.assign(out.impls[id], { status: 'skipped', reason: `every warm-up tick took over ${SKIP_MS / 1000} s (fastest ${(e / 1000).toFixed(2)} s)` });
      workers.get(id)!.close();
      workers.delete(id);
      ids.splice(ids.indexOf(id), 1);
      log(`${id}: skipped (${out.impls[id].reason})`);
    }

    // Timed rounds.
    const rounds = o.quick ? 3 : 9;
    const target = o.quick ? 100 : 300;
    const ms = new Map<string, number[]>(ids.map((id) => [id, []]));
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < ids.length; i++) {
        const id = ids[(i + round) % ids.length];
        const ticks = Math.max(1, Math.round(target / estimate.get(id)!));
        const r = await workers.get(id)!.ask<{ ms: number }>({ op: 'batch', ticks });
        ms.get(id)!.push(r.ms / ticks);
      }
    }
    const q = (xs: number[], f: number) => [...xs].sort((a, b) => a - b)[Math.round((xs.length - 1) * f)];
    for (const id of ids) {
      const r = out.impls[id];
      const xs = ms.get(id)!;
      r.rounds = xs;
      r.msPerTick = median(xs);
      r.msPerTickP25 = q(xs, 0.25);
      r.msPerTickP75 = q(xs, 0.75);
      const rap = ms.get('rapier');
      if (rap) r.speedupVsRapier = median(xs.map((x, i) => rap[i] / x));
      r.speedup = {};
      for (const ref of SPEEDUP_REFERENCES) {
        const ys = ms.get(ref);
        if (ys) r.speedup[ref] = median(xs.map((x, i) => ys[i] / x));
      }
    }
    const st = ms.get('ours-static'), co = ms.get('ours-continuous');
    if (st && co) out.continuousOverStatic = median(co.map((x, i) => x / st[i]));
    log(`timed: ${ids.map((id) => `${id} ${out.impls[id].msPerTick!.toFixed(3)} ms`).join(', ')}`);
  } finally {
    for (const w of workers.values()) w.close();
  }
  return out;
}
