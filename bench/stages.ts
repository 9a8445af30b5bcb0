/**
 * CPU time of each stage of the arena's tick (src/scenes/arena.ts, static contacts) in one tree,
 * to see which stage grows faster than the body count (docs/benchmarks.md, the 1,000,000-sphere
 * tick). The stages are called one by one as `step` calls them (src/step/step.ts), each timed in
 * process CPU time (user + system); printed per tick, after warm-up ticks.
 *
 *   npx tsx bench/stages.ts [--sizes 100000,1000000] [--ticks 20] [--root <checkout>]
 */
import { resolve } from 'node:path';
import { argValue } from './sideBySide.js';

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log('npx tsx bench/stages.ts [--sizes 100000,1000000] [--ticks 20] [--root <checkout>]');
  process.exit(0);
}
const root = resolve(argValue(args, '--root') ?? new URL('..', import.meta.url).pathname);
const sizes = (argValue(args, '--sizes') ?? '100000,1000000').split(',').map(Number);
const ticks = Number(argValue(args, '--ticks') ?? 20);

type Stage = (physics: object) => void;
const { buildArena } = await import(`${root}/src/scenes/buildArena.ts`);
const { checkInstance, runNarrowphase, runIntegrate } = await import(`${root}/src/step/step.ts`);
const { checkStatic } = await import(`${root}/src/step/checkStatic.ts`);
const { scanBodies } = await import(`${root}/src/step/scanBodies.ts`);
const { applyGravity } = await import(`${root}/src/step/gravity.ts`);
const { findPairs } = await import(`${root}/src/step/findPairs.ts`);
const { reflectInBounds } = await import(`${root}/src/scenes/arena.ts`);

function cpu(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

for (const size of sizes) {
  const arena = buildArena({ spheres: size, seed: 1 });
  const physics = arena.physics;
  const { Position, Velocity } = physics.components;
  const reflect: Stage = () => reflectInBounds(Position, Velocity, arena.sphereIds, arena.sphereIds.length, arena.spec.size);
  const stages: [string, Stage][] = [
    ['checkStatic', (p) => { checkInstance(p); checkStatic(p); }],
    ['scanBodies', scanBodies], ['applyGravity', applyGravity], ['findPairs', findPairs],
    ['narrowphase', runNarrowphase], ['integrate', runIntegrate], ['reflect', reflect],
  ];
  for (let i = 0; i < 15; i++) arena.tick();
  const ms = new Float64Array(stages.length);
  for (let t = 0; t < ticks; t++) {
    stages.forEach(([, run], i) => {
      const c0 = cpu();
      run(physics);
      ms[i] += cpu() - c0;
    });
  }
  const total = ms.reduce((a, b) => a + b, 0);
  console.log(`${size} spheres: ${(total / ticks).toFixed(2)} ms per tick; ` + stages.map(([name], i) => `${name} ${(ms[i] / ticks).toFixed(2)}`).join(', '));
}
