/**
 * The runner's robustness (issue 9): JSON lines streamed tick by tick (a failing tick k leaves
 * ticks 0..k−1 printed), runs too large for the memory refused with exit code 2, repeated options
 * and duplicate JSON keys rejected, never a non-finite number printed; and the temporary files of
 * these tests deleted.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../../src/cli/args.js';
import { checkRunMemory, estimateRun } from '../../src/cli/memory.js';
import { checkFinite, RunError } from '../../src/cli/run.js';
import { duplicateKey, parseScene, SceneFileError } from '../../src/scenes/sceneFile.js';
import { jsonLines, MAIN, ROOT, runInProcess, tempFile, TSX } from './helpers.js';

const sphere = (extra: object = {}) => ({ id: 7, shape: 'sphere', position: [0, 0, 0], radius: 1, ...extra });

describe('streaming', () => {
  it('a run failing at tick 1 has printed tick 0 (regression: the lines were buffered and lost)', () => {
    const text = JSON.stringify({ dt: 1, bodies: [sphere({ id: 42, position: [1.7e308, 0, 0], velocity: [1e308, 0, 0] }), sphere({ id: 8, position: [1.7e308, 1, 0] })] });
    const r = runInProcess(['--scene', tempFile('overflow.json', text), '--ticks', '3', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/at tick 1: bodies\[0\] \(id 42\)/);
    const lines = jsonLines(r.stdout) as { tick: number; contacts: unknown[] }[];
    expect(lines.map((l) => l.tick)).toEqual([0]);
    expect(lines[0].contacts).toHaveLength(1);
  });
});

describe('memory', () => {
  const limits = { heapLimit: 4 * 2 ** 30, machine: 16 * 2 ** 30 };

  it('refuses a run whose heap estimate exceeds the heap limit, naming the option that would suffice', () => {
    expect(() => checkRunMemory(8_800_000, 600, limits)).toThrow(UsageError);
    expect(() => checkRunMemory(8_800_000, 600, limits)).toThrow(/needs about \d+ MB of JavaScript heap.*--max-old-space-size=\d+/);
    expect(() => checkRunMemory(1_100_000, 600, limits)).not.toThrow();
  });

  it('refuses a run larger than the machine', () => {
    expect(() => checkRunMemory(16_000_000, 600, { heapLimit: 64 * 2 ** 30, machine: 8 * 2 ** 30 })).toThrow(/more than this machine has/);
    expect(estimateRun(1000, 10).total).toBeGreaterThan(estimateRun(1000, 10).heap);
  });

  it('--spheres 8000000 with a 2 GB heap: exit code 2 and a message, no V8 crash (child process)', () => {
    const r = spawnSync(TSX, [MAIN, '--spheres', '8000000', '--ticks', '1'], {
      cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=2048' },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^bitecs-collide: a run of 8800000 bodies needs about \d+ MB/);
    expect(r.stderr).not.toMatch(/\n\s+at |FATAL|out of memory/);
  });
});

describe('repeated options and duplicate keys', () => {
  const cases: [string[], RegExp][] = [
    [['--scene', 'a.json', '--scene', 'b.json'], /--scene given more than once/],
    [['--scene=a.json', '--scene=a.json'], /--scene given more than once/],
    [['--ticks', '1', '--ticks=2'], /--ticks given more than once/],
    [['--json', '--json'], /--json given more than once/],
    [['--continuous', '--no-continuous'], /--no-continuous conflicts with an earlier option/],
    [['-h', '--help'], /--help conflicts/],
  ];
  for (const [args, message] of cases) {
    it(`${args.join(' ')} → exit 2`, () => {
      expect(() => parseArgs(args)).toThrow(UsageError);
      const r = runInProcess(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    });
  }

  it('duplicate keys at the top level and in a body are rejected with their path', () => {
    const top = '{"dt": 0.5, "dt": 1, "bodies": []}';
    const body = '{"bodies": [{"id": 7, "shape": "sphere", "position": [0, 0, 0], "radius": 1, "radius": 2}]}';
    expect(() => parseScene(top, 's.json')).toThrow(/s\.json: dt: key given twice/);
    expect(() => parseScene(body, 's.json')).toThrow(SceneFileError);
    expect(duplicateKey(body)).toBe('bodies[0].radius');
    const r = runInProcess(['--scene', tempFile('dup.json', body), '--ticks', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bodies\[0\]\.radius: key given twice/);
  });

  it('the key scan follows strings with escapes and braces, nesting, and equal keys in different objects', () => {
    expect(duplicateKey('{"description": "a \\"}{\\" b \\\\", "bodies": [{"id": 1}, {"id": 2}]}')).toBeUndefined();
    expect(duplicateKey('{"a": {"b": 1}, "c": [[{"x": 1, "y": {"x": 2}}, {"x": 3, "x": 4}]]}')).toBe('c[0][1].x');
    expect(duplicateKey('{"a\\u0062": 1, "ab": 2}')).toBe('ab');
    expect(duplicateKey('[' .repeat(100_000) + ']'.repeat(100_000))).toBeUndefined();
  });
});

describe('finite output', () => {
  it('a non-finite contact value is an error naming the tick, the bodies and the field', () => {
    const c = { a: 3, b: 9, toi: 0, depth: 0.5, normal: [0, NaN, 0] as [number, number, number], point: [0, 0, 0] as [number, number, number] };
    expect(() => checkFinite(4, [c])).toThrow(RunError);
    expect(() => checkFinite(4, [c])).toThrow('at tick 4: contact of bodies 3 and 9: normal.y is NaN');
    expect(() => checkFinite(4, [{ ...c, normal: [0, 1, 0], point: [Infinity, 0, 0] }])).toThrow(/point\.x is Infinity/);
    expect(() => checkFinite(4, [{ ...c, normal: [0, 1, 0] }])).not.toThrow();
  });
});

describe('temporary files', () => {
  let dir = '';
  it('tempFile writes a file', () => {
    dir = dirname(tempFile('x.json', '{}'));
    expect(existsSync(dir)).toBe(true);
  });
  it('and deletes its directory when the test that made it has finished', () => {
    expect(dir).not.toBe('');
    expect(existsSync(dir)).toBe(false);
  });
});
