/**
 * What every engine computes for the cross-engine tests (engines.test.ts): each pinned arena
 * (pinned.ts) stepped for its ticks with the state hash every `EVERY` ticks, and the query scene
 * (queryScene.ts) with its hits hash. Plain arithmetic and the library only: the same module runs in
 * Node directly and, bundled by esbuild into one IIFE script, in JavaScriptCore (`jsc`), SpiderMonkey
 * (`gjs`) and a Node `vm` context whose engine-defined Math functions throw.
 */
import { hashPhysicsState } from '../../src/index.js';
import { PINNED } from './pinned.js';
import { queryHitsHash, QUERY_SCENE } from './queryScene.js';
import { arenaInOrder } from './scenes.js';

/** A state hash is taken every this many ticks (the last one is the pinned final state). */
export const EVERY = 100;

export interface SceneResult {
  name: string;
  /** State hashes every EVERY ticks (pinned scenes), or the query scene's hits hash. */
  hashes: string[];
}

/** Runs the pinned scenes and the query scene; the array is the engine's whole answer. */
export function runAllScenes(): SceneResult[] {
  const out: SceneResult[] = [];
  for (const p of PINNED) {
    const run = arenaInOrder(p.scene);
    const hashes: string[] = [];
    for (let t = 1; t <= p.ticks; t++) {
      run.tick();
      if (t % EVERY === 0) hashes.push(hashPhysicsState(run.physics));
    }
    out.push({ name: p.name, hashes });
  }
  out.push({ name: QUERY_SCENE, hashes: [queryHitsHash()] });
  return out;
}
