/**
 * The arena's tick (src/scenes/arena.ts through src/scenes/buildArena.ts, as bench/compare.ts and
 * bench/ratios.ts tick it) run for a while, for a CPU profile; prints the CPU time per tick.
 *
 *   node --import tsx --cpu-prof --cpu-prof-dir=<dir> bench/profileTick.ts [--spheres 10000] [--continuous] [--seconds 8]
 *   npx tsx bench/profileSummary.ts <dir> [--lines <function>]
 *
 * Run it from inside this package: a script outside it (with no `"type": "module"` above it) loads
 * the sources as CommonJS, whose imported bindings are getters: it measured 1.7–1.9× the CPU time
 * per tick (1.30 and 1.36 against 0.67 and 0.81 ms at 10,000 spheres, run alternately), and its
 * profile gives a quarter of the samples to those getters. Under tsx every sample
 * is on line 1 of its file; for the lines of a function, profile the JavaScript that
 * `npx tsc -p tsconfig.json --outDir <out> --noEmit false --declaration false` writes (with this
 * package.json and node_modules beside it) and pass `--lines <function>` to the summary.
 */
import { buildArena } from '../src/scenes/buildArena.js';
import { argValue } from './sideBySide.js';

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log('node --import tsx --cpu-prof --cpu-prof-dir=<dir> bench/profileTick.ts [--spheres 10000] [--continuous] [--seconds 8]');
  process.exit(0);
}
const spheres = Number(argValue(args, '--spheres') ?? 10000);
const continuous = args.includes('--continuous');
const seconds = Number(argValue(args, '--seconds') ?? 8);
const arena = buildArena({ spheres, seed: 1, physics: { continuous } });
for (let i = 0; i < 200; i++) arena.tick();
const c0 = process.cpuUsage();
const end = performance.now() + seconds * 1000;
let ticks = 0;
while (performance.now() < end) {
  arena.tick();
  ticks++;
}
const c = process.cpuUsage(c0);
console.log(`${spheres} spheres${continuous ? ', continuous' : ''}: ${((c.user + c.system) / 1000 / ticks).toFixed(3)} ms CPU per tick (${ticks} ticks)`);
