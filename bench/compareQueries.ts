/**
 * Side-by-side check of the world queries against another checkout of this project, in ONE
 * process: both trees build the arena (start pose after one tick) and answer the same random
 * queries of bench/queries.ts's four kinds (short ray, short sphere cast, overlap r = 2, long ray;
 * and `outside`: a ray from twice the arena's side outside a face through to the same distance past
 * the opposite face; and `batch`: the short rays through `castRays`, 256 per call),
 * in alternating batches of ~60 ms, their order swapped every round, measured in process CPU time.
 * Prints per kind the medians (microseconds per query) and the median of the per-round ratios
 * (this / baseline), and checks that both trees give the same answers. Then the first query after
 * a tick (`--first`, default 41 rounds; 0: skip): each round ticks both arenas (not timed), then times
 * one short ray on each (which rebuilds the queries' grid), their order swapped every round; prints
 * the medians in milliseconds (wall time: one call is too short for CPU time). Then the same for the
 * first query after a static change (each round `markStaticDirty` before the tick, so the step
 * re-buckets the static boxes).
 *
 *   git archive <commit> | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/node_modules
 *   npx tsx bench/compareQueries.ts --base /tmp/base [--sizes 10000,100000] [--seconds 6] [--kinds ray,sphere,overlap,long,outside,batch] [--first 41]
 */
import { resolve } from 'node:path';
import { median } from './common.js';
import { readSideBySideArgs, sideBySide } from './sideBySide.js';
import { makeQueries, type QueryKind } from './queries.js';

interface Vec { x: number; y: number; z: number }
interface Hit { entity: number; distance: number; normal: Vec; point: Vec }
interface Lib {
  castRay(p: unknown, o: Vec, d: Vec, len: number, out: Hit): boolean;
  castSphere(p: unknown, c: Vec, r: number, d: Vec, len: number, out: Hit): boolean;
  overlapSphere(p: unknown, c: Vec, r: number, out: { count: number; ids: Uint32Array }): number;
  createEntityList(n: number): { count: number; ids: Uint32Array };
  markStaticDirty(p: unknown): void;
  castRays(p: unknown, n: number, o: Float64Array, d: Float64Array, len: Float64Array, out: BatchOut): number;
  createBatchHits(n: number): BatchOut;
}
interface BatchOut { entity: Uint32Array; distance: Float64Array; normal: Float64Array }
interface Arena { physics: unknown; spec: { size: number }; tick(): void }

const { value, base, sizes } = readSideBySideArgs('npx tsx bench/compareQueries.ts --base <checkout> [--sizes 10000] [--seconds 6] [--kinds ray,sphere,overlap,long,outside,batch] [--first 41]');
const seconds = Number(value('--seconds') ?? 6);
const kinds = (value('--kinds') ?? 'ray,sphere,overlap,long').split(',');
const firstRounds = Number(value('--first') ?? 41);
const here = resolve(new URL('..', import.meta.url).pathname);

interface Side { run: (kind: string, i: number) => number; batch: (from: number) => number; tick: () => void; staticTick: () => void }

const N = 4096;
/** This script's kind names, as bench/queries.ts names them (its seeds: 11 + the index there). */
const KIND: Record<string, [QueryKind | 'outside ray', number]> = {
  ray: ['short ray', 0], batch: ['short ray', 0], sphere: ['short sphere cast', 1], overlap: ['overlap r=2', 2], long: ['long ray', 3], outside: ['outside ray', 4],
};
let qo: Float64Array, qd: Float64Array, qlen: Float64Array;

/** The query set of one kind (bench/queries.ts's generator). */
function useQueries(kind: string, size: number): void {
  const [name, index] = KIND[kind];
  ({ o: qo, d: qd, len: qlen } = makeQueries(name, size, N, 11 + index));
}

async function load(root: string, spheres: number): Promise<Side & { size: number }> {
  const lib = (await import(`${root}/src/index.ts`)) as unknown as Lib;
  const { buildArena } = (await import(`${root}/src/scenes/buildArena.ts`)) as { buildArena(o: object): Arena };
  const { castRay, castRays, castSphere, overlapSphere, createBatchHits, createEntityList, markStaticDirty } = lib;
  const arena = buildArena({ spheres, seed: 1, physics: { contactComponent: false } });
  arena.tick();
  const physics = arena.physics;
  const hit: Hit = { entity: 0, distance: 0.5, normal: { x: 0.5, y: 0.5, z: 0.5 }, point: { x: 0.5, y: 0.5, z: 0.5 } };
  const ents = createEntityList(1024);
  const o = { x: 0, y: 0, z: 0 }, d = { x: 0, y: 0, z: 0 };
  const run = (kind: string, i: number): number => {
    o.x = qo[3 * i];
    o.y = qo[3 * i + 1];
    o.z = qo[3 * i + 2];
    d.x = qd[3 * i];
    d.y = qd[3 * i + 1];
    d.z = qd[3 * i + 2];
    if (kind === 'overlap') return overlapSphere(physics, o, 2, ents) * 1000 + (ents.count > 0 ? ents.ids[0] : 0);
    const found = kind === 'sphere' ? castSphere(physics, o, 0.5, d, qlen[i], hit) : castRay(physics, o, d, qlen[i], hit);
    return found ? hit.distance + hit.entity * 1e-3 + hit.normal.x + hit.point.y : -1;
  };
  const out = createBatchHits(STEP_QUERIES);
  /** Casts the short rays `from .. from + STEP_QUERIES` in one `castRays` call; returns a digest of the answers. */
  const batch = (from: number): number => {
    castRays(physics, STEP_QUERIES, qo.subarray(3 * from), qd.subarray(3 * from), qlen.subarray(from), out);
    let digest = 0;
    for (let i = 0; i < STEP_QUERIES; i++) digest += out.entity[i] === 0 ? -1 : out.distance[i] + out.entity[i] * 1e-3 + out.normal[3 * i];
    return digest;
  };
  const staticTick = (): void => {
    markStaticDirty(physics);
    arena.tick();
  };
  return { run, batch, tick: () => arena.tick(), staticTick, size: arena.spec.size };
}

/** Queries per step of the measuring loop. */
const STEP_QUERIES = 256;
let sink = 0;

/** One step: the next STEP_QUERIES queries of `kind` (cycling through the set). */
function stepper(side: Side, kind: string): () => void {
  let k = 0;
  if (kind === 'batch') {
    return () => {
      sink += side.batch(k);
      k = (k + STEP_QUERIES) & (N - 1);
    };
  }
  return () => {
    for (let i = 0; i < STEP_QUERIES; i++) sink += side.run(kind, (k + i) & (N - 1));
    k += STEP_QUERIES;
  };
}

/**
 * Milliseconds (wall) of the first short ray after a tick (after a static change with `afterStatic`),
 * the rebuild of the queries' grids included.
 */
function firstQuery(side: Side, afterStatic: boolean): number {
  if (afterStatic) side.staticTick();
  else side.tick();
  const t0 = performance.now();
  sink += side.run('ray', 0);
  return performance.now() - t0;
}

/** The median cost of the first query after a tick, each side, alternating per round. */
function firstQueries(b: Side & { size: number }, o: Side, rounds: number, afterStatic: boolean): { base: number; here: number } {
  useQueries('ray', b.size);
  const tb: number[] = [], th: number[] = [];
  for (let r = 0; r < rounds + 3; r++) {
    let x: number, y: number;
    if (r % 2 === 0) {
      x = firstQuery(b, afterStatic);
      y = firstQuery(o, afterStatic);
    } else {
      y = firstQuery(o, afterStatic);
      x = firstQuery(b, afterStatic);
    }
    if (r < 3) continue; // warm-up rounds
    tb.push(x);
    th.push(y);
  }
  return { base: median(tb), here: median(th) };
}

for (const size of sizes) {
  const b = await load(resolve(base), size);
  const o = await load(here, size);
  for (const kind of kinds) {
    useQueries(kind, b.size);
    let differ = 0;
    if (kind === 'batch') {
      for (let i = 0; i < N; i += STEP_QUERIES) if (b.batch(i) !== o.batch(i)) differ += STEP_QUERIES;
    } else for (let i = 0; i < N; i++) if (b.run(kind, i) !== o.run(kind, i)) differ++;
    const r = sideBySide(stepper(b, kind), stepper(o, kind), seconds, 5);
    const us = (ms: number) => ((ms * 1000) / STEP_QUERIES).toFixed(3);
    console.log(`${size} spheres, ${kind.padEnd(7)}: baseline ${us(r.base)} µs, this tree ${us(r.here)} µs (CPU), ` +
      `this / baseline ${r.ratio.toFixed(3)} (${r.rounds} rounds), answers differing ${differ} of ${N}`);
  }
  for (const afterStatic of firstRounds > 0 ? [false, true] : []) {
    const f = firstQueries(b, o, firstRounds, afterStatic);
    const what = afterStatic ? 'a static change' : 'a tick';
    console.log(`${size} spheres, first query after ${what}: baseline ${f.base.toFixed(3)} ms, this tree ${f.here.toFixed(3)} ms (wall, median of ${firstRounds}), ` +
      `this / baseline ${(f.here / f.base).toFixed(3)}`);
  }
}
if (sink === 0.123) console.log('');
