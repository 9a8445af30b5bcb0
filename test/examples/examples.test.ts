/**
 * Each example runs as its own command (`tsx examples/NAME.ts`), exits cleanly, stays quiet on
 * stderr and prints its markers.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

function runExample(name: string): string {
  const r = spawnSync(TSX, [join(ROOT, 'examples', name)], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  if (r.error) throw r.error;
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

describe('examples', () => {
  it('game-loop.ts: pipe of systems, built-in response (bouncing balls, a sliding player), fixed stepper; no ball escapes', () => {
    const out = runExample('game-loop.ts');
    expect(out).toMatch(/^game-loop: 60 balls in a room/);
    expect(out).toMatch(/t=1\.\d\d s {2}frame \d+ {2}steps \d+/);
    const bounces = Number(/(\d+) bounces\n/.exec(out)?.[1]);
    expect(bounces).toBeGreaterThan(0);
    expect(out).toMatch(/dropped 0\.\d{3} s after the hitch/);
    expect(out).toMatch(/game-loop: player at \(9\.500, -9\.500, 9\.500\) sliding along the walls\n/);
    expect(out).toMatch(/game-loop: balls inside the room: 60\/60\n/);
    expect(out).toMatch(/game-loop: state hash [0-9a-f]{16}\n$/);
  });

  it('fixed-timestep-server.ts: three rooms reported each second, replica in sync', () => {
    const out = runExample('fixed-timestep-server.ts');
    expect(out).toMatch(/^server: 3 rooms at 60 Hz for 3 s \(simulated clock\)/);
    for (const second of [1, 2, 3]) expect(out).toContain(`t=${second} s\n`);
    for (const room of ['alpha', 'beta ', 'gamma']) {
      const lines = out.split('\n').filter((l) => l.startsWith(`  room ${room}`));
      expect(lines).toHaveLength(3);
      for (const l of lines) expect(l).toMatch(/contacts +\d+ \(began +\d+\) {2}hash [0-9a-f]{16}$/);
    }
    expect(out).toContain('a player joined room gamma');
    expect(out.match(/client replica of alpha: in sync/g)).toHaveLength(3);
    expect(out).toMatch(/server: 180 ticks, dropped 0\.000 s; replica in sync every second\n$/);
  });

  it('circles-2d.ts: contacts of circles and rectangles (one rotated) in the z = 0 plane', () => {
    const out = runExample('circles-2d.ts');
    expect(out).toMatch(/^circles-2d: 9 shapes in the z = 0 plane/);
    expect(out).toMatch(/circle A touches rectangle ramp at \(-?\d+\.\d{3}, -?\d+\.\d{3}\) normal \(-0\.500, 0\.866\)/);
    expect(out).toMatch(/circle B touches circle C at \(7\.000, 3\.000\) normal \(-1\.000, 0\.000\) toi 0\.000/);
    expect(out).toMatch(/circles-2d: \d+ contacts began; all normals and points in the z = 0 plane\n$/);
  });
});
