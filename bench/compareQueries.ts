/**
 * Side-by-side check of the world queries against another checkout of this project, in ONE
 * process: both trees build the arena (start pose after one tick) and answer the same random
 * queries of bench/queries.ts's four kinds (short ray, short sphere cast, overlap r = 2, long ray;
 * and `outside`: a ray from twice the arena's side outside a face through to the same distance past
 * the opposite face),
 * in alternating batches of ~60 ms, their order swapped every round, measured in process CPU time.
 * Prints per kind the medians (microseconds per query) and the median of the per-round ratios
 * (this / baseline), and checks that both trees give the same answers.
 *
 *   git archive <commit> | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/node_modules
 *   npx tsx bench/compareQueries.ts --base /tmp/base [--sizes 10000,100000] [--seconds 6] [--kinds ray,sphere,overlap,long,outside]
 */
import { resolve } from 'node:path';

interface Vec { x: number; y: number; z: number }
interface Hit { entity: number; distance: number; normal: Vec; point: Vec }
interface Lib {
  castRay(p: unknown, o: Vec, d: Vec, len: number, out: Hit): boolean;
  castSphere(p: unknown, c: Vec, r: number, d: Vec, len: number, out: Hit): boolean;
  overlapSphere(p: unknown, c: Vec, r: number, out: { count: number; ids: Uint32Array }): number;
  createEntityList(n: number): { count: number; ids: Uint32Array };
}
interface Arena { physics: unknown; spec: { size: number }; tick(): void }
interface Rng { range(lo: number, hi: number): number }

const args = process.argv.slice(2);
const value = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const base = value('--base');
if (!base || args.includes('--help')) {
  console.log('npx tsx bench/compareQueries.ts --base <checkout> [--sizes 10000] [--seconds 6] [--kinds ray,sphere,overlap,long,outside]');
  process.exit(base ? 0 : 1);
}
const sizes = (value('--sizes') ?? '10000').split(',').map(Number);
const seconds = Number(value('--seconds') ?? 6);
const kinds = (value('--kinds') ?? 'ray,sphere,overlap,long').split(',');
const here = resolve(new URL('..', import.meta.url).pathname);

interface Side { run: (kind: string, i: number) => number }

const N = 4096;
let qo: Float64Array, qd: Float64Array, qlen: Float64Array;

/** The query set of one kind (as bench/queries.ts makes them). */
function makeQueries(kind: string, size: number, createRng: (seed: number) => Rng): void {
  const rng = createRng(11 + kinds.indexOf(kind));
  qo = new Float64Array(3 * N);
  qd = new Float64Array(3 * N);
  qlen = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const a = [rng.range(0, size), rng.range(0, size), rng.range(0, size)];
    let b: number[];
    if (kind === 'long' || kind === 'outside') {
      b = [rng.range(0, size), rng.range(0, size), rng.range(0, size)];
      a[i % 3] = kind === 'long' ? 0 : -2 * size;
      b[i % 3] = kind === 'long' ? size : 3 * size;
    } else b = [a[0] + rng.range(-1, 1), a[1] + rng.range(-1, 1), a[2] + rng.range(-1, 1)];
    const dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
    const l = Math.hypot(dx, dy, dz) || 1;
    for (let k = 0; k < 3; k++) qo[3 * i + k] = a[k];
    qd[3 * i] = dx / l;
    qd[3 * i + 1] = dy / l;
    qd[3 * i + 2] = dz / l;
    qlen[i] = kind === 'long' || kind === 'outside' ? l : 5;
  }
}

async function load(root: string, spheres: number): Promise<Side & { size: number; createRng: (s: number) => Rng }> {
  const lib = (await import(`${root}/src/index.ts`)) as unknown as Lib;
  const { buildArena } = (await import(`${root}/src/scenes/buildArena.ts`)) as { buildArena(o: object): Arena };
  const { createRng } = (await import(`${root}/src/scenes/prng.ts`)) as { createRng(s: number): Rng };
  const { castRay, castSphere, overlapSphere, createEntityList } = lib;
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
  return { run, size: arena.spec.size, createRng };
}

/** CPU microseconds per query over a batch of ~60 ms. */
function batch(side: Side, kind: string): number {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let k = 0;
  let sink = 0;
  while (performance.now() - t0 < 60) {
    for (let i = 0; i < 256; i++) sink += side.run(kind, (k + i) & (N - 1));
    k += 256;
  }
  const c = process.cpuUsage(c0);
  if (sink === 0.123) console.log('');
  return (c.user + c.system) / k;
}

const median = (v: number[]): number => [...v].sort((a, b) => a - b)[v.length >> 1];

for (const size of sizes) {
  const b = await load(resolve(base), size);
  const o = await load(here, size);
  for (const kind of kinds) {
    makeQueries(kind, b.size, b.createRng);
    let differ = 0;
    for (let i = 0; i < N; i++) if (b.run(kind, i) !== o.run(kind, i)) differ++;
    for (let i = 0; i < 5; i++) {
      batch(b, kind);
      batch(o, kind);
    }
    const mb: number[] = [], mo: number[] = [], ratio: number[] = [];
    const end = performance.now() + seconds * 1000;
    for (let round = 0; performance.now() < end; round++) {
      let x: number, y: number;
      if (round % 2 === 0) {
        x = batch(b, kind);
        y = batch(o, kind);
      } else {
        y = batch(o, kind);
        x = batch(b, kind);
      }
      mb.push(x);
      mo.push(y);
      ratio.push(y / x);
    }
    console.log(`${size} spheres, ${kind.padEnd(7)}: baseline ${median(mb).toFixed(3)} µs, this tree ${median(mo).toFixed(3)} µs (CPU), ` +
      `this / baseline ${median(ratio).toFixed(3)} (${ratio.length} rounds), answers differing ${differ} of ${N}`);
  }
}
