/**
 * One job of a batch, and running it: a scene (a file, a filled template or the built-in arena)
 * run exactly as `npm start -- --scene FILE --ticks T --json` runs it, its JSON Lines to a string,
 * a file or gzip. Jobs and results are plain data (they travel to worker threads and through Redis).
 * @module
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DEFAULTS, type CliOptions } from './args.js';
import { runErrorMessage, runSimulation } from './run.js';

export interface SceneJob {
  /** Position in the batch (0-based); the summary is in this order. */
  index: number;
  /** The scene's name as the single runner prints it: the file path as listed, or "arena". */
  scene: string;
  /** File name of its JSON Lines in the --out folder. */
  out: string;
  /** The scene file's text (read by the producer, filled from a template); absent: read `scene`. */
  text?: string;
  /** Built-in arena instead of a scene file. */
  arena?: { seed: number; spheres: number; boxes: number };
  /** A sweep job's parameter values. */
  params?: Record<string, number>;
  ticks: number;
  continuous: boolean;
  /** Found before running (e.g. an unreadable file): the job fails with this message. */
  error?: string;
}

/** What a job measured (the summary line's figures). */
export interface JobSummary {
  index: number;
  status: 'ok' | 'failed';
  /** A failed job's message (as the single runner prints it after "bitecs-collide: error: "). */
  error?: string;
  /** Tick lines written (all of them when ok; the ticks before the failing one otherwise). */
  ticks: number;
  /** Contacts over all ticks (ok jobs). */
  contacts?: number;
  /** Final state hash (ok jobs). */
  hash?: string;
  /** Wall time of the run, ms. */
  ms: number;
}

/** A job's figures and its JSON Lines, byte for byte as `--json` prints them. */
export interface JobResult extends JobSummary {
  jsonl: string;
}

/** Where a job's JSON Lines go, as the runner writes them (a tick line at a time). */
export interface JobOutput {
  write(text: string): void;
}

/** Runs one job, its JSON Lines to `out`; never throws for a failing scene (the summary says so). */
export function runJobTo(job: SceneJob, out: JobOutput): JobSummary {
  let lines = 0;
  const io = {
    stdout: { write: (text: string) => { out.write(text); lines++; } },
    stderr: { write: () => {} },
  };
  const o: CliOptions = {
    help: false, ...DEFAULTS, ...job.arena, ticks: job.ticks, continuous: job.continuous,
    json: true, progress: false, sweeps: [], worker: false,
    ...(job.arena ? {} : { scene: job.scene }),
  };
  const t0 = performance.now();
  try {
    if (job.error !== undefined) throw new Error(job.error);
    const summary = runSimulation(o, io, job.text);
    return { index: job.index, status: 'ok', ticks: summary.ticks, contacts: summary.contacts.total, hash: summary.hash, ms: performance.now() - t0 };
  } catch (e) {
    const message = job.error ?? runErrorMessage(e) ?? (e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    return { index: job.index, status: 'failed', error: message, ticks: lines, ms: performance.now() - t0 };
  }
}

/** Runs one job, its JSON Lines kept in a string (small jobs, tests). */
export function runJob(job: SceneJob): JobResult {
  let jsonl = '';
  const summary = runJobTo(job, { write: (text) => { jsonl += text; } });
  return { ...summary, jsonl };
}

/** Bytes of JSON Lines gathered before they are written or compressed (a scene's output may exceed what one string holds). */
export const CHUNK = 1 << 20;

/** Collects text and hands it on in chunks of about `CHUNK` characters. */
function chunked(flush: (text: string) => void): JobOutput & { end(): void } {
  let parts: string[] = [];
  let size = 0;
  const drain = () => {
    if (size > 0) flush(parts.join(''));
    parts = [];
    size = 0;
  };
  return {
    write(text) {
      parts.push(text);
      size += text.length;
      if (size >= CHUNK) drain();
    },
    end: drain,
  };
}

/**
 * Runs one job writing its JSON Lines to the file `path` as they come (a temporary file renamed at
 * the end, so the file is always complete).
 */
export function runJobToFile(job: SceneJob, path: string): JobSummary {
  const tmp = `${path}.${process.pid}.${job.index}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    const out = chunked((text) => writeSync(fd, text));
    const summary = runJobTo(job, out);
    out.end();
    closeSync(fd);
    renameSync(tmp, path);
    return summary;
  } catch (e) {
    try { closeSync(fd); } catch { /* already closed */ }
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * A result as it travels through the queue: the summary fields as the job's return value, and the
 * JSON Lines gzipped (queue.ts stores them apart when large, so that BullMQ's records stay small).
 */
export interface PackedResult {
  summary: JobSummary;
  jsonlGzip: Uint8Array;
}

/**
 * Runs one job gzipping its JSON Lines as they come: one gzip member per chunk (level 1: a third
 * faster than the default, 15 % larger), concatenated, which gunzip reads as one stream.
 */
export function runJobGzipped(job: SceneJob): PackedResult {
  const members: Buffer[] = [];
  const out = chunked((text) => members.push(gzipSync(text, { level: 1 })));
  const summary = runJobTo(job, out);
  out.end();
  return { summary, jsonlGzip: Buffer.concat(members) };
}

/** The JSON Lines of a `PackedResult`, as bytes. */
export function gunzipJsonl(jsonlGzip: Uint8Array): Buffer {
  return gunzipSync(jsonlGzip);
}
