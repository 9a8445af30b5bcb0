/**
 * Determinism across JavaScript engines: the pinned scenes (pinned.ts: sphere–box, sphere–sphere,
 * response with and without gravity, discrete, moving boxes) and the query scene (queryScene.ts)
 * give the same hashes, every 100 ticks, on JavaScriptCore (`jsc`) and SpiderMonkey (`gjs`) as in
 * Node (V8), and in Firefox (SpiderMonkey, headless, driven by WebDriver BiDi: firefox.ts); and
 * Node's equal the pinned values. The engines run one esbuild IIFE bundle of engineRun.ts (the
 * library and the scenes, no Node APIs) that prints its results as JSON; Firefox evaluates the same
 * bundle in its blank tab.
 *
 * Skip rule (engines.ts): without an engine and without CI=true, its test is skipped with the
 * reason; with CI=true (.ci/run installs both) it runs, and fails if the engine is missing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_GLOBAL, bundleScenes } from './bundle.js';
import { runAllScenes, type SceneResult } from './engineRun.js';
import { ENGINES, packageVersion, runScript, skipWithoutEngine } from './engines.js';
import { FIREFOX_SKIP_REASON, launchFirefox } from './firefox.js';
import { PINNED } from './pinned.js';
import { PINNED_QUERY_HASH } from './queryScene.js';
import { report } from '../support/report.js';

/** An engine runs every scene in 5–45 s on a loaded machine (gjs is the slowest). */
const TIMEOUT = 240_000;

describe('determinism across engines: Node (V8) vs JavaScriptCore and SpiderMonkey', () => {
  let dir = '';
  let script = '';
  let library = '';
  let node: SceneResult[] | undefined;
  /** Node's answer, computed once (by whichever test needs it first). */
  const nodeResults = (): SceneResult[] => (node ??= runAllScenes());

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bitecs-collide-engines-'));
    script = join(dir, 'scenes.js');
    writeFileSync(script, await bundleScenes(true));
    library = await bundleScenes(false);
  });

  afterAll(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  // The engines start at once, while Node computes its own answer.
  const runs = new Map<string, Promise<string>>();

  it('Node gives the pinned hashes (the reference of the engines)', () => {
    for (const e of ENGINES) {
      if (e.skipReason !== undefined) continue;
      const p = runScript(e, script, TIMEOUT);
      p.catch(() => {}); // reported by the engine's test
      runs.set(e.name, p);
    }
    const node = nodeResults();
    expect(node.map((r) => r.name)).toEqual([...PINNED.map((p) => p.name), node[node.length - 1].name]);
    PINNED.forEach((p, i) => expect({ scene: p.name, hash: node[i].hashes.at(-1) }).toEqual({ scene: p.name, hash: p.hash }));
    expect(node[node.length - 1].hashes).toEqual([PINNED_QUERY_HASH]);
  }, TIMEOUT);

  for (const e of ENGINES) {
    it(`${e.name} gives the same hashes as Node in every scene, every 100 ticks`, async (ctx) => {
      skipWithoutEngine(ctx, e);
      const node = nodeResults();
      const out = await (runs.get(e.name) ?? runScript(e, script, TIMEOUT));
      const lines = out.trim().split('\n');
      const results = JSON.parse(lines[lines.length - 1]) as SceneResult[];
      expect(results).toEqual(node);
      report(`[engines] ${e.name} (${e.pkg} ${packageVersion(e.pkg)}): ${results.length} scenes, ${results.reduce((s, r) => s + r.hashes.length, 0)} hashes equal to Node's`);
    }, TIMEOUT);
  }

  it('Firefox (SpiderMonkey) gives the same hashes as Node in every scene, every 100 ticks', async (ctx) => {
    if (FIREFOX_SKIP_REASON !== undefined) ctx.skip(FIREFOX_SKIP_REASON);
    const node = nodeResults();
    const firefox = await launchFirefox();
    try {
      const agent = await firefox.evaluate('navigator.userAgent');
      const out = await firefox.evaluate(`(function () { ${library}; return JSON.stringify(${BUNDLE_GLOBAL}.runAllScenes()); })()`);
      const results = JSON.parse(String(out)) as SceneResult[];
      expect(results).toEqual(node);
      report(`[engines] Firefox (${String(agent)}; firefox-esr ${packageVersion('firefox-esr')}): ${results.length} scenes equal to Node's`);
    } finally {
      await firefox.close();
    }
  }, TIMEOUT);
});
