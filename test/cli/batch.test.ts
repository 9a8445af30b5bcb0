/**
 * Batches on worker threads (`--batch`): the same output files and hashes as one-by-one runs with 1
 * and 2 workers, a broken file and a scene failing at tick 1 reported while the others complete,
 * sweeps of a template, the progress report and the option errors.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_FAILED } from '../../src/cli/batch.js';
import { runJob } from '../../src/cli/batchJob.js';
import { createBatchProgress } from '../../src/cli/batchProgress.js';
import { runCommand } from '../../src/cli/cli.js';
import { parseArgs } from '../../src/cli/args.js';
import { batchJobs } from '../../src/cli/batchJobs.js';
import { expandGrid, fillTemplate, parseSweep, placeholders, sweepFileOptions } from '../../src/cli/sweep.js';
import { MAIN, ROOT, runInProcess, TSX, withoutTiming, type Outcome } from './helpers.js';
import { OVERFLOW_SCENE, readSummary, tempDir, writeScenes } from './batchScenes.js';

const TICKS = '30';

/** `runCommand(args)` with captured output (stderr is not a terminal). */
async function runBatch(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCommand(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t), isTTY: false },
  });
  return { code, stdout, stderr };
}

describe('batch on worker threads', () => {
  const tmp = tempDir();
  const scenes = join(tmp.dir, 'scenes');
  let files: string[] = [];
  /** The one-by-one `--scene FILE --ticks 30 --json` runs, by file. */
  const alone = new Map<string, Outcome>();

  beforeAll(() => {
    mkdirSync(scenes);
    files = writeScenes(scenes, 20);
    writeFileSync(join(scenes, 'scene-07b-broken.json'), '{"bodies": [ {"id": 1, ');
    writeFileSync(join(scenes, 'scene-12b-overflow.json'), OVERFLOW_SCENE);
    files = readdirSync(scenes).sort().map((n) => join(scenes, n));
    for (const f of files) alone.set(f, runInProcess(['--scene', f, '--ticks', TICKS, '--json']));
  });
  afterAll(() => tmp.remove());

  for (const workers of ['1', '2']) {
    it(`${workers} worker(s): every scene's file equals its one-by-one run; the broken ones are reported, the others complete`, async () => {
      const out = join(tmp.dir, `out-${workers}`);
      const r = await runBatch(['--batch', scenes, '--out', out, '--ticks', TICKS, '--workers', workers]);
      expect(r.code).toBe(EXIT_FAILED);
      expect(r.stdout).toMatch(new RegExp(`batch of 22 scenes on ${workers} worker threads?: 20 ok, 2 failed`));
      expect(r.stderr).toMatch(/failed: .*scene-07b-broken\.json: .*invalid JSON/);
      expect(r.stderr).toMatch(/failed: .*scene-12b-overflow\.json: .*at tick 1: bodies\[0\] \(id 42\): Position\.x: must be finite/);
      const summary = readSummary(join(out, 'summary.jsonl'));
      expect(summary.map((l) => l.index)).toEqual(files.map((_, i) => i));
      // The worker threads wrote the files (no temporary file left), the main thread the summary.
      expect(readdirSync(out).sort()).toEqual([...summary.map((l) => l.out), 'summary.jsonl'].sort());
      for (const [i, line] of summary.entries()) {
        const single = alone.get(files[i])!;
        expect(line.scene).toBe(files[i]);
        expect(line.out).toBe(basename(files[i]).replace(/\.json$/, '.jsonl'));
        const text = readFileSync(join(out, line.out), 'utf8');
        // Byte for byte what the single runner prints, the ms/tick figures aside.
        expect(withoutTiming(text)).toBe(withoutTiming(single.stdout));
        if (single.code === 0) {
          expect(line.status).toBe('ok');
          expect(line.hash).toBe(JSON.parse(single.stdout.trimEnd().split('\n').at(-1)!).summary.hash);
          expect(line.ticks).toBe(30);
        } else {
          expect(line.status).toBe('failed');
          expect(`bitecs-collide: error: ${line.error}\n`).toBe(single.stderr);
        }
      }
    });
  }

  it('npm start (tsx, a child process): the worker threads load the TypeScript sources; plain progress lines on a pipe', () => {
    const out = join(tmp.dir, 'out-child');
    const good = files.filter((f) => !/broken|overflow/.test(f)).slice(0, 4);
    const glob = join(scenes, 'scene-0?.json');
    const r = spawnSync(TSX, [MAIN, '--batch', glob, '--out', out, '--ticks', TICKS, '--workers', '2'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.stdout).toMatch(/batch of 10 scenes on 2 worker threads: 10 ok, 0 failed/);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^progress: 1\/10 scenes \(10%\)/);
    expect(r.stderr).not.toMatch(/\r|\x1b/);
    for (const f of good) {
      const text = readFileSync(join(out, basename(f).replace(/\.json$/, '.jsonl')), 'utf8');
      expect(withoutTiming(text)).toBe(withoutTiming(alone.get(f)!.stdout));
    }
  });
});

describe('sweeps', () => {
  const tmp = tempDir();
  afterAll(() => tmp.remove());
  const template = JSON.stringify({
    dt: 0.1,
    bodies: [
      { id: 1, shape: 'sphere', position: [0, 0, 0], radius: '$radius', velocity: ['$speed', 0, 0] },
      { id: 2, shape: 'box', position: [5, 0, 0], halfExtents: [1, 1, 1] },
    ],
  });

  it('values: lists, integer ranges and both; bad values name the option', () => {
    expect(parseSweep('seed=1..4')).toEqual({ name: 'seed', values: [1, 2, 3, 4] });
    expect(parseSweep('e=0.2,0.5,-1e-3')).toEqual({ name: 'e', values: [0.2, 0.5, -0.001] });
    expect(parseSweep('n=1..3,10')).toEqual({ name: 'n', values: [1, 2, 3, 10] });
    expect(() => parseSweep('e=0.2,,1')).toThrow(/--sweep e: "" is not a finite number/);
    expect(() => parseSweep('e=3..1')).toThrow(/--sweep e: range 3\.\.1/);
    expect(() => parseSweep('speed')).toThrow(/expected NAME=VALUES/);
    expect(placeholders(template)).toEqual(['radius', 'speed']);
    expect(expandGrid([{ name: 'a', values: [1, 2] }, { name: 'b', values: [3, 4] }])).toEqual([{ a: 1, b: 3 }, { a: 1, b: 4 }, { a: 2, b: 3 }, { a: 2, b: 4 }]);
  });

  it('a 3 × 4 sweep gives 12 results with their parameters, each the run of its filled template', async () => {
    const file = join(tmp.dir, 'ball.json');
    writeFileSync(file, template);
    const out = join(tmp.dir, 'out');
    const r = await runBatch(['--batch', file, '--sweep', 'radius=0.5,1,2', '--sweep', 'speed=1..4', '--ticks', '20', '--out', out, '--workers', '2', '--no-progress']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const summary = readSummary(join(out, 'summary.jsonl'));
    expect(summary).toHaveLength(12);
    const grid = [0.5, 1, 2].flatMap((radius) => [1, 2, 3, 4].map((speed) => ({ radius, speed })));
    expect(summary.map((l) => l.params)).toEqual(grid);
    for (const line of summary) {
      const filled = fillTemplate(template, line.params!);
      expect(JSON.parse(filled).bodies[0].radius).toBe(line.params!.radius);
      const single = runJob({ index: 0, scene: file, out: '', text: filled, ticks: 20, continuous: true });
      expect(line.status).toBe('ok');
      expect(line.hash).toBe(single.hash);
      expect(withoutTiming(readFileSync(join(out, line.out), 'utf8'))).toBe(withoutTiming(single.jsonl));
    }
    // Faster balls reach the box sooner: more contacts.
    expect(summary.find((l) => l.params!.radius === 1 && l.params!.speed === 4)!.contacts).toBeGreaterThan(0);
  });

  it('a sweep file gives the same jobs as the options; a bad one is an error naming it', async () => {
    const file = join(tmp.dir, 'ball2.json');
    writeFileSync(file, template);
    const params = join(tmp.dir, 'params.json');
    writeFileSync(params, JSON.stringify({ radius: [0.5, 1, 2], speed: '1..4' }));
    const byFile = batchJobs({ ...parseArgs(['--batch', file, '--out', 'x', '--sweep', `@${params}`]), batch: file }, true);
    const byOptions = batchJobs({ ...parseArgs(['--batch', file, '--out', 'x', '--sweep', 'radius=0.5,1,2', '--sweep', 'speed=1..4']), batch: file }, true);
    expect(byFile).toHaveLength(12);
    expect(byFile).toEqual(byOptions);
    expect(() => sweepFileOptions('{"speed": [1, "2"]}', 'p.json')).toThrow(/--sweep @p\.json: speed: must be a non-empty array of finite numbers/);
    expect(() => sweepFileOptions('[1]', 'p.json')).toThrow(/must be a JSON object/);
    const r = await runBatch(['--batch', file, '--out', join(tmp.dir, 'o'), '--sweep', '@no/such.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--sweep @no\/such\.json: cannot read/);
  });

  it('an unknown parameter, a placeholder without values, a bad built-in value: exit 2 naming it', async () => {
    const file = join(tmp.dir, 't.json');
    writeFileSync(file, template);
    const out = join(tmp.dir, 'bad');
    const cases: [string[], RegExp][] = [
      [['--sweep', 'radius=1', '--sweep', 'speed=1', '--sweep', 'restitution=0.2,0.5'], /--sweep restitution: unknown parameter "restitution"; the template .*t\.json takes: "\$radius", "\$speed", ticks/],
      [['--sweep', 'radius=1'], /placeholder "\$speed" has no values; add --sweep speed=/],
      [['--sweep', 'radius=1', '--sweep', 'speed=1', '--sweep', 'ticks=0.5'], /--sweep ticks: 0\.5 is not an integer/],
      [['--sweep', 'radius=1', '--sweep', 'radius=2'], /--sweep radius given more than once/],
    ];
    for (const [args, message] of cases) {
      const r = await runBatch(['--batch', file, '--out', out, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const arena = await runBatch(['--batch', 'arena', '--out', out, '--sweep', 'restitution=1']);
    expect(arena.code).toBe(2);
    expect(arena.stderr).toMatch(/--sweep restitution: unknown parameter "restitution"; the built-in arena takes: seed, spheres, boxes, ticks/);
  });

  it('the built-in arena over seeds: each result is the arena run alone', async () => {
    const out = join(tmp.dir, 'arena');
    const r = await runBatch(['--batch', 'arena', '--sweep', 'seed=1..2', '--sweep', 'spheres=100', '--ticks', '10', '--out', out, '--workers', '2', '--no-progress']);
    expect(r.code).toBe(0);
    const summary = readSummary(join(out, 'summary.jsonl'));
    for (const line of summary) {
      const single = runInProcess(['--seed', String(line.params!.seed), '--spheres', '100', '--ticks', '10', '--json']);
      expect(withoutTiming(readFileSync(join(out, line.out), 'utf8'))).toBe(withoutTiming(single.stdout));
    }
  });
});

describe('batch options and progress', () => {
  it('option combinations that make no sense: exit 2 with a message', async () => {
    const cases: [string[], RegExp][] = [
      [['--batch', 'x'], /--batch needs --out/],
      [['--out', 'x'], /--out needs --batch/],
      [['--worker'], /--worker needs --queue/],
      [['--worker', '--queue', 'redis://127.0.0.1:1/q', '--batch', 'x'], /--batch applies to the producer/],
      [['--batch', 'x', '--out', 'y', '--json'], /--json does not apply to --batch/],
      [['--batch', 'x', '--out', 'y', '--workers', '0'], /--workers must be an integer in 1\.\.1024/],
      [['--batch', 'no/such/folder', '--out', 'y'], /--batch no\/such\/folder: no such file or folder/],
      [['--batch', 'arena', '--out', 'y'], /--batch arena needs --sweep/],
      [['--batch', 'x', '--out', 'y', '--queue', 'redis://127.0.0.1:1/q', '--workers', '2'], /--workers applies to local batches and to --worker/],
      [['--batch', 'x', '--out', 'y', '--lock-ms', '2000'], /--lock-ms applies to --worker/],
    ];
    for (const [args, message] of cases) {
      const r = await runBatch(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('a terminal gets a bar rewritten in place (at most every 200 ms), a pipe a line per 10 %; failures on their own line', () => {
    for (const isTTY of [true, false]) {
      const writes: string[] = [];
      let t = 0;
      const p = createBatchProgress({ total: 20, stream: { isTTY, write: (s: string) => writes.push(s) }, enabled: true, now: () => t });
      for (let k = 1; k <= 20; k++) {
        t = k * 100;
        p.done(k === 5 ? 'bad.json: invalid JSON' : undefined);
      }
      p.finish();
      expect(writes).toContain(`${isTTY ? '\r\x1b[K' : ''}failed: bad.json: invalid JSON\n`);
      if (isTTY) {
        expect(writes.at(-2)).toBe('\r[####################] 20/20 scenes (100%), 10.0 scenes/s, 0 s left, 1 failed\x1b[K');
        expect(writes.at(-1)).toBe('\r\x1b[K');
        expect(writes.length).toBeLessThan(15);
      } else {
        const lines = writes.filter((w) => w.startsWith('progress: '));
        expect(lines).toHaveLength(10);
        expect(lines[0]).toBe('progress: 2/20 scenes (10%), 10.0 scenes/s, 2 s left\n');
        expect(writes.join('')).not.toMatch(/\r|\x1b/);
      }
    }
  });
});
