/** The default run (the built-in seeded arena) with small numbers: summary, hash, determinism. */
import { describe, expect, it } from 'vitest';
import { hashPhysicsState } from '../../src/index.js';
import { buildArena } from '../../src/scenes/buildArena.js';
import { parseArgs } from '../../src/cli/args.js';
import { runSimulation } from '../../src/cli/run.js';
import { jsonLines, runChild, runInProcess } from './helpers.js';

const hashOf = (stdout: string) => /state hash\s+([0-9a-f]{16})\n/.exec(stdout)?.[1];
const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };

describe('default run (arena)', () => {
  it('child process: --spheres 200 --ticks 30 prints the summary with a hash, the same twice', () => {
    const first = runChild(['--spheres', '200', '--ticks', '30']);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/^bitecs-collide: arena \(seed 1\)\n/);
    expect(first.stdout).toMatch(/ticks\s+30 \(dt 0\.0166667 s, continuous\)/);
    expect(first.stdout).toMatch(/spheres\s+200\n/);
    expect(first.stdout).toMatch(/boxes\s+20\n/);
    expect(first.stdout).toMatch(/contacts\/tick\s+mean \d+\.\d\d, max \d+ \(total \d+\)/);
    expect(first.stdout).toMatch(/ms\/tick\s+mean \d+\.\d{3}, median \d+\.\d{3}/);
    const hash = hashOf(first.stdout);
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    const second = runChild(['--spheres', '200', '--ticks', '30']);
    expect(hashOf(second.stdout)).toBe(hash);
  });

  it('in process: the same hash as the child process; another seed gives another hash', () => {
    const child = hashOf(runChild(['--spheres', '200', '--ticks', '30']).stdout);
    expect(hashOf(runInProcess(['--spheres', '200', '--ticks', '30']).stdout)).toBe(child);
    expect(hashOf(runInProcess(['--spheres', '200', '--ticks', '30', '--seed', '2']).stdout)).not.toBe(child);
    expect(hashOf(runInProcess(['--spheres', '200', '--ticks', '30', '--no-continuous']).stdout)).not.toBe(child);
  });

  it('a runner tick is an arena tick (same hash and contacts as Arena.tick())', () => {
    const summary = runSimulation(parseArgs(['--spheres', '300', '--boxes', '40', '--ticks', '25', '--seed', '5']), quiet);
    const arena = buildArena({ spheres: 300, boxes: 40, seed: 5 });
    let total = 0;
    for (let k = 0; k < 25; k++) {
      arena.tick();
      total += arena.physics.contacts.count;
    }
    expect(summary.hash).toBe(hashPhysicsState(arena.physics));
    expect(summary.contacts.total).toBe(total);
    expect(summary).toMatchObject({ scene: 'arena', seed: 5, ticks: 25, spheres: 300, boxes: 40 });
  });

  it('--json: one line per tick with entity ids, then the summary', () => {
    const r = runInProcess(['--spheres', '200', '--ticks', '5', '--json']);
    const lines = jsonLines(r.stdout) as Record<string, unknown>[];
    expect(lines).toHaveLength(6);
    lines.slice(0, 5).forEach((line, k) => expect(line.tick).toBe(k));
    const summary = lines[5].summary as { contacts: { total: number }; hash: string };
    const perTick = lines.slice(0, 5).reduce((s, l) => s + (l.contacts as unknown[]).length, 0);
    expect(summary.contacts.total).toBe(perTick);
    expect(summary.hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('--ticks 0 hashes the initial state', () => {
    const r = runInProcess(['--spheres', '10', '--ticks', '0']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/contacts\/tick\s+mean 0\.00, max 0 \(total 0\)/);
  });
});
