/**
 * The results of a batch in its --out folder: each scene's JSON Lines in its own file (byte for byte
 * what `--json` prints), and `summary.jsonl`, one line per scene:
 *
 * `{"index":0,"scene":"scenes/a.json","params":{...},"out":"a.jsonl","status":"ok","ticks":600,"contacts":1234,"hash":"…","ms":41.2}`
 * (`params` for sweep jobs; a failed scene has `"status":"failed"`, its `error`, and `ticks` = the
 * ticks written before the failure.)
 *
 * Lines are appended as scenes finish, each scene at most once (its JSON Lines file is written
 * first, by rename, so a line always has its file); at the end the file is rewritten in job order.
 * A resumed batch (queue mode) reads the lines already there and skips their scenes; the folder's
 * `batch-key` file names the batch they belong to.
 * @module
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './args.js';
import type { JobSummary, SceneJob } from './batchJob.js';

export interface SummaryLine {
  index: number;
  scene: string;
  params?: Record<string, number>;
  out: string;
  status: 'ok' | 'failed';
  ticks: number;
  contacts?: number;
  hash?: string;
  ms: number;
  error?: string;
}

export const SUMMARY_FILE = 'summary.jsonl';

export interface Recorder {
  /** Lines recorded so far, by job index. */
  readonly recorded: ReadonlyMap<number, SummaryLine>;
  /**
   * Writes the job's JSON Lines (unless `jsonl` is undefined: the worker wrote the file) and its
   * summary line; false (and nothing written) if already recorded.
   */
  record(job: SceneJob, result: JobSummary, jsonl?: string | Uint8Array): boolean;
  /** Rewrites summary.jsonl in job order; returns its path. */
  finish(): string;
}

export function summaryLine(job: SceneJob, r: JobSummary): SummaryLine {
  return {
    index: job.index,
    scene: job.scene,
    ...(job.params ? { params: job.params } : {}),
    out: job.out,
    status: r.status,
    ticks: r.ticks,
    ...(r.contacts === undefined ? {} : { contacts: r.contacts }),
    ...(r.hash === undefined ? {} : { hash: r.hash }),
    ms: Math.round(r.ms * 1000) / 1000,
    ...(r.error === undefined ? {} : { error: r.error }),
  };
}

function writeAtomic(path: string, text: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** The lines of an existing summary that belong to `jobs` (same index, scene and output file). */
function readRecorded(path: string, jobs: readonly SceneJob[]): Map<number, SummaryLine> {
  const recorded = new Map<number, SummaryLine>();
  if (!existsSync(path)) return recorded;
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    let line: SummaryLine;
    try {
      line = JSON.parse(text) as SummaryLine;
    } catch {
      continue; // empty, or cut short by a crash
    }
    const job = jobs[line.index];
    if (job !== undefined && job.scene === line.scene && job.out === line.out && !recorded.has(line.index)) recorded.set(line.index, line);
  }
  return recorded;
}

/** The file of a resumable batch's key (queue mode): a folder holds the results of one batch. */
export const KEY_FILE = 'batch-key';

/**
 * The recorder of a batch writing into `dir` (created). `resumeKey` (the batch's key, queue mode):
 * keep the scenes already in its summary.jsonl if they are of the same batch, and refuse a folder
 * holding another batch's results; without it, start a new summary.
 */
export function createRecorder(dir: string, jobs: readonly SceneJob[], resumeKey?: string): Recorder {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, SUMMARY_FILE);
  const keyPath = join(dir, KEY_FILE);
  const oldKey = existsSync(keyPath) ? readFileSync(keyPath, 'utf8').trim() : undefined;
  const recorded = resumeKey !== undefined && oldKey === resumeKey ? readRecorded(path, jobs) : new Map<number, SummaryLine>();
  if (resumeKey !== undefined && oldKey !== resumeKey && existsSync(path) && readFileSync(path, 'utf8').trim() !== '') {
    throw new UsageError(`--out ${dir} holds the results of another batch (other scenes, parameters or options); give another --out or empty it`);
  }
  if (resumeKey === undefined) rmSync(keyPath, { force: true });
  else writeFileSync(keyPath, `${resumeKey}\n`);
  const sorted = () => [...recorded.values()].sort((a, b) => a.index - b.index).map((l) => JSON.stringify(l) + '\n').join('');
  writeAtomic(path, sorted()); // drops a line cut short by a crash
  return {
    recorded,
    record(job, result, jsonl) {
      if (recorded.has(job.index)) return false;
      if (jsonl !== undefined) writeAtomic(join(dir, job.out), jsonl);
      const line = summaryLine(job, result);
      appendFileSync(path, JSON.stringify(line) + '\n');
      recorded.set(job.index, line);
      return true;
    },
    finish() {
      writeAtomic(path, sorted());
      return path;
    },
  };
}
