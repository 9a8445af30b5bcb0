/**
 * The browser demo in a real Chromium (test/support/browser.ts: Debian's package through
 * playwright-core, software WebGL; skipped with the reason without Chromium outside CI). The page is
 * built and served by `scripts/demo.mjs --port 0`, as `npm run demo` does.
 *
 * Nothing here depends on the frame rate (SwiftShader draws a few frames per second): the page is
 * stepped through `window.demoControl.step(n)`, or read after `pause(true)` at whatever tick it
 * reached, and compared with the same scene stepped in Node. The first test loads the page; the
 * others reset its scene through `demoControl.reset` (a load costs seconds in software WebGL). This
 * file covers the stress scene; demoScenes.test.ts the menu and every scene, with their pictures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hashPhysicsState } from '../../src/index.js';
import { BULLETS, createDemoScene, type DemoSceneOptions } from '../../examples/browser/scene.js';
import { BACKGROUND } from '../../examples/browser/view.js';
import { CHROMIUM_SKIP_REASON, launchChromium, skipWithoutChromium, type ChromiumSession } from '../support/browser.js';
import { report } from '../support/report.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGE_TIMEOUT = 180_000;
/** Share of screenshot pixels that must differ from the background. */
const MIN_DRAWN_SHARE = 0.15;

/** Starts `node scripts/demo.mjs --port 0` and resolves with the address it prints. */
function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts/demo.mjs'), '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((ok, fail) => {
    const onData = (d: Buffer) => {
      output += String(d);
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(output);
      if (m) ok({ child, url: m[0] });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => fail(new Error(`demo server exited with ${code}:\n${output}`)));
  });
}

/** The state hash of the demo scene after `ticks` ticks, in Node. */
function nodeHash(options: DemoSceneOptions, ticks: number): string {
  const scene = createDemoScene(options);
  for (let t = 0; t < ticks; t++) scene.tick();
  return hashPhysicsState(scene.physics);
}

/** Waits until the page has drawn `n` more frames. */
async function frames(page: Page, n: number): Promise<void> {
  await page.evaluate(async (count) => {
    for (let i = 0; i < count; i++) await new Promise((r) => requestAnimationFrame(r));
  }, n);
}

const readout = (page: Page) => page.evaluate(() => ({ ...window.demo }));

describe('browser demo (npm run demo): the stress scene', () => {
  let server: ChildProcess | undefined;
  let url = '';
  let session: ChromiumSession | undefined;
  const errors: string[] = [];

  beforeAll(async () => {
    if (CHROMIUM_SKIP_REASON !== undefined) return;
    const s = await startServer();
    server = s.child;
    url = s.url;
    session = await launchChromium();
    await session.page.setViewportSize({ width: 1280, height: 720 });
    session.page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    session.page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  }, PAGE_TIMEOUT);

  afterAll(async () => {
    await session?.close();
    server?.kill();
  });

  /** Opens the page with these URL parameters and waits for window.demo. */
  async function open(query: string): Promise<Page> {
    const page = session!.page;
    await page.goto(`${url}?${query}`);
    await page.waitForFunction(() => window.demo !== undefined && window.demo.hash !== '', undefined, { timeout: PAGE_TIMEOUT });
    return page;
  }

  /**
   * The page, paused, with a fresh scene of these options at tick 0: reset through demoControl (as the
   * Reset button does) when the page is already open, which spares a page load and shader compilation.
   */
  async function paused(options: DemoSceneOptions): Promise<Page> {
    const page = session!.page;
    const loaded = page.url().startsWith(url) && (await page.evaluate(() => window.demo !== undefined && window.demo.scene === 'stress'));
    if (!loaded) await open(`scene=stress&paused=1&bodies=${options.bodies}&seed=${options.seed}&continuous=${options.continuous ? 1 : 0}`);
    await page.evaluate((o) => {
      window.demoControl.pause(true);
      window.demoControl.reset(o);
    }, options);
    return page;
  }

  it('loads from the local server with no console errors; its tick advances; window.demo is read-only; the wireframe draws', async (ctx) => {
    skipWithoutChromium(ctx);
    const page = await open('scene=stress&bodies=2000&seed=3');
    await page.waitForFunction(() => window.demo.tick >= 2, undefined, { timeout: PAGE_TIMEOUT });
    const first = (await readout(page)).tick;
    await page.waitForFunction((t) => window.demo.tick > t, first, { timeout: PAGE_TIMEOUT });
    const r = await readout(page);
    expect(r.bodies).toBe(2000);
    expect(r.msPerTick).toBeGreaterThan(0);
    expect(r.hash).toMatch(/^[0-9a-f]{16}$/);
    // Reflect.set returns false where an assignment is refused (a getter without setter, a non-writable property).
    const writes = await page.evaluate(() => ({
      field: Reflect.set(window.demo, 'tick', -1),
      object: Reflect.set(window, 'demo', {}),
      stillThere: typeof window.demo.tick === 'number' && window.demo.tick >= 0,
    }));
    expect(writes).toEqual({ field: false, object: false, stillThere: true });
    await page.click('#wireframe');
    await page.click('#normals');
    await frames(page, 2);
    expect(errors).toEqual([]);
  }, PAGE_TIMEOUT);

  it('window.demo.hash equals the Node hash of the same scene and ticks (stepped; and running, read when paused)', async (ctx) => {
    skipWithoutChromium(ctx);
    const options = { seed: 11, bodies: 3000, continuous: true };
    const page = await paused(options);
    expect((await readout(page)).tick).toBe(0);
    await page.evaluate(() => window.demoControl.step(120));
    const stepped = await readout(page);
    expect({ tick: stepped.tick, hash: stepped.hash }).toEqual({ tick: 120, hash: nodeHash(options, 120) });

    // Running at whatever frame rate: the fixed stepper's ticks give the same states.
    await page.evaluate(() => window.demoControl.pause(false));
    await page.waitForFunction(() => window.demo.tick >= 125, undefined, { timeout: PAGE_TIMEOUT });
    await page.evaluate(() => window.demoControl.pause(true));
    const ran = await readout(page);
    expect(ran.hash).toBe(nodeHash(options, ran.tick));
    expect(errors).toEqual([]);
  }, PAGE_TIMEOUT);

  it('continuous contacts off: the bullets pass the thin wall; on: none does (the checkbox)', async (ctx) => {
    skipWithoutChromium(ctx);
    const page = await paused({ bodies: 1000, seed: 2, continuous: true });
    const through = async (ticks: number) => {
      await page.evaluate((n) => window.demoControl.step(n), ticks);
      return (await readout(page)).bulletsThrough;
    };
    // Salvos are fired at ticks 0, 60, 120, ...; a bullet crosses the wall's plane in its fifth tick.
    expect(await through(40)).toBe(0);
    await page.click('#continuous');
    expect(await page.isChecked('#continuous')).toBe(false);
    expect(await through(60)).toBe(BULLETS);
    await page.click('#continuous');
    expect(await through(60)).toBe(0);
    expect(errors).toEqual([]);
  }, PAGE_TIMEOUT);

  it(`a screenshot shows the arena: over ${MIN_DRAWN_SHARE * 100} % of its pixels are not background`, async (ctx) => {
    skipWithoutChromium(ctx);
    const page = await paused({ bodies: 10_000, seed: 1, continuous: true });
    // The solid view (an earlier test turned the wireframe and normals on). Tick 62: the second
    // salvo's bullets are in flight, 5 units before the wall.
    await page.evaluate(() => {
      window.demoControl.setWireframe(false);
      window.demoControl.setNormals(false);
      window.demoControl.step(62);
    });
    await frames(page, 2);
    const png = await page.screenshot({ type: 'png' });
    const bg = [(BACKGROUND >> 16) & 255, (BACKGROUND >> 8) & 255, BACKGROUND & 255];
    const share = await page.evaluate(async ({ b64, bg }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      let drawn = 0;
      for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 24) drawn++;
      return drawn / (d.length / 4);
    }, { b64: png.toString('base64'), bg });
    report(`[demo] screenshot 1280x720 at 10,000 bodies: ${(share * 100).toFixed(1)} % of pixels drawn`);
    expect(share).toBeGreaterThan(MIN_DRAWN_SHARE);
    expect(errors).toEqual([]);
  }, PAGE_TIMEOUT);
});
