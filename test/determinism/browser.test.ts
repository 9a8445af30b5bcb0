/**
 * Cross-engine determinism: the arena stepped in a real Chromium (Debian's package, driven by
 * playwright-core) gives the same state hashes as Node. The library and scene are bundled by esbuild
 * into one IIFE script that is injected into an empty page: no network, no files served.
 *
 * Chromium's path, flags and the skip rule are those of test/support/browser.ts: without Chromium
 * and without CI=true the test is skipped with the reason; with CI=true (.ci/run installs Chromium)
 * it runs, and fails if the browser cannot be launched.
 */
import { build } from 'esbuild';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PINNED } from './pinned.js';
import { arenaInOrder } from './scenes.js';
import { hashPhysicsState } from '../../src/index.js';
import { CHROMIUM_SKIP_REASON, launchChromium, skipWithoutChromium, type ChromiumSession } from '../support/browser.js';

const ROOT = resolve(__dirname, '../..');

const ENTRY = `
import { hashPhysicsState } from './src/index.ts';
import { arenaInOrder } from './test/determinism/scenes.ts';
/** Builds the pinned arena exactly as Node does, steps it and returns the state hash every \`every\` ticks (the last one is the final state). */
export function trace(scene, ticks, every) {
  const a = arenaInOrder(scene);
  const out = [];
  for (let t = 1; t <= ticks; t++) {
    a.tick();
    if (t % every === 0) out.push(hashPhysicsState(a.physics));
  }
  return { hashes: out, contacts: a.physics.contacts.count, tick: a.physics.tick };
}
`;

const EVERY = 100;

function nodeTrace(p: (typeof PINNED)[number]): string[] {
  const r = arenaInOrder(p.scene);
  const out: string[] = [];
  for (let t = 1; t <= p.ticks; t++) {
    r.tick();
    if (t % EVERY === 0) out.push(hashPhysicsState(r.physics));
  }
  return out;
}

describe('determinism across engines: Node vs Chromium', () => {
  let session: ChromiumSession | undefined;
  let bundle = '';

  beforeAll(async () => {
    if (CHROMIUM_SKIP_REASON !== undefined) return;
    const out = await build({
      stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts', sourcefile: 'determinism-entry.ts' },
      bundle: true,
      format: 'iife',
      globalName: 'BitecsCollideDeterminism',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    bundle = out.outputFiles[0].text;
    session = await launchChromium();
  });

  afterAll(async () => {
    await session?.close();
  });

  it('the pinned arenas give the same hashes (every 100 ticks) in Chromium as in Node', async (ctx) => {
    skipWithoutChromium(ctx);
    const page = session!.page;
    await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
    await page.addScriptTag({ content: bundle });
    const engine = await page.evaluate(() => navigator.userAgent);
    for (const p of PINNED) {
      const browser = await page.evaluate(
        ([scene, ticks, every]) => (globalThis as any).BitecsCollideDeterminism.trace(scene, ticks, every),
        [p.scene, p.ticks, EVERY] as const,
      );
      const node = nodeTrace(p);
      expect(browser.tick).toBe(p.ticks);
      expect({ scene: p.name, engine, hashes: browser.hashes }).toEqual({ scene: p.name, engine, hashes: node });
      expect(browser.hashes[browser.hashes.length - 1]).toBe(p.hash);
    }
  });
});
