/** Scene files for the batch tests: small seeded scenes with contacts, and two broken ones. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng, randomQuat } from '../../src/scenes/prng.js';
import type { SummaryLine } from '../../src/cli/batchOutput.js';

/** A seeded scene: `n` moving spheres and a few boxes (some moving, some rotated) in a 6-unit cube. */
export function smallScene(seed: number, n = 12): string {
  const rng = createRng(seed);
  const v = () => [rng.range(-3, 3), rng.range(-3, 3), rng.range(-3, 3)];
  const p = () => [rng.range(-3, 3), rng.range(-3, 3), rng.range(-3, 3)];
  const bodies: object[] = [];
  for (let i = 0; i < n; i++) bodies.push({ id: 100 + i, shape: 'sphere', position: p(), radius: rng.range(0.2, 0.6), velocity: v() });
  for (let i = 0; i < 4; i++) {
    const box: Record<string, unknown> = { id: 10 + i, shape: 'box', position: p(), halfExtents: [rng.range(0.3, 1), rng.range(0.3, 1), rng.range(0.3, 1)], rotation: randomQuat(rng) };
    if (i % 2 === 1) box.velocity = v();
    bodies.push(box);
  }
  return JSON.stringify({ dt: 1 / 30, bodies }, null, 1);
}

/** A scene whose sphere's position overflows to Infinity during tick 1 (an error at tick 1). */
export const OVERFLOW_SCENE = JSON.stringify({ dt: 1, bodies: [{ id: 42, shape: 'sphere', position: [1.7e308, 0, 0], radius: 1, velocity: [1e308, 0, 0] }] });

/** A fresh temporary folder (deleted by the returned function). */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'bitecs-collide-batch-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes `count` small scenes `scene-00.json`… into `dir`; returns their paths. */
export function writeScenes(dir: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const path = join(dir, `scene-${String(i).padStart(2, '0')}.json`);
    writeFileSync(path, smallScene(i + 1));
    return path;
  });
}

/** The lines of a summary.jsonl. */
export function readSummary(path: string): SummaryLine[] {
  return readFileSync(path, 'utf8').trimEnd().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as SummaryLine);
}
