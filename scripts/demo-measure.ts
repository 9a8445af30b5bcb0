/**
 * Frames per second and the ms/tick the demo page shows, measured in headless Chromium (not part of
 * `npm test`): for each case, the page (built and served by scripts/demo.mjs) runs the scene unpaused;
 * after a warm-up, `window.demo.fps` (frames drawn in the last second) and `window.demo.msPerTick`
 * (the median physics time per tick over the last second) are read once a second, and the medians
 * of those readings are printed, with the ticks per second the page managed. Chromium is launched as
 * the browser tests do (test/support/browser.ts: software WebGL, SwiftShader), at 1280×720.
 *
 * A case is `scene[:view][@bodies]`: `pit`, `stress:2d@100000` (view: the scene's own by default).
 * For the stress scene the same scene's ms/tick in Node is printed too.
 *
 * Usage: npx tsx scripts/demo-measure.ts [--cases bullets,sight,sensors,pit,stress@10000,stress:2d@10000]
 *        [--seed 1] [--warmup 10] [--seconds 15]
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type {} from '../examples/browser/api.js'; // window.demo's type
import { createDemoScene } from '../examples/browser/scene.js';
import { launchChromium } from '../test/support/browser.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: 'bullets,sight,sensors,pit,stress@10000,stress:2d@10000,stress@100000,stress:2d@100000' },
    seed: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '15' },
  },
});

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Median ms of single ticks of the stress scene in Node, after a warm-up. */
function nodeMsPerTick(bodies: number): number {
  const scene = createDemoScene({ seed: Number(values.seed), bodies, continuous: true });
  const ticks = bodies > 30_000 ? 30 : 120;
  for (let t = 0; t < ticks; t++) scene.tick();
  const times: number[] = [];
  for (let t = 0; t < ticks; t++) {
    const start = performance.now();
    scene.tick();
    times.push(performance.now() - start);
  }
  return median(times);
}

const server = spawn(process.execPath, [join(ROOT, 'scripts/demo.mjs'), '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise<string>((ok) => {
  server.stdout.on('data', (d) => {
    const m = /http:\/\/\S+\//.exec(String(d));
    if (m) ok(m[0]);
  });
});
const session = await launchChromium();
try {
  const page = session.page;
  await page.setViewportSize({ width: 1280, height: 720 });
  console.log(`demo-measure: ${await page.evaluate(() => navigator.userAgent)}`);
  for (const c of values.cases.split(',')) {
    const m = /^(\w+)(?::(2d|3d))?(?:@(\d+))?$/.exec(c);
    if (!m) throw new Error(`demo-measure: bad case ${c} (scene[:2d|3d][@bodies])`);
    const [, scene, view, bodies] = m;
    const q = new URLSearchParams({ scene, seed: values.seed });
    if (view) q.set('view', view);
    if (bodies) q.set('bodies', bodies);
    await page.goto(`${url}?${q}`);
    await page.waitForFunction(() => window.demo !== undefined && window.demo.tick > 0, undefined, { timeout: 600_000 });
    await page.waitForTimeout(Number(values.warmup) * 1000);
    const fps: number[] = [], ms: number[] = [];
    const at = async () => page.evaluate(() => ({ tick: window.demo.tick, t: performance.now(), view: window.demo.view, bodies: window.demo.bodies }));
    const start = await at();
    for (let s = 0; s < Number(values.seconds); s++) {
      await page.waitForTimeout(1000);
      const r = await page.evaluate(() => ({ fps: window.demo.fps, ms: window.demo.msPerTick }));
      fps.push(r.fps);
      ms.push(r.ms);
    }
    const end = await at();
    const secs = (end.t - start.t) / 1000;
    console.log(
      `${scene} (${end.view}, ${end.bodies} bodies): ${median(fps).toFixed(1)} frames/s (min ${Math.min(...fps)}, max ${Math.max(...fps)}), ` +
        `physics ${median(ms).toFixed(2)} ms/tick, ${((end.tick - start.tick) / secs).toFixed(1)} ticks/s`,
    );
    await page.goto('about:blank');
    if (scene === 'stress') console.log(`  same scene in Node: ${nodeMsPerTick(Number(bodies ?? 10_000)).toFixed(2)} ms/tick (median of single ticks after a warm-up)`);
  }
} finally {
  await session.close();
  server.kill();
}
