/**
 * Save and restore timings of physics snapshots, side by side in one process: this tree and any
 * other source trees given (e.g. an exported older commit), each with its own arena, interleaved
 * round by round so that machine noise hits every variant alike.
 *
 *   npx tsx scripts/snapshotTimings.ts [--bodies 10000,100000] [--runs 61] [--rounds 3] [--tree label=dir ...]
 *
 * A tree directory holds a whole commit, package.json included, with node_modules reachable from it,
 * e.g. `git archive <commit> | tar -x -C dir && ln -s "$PWD/node_modules" dir/`. Without its
 * package.json (`"type": "module"`) tsx loads the tree as CommonJS, each imported binding a getter,
 * and it measured 20 times slower than the same code in this tree (save 10.4 ms against 0.48 ms).
 * Scenes (the arena after 200 ticks, live contacts): N spheres colliding with spheres, and
 * N/1.1 spheres with one static box per ten spheres. Reported: median milliseconds per call of
 * `saveSnapshot` and `restoreSnapshot` (8-aligned buffer), and for a tree whose restore takes the
 * `verify` option, restore without checksum verification too.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Api {
  saveSnapshot(p: unknown, b: Uint8Array, o?: number): number;
  restoreSnapshot(p: unknown, b: Uint8Array, o?: number, opts?: { verify?: boolean }): number;
  snapshotSize(p: unknown): number;
}
interface ArenaMod {
  buildArena(o: { spheres: number; boxes?: number; seed?: number; sphereSphere?: boolean }): { physics: { contacts: { count: number } }; tick(): void };
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const bodies = arg('bodies', '10000,100000').split(',').map(Number);
const runs = Number(arg('runs', '61'));
const rounds = Number(arg('rounds', '3'));
const trees: { label: string; dir: string }[] = [{ label: 'this tree', dir: resolve(import.meta.dirname, '..') }];
process.argv.forEach((a, i) => {
  if (a !== '--tree') return;
  const [label, dir] = process.argv[i + 1].split('=');
  trees.push({ label, dir: resolve(dir) });
});

interface Variant {
  label: string;
  api: Api;
  arena: ReturnType<ArenaMod['buildArena']>;
  buf: Uint8Array;
  times: Record<string, number[]>;
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];

function time(fn: () => void, n: number, out: number[]): void {
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
}

async function scene(n: number, boxes: boolean): Promise<void> {
  const spheres = boxes ? Math.round(n / 1.1) : n;
  const variants: Variant[] = [];
  for (const t of trees) {
    const api = (await import(pathToFileURL(`${t.dir}/src/index.ts`).href)) as Api;
    const { buildArena } = (await import(pathToFileURL(`${t.dir}/src/scenes/buildArena.ts`).href)) as ArenaMod;
    const arena = buildArena({ spheres, ...(boxes ? {} : { boxes: 0 }), seed: 5, sphereSphere: true });
    for (let i = 0; i < 200; i++) arena.tick();
    const buf = new Uint8Array(api.snapshotSize(arena.physics));
    variants.push({ label: t.label, api, arena, buf, times: { save: [], restore: [], restoreNoVerify: [] } });
  }
  const warm = n >= 50_000 ? 100 : 1000;
  for (const v of variants) {
    const p = v.arena.physics;
    for (let i = 0; i < warm; i++) {
      v.api.saveSnapshot(p, v.buf);
      v.api.restoreSnapshot(p, v.buf);
      v.api.restoreSnapshot(p, v.buf, 0, { verify: false });
    }
  }
  for (let r = 0; r < rounds; r++) {
    for (const v of variants) {
      const p = v.arena.physics;
      time(() => v.api.saveSnapshot(p, v.buf), runs, v.times.save);
      time(() => v.api.restoreSnapshot(p, v.buf), runs, v.times.restore);
      time(() => v.api.restoreSnapshot(p, v.buf, 0, { verify: false }), runs, v.times.restoreNoVerify);
    }
  }
  const what = boxes ? `${spheres} spheres + ${n - spheres} static boxes` : `${n} spheres`;
  for (const v of variants) {
    const f = (k: string) => median(v.times[k]).toFixed(3);
    console.log(
      `${what.padEnd(34)} ${v.label.padEnd(12)} ${(v.buf.length / 1024).toFixed(0).padStart(6)} KB  ` +
      `${String(v.arena.physics.contacts.count).padStart(5)} contacts  save ${f('save')} ms  restore ${f('restore')} ms  restore (verify: false) ${f('restoreNoVerify')} ms`,
    );
  }
}

console.log(`median of ${runs * rounds} calls per figure (${rounds} interleaved rounds of ${runs}); Node ${process.version}`);
for (const n of bodies) {
  await scene(n, false);
  await scene(n, true);
}
