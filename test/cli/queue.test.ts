/**
 * Batches through BullMQ on a throwaway `redis-server` (127.0.0.1, a free port): a producer and two
 * worker processes finish 40 jobs; one worker is killed (SIGKILL) in the middle of a job, which
 * another worker then runs; the producer is killed and restarted mid-batch and resumes; every job is
 * recorded exactly once and equals its local run. Every wait is bounded; every process is killed in
 * afterAll whatever happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK, gunzipJsonl, runJob, runJobGzipped, type SceneJob } from '../../src/cli/batchJob.js';
import { createRecorder } from '../../src/cli/batchOutput.js';
import { parseQueueUrl } from '../../src/cli/queue.js';
import { freePort, hasRedis, startRedis, type RedisProcess } from '../../examples/multiplayer/processes.js';
import { runCommand } from '../../src/cli/cli.js';
import { waitUntil } from '../multiplayer/harness.js';
import { MAIN, ROOT, withoutTiming } from './helpers.js';
import { readSummary, tempDir } from './batchScenes.js';

// Without redis-server the Redis test is skipped with a message, unless CI is set (.ci/run installs
// it): then it runs and fails.
const inCI = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';
const runRedis = hasRedis() || inCI;
if (!runRedis) {
  console.warn('[batch queue] SKIPPED batch through Redis: redis-server not found and CI is not set. Install it (apt-get install -y redis-server) to run it.');
}

describe('queue addresses and results in transit', () => {
  it('redis://host:port/name: the name is the path; a bad address is a usage error', () => {
    const a = parseQueueUrl('redis://127.0.0.1:6400/scenes');
    expect(a.name).toBe('scenes');
    expect(a.connection).toMatchObject({ host: '127.0.0.1', port: 6400 });
    expect(parseQueueUrl('redis://u:secret@example.org/q').shown).toBe('redis://example.org/q');
    expect(() => parseQueueUrl('redis://127.0.0.1:6400')).toThrow(/queue name/);
    expect(() => parseQueueUrl('http://127.0.0.1/q')).toThrow(/redis:\/\//);
  });

  it('a Redis that does not answer: exit 2 naming the queue, no endless retries', async () => {
    const port = await freePort();
    for (const args of [['--worker'], ['--batch', 'examples/scenes', '--out', join(tmpdir(), 'never-written')]]) {
      let stderr = '';
      const code = await runCommand([...args, '--queue', `redis://127.0.0.1:${port}/q`], {
        stdout: { write: () => true },
        stderr: { write: (t: string) => (stderr += t) },
      });
      expect(code).toBe(2);
      expect(stderr).toMatch(new RegExp(`--queue redis://127\\.0\\.0\\.1:${port}/q: cannot reach Redis: connect ECONNREFUSED`));
    }
    expect(existsSync(join(tmpdir(), 'never-written'))).toBe(false);
  });

  it('JSON Lines travel gzipped a chunk at a time and come back byte for byte', () => {
    const job: SceneJob = { index: 3, scene: 'arena', out: 'a.jsonl', arena: { seed: 5, spheres: 1000, boxes: 100 }, ticks: 100, continuous: true };
    const plain = runJob(job);
    expect(plain.jsonl.length).toBeGreaterThan(CHUNK); // several gzip members
    const packed = runJobGzipped(job);
    const { jsonl, ...summary } = plain;
    expect({ ...packed.summary, ms: 0 }).toEqual({ ...summary, ms: 0 });
    expect(packed.jsonlGzip.length).toBeLessThan(jsonl.length / 2);
    expect(withoutTiming(gunzipJsonl(packed.jsonlGzip).toString('utf8'))).toBe(withoutTiming(jsonl));
  });
});

describe('resuming', () => {
  it('a folder keeps the results of the batch of its key; another batch is refused; a line cut short by a crash is dropped', () => {
    const tmp = tempDir();
    try {
      const job = (index: number, seed: number): SceneJob => ({ index, scene: 'arena', out: `arena-${index}.jsonl`, arena: { seed, spheres: 10, boxes: 1 }, params: { seed }, ticks: 2, continuous: true });
      const jobs = [job(0, 1), job(1, 2)];
      const first = createRecorder(tmp.dir, jobs, 'k1');
      const r = runJob(jobs[0]);
      expect(first.record(jobs[0], r, r.jsonl)).toBe(true);
      expect(first.record(jobs[0], r, r.jsonl)).toBe(false);
      expect(readFileSync(join(tmp.dir, jobs[0].out), 'utf8')).toBe(r.jsonl);
      appendFileSync(join(tmp.dir, 'summary.jsonl'), '{"index":1,"sce');
      const again = createRecorder(tmp.dir, jobs, 'k1');
      expect([...again.recorded.keys()]).toEqual([0]);
      expect(readSummary(join(tmp.dir, 'summary.jsonl'))).toHaveLength(1);
      expect(() => createRecorder(tmp.dir, jobs, 'k2')).toThrow(/holds the results of another batch/);
    } finally {
      tmp.remove();
    }
  });
});

/** A child process of the runner, its output lines collected. */
interface Child {
  proc: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

const children: Child[] = [];

/** `node --import tsx src/cli/main.ts …args`: one process (the tsx command would be a parent that a SIGKILL leaves its child running). */
function startRunner(args: string[]): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  const onData = (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const child = { proc, lines, exited };
  children.push(child);
  return child;
}

const running = (c: Child) => c.proc.exitCode === null && c.proc.signalCode === null;

/** Resolves with the first output line matching `re`; throws after `timeoutMs` or if the process exits. */
async function lineOf(c: Child, re: RegExp, timeoutMs: number, what: string): Promise<RegExpMatchArray> {
  let match: RegExpMatchArray | null = null;
  await waitUntil(() => {
    match = c.lines.map((l) => l.match(re)).find((m) => m !== null) ?? null;
    if (match === null && !running(c)) throw new Error(`${what}: exited before ${re}\n${c.lines.slice(-20).join('\n')}`);
    return match !== null;
  }, timeoutMs, what);
  return match!;
}

const summaryCount = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').length : 0);

describe.skipIf(!runRedis)('batch through BullMQ on Redis', () => {
  let redis: RedisProcess | undefined;
  const tmp = tempDir();

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    for (const c of children) if (running(c)) c.proc.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await redis?.stop();
    tmp.remove();
  }, 30_000);

  it('a producer and two workers finish 40 jobs; a worker killed mid-job, the producer killed and restarted: each job recorded once, equal to its local run', async () => {
    const url = `${redis!.url}/scenes`;
    const out = join(tmp.dir, 'out');
    const summaryPath = join(out, 'summary.jsonl');
    // 20 spheres: results small enough to travel in the job's return value; 400: in a key of their own.
    const producerArgs = ['--batch', 'arena', '--sweep', 'seed=1..20', '--sweep', 'spheres=20,400', '--ticks', '100', '--out', out, '--queue', url, '--no-progress'];
    const workerArgs = ['--worker', '--queue', url, '--workers', '1', '--lock-ms', '2500'];
    const [a, b] = [startRunner(workerArgs), startRunner(workerArgs)];
    const ready = /worker (\S+) ready on/;
    const nameA = (await lineOf(a, ready, 30_000, 'worker A ready'))[1];
    await lineOf(b, ready, 30_000, 'worker B ready');

    const first = startRunner(producerArgs);
    await waitUntil(() => summaryCount(summaryPath) >= 8, 60_000, '8 results');
    // Worker A is killed while it holds a job (BullMQ hands a worker its next job as it finishes
    // one): the job stays active under A's name until its lock expires.
    a.proc.kill('SIGKILL');
    await a.exited;
    const queue = new Queue('scenes', { connection: parseQueueUrl(url).connection });
    let lost: string[] = [];
    try {
      lost = (await queue.getActive()).filter((j) => j.processedBy === nameA).map((j) => j.id!);
    } finally {
      await queue.close();
    }
    expect(lost.length, 'jobs active in the killed worker').toBeGreaterThan(0);

    await waitUntil(() => summaryCount(summaryPath) >= 20, 60_000, '20 results');
    first.proc.kill('SIGKILL');
    await first.exited;
    const recordedBefore = summaryCount(summaryPath);
    expect(recordedBefore).toBeLessThan(40);

    const second = startRunner(producerArgs);
    const code = await Promise.race([second.exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 90_000))]);
    expect(code, second.lines.join('\n')).toBe(0);
    expect(second.lines.join('\n')).toMatch(new RegExp(`resuming: ${recordedBefore} of 40 scenes already in`));
    expect(second.lines.join('\n')).toMatch(/batch of 40 scenes through queue redis:\/\/127\.0\.0\.1:\d+\/scenes: 40 ok, 0 failed/);
    for (const id of lost) expect(b.lines.join('\n')).toContain(`job ${id} stalled`);

    // Each job recorded exactly once, in order, each equal to the job run here.
    const summary = readSummary(summaryPath);
    expect(summary.map((l) => l.index)).toEqual([...Array(40).keys()]);
    for (const line of summary) {
      const { seed, spheres } = line.params!;
      expect(line.params).toEqual({ seed: 1 + (line.index >> 1), spheres: line.index % 2 === 0 ? 20 : 400 });
      const local = runJob({ index: line.index, scene: 'arena', out: line.out, arena: { seed, spheres, boxes: spheres / 10 }, ticks: 100, continuous: true });
      expect(line.status).toBe('ok');
      expect(line.hash).toBe(local.hash);
      expect(withoutTiming(readFileSync(join(out, line.out), 'utf8'))).toBe(withoutTiming(local.jsonl));
    }

    b.proc.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    expect(b.lines.join('\n')).toMatch(/worker stopped after \d+ jobs \(resident memory \d+ MB\)/);
  }, 240_000);
});
