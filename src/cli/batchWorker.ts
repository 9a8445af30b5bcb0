/**
 * The worker-thread side of a batch (loaded by the pool of batchPool.ts): runs one job per call.
 * With `pack` (queue jobs), the JSON Lines come back gzipped (batchJob.ts's `packResult`).
 * @module
 */
import { packResult, runJob, type JobResult, type PackedResult, type SceneJob } from './batchJob.js';

export interface WorkerTask {
  job: SceneJob;
  pack: boolean;
}

export default function runTask(task: WorkerTask): JobResult | PackedResult {
  const result = runJob(task.job);
  return task.pack ? packResult(result) : result;
}
