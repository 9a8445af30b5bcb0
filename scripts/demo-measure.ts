/**
 * The ms/tick the demo page shows, measured in headless Chromium (not part of `npm test`): for each
 * body count, the page (built and served by scripts/demo.mjs) runs unpaused; after a warm-up, the
 * overlay's figure (`window.demo.msPerTick`, the median physics time per tick over the last second)
 * is read once a second, and the median of those readings is printed, with the ticks and frames per
 * second the page managed meanwhile. Chromium is launched as the browser tests do
 * (test/support/browser.ts: software WebGL).
 *
 * Usage: npx tsx scripts/demo-measure.ts [--bodies 10000,100000] [--seed 1] [--warmup 15] [--seconds 20]
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
    bodies: { type: 'string', default: '10000,100000' },
    seed: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '15' },
    seconds: { type: 'string', default: '20' },
  },
});

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Median ms of single ticks of the demo scene in Node, after a warm-up. */
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
  const engine = await page.evaluate(() => navigator.userAgent);
  console.log(`demo-measure: ${engine}`);
  for (const bodies of values.bodies.split(',').map(Number)) {
    await page.goto(`${url}?bodies=${bodies}&seed=${values.seed}`);
    await page.waitForFunction(() => window.demo !== undefined && window.demo.tick > 0, undefined, { timeout: 600_000 });
    // A frame counter (as a string: tsx's helpers for named functions do not exist in the page).
    await page.evaluate('window.frames_ = 0; (function count() { window.frames_++; requestAnimationFrame(count); })()');
    await page.waitForTimeout(Number(values.warmup) * 1000);
    const readings: number[] = [];
    const at = async () => page.evaluate(() => ({ tick: window.demo.tick, frames: (window as unknown as { frames_: number }).frames_, t: performance.now() }));
    const start = await at();
    for (let s = 0; s < Number(values.seconds); s++) {
      await page.waitForTimeout(1000);
      readings.push(await page.evaluate(() => window.demo.msPerTick));
    }
    const end = await at();
    const secs = (end.t - start.t) / 1000;
    const contacts = await page.evaluate(() => window.demo.contacts);
    console.log(
      `bodies ${bodies}: page ${median(readings).toFixed(2)} ms/tick (median of ${readings.length} readings of the overlay; ` +
        `min ${Math.min(...readings).toFixed(2)}, max ${Math.max(...readings).toFixed(2)}), ` +
        `${((end.tick - start.tick) / secs).toFixed(1)} ticks/s, ${((end.frames - start.frames) / secs).toFixed(1)} frames/s, ${contacts} contacts in the last tick`,
    );
    await page.goto('about:blank');
    console.log(`bodies ${bodies}: Node ${nodeMsPerTick(bodies).toFixed(2)} ms/tick (median of single ticks after a warm-up, same scene)`);
  }
} finally {
  await session.close();
  server.kill();
}
