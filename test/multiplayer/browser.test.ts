/**
 * The arena's browser client (examples/multiplayer/browser, served by page.ts) in headless Chromium
 * (test/support/browser.ts; skipped with the reason without Chromium outside CI): two pages join one
 * room through the delay proxy at 100 ms of round trip, the first steers its sphere with the arrow
 * key, both pages' confirmed ticks match the server's hash, and the second page's replica shows the
 * first player's sphere where the first page has it. Writes docs/multiplayer.png (the page at work)
 * when BITECS_COLLIDE_SCREENSHOT=1.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startDelayProxy, type DelayProxy } from '../../examples/multiplayer/delayProxy.js';
import { startPage, type RunningPage } from '../../examples/multiplayer/page.js';
import { CHROMIUM_SKIP_REASON, launchChromium, skipWithoutChromium, type ChromiumSession } from '../support/browser.js';
import { report, serverFixture } from './harness.js';

// No admission limit: these tests are about the client, and a loaded machine's calibration could refuse a room.
const fx = serverFixture({ tickBudgetMs: Infinity });
let proxy: DelayProxy | undefined;
let page: RunningPage | undefined;
let chromium: ChromiumSession | undefined;

beforeAll(async () => {
  if (CHROMIUM_SKIP_REASON !== undefined) return;
  proxy = await startDelayProxy({ target: fx.endpoint(), rttMs: 100, jitterMs: 5 });
  page = await startPage(0);
  chromium = await launchChromium();
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await page?.stop();
  await proxy?.stop();
}, 60_000);

interface Readout {
  error: string | undefined;
  frames: number;
  myEid: number;
  predicted: number;
  confirmed: number;
  checked: number;
  matched: number;
  rollbacks: number;
  rtt: number;
  late: number;
  x: number;
}

function readout(p: Page): Promise<Readout> {
  return p.evaluate(() => {
    const a = window.arena!;
    const c = a.client;
    const me = c?.myEid ?? 0;
    return {
      error: a.error, frames: a.frames, myEid: me, predicted: c?.predictedTick ?? -1, confirmed: c?.confirmedTick ?? -1,
      checked: c?.stats.checked ?? 0, matched: c?.stats.matched ?? 0, rollbacks: c?.stats.rollbacks ?? 0,
      rtt: c?.rttMs ?? 0, late: c?.stats.inputsLate ?? 0,
      x: me !== 0 && c?.sim ? c.sim.physics.components.Position.x[me] : NaN,
    };
  });
}

async function waitFor(p: Page, done: (r: Readout) => boolean, timeoutMs: number, what: string): Promise<Readout> {
  let last: Readout | undefined;
  const start = Date.now();
  for (;;) {
    last = await readout(p);
    if (last.error !== undefined) throw new Error(`page error: ${last.error}`);
    if (done(last)) return last;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('browser client', () => {
  it('two pages in one room through the proxy at 100 ms: the arrow key steers, every confirmed tick matches', async (ctx) => {
    skipWithoutChromium(ctx);
    const url = `${page!.url}?endpoint=${encodeURIComponent(proxy!.endpoint)}&bodies=300`;
    const one = chromium!.page;
    await one.setViewportSize({ width: 720, height: 480 });
    await one.goto(url);
    const a0 = await waitFor(one, (r) => r.myEid !== 0 && r.confirmed > 0 && r.frames > 2, 60_000, 'page 1 joined');
    const two = await chromium!.context.newPage();
    await two.setViewportSize({ width: 720, height: 480 });
    await two.goto(url);
    const b0 = await waitFor(two, (r) => r.myEid !== 0 && r.confirmed > 0, 60_000, 'page 2 joined');
    expect(b0.myEid).not.toBe(a0.myEid);
    await one.bringToFront();
    const before = await waitFor(one, (r) => r.predicted > r.confirmed, 10_000, 'page 1 predicting ahead');
    await one.keyboard.down('ArrowRight');
    const moved = await waitFor(one, (r) => r.x > before.x + 2, 20_000, 'page 1 sphere moved right');
    await one.keyboard.up('ArrowRight');
    // Page 2's replica, once it has confirmed the ticks page 1 had predicted, has page 1's sphere there
    // too, unless page 1's inputs reached the server late: the server rejects those and applies the
    // stick of later ticks (docs/netcode.md), so page 2 sees the move a few ticks later. Waited for (up
    // to 20 s); a failure names both pages' figures (2 of 3 full CI runs read page 2 at -26 at once,
    // not explained: alone the test passed 5 of 5).
    await waitFor(two, (r) => r.confirmed >= moved.predicted, 20_000, 'page 2 confirmed those ticks');
    const seenX = (): Promise<number> => two.evaluate((eid) => window.arena!.client!.sim!.physics.components.Position.x[eid], a0.myEid);
    const waitStart = Date.now();
    let seen = await seenX();
    while (!(seen > before.x + 1.5) && Date.now() - waitStart < 20_000) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await seenX();
    }
    if (!(seen > before.x + 1.5)) {
      throw new Error(`page 2 shows page 1's sphere at x ${seen} (page 1 moved it from ${before.x} to ${moved.x} by tick ${moved.predicted}); page 1 ${JSON.stringify(await readout(one))}; page 2 ${JSON.stringify(await readout(two))}`);
    }
    const a = await waitFor(one, (r) => r.checked >= 120, 30_000, '120 checked ticks on page 1');
    const b = await waitFor(two, (r) => r.checked >= 120, 30_000, '120 checked ticks on page 2');
    for (const r of [a, b]) {
      expect(r.matched).toBe(r.checked);
      expect(r.predicted).toBeGreaterThan(r.confirmed);
    }
    report(`[browser multiplayer] page 1: ${a.matched}/${a.checked} matched, ${a.rollbacks} rollbacks, ${a.frames} frames; page 2: ${b.matched}/${b.checked}, ${b.rollbacks} rollbacks`);
    if (process.env.BITECS_COLLIDE_SCREENSHOT === '1') {
      await one.keyboard.down('ArrowDown');
      await new Promise((r) => setTimeout(r, 600));
      await one.keyboard.up('ArrowDown');
      writeFileSync(resolve(import.meta.dirname, '../../docs/multiplayer.png'), await one.screenshot({ type: 'png' }));
    }
    await two.close();
  }, 240_000);
});
