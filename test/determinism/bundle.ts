/**
 * The cross-engine script: engineRun.ts with the library and the scenes, bundled by esbuild into
 * one IIFE (no imports, no Node APIs) that defines the global `BitecsCollideEngines`. Optionally a
 * footer that runs every scene and prints the results as one JSON line (`print`, as `jsc` and `gjs`
 * provide it).
 */
import { build } from 'esbuild';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

/** The global the bundle defines: `runAllScenes` and `queryHitsHash`. */
export const BUNDLE_GLOBAL = 'BitecsCollideEngines';

const ENTRY = `
export { runAllScenes } from './test/determinism/engineRun.ts';
export { queryHitsHash } from './test/determinism/queryScene.ts';
`;

/** The bundle's text; with `printResults`, it ends by printing JSON.stringify(runAllScenes()). */
export async function bundleScenes(printResults: boolean): Promise<string> {
  const out = await build({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts', sourcefile: 'engines-entry.ts' },
    bundle: true,
    format: 'iife',
    globalName: BUNDLE_GLOBAL,
    platform: 'neutral',
    // gjs 1.74 runs SpiderMonkey 102: nothing newer than ES2020 is needed.
    target: 'es2020',
    write: false,
    logLevel: 'silent',
    footer: printResults ? { js: `print(JSON.stringify(${BUNDLE_GLOBAL}.runAllScenes()));` } : undefined,
  });
  return out.outputFiles[0].text;
}
