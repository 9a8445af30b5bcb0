/**
 * The demo's menu in a real Chromium (test/support/browser.ts; skipped with the reason without
 * Chromium outside CI), served by `scripts/demo.mjs --port 0` as `npm run demo` does: the menu lists
 * every scene with its caption; each scene, chosen from the menu, advances on its own with no console
 * error and does what its caption says (bullets through the wall only without continuous contacts,
 * the keyboard walks the player and the character (Space: a jump), sensors count entries, the ball
 * pit comes to rest, the stress scene's body counts); both views draw any scene; a screenshot per
 * scene.
 *
 * With BITECS_COLLIDE_SCREENSHOT=1 the screenshots are written to docs/demo-<scene>.png (commit them
 * when the page changes). Screenshots are taken paused after a fixed number of ticks of a fresh scene,
 * so they show the same state every run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCENES, COMING, type SceneId } from '../../examples/browser/scenes/index.js';
import { BACKGROUND } from '../../examples/browser/view.js';
import { CHROMIUM_SKIP_REASON, launchChromium, skipWithoutChromium, type ChromiumSession } from '../support/browser.js';
import { report } from '../support/report.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGE_TIMEOUT = 240_000;
/** Viewport of the screenshots (small files for docs/). */
const SHOT = { width: 1024, height: 576 };
/**
 * Ticks of a fresh scene before its screenshot (continuous contacts switched off at `offAt`), and the
 * least share of pixels off the background. The bullets' picture: two salvos counted with continuous
 * contacts (none passed), then one without (all passed), and the next one just through the wall.
 */
const SHOT_AT: Record<SceneId, { ticks: number; drawn: number; offAt?: number }> = {
  bullets: { ticks: 185, offAt: 100, drawn: 0.04 },
  sight: { ticks: 240, drawn: 0.1 },
  sensors: { ticks: 300, drawn: 0.1 },
  pit: { ticks: 90, drawn: 0.15 },
  character: { ticks: 100, drawn: 0.1 },
  stress: { ticks: 62, drawn: 0.15 },
};

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

const readout = (page: Page) => page.evaluate(() => ({ ...window.demo }));

/** Share of the screenshot's pixels that differ from the page background. */
async function drawnShare(page: Page, png: Buffer): Promise<number> {
  const bg = [(BACKGROUND >> 16) & 255, (BACKGROUND >> 8) & 255, BACKGROUND & 255];
  return page.evaluate(async ({ b64, bg }) => {
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
}

describe('browser demo (npm run demo): the menu of scenes', () => {
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
    await session.page.setViewportSize(SHOT);
    session.page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    session.page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
    await session.page.goto(url);
    await session.page.waitForFunction(() => window.demo !== undefined && window.demo.hash !== '', undefined, { timeout: PAGE_TIMEOUT });
  }, PAGE_TIMEOUT);

  afterAll(async () => {
    await session?.close();
    server?.kill();
  });

  /** Chooses a scene from the menu (as a user does), paused, rebuilt at tick 0. */
  async function choose(id: SceneId): Promise<Page> {
    const page = session!.page;
    await page.selectOption('#scene', id);
    await page.evaluate(() => {
      window.demoControl.pause(true);
      window.demoControl.reset({ seed: 1, bodies: 10_000, continuous: true });
    });
    return page;
  }

  it('opens on the first scene; the menu lists every scene by its title, and the coming ones disabled', async (ctx) => {
    skipWithoutChromium(ctx);
    const page = session!.page;
    expect((await readout(page)).scene).toBe(SCENES[0].id);
    const menu = await page.$$eval('#scene option', (os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, text: o.textContent, disabled: (o as HTMLOptionElement).disabled })));
    expect(menu.filter((o) => !o.disabled)).toEqual(SCENES.map((s) => ({ value: s.id, text: s.title, disabled: false })));
    expect(menu.filter((o) => o.disabled).map((o) => o.text)).toEqual(COMING.map((c) => `${c.title} (coming)`));
    expect(errors).toEqual([]);
  }, PAGE_TIMEOUT);

  for (const entry of SCENES) {
    it(`${entry.id}: chosen from the menu, shows its caption, advances by itself with no console error; a screenshot`, async (ctx) => {
      skipWithoutChromium(ctx);
      const page = await choose(entry.id);
      expect(await page.textContent('#title')).toBe(entry.title);
      expect(await page.textContent('#caption')).toBe(entry.caption);
      const r0 = await readout(page);
      expect({ scene: r0.scene, view: r0.view, tick: r0.tick }).toEqual({ scene: entry.id, view: entry.view, tick: 0 });
      await page.evaluate(() => window.demoControl.pause(false));
      await page.waitForFunction(() => window.demo.tick >= 3, undefined, { timeout: PAGE_TIMEOUT });
      const t = (await readout(page)).tick;
      await page.waitForFunction((t0) => window.demo.tick > t0, t, { timeout: PAGE_TIMEOUT });
      expect(new URL(page.url()).searchParams.get('scene')).toBe(entry.id);

      await page.evaluate(({ ticks, offAt }) => {
        window.demoControl.pause(true);
        window.demoControl.reset({ seed: 1, bodies: 10_000, continuous: true });
        window.demoControl.step(offAt ?? ticks);
        window.demoControl.setContinuous(offAt === undefined);
        window.demoControl.step(ticks - (offAt ?? ticks));
      }, SHOT_AT[entry.id]);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const png = await page.screenshot({ type: 'png' });
      const share = await drawnShare(page, png);
      report(`[demo] ${entry.id}: screenshot ${SHOT.width}x${SHOT.height}, ${(png.length / 1024).toFixed(0)} KiB, ${(share * 100).toFixed(1)} % of pixels drawn`);
      if (process.env.BITECS_COLLIDE_SCREENSHOT === '1') writeFileSync(join(ROOT, `docs/demo-${entry.id}.png`), png);
      expect(share).toBeGreaterThan(SHOT_AT[entry.id].drawn);
      expect(errors).toEqual([]);
    }, PAGE_TIMEOUT);
  }

  it('bullets: with continuous contacts (the checkbox) none passes the wall; without, every one does', async (ctx) => {
    skipWithoutChromium(ctx);
    const page = await choose('bullets');
    await page.evaluate(() => window.demoControl.step(3 * 45 + 1));
    expect((await readout(page)).figures).toMatchObject({ firedOn: 24, passedOn: 0 });
    await page.click('#continuous');
    expect(await page.isChecked('#continuous')).toBe(false);
    await page.evaluate(() => window.demoControl.step(2 * 45));
    const f = (await readout(page)).figures;
    expect(f.firedOff).toBeGreaterThanOrEqual(8);
    expect(f.passedOff).toBe(f.firedOff);
    expect(f.passedOn).toBe(0);
    expect(errors).toEqual([]);
  }, PAGE_TIMEOUT);

  it('line of sight: the arrow keys walk the player (and stop the patrol)', async (ctx) => {
    skipWithoutChromium(ctx);
    const page = await choose('sight');
    await page.evaluate(() => window.demoControl.step(1));
    const before = (await readout(page)).figures;
    await page.keyboard.down('ArrowRight');
    await page.evaluate(() => window.demoControl.step(30));
    await page.keyboard.up('ArrowRight');
    const after = (await readout(page)).figures;
    // 7 units/s for 30 ticks of 1/60 s, along +x, in free space.
    expect(after.playerX - before.playerX).toBeCloseTo(3.5, 6);
    expect(after.playerY).toBeCloseTo(before.playerY, 9);
    expect(after.auto).toBe(0);
    expect(after.seeing).toBeGreaterThanOrEqual(0);
    expect(errors).toEqual([]);
  }, PAGE_TIMEOUT);

  it('character: the arrow keys walk it, Space makes it jump', async (ctx) => {
    skipWithoutChromium(ctx);
    const page = await choose('character');
    await page.evaluate(() => window.demoControl.step(30));
    const before = (await readout(page)).figures;
    expect(before.grounded).toBe(1);
    await page.keyboard.down('ArrowLeft');
    await page.evaluate(() => window.demoControl.step(30));
    await page.keyboard.up('ArrowLeft');
    const walked = (await readout(page)).figures;
    // 4 units/s for 30 ticks of 1/60 s along −x, on the flat floor.
    expect(walked.x - before.x).toBeCloseTo(-2, 6);
    expect(walked.auto).toBe(0);
    await page.keyboard.down('Space');
    await page.evaluate(() => window.demoControl.step(10));
    await page.keyboard.up('Space');
    const jumped = (await readout(page)).figures;
    expect(jumped.grounded).toBe(0);
    expect(jumped.y - walked.y).toBeGreaterThan(0.3);
    expect(errors).toEqual([]);
  }, PAGE_TIMEOUT);

  it('sensors count entries; the ball pit comes to rest', async (ctx) => {
    skipWithoutChromium(ctx);
    let page = await choose('sensors');
    await page.evaluate(() => window.demoControl.step(300));
    expect((await readout(page)).figures.entries).toBeGreaterThan(5);
    page = await choose('pit');
    await page.evaluate(() => window.demoControl.step(600));
    expect((await readout(page)).figures).toMatchObject({ balls: 150, moving: 0 });
    expect(errors).toEqual([]);
  }, PAGE_TIMEOUT);

  it('stress: 10,000 to 100,000 bodies from the menu; both views draw any scene', async (ctx) => {
    skipWithoutChromium(ctx);
    const page = await choose('stress');
    const choices = await page.$$eval('#bodies option', (os) => os.map((o) => Number((o as HTMLOptionElement).value)));
    expect(choices).toEqual([10_000, 20_000, 50_000, 100_000]);
    await page.evaluate(() => window.demoControl.step(2));
    const r = await readout(page);
    expect(r.bodies).toBe(10_000);
    expect(r.msPerTick).toBeGreaterThan(0);
    // The stress scene top-down in Canvas 2D, the line-of-sight scene in three.js.
    await page.selectOption('#view-kind', '2d');
    await page.evaluate(() => window.demoControl.step(1));
    expect((await readout(page)).view).toBe('2d');
    await page.selectOption('#scene', 'sight');
    await page.selectOption('#view-kind', '3d');
    await page.evaluate(() => window.demoControl.step(1));
    expect(await readout(page)).toMatchObject({ scene: 'sight', view: '3d' });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(errors).toEqual([]);
  }, PAGE_TIMEOUT);
});
