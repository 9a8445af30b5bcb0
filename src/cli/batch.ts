/**
 * Batches of scenes (`--batch`): on this machine's worker threads, or through a BullMQ queue
 * (`--queue`, queue.ts) as a producer or a worker (`--worker`). See docs/batch.md.
 * @module
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { CliOptions } from './args.js';
import type { JobSummary, SceneJob } from './batchJob.js';
import { batchJobs } from './batchJobs.js';
import { createRecorder, SUMMARY_FILE } from './batchOutput.js';
import { createScenePool } from './batchPool.js';
import { createBatchProgress, type BatchProgress } from './batchProgress.js';
import type { RunIO } from './output.js';

/** Exit code of a batch in which a scene failed. */
export const EXIT_FAILED = 1;

/** A job's name in messages: its scene and, for a sweep job, its parameters. */
export function jobName(job: SceneJob): string {
  const params = job.params ? ` {${Object.entries(job.params).map(([k, v]) => `${k}=${v}`).join(', ')}}` : '';
  return `${job.scene}${params}`;
}

/** The result of a job whose worker thread failed (e.g. ran out of memory); its JSON Lines are lost. */
export function crashedResult(job: SceneJob, e: unknown, ms: number): JobSummary {
  const why = e instanceof Error ? e.message : String(e);
  return { index: job.index, status: 'failed', error: `worker failed: ${why}`, ticks: 0, ms };
}

/** Records a finished job and reports it to the progress. */
export function reportDone(progress: BatchProgress, job: SceneJob, r: JobSummary): void {
  progress.done(r.status === 'failed' ? `${jobName(job)}: ${r.error}` : undefined);
}

/** The closing lines on stdout; returns the exit code (0 all passed, 1 a scene failed). */
export function closingReport(io: RunIO, o: { out: string }, what: string, lines: { status: string }[], total: number, ms: number, ran: number): number {
  const failed = lines.filter((l) => l.status !== 'ok').length;
  const perMinute = ms > 0 ? (60_000 * ran) / ms : 0;
  io.stdout.write(
    `bitecs-collide: batch of ${total} scenes ${what}: ${lines.length - failed} ok, ${failed} failed; ` +
    `${ran} run in ${(ms / 1000).toFixed(1)} s (${perMinute.toFixed(0)} scenes/min)\n` +
    `  results in ${o.out} (${SUMMARY_FILE} and one .jsonl per scene)\n`,
  );
  return failed > 0 || lines.length < total ? EXIT_FAILED : 0;
}

/** Runs the batch of `o` on worker threads of this process; returns the exit code. */
export async function runLocalBatch(o: CliOptions & { batch: string; out: string }, io: RunIO): Promise<number> {
  const jobs = batchJobs(o, false);
  const threads = Math.max(1, Math.min(o.workers ?? availableParallelism(), jobs.length));
  const recorder = createRecorder(o.out, jobs);
  const progress = createBatchProgress({ total: jobs.length, stream: io.stderr, enabled: o.progress });
  const pool = createScenePool(threads);
  const t0 = performance.now();
  let next = 0;
  // Two jobs in flight per thread keep every thread busy without queueing the whole batch at once.
  const feed = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      const started = performance.now();
      const file = join(o.out, job.out);
      const r = await pool.run({ job, file }).then(
        (x) => ({ summary: x as JobSummary, jsonl: undefined }), // the worker wrote the file
        (e: unknown) => ({ summary: crashedResult(job, e, performance.now() - started), jsonl: '' }),
      );
      recorder.record(job, r.summary, r.jsonl);
      reportDone(progress, job, r.summary);
    }
  };
  try {
    await Promise.all(Array.from({ length: 2 * threads }, feed));
  } finally {
    await pool.destroy();
  }
  const ms = performance.now() - t0;
  progress.finish();
  recorder.finish();
  return closingReport(io, o, `on ${threads} worker thread${threads === 1 ? '' : 's'}`, [...recorder.recorded.values()], jobs.length, ms, jobs.length);
}

/** `--batch` (local or `--queue` producer) and `--worker`; resolves with the exit code. */
export async function runBatchCommand(o: CliOptions, io: RunIO): Promise<number> {
  if (o.worker || o.queue !== undefined) {
    const queue = await import('./queue.js');
    return o.worker ? queue.runQueueWorker(o, io) : queue.runProducer({ ...o, batch: o.batch!, out: o.out! }, io);
  }
  return runLocalBatch({ ...o, batch: o.batch!, out: o.out! }, io);
}
