/**
 * Side-by-side regression check against another checkout of this project, in ONE process: both
 * builds of the arena (this tree's and the baseline's) are ticked in alternating batches of ~60 ms,
 * their order swapped every round, and each batch is measured in process CPU time (user + system),
 * which a loaded machine inflates far less than wall time. Prints the medians and the median of the
 * per-round ratios (this / baseline).
 *
 *   git archive <commit> | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/node_modules
 *   npx tsx bench/compare.ts --base /tmp/base [--sizes 10000,100000] [--mode broadphase|tick|response]
 *     [--continuous] [--seconds 12]
 *
 * `broadphase` runs `runBroadphase` again on the same pose; `tick` runs the arena's whole tick
 * (broadphase, narrowphase, integration, walls); `response` ticks the response arena of
 * bench/response.ts (every sphere dynamic: Response BOUNCE, restitution 1, sphere–sphere on, no
 * Contact components).
 */
import { resolve } from 'node:path';
import { addComponent } from 'bitecs';
import { readSideBySideArgs, sideBySide } from './sideBySide.js';

interface Arena {
  world: object;
  physics: { components: { Response: { mode: Uint8Array; restitution: Float64Array } } };
  sphereIds: readonly number[];
  tick(): void;
}
interface Side { step: () => void }

const { args, value, base, sizes } = readSideBySideArgs('npx tsx bench/compare.ts --base <checkout> [--sizes 10000] [--mode broadphase|tick|response] [--continuous] [--seconds 12]');
const mode = value('--mode') ?? 'broadphase';
const seconds = Number(value('--seconds') ?? 12);
const continuous = args.includes('--continuous');
const here = resolve(new URL('..', import.meta.url).pathname);

async function load(root: string, spheres: number): Promise<Side> {
  const { buildArena } = (await import(`${root}/src/scenes/buildArena.ts`)) as { buildArena(o: object): Arena };
  const { runBroadphase, ResponseMode } = (await import(`${root}/src/index.ts`)) as { runBroadphase(p: unknown): void; ResponseMode: { BOUNCE: number } };
  const response = mode === 'response';
  const arena = response
    ? buildArena({ spheres, seed: 1, sphereSphere: true, physics: { continuous, contactComponent: false } })
    : buildArena({ spheres, seed: 1, physics: { continuous } });
  if (response) {
    const R = arena.physics.components.Response;
    for (const e of arena.sphereIds) {
      addComponent(arena.world as Parameters<typeof addComponent>[0], e, R);
      R.mode[e] = ResponseMode.BOUNCE;
      R.restitution[e] = 1;
    }
  }
  for (let i = 0; i < 20; i++) arena.tick();
  return { step: mode === 'tick' || response ? () => arena.tick() : () => runBroadphase(arena.physics) };
}

for (const size of sizes) {
  const b = await load(resolve(base), size);
  const o = await load(here, size);
  const r = sideBySide(b.step, o.step, seconds, 10);
  console.log(`${mode}, ${size} spheres${continuous ? ', continuous' : ''}: baseline ${r.base.toFixed(3)} ms, this tree ${r.here.toFixed(3)} ms (CPU), ` +
    `this / baseline ${r.ratio.toFixed(3)} (median of ${r.rounds} rounds)`);
}
