/**
 * The tick's ratios against the bare grids, side by side in ONE process: the 3D arena
 * (src/scenes/arena.ts) against bench/peers/bareGrid.ts and the 2D arena (src/scenes/arena2d.ts,
 * run through the 3D path at z = 0) against bench/peers/bareGrid2d.ts, with static and with
 * continuous contacts; with `--base <checkout>`, the same tick of that checkout beside them, so a
 * regression against a previous commit shows at once.
 *
 *   npx tsx bench/ratios.ts [--base <checkout>] [--sizes 10000,100000] [--scenes 3d,3d-c,2d,2d-c] [--seconds 10]
 *
 * Each scene: the implementations are built, their contact counts checked against each other
 * (ours at tick k + 1 against the bare grid at tick k: ours detects at the start pose), warmed up,
 * then ticked in rounds of one ~60 ms batch each (process CPU time, user + system), the order
 * rotated every round. Printed: the median ms per tick, the median over rounds of ours / bare and,
 * with `--base`, of ours / base. Run it twice on a loaded machine; treat ±3 % as noise.
 */
import { resolve } from 'node:path';
import { arenaSpec, type ArenaSpec } from '../src/scenes/arena.js';
import { arena2dSpec } from '../src/scenes/arena2d.js';
import { median } from './common.js';
import { createBareGrid } from './peers/bareGrid.js';
import { createBareGrid2d } from './peers/bareGrid2d.js';
import { argValue, cpuBatch } from './sideBySide.js';

interface Arena { physics: { contacts: { count: number } }; spec: ArenaSpec; tick(): void }
type BuildArena = (o: object) => Arena;

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log('npx tsx bench/ratios.ts [--base <checkout>] [--sizes 10000,100000] [--scenes 3d,3d-c,2d,2d-c] [--seconds 10]');
  process.exit(0);
}
const base = argValue(args, '--base');
const sizes = (argValue(args, '--sizes') ?? '10000,100000').split(',').map(Number);
const scenes = (argValue(args, '--scenes') ?? '3d,3d-c,2d,2d-c').split(',');
const seconds = Number(argValue(args, '--seconds') ?? 10);
const here = resolve(new URL('..', import.meta.url).pathname);

async function loadBuild(root: string): Promise<BuildArena> {
  return ((await import(`${root}/src/scenes/buildArena.ts`)) as { buildArena: BuildArena }).buildArena;
}

const buildHere = await loadBuild(here);
const buildBase = base ? await loadBuild(resolve(base)) : undefined;

interface Impl { name: string; tick: () => void; ms: number[] }

for (const size of sizes) {
  for (const scene of scenes) {
    const flat = scene.startsWith('2d');
    const continuous = scene.endsWith('-c');
    const spec = flat ? arena2dSpec({ circles: size, seed: 1 }) : arenaSpec({ spheres: size, seed: 1 });
    const bare = flat ? createBareGrid2d(spec) : createBareGrid(spec);
    const ours = buildHere({ spheres: size, seed: 1, spec, physics: { continuous } });
    let old: Arena | undefined = buildBase?.({ spheres: size, seed: 1, spec, physics: { continuous } });
    // A baseline whose buildArena does not take `spec` built the 3D arena: not comparable.
    if (old && old.spec !== spec) {
      console.log(`${scene}: the baseline's buildArena takes no spec; no baseline ratio`);
      old = undefined;
    }
    // Contact counts: ours (and the baseline) at tick k + 1 against the bare grid at tick k.
    ours.tick();
    old?.tick();
    for (let k = 0; k < 3; k++) {
      bare.tick();
      ours.tick();
      old?.tick();
      const c = ours.physics.contacts.count, b = bare.contacts();
      if (!continuous && c !== b) throw new Error(`${scene} at ${size}: ours ${c} contacts, the bare grid ${b}`);
      if (continuous && c < b) throw new Error(`${scene} at ${size}: ours continuous ${c} contacts < the bare grid's ${b}`);
      if (old && old.physics.contacts.count !== c) throw new Error(`${scene} at ${size}: the baseline ${old.physics.contacts.count} contacts, ours ${c}`);
    }
    const impls: Impl[] = [
      { name: 'bare', tick: () => bare.tick(), ms: [] },
      { name: 'ours', tick: () => ours.tick(), ms: [] },
    ];
    if (old) { const o = old; impls.push({ name: 'base', tick: () => o.tick(), ms: [] }); }
    for (let w = 0; w < 8; w++) for (const impl of impls) cpuBatch(impl.tick);
    const overBare: number[] = [], overBase: number[] = [];
    const end = performance.now() + seconds * 1000;
    for (let round = 0; performance.now() < end; round++) {
      const m = new Map<string, number>();
      for (let j = 0; j < impls.length; j++) {
        const impl = impls[(round + j) % impls.length];
        const t = cpuBatch(impl.tick);
        impl.ms.push(t);
        m.set(impl.name, t);
      }
      overBare.push(m.get('ours')! / m.get('bare')!);
      if (old) overBase.push(m.get('ours')! / m.get('base')!);
    }
    const ms = (name: string) => median(impls.find((i) => i.name === name)!.ms).toFixed(3);
    console.log(`${scene.padEnd(4)} ${String(size).padStart(8)}: bare ${ms('bare')} ms, ours ${ms('ours')} ms` +
      (old ? `, base ${ms('base')} ms` : '') + ` | ours / bare ${median(overBare).toFixed(3)}` +
      (old ? `, ours / base ${median(overBase).toFixed(3)}` : '') + ` (${overBare.length} rounds, ${ours.physics.contacts.count} contacts)`);
    bare.free();
  }
}
