/**
 * CPU time of each stage of the arena's tick (src/scenes/arena.ts) in one tree, to see which stage
 * costs what against the bare grid (bench/peers/bareGrid.ts) and which grows faster than the body
 * count (docs/benchmarks.md, the issue-25 tick sections). The stages are called one by one as `step`
 * calls them (src/step/step.ts; the narrowphase split into its stages, the arena has no Response and
 * no Character bodies), each timed in process CPU time (user + system). After warm-up ticks, rounds
 * of `--ticks` staged ticks alternate with batches of ~60 ms of the bare grid's whole tick (the
 * same arena spec, in this process), so both share the machine's load; printed: ms per tick of
 * each stage (median over rounds), its share of our tick and its size against the bare grid's
 * whole tick (median ms per tick).
 *
 *   npx tsx bench/stages.ts [--sizes 100000,1000000] [--ticks 20] [--rounds 1] [--continuous] [--root <checkout>]
 */
import { resolve } from 'node:path';
import { arenaSpec } from '../src/scenes/arena.js';
import { median } from './common.js';
import { createBareGrid } from './peers/bareGrid.js';
import { argValue, cpuBatch } from './sideBySide.js';

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log('npx tsx bench/stages.ts [--sizes 100000,1000000] [--ticks 20] [--rounds 1] [--continuous] [--root <checkout>]');
  process.exit(0);
}
const root = resolve(argValue(args, '--root') ?? new URL('..', import.meta.url).pathname);
const sizes = (argValue(args, '--sizes') ?? '100000,1000000').split(',').map(Number);
const ticks = Number(argValue(args, '--ticks') ?? 20);
const rounds = Number(argValue(args, '--rounds') ?? 1);
const continuous = args.includes('--continuous');

type Stage = (physics: { tick: number }) => void;
const { buildArena } = await import(`${root}/src/scenes/buildArena.ts`);
const { checkInstance, runIntegrate } = await import(`${root}/src/step/step.ts`);
const { checkStatic } = await import(`${root}/src/step/checkStatic.ts`);
const { scanBodies } = await import(`${root}/src/step/scanBodies.ts`);
const { applyGravity } = await import(`${root}/src/step/gravity.ts`);
const { findPairs } = await import(`${root}/src/step/findPairs.ts`);
const { testPairs } = await import(`${root}/src/step/testPairs.ts`);
const { clearPurged } = await import(`${root}/src/step/clearPurged.ts`);
const { diffContacts } = await import(`${root}/src/contacts/contactDiff.ts`);
const { updateContactData, applyContactComponent } = await import(`${root}/src/contacts/contactComponent.ts`);
const { setTick } = await import(`${root}/src/physics/internal.ts`);
const { reflectInBounds } = await import(`${root}/src/scenes/arena.ts`);

function cpu(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

for (const size of sizes) {
  const spec = arenaSpec({ spheres: size, seed: 1 });
  const arena = buildArena({ spheres: size, seed: 1, spec, physics: { continuous } });
  const bare = createBareGrid(spec);
  const physics = arena.physics;
  const { Position, Velocity } = physics.components;
  const reflect: Stage = () => reflectInBounds(Position, Velocity, arena.sphereIds, arena.sphereIds.length, arena.spec.size);
  // As runBroadphase, runNarrowphase (no Response, no Character body in the arena) and runIntegrate.
  const stages: [string, Stage][] = [
    ['checkStatic', (p) => { checkInstance(p); checkStatic(p); }],
    ['scanBodies', scanBodies], ['applyGravity', applyGravity], ['findPairs', findPairs],
    ['testPairs', (p) => { checkInstance(p); testPairs(p); }], ['diffContacts', diffContacts],
    ['updateContactData', (p) => { if (physics.contactComponent) updateContactData(p); }],
    ['applyContactComponent', (p) => { if (physics.contactComponent) applyContactComponent(p); }],
    ['clearPurged', (p) => { clearPurged(p); setTick(p, p.tick + 1); }],
    ['integrate', runIntegrate], ['reflect', reflect],
  ];
  for (let i = 0; i < 15; i++) arena.tick();
  for (let i = 0; i < 10; i++) cpuBatch(() => bare.tick());
  const per: number[][] = stages.map(() => []);
  const totals: number[] = [];
  const bareMs: number[] = [];
  const ms = new Float64Array(stages.length);
  for (let round = 0; round < rounds; round++) {
    ms.fill(0);
    for (let t = 0; t < ticks; t++) {
      for (let i = 0; i < stages.length; i++) {
        const c0 = cpu();
        stages[i][1](physics);
        ms[i] += cpu() - c0;
      }
    }
    let total = 0;
    for (let i = 0; i < stages.length; i++) {
      per[i].push(ms[i] / ticks);
      total += ms[i] / ticks;
    }
    totals.push(total);
    bareMs.push(cpuBatch(() => bare.tick()));
  }
  const total = median(totals);
  const b = median(bareMs);
  console.log(`${size} spheres${continuous ? ', continuous' : ''}: ${total.toFixed(3)} ms per tick (stages summed), bare grid ${b.toFixed(3)} ms (${(total / b).toFixed(2)}x); ` +
    `${rounds} rounds of ${ticks} ticks`);
  for (let i = 0; i < stages.length; i++) {
    const m = median(per[i]);
    console.log(`  ${stages[i][0].padEnd(22)} ${m.toFixed(4).padStart(9)} ms  ${(100 * m / total).toFixed(1).padStart(5)} %  ${(m / b).toFixed(3)} x bare`);
  }
}
