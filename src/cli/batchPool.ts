/**
 * The worker-thread pool of a batch: piscina, one thread per worker, each running batchWorker.
 *
 * From the TypeScript sources (`npm start` runs them with tsx; the tests with vitest), a worker
 * thread needs tsx's loader to import batchWorker.ts: it is given `--import <tsx loader>` unless
 * the process already runs under tsx (worker threads inherit its flags).
 * @module
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { JobSummary, PackedResult } from './batchJob.js';
import type { WorkerTask } from './batchWorker.js';

export interface ScenePool {
  run(task: WorkerTask): Promise<JobSummary | PackedResult>;
  destroy(): Promise<void>;
  readonly threads: number;
}

/** Flags for the worker threads: tsx's loader when running from .ts sources outside tsx. */
function workerExecArgv(fromSources: boolean): string[] | undefined {
  if (!fromSources || process.execArgv.some((a) => a.includes('tsx'))) return undefined;
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return [...process.execArgv, '--import', loader];
}

export function createScenePool(threads: number): ScenePool {
  const fromSources = import.meta.url.endsWith('.ts');
  const filename = new URL(`./batchWorker.${fromSources ? 'ts' : 'js'}`, import.meta.url).href;
  const execArgv = workerExecArgv(fromSources);
  const pool = new Piscina<WorkerTask, JobSummary | PackedResult>({
    filename,
    minThreads: threads,
    maxThreads: threads,
    ...(execArgv ? { execArgv } : {}),
  });
  return {
    threads,
    run: (task) => pool.run(task),
    destroy: () => pool.destroy(),
  };
}
