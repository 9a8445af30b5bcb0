/**
 * The worker-thread side of a batch (loaded by the pool of batchPool.ts): runs one job per call,
 * its JSON Lines written to a file of the --out folder (local batches) or gzipped for the queue.
 * @module
 */
import { runJobGzipped, runJobToFile, type JobSummary, type PackedResult, type SceneJob } from './batchJob.js';

export type WorkerTask = { job: SceneJob; file: string } | { job: SceneJob; gzip: true };

export default function runTask(task: WorkerTask): JobSummary | PackedResult {
  return 'file' in task ? runJobToFile(task.job, task.file) : runJobGzipped(task.job);
}
