/**
 * Batches across machines on BullMQ (Redis): `--batch … --queue redis://HOST:PORT/NAME` is a
 * producer, `--worker --queue …` a consumer (any number, on any machine).
 *
 * - Each job carries its scene (the file's text, or the filled template), so workers need no files.
 * - Job ids are `<batch key>-<index>`, the key a hash of every job: re-adding a job that is still
 *   in the queue does nothing, so a restarted producer resumes (it also skips the scenes already in
 *   its --out/summary.jsonl, and collects the jobs that finished while it was away).
 * - A worker runs jobs on its worker threads (its event loop stays free to renew job locks). A
 *   worker that dies mid-job stops renewing the job's lock; after `--lock-ms` another worker's
 *   stalled-job check puts the job back in the queue and it runs again (at most 3 times).
 * - A finished job's summary comes back as its return value; its JSON Lines, gzipped, too when
 *   they are small (16 KiB gzipped), otherwise in the Redis key `bitecs-collide:<queue>:jsonl:<job id>`
 *   (kept 7 days at most), so that BullMQ's job records and event stream stay small. The producer
 *   writes them to --out, records the job once, then deletes the key and the job.
 * @module
 */
import { createHash } from 'node:crypto';
import { availableParallelism, hostname } from 'node:os';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { UsageError, type CliOptions } from './args.js';
import { crashedResult, closingReport, reportDone } from './batch.js';
import { gunzipJsonl, type JobSummary, type PackedResult, type SceneJob } from './batchJob.js';
import { batchJobs } from './batchJobs.js';
import { createRecorder } from './batchOutput.js';
import { createScenePool } from './batchPool.js';
import { createBatchProgress } from './batchProgress.js';
import type { RunIO } from './output.js';

/** Connection options, as both BullMQ and ioredis take them. */
export interface QueueConnection {
  host: string;
  port: number;
  username?: string;
  password?: string;
  tls?: object;
  maxRetriesPerRequest: null;
}

export interface QueueAddress {
  name: string;
  connection: QueueConnection;
  /** The URL without its password, for messages. */
  shown: string;
}

/** Parses `redis://[user:password@]host:port/name` (or `rediss://` for TLS). */
export function parseQueueUrl(text: string): QueueAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--queue ${JSON.stringify(text)}: expected redis://HOST:PORT/NAME`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new UsageError(`--queue ${text}: expected redis:// or rediss://`);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new UsageError(`--queue ${url.host}: the queue name (the path, e.g. redis://127.0.0.1:6379/scenes) must be letters, digits, _ . -`);
  const connection: QueueConnection = {
    host: url.hostname,
    port: url.port === '' ? 6379 : Number(url.port),
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
  return { name, connection, shown: `${url.protocol}//${url.host}/${name}` };
}

/** The key of a batch: a hash of its jobs (scenes, parameters, ticks). */
function batchKey(jobs: readonly SceneJob[]): string {
  const h = createHash('sha256');
  for (const j of jobs) h.update(JSON.stringify(j)).update('\n');
  return h.digest('hex').slice(0, 16);
}

/** The Redis key of a job's gzipped JSON Lines. */
export function jsonlKey(queue: string, jobId: string): string {
  return `bitecs-collide:${queue}:jsonl:${jobId}`;
}

/** A job's return value: its summary figures, and its gzipped JSON Lines when they are small. */
type QueueResult = JobSummary & { jsonlGzip64?: string };

/** Gzipped JSON Lines up to this size travel in the job's return value (one round trip less). */
const INLINE_MAX = 16 * 1024;

/** Seconds a job's JSON Lines wait in Redis for a producer to collect them. */
const JSONL_TTL_S = 7 * 24 * 3600;

/** How long the first connection to Redis may take. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * Checks that Redis answers at `address` (a usage error naming it otherwise, so that a typo in
 * --queue ends with a message, not with a client retrying forever); returns a client.
 */
async function connectRedis(address: QueueAddress): Promise<Redis> {
  const probe = new Redis({ ...address.connection, lazyConnect: true, connectTimeout: CONNECT_TIMEOUT_MS, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  let cause: Error | undefined;
  probe.on('error', (e: Error) => { cause = e; }); // reported below
  try {
    await probe.connect();
    await probe.ping();
  } catch (e) {
    probe.disconnect();
    throw new UsageError(`--queue ${address.shown}: cannot reach Redis: ${(cause ?? (e as Error)).message}`);
  }
  probe.disconnect();
  return new Redis(address.connection);
}

/** A listener that prints connection errors (Redis gone mid-batch: the clients reconnect), at most one every 5 s. */
function errorReporter(io: RunIO, who: string): (e: Error) => void {
  let last = -Infinity;
  return (e) => {
    const t = performance.now();
    if (t - last < 5000) return;
    last = t;
    io.stderr.write(`bitecs-collide: ${who}: ${e.message} (retrying)\n`);
  };
}

const ADD_CHUNK = 500;
const POLL_MS = 1000;
const PAGE = 1000;

/** Enqueues the batch of `o` and collects its results into `o.out`; resolves with the exit code. */
export async function runProducer(o: CliOptions & { batch: string; out: string; queue?: string }, io: RunIO): Promise<number> {
  const address = parseQueueUrl(o.queue!);
  const jobs = batchJobs(o, true);
  const key = batchKey(jobs);
  const redis = await connectRedis(address);
  let recorder;
  try {
    recorder = createRecorder(o.out, jobs, key);
  } catch (e) {
    redis.disconnect();
    throw e;
  }
  const pending = new Map<string, SceneJob>();
  for (const job of jobs) if (!recorder.recorded.has(job.index)) pending.set(`${key}-${job.index}`, job);
  const resumed = jobs.length - pending.size;
  const progress = createBatchProgress({ total: jobs.length, already: resumed, stream: io.stderr, enabled: o.progress });
  const queue = new Queue(address.name, { connection: address.connection });
  const events = new QueueEvents(address.name, { connection: address.connection });
  const report = errorReporter(io, 'producer');
  redis.on('error', report);
  queue.on('error', report);
  events.on('error', report);
  const t0 = performance.now();
  try {
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    if (resumed > 0) io.stderr.write(`bitecs-collide: resuming: ${resumed} of ${jobs.length} scenes already in ${o.out}\n`);
    const toAdd = [...pending];
    for (let i = 0; i < toAdd.length; i += ADD_CHUNK) {
      await queue.addBulk(toAdd.slice(i, i + ADD_CHUNK).map(([jobId, data]) => ({
        name: 'scene', data, opts: { jobId, removeOnComplete: false, removeOnFail: false },
      })));
    }
    await collect(queue, events, pending, async (job, jobId, summary) => {
      let r: JobSummary;
      let jsonl: Uint8Array | string = '';
      if (typeof summary === 'string') {
        r = crashedResult(job, summary, 0);
      } else if (summary.jsonlGzip64 !== undefined) {
        const { jsonlGzip64, ...rest } = summary;
        r = rest;
        jsonl = gunzipJsonl(Buffer.from(jsonlGzip64, 'base64'));
      } else {
        const gz = await redis.getBuffer(jsonlKey(address.name, jobId));
        r = gz === null ? crashedResult(job, 'its JSON Lines are missing from Redis', summary.ms) : summary;
        if (gz !== null) jsonl = gunzipJsonl(gz);
      }
      if (recorder.record(job, r, jsonl)) reportDone(progress, job, r);
      if (typeof summary !== 'string' && summary.jsonlGzip64 === undefined) await redis.del(jsonlKey(address.name, jobId));
    });
  } finally {
    await Promise.allSettled([events.close(), queue.close(), redis.quit()]);
  }
  const ms = performance.now() - t0;
  progress.finish();
  recorder.finish();
  return closingReport(io, o, `through queue ${address.shown}`, [...recorder.recorded.values()], jobs.length, ms, jobs.length - resumed);
}

/** Records a finished job: its summary (the job's return value), or the reason it failed. */
type RecordJob = (job: SceneJob, jobId: string, summary: QueueResult | string) => Promise<void>;

/**
 * Waits until every job of `pending` has finished, handing each to `record` once and then removing
 * the job from Redis. Woken by the queue's events, and every second in case one was missed (e.g.
 * jobs that finished before this producer started).
 */
async function collect(queue: Queue, events: QueueEvents, pending: Map<string, SceneJob>, record: RecordJob): Promise<void> {
  let again = false;
  let running = false;
  let finish!: () => void;
  let fail!: (e: unknown) => void;
  const finished = new Promise<void>((resolve, reject) => { finish = resolve; fail = reject; });
  const take = async (job: Job, completed: boolean) => {
    const mine = pending.get(job.id!)!;
    await record(mine, job.id!, completed ? (job.returnvalue as QueueResult) : job.failedReason);
    pending.delete(job.id!);
  };
  const drain = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        for (const state of ['completed', 'failed'] as const) {
          for (let start = 0; pending.size > 0;) {
            const done = await queue.getJobs([state], start, start + PAGE - 1, true);
            // Concurrent commands on one connection are pipelined: one round trip for the page.
            const mine = done.filter((job) => pending.has(job.id ?? '')); // other batches' jobs are left alone
            await Promise.all(mine.map((job) => take(job, state === 'completed')));
            await Promise.all(mine.map((job) => job.remove()));
            if (done.length < PAGE) break;
            start += done.length - mine.length;
          }
        }
      } while (again && pending.size > 0);
      if (pending.size === 0) finish();
    } catch (e) {
      fail(e);
    } finally {
      running = false;
    }
  };
  const wake = () => void drain();
  events.on('completed', wake);
  events.on('failed', wake);
  const timer = setInterval(wake, POLL_MS);
  try {
    await drain();
    await finished;
  } finally {
    clearInterval(timer);
    events.off('completed', wake);
    events.off('failed', wake);
  }
}

/** Consumes the queue's jobs on `--workers` threads until SIGINT or SIGTERM; resolves with 0. */
export async function runQueueWorker(o: CliOptions, io: RunIO): Promise<number> {
  const address = parseQueueUrl(o.queue!);
  const threads = o.workers ?? availableParallelism();
  const redis = await connectRedis(address);
  const pool = createScenePool(threads);
  const name = `${hostname()}:${process.pid}`;
  const worker = new Worker<SceneJob, QueueResult>(
    address.name,
    async (job) => {
      const { summary, jsonlGzip } = (await pool.run({ job: job.data, gzip: true })) as PackedResult;
      const gz = Buffer.from(jsonlGzip.buffer, jsonlGzip.byteOffset, jsonlGzip.byteLength);
      if (gz.byteLength <= INLINE_MAX) return { ...summary, jsonlGzip64: gz.toString('base64') };
      await redis.set(jsonlKey(address.name, job.id!), gz, 'EX', JSONL_TTL_S);
      return summary;
    },
    { name, connection: address.connection, concurrency: threads, lockDuration: o.lockMs, stalledInterval: o.lockMs, maxStalledCount: 3 },
  );
  let jobs = 0;
  worker.on('completed', () => { jobs++; });
  const report = errorReporter(io, 'worker');
  worker.on('error', report);
  redis.on('error', report);
  worker.on('stalled', (jobId) => io.stderr.write(`bitecs-collide: worker: job ${jobId} stalled (its worker stopped); back in the queue\n`));
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await worker.waitUntilReady();
  io.stderr.write(`bitecs-collide: worker ${name} ready on ${address.shown} (${threads} thread${threads === 1 ? '' : 's'})\n`);
  await stopped;
  await worker.close();
  await pool.destroy();
  await redis.quit();
  const rss = Math.round(process.memoryUsage().rss / 2 ** 20);
  io.stderr.write(`bitecs-collide: worker stopped after ${jobs} jobs (resident memory ${rss} MB)\n`);
  return 0;
}
