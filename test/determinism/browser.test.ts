/**
 * Cross-engine determinism: the arena stepped in a real Chromium (Debian's package, driven by
 * playwright-core) gives the same state hashes as Node. The library and scene are bundled by esbuild
 * into one IIFE script that is injected into an empty page: no network, no files served.
 *
 * Without /usr/bin/chromium the test is skipped with a message, unless CI is set (.ci/run installs
 * Chromium): then it runs, and fails if the browser cannot be launched.
 */
import { build } from 'esbuild';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PINNED } from './pinned.js';
import { arenaInOrder } from './scenes.js';
import { hashPhysicsState } from '../../src/index.js';

// Debian's package; CHROMIUM_PATH overrides it (e.g. to check the skip path).
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = resolve(__dirname, '../..');
const available = existsSync(CHROMIUM);
const inCI = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';
const run = available || inCI;
if (!run) {
  console.warn(`[determinism/browser] SKIPPED: ${CHROMIUM} not found and CI is not set. Install it (apt-get install -y chromium) to run the Node-vs-Chromium determinism test.`);
}

const ENTRY = `
import { buildArena } from './src/scenes/buildArena.ts';
import { hashPhysicsState } from './src/index.ts';
/** Steps the arena and returns the state hash every \`every\` ticks (the last one is the final state). */
export function trace(spheres, seed, sphereSphere, continuous, ticks, every) {
  const a = buildArena({ spheres, seed, sphereSphere, physics: { continuous } });
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

describe.skipIf(!run)('determinism across engines: Node vs Chromium', () => {
  let context: BrowserContext | undefined;
  let userDataDir = '';
  let bundle = '';

  beforeAll(async () => {
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
    userDataDir = mkdtempSync(join(tmpdir(), 'bitecs-collide-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--no-first-run',
      ],
    });
  });

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  it('the pinned arenas give the same hashes (every 100 ticks) in Chromium as in Node', async () => {
    const page = context!.pages()[0] ?? (await context!.newPage());
    await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
    await page.addScriptTag({ content: bundle });
    const engine = await page.evaluate(() => navigator.userAgent);
    for (const p of PINNED) {
      const s = p.scene;
      const browser = await page.evaluate(
        ([spheres, seed, sphereSphere, continuous, ticks, every]) =>
          (globalThis as any).BitecsCollideDeterminism.trace(spheres, seed, sphereSphere, continuous, ticks, every),
        [s.spheres, s.seed, s.sphereSphere, s.continuous ?? true, p.ticks, EVERY] as const,
      );
      const node = nodeTrace(p);
      expect(browser.tick).toBe(p.ticks);
      expect({ scene: p.name, engine, hashes: browser.hashes }).toEqual({ scene: p.name, engine, hashes: node });
      expect(browser.hashes[browser.hashes.length - 1]).toBe(p.hash);
    }
  });
});
