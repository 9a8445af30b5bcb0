/**
 * The jobs of a batch from the command line: the scene files of `--batch` (a folder, a glob whose
 * wildcards are in the last path segment, or one file), or a template and its `--sweep` grid.
 * @module
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { DEFAULTS, UsageError, type CliOptions } from './args.js';
import type { SceneJob } from './batchJob.js';
import { checkSweeps, expandGrid, fillTemplate, sweepFileOptions } from './sweep.js';

function readSweepFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--sweep @${file}: cannot read: ${(e as Error).message}`);
  }
}

/** `*` and `?` of a file-name pattern as a regular expression. */
function patternRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  return new RegExp(`^${body}$`);
}

/**
 * The scene files `path` names, sorted by name: a folder's `*.json` files, the files matching a
 * glob (`dir/*.json`; wildcards in the last segment only), or `path` itself.
 */
export function listSceneFiles(path: string): string[] {
  const last = basename(path);
  if (/[*?]/.test(last)) {
    const dir = dirname(path);
    if (/[*?]/.test(dir)) throw new UsageError(`--batch ${path}: wildcards are allowed in the last path segment only`);
    const re = patternRegExp(last);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      throw new UsageError(`--batch ${path}: cannot read folder ${dir}`);
    }
    return names.filter((n) => re.test(n)).sort().map((n) => (dir === '.' && !path.startsWith('./') ? n : join(dir, n)));
  }
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new UsageError(`--batch ${path}: no such file or folder`);
  }
  if (!isDir) return [path];
  return readdirSync(path).filter((n) => n.endsWith('.json')).sort().map((n) => join(path, n));
}

/** The output file name of a scene file: its name with .jsonl for .json. */
function outName(file: string): string {
  const b = basename(file);
  return `${extname(b) === '.json' ? b.slice(0, -5) : b}.jsonl`;
}

/**
 * The jobs of `o` (which has `batch`). `readText`: put each file's text in its job (queue jobs,
 * which run on other machines); otherwise workers read the files. An unreadable file becomes a job
 * that fails with the reason.
 */
export function batchJobs(o: CliOptions & { batch: string }, readText: boolean): SceneJob[] {
  const base = { ticks: o.ticks, continuous: o.continuous };
  if (o.sweeps.length > 0) return sweepJobs(o, base);
  if (o.batch === 'arena') throw new UsageError('--batch arena needs --sweep (e.g. --sweep seed=1..100)');
  const files = listSceneFiles(o.batch);
  if (files.length === 0) throw new UsageError(`--batch ${o.batch}: no scene files`);
  const outs = new Set<string>();
  return files.map((file, index) => {
    const out = outName(file);
    if (outs.has(out)) throw new UsageError(`--batch ${o.batch}: two scenes would write ${out}`);
    outs.add(out);
    const job: SceneJob = { index, scene: file, out, ...base };
    if (!readText) return job;
    try {
      return { ...job, text: readFileSync(file, 'utf8') };
    } catch (e) {
      return { ...job, error: `${file}: cannot read scene file: ${(e as Error).message}` };
    }
  });
}

/** Largest values of the built-in parameters (as the runner's own options). */
const BUILT_IN_MAX: Record<string, number> = { ticks: 10_000_000, seed: 0xffffffff, spheres: (1 << 24) - 1, boxes: (1 << 24) - 1 };

function sweepJobs(o: CliOptions & { batch: string }, base: { ticks: number; continuous: boolean }): SceneJob[] {
  const arena = o.batch === 'arena';
  let template: string | undefined;
  if (!arena) {
    const files = listSceneFiles(o.batch);
    if (files.length !== 1 || files[0] !== o.batch) throw new UsageError(`--sweep needs --batch to name one template file, not ${o.batch}`);
    try {
      template = readFileSync(o.batch, 'utf8');
    } catch (e) {
      throw new UsageError(`--batch ${o.batch}: cannot read the template: ${(e as Error).message}`);
    }
  }
  const sweeps = o.sweeps.flatMap((option) => (option.startsWith('@') ? sweepFileOptions(readSweepFile(option.slice(1)), option.slice(1)) : [option]));
  const params = checkSweeps(sweeps, o.batch, template);
  for (const p of params) {
    const max = BUILT_IN_MAX[p.name];
    const bad = max === undefined ? undefined : p.values.find((v) => !Number.isSafeInteger(v) || v < 0 || v > max);
    if (bad !== undefined) throw new UsageError(`--sweep ${p.name}: ${bad} is not an integer in 0..${max}`);
  }
  const grid = expandGrid(params);
  const stem = arena ? 'arena' : outName(o.batch).slice(0, -6);
  const width = String(grid.length - 1).length;
  return grid.map((params, index) => {
    const ticks = params.ticks ?? base.ticks;
    const common = { index, out: `${stem}-${String(index).padStart(width, '0')}.jsonl`, params, ticks, continuous: base.continuous };
    if (arena) {
      const spheres = params.spheres ?? DEFAULTS.spheres;
      const a = { seed: params.seed ?? DEFAULTS.seed, spheres, boxes: params.boxes ?? Math.floor(spheres / 10) };
      return { ...common, scene: 'arena', arena: a };
    }
    return { ...common, scene: o.batch, text: fillTemplate(template!, params) };
  });
}
