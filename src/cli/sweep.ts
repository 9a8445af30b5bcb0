/**
 * Parameter sweeps of a batch: `--sweep name=values` options and scene templates. Pure: no I/O.
 *
 * - Values: a comma-separated list whose items are finite numbers (`0.2`, `-1e-3`) or inclusive
 *   integer ranges (`1..100`); e.g. `seed=1..100`, `speed=0.5,1,2`, `n=1..3,10`.
 * - A template is a scene file in which a JSON string `"$name"` stands for parameter `name`
 *   (anywhere a number goes: `"radius": "$radius"`, `"velocity": ["$speed", 0, 0]`).
 * - A sweep file (`--sweep @FILE`) is a JSON object of parameters, each an array of numbers or a
 *   VALUES string: `{"radius": [0.5, 1, 2], "speed": "1..4"}` is `--sweep radius=0.5,1,2 --sweep
 *   speed=1..4`.
 * - Every combination of the values is one job, the first `--sweep` varying slowest.
 * - Built-in parameters: `ticks` (the run's length, for any template); for the built-in arena
 *   (`--batch arena`): `seed`, `spheres`, `boxes`. A parameter that is neither a placeholder of the
 *   template nor built in is an error naming it, and so is a placeholder without a `--sweep`.
 * @module
 */
import { UsageError } from './args.js';

export interface SweepParameter {
  name: string;
  values: number[];
}

/** Most jobs a sweep may expand to. */
export const MAX_SWEEP_JOBS = 1_000_000;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLACEHOLDER = /"\$([A-Za-z_][A-Za-z0-9_]*)"/g;

/** Built-in parameters of the arena template. */
export const ARENA_PARAMETERS: readonly string[] = Object.freeze(['seed', 'spheres', 'boxes', 'ticks']);
/** Built-in parameters of a scene-file template. */
export const SCENE_PARAMETERS: readonly string[] = Object.freeze(['ticks']);

function parseValue(option: string, item: string): number[] {
  const range = /^([+-]?\d+)\.\.([+-]?\d+)$/.exec(item);
  if (range) {
    const lo = Number(range[1]);
    const hi = Number(range[2]);
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || lo > hi) throw new UsageError(`${option}: range ${item} must be two integers, the first not above the second`);
    if (hi - lo + 1 > MAX_SWEEP_JOBS) throw new UsageError(`${option}: range ${item} has more than ${MAX_SWEEP_JOBS} values`);
    return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  }
  const v = item.trim() === '' ? NaN : Number(item);
  if (!Number.isFinite(v)) throw new UsageError(`${option}: ${JSON.stringify(item)} is not a finite number or a range a..b`);
  return [v];
}

/** Parses one `--sweep name=values`. Throws `UsageError` naming the option. */
export function parseSweep(text: string): SweepParameter {
  const eq = text.indexOf('=');
  const name = eq < 0 ? text : text.slice(0, eq);
  const option = `--sweep ${name}`;
  if (eq < 0 || !NAME.test(name)) throw new UsageError(`--sweep ${JSON.stringify(text)}: expected NAME=VALUES, e.g. --sweep seed=1..100 or --sweep speed=0.5,1,2`);
  const values = text.slice(eq + 1).split(',').flatMap((item) => parseValue(option, item));
  return { name, values };
}

/** The placeholder names of a template text, in order of first appearance. */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

/**
 * Parses the `--sweep` options and checks them against the template: each name once, each known
 * (a placeholder of `template` or built in), and every placeholder given values. `template` is
 * undefined for the built-in arena. Throws `UsageError` naming the parameter.
 */
export function checkSweeps(sweeps: readonly string[], templateName: string, template: string | undefined): SweepParameter[] {
  const params = sweeps.map(parseSweep);
  const holes = template === undefined ? [] : placeholders(template);
  const builtIn: readonly string[] = template === undefined ? ARENA_PARAMETERS : SCENE_PARAMETERS;
  const seen = new Set<string>();
  for (const p of params) {
    if (seen.has(p.name)) throw new UsageError(`--sweep ${p.name} given more than once; list its values in one option (e.g. ${p.name}=1,2,5)`);
    seen.add(p.name);
    if (!holes.includes(p.name) && !builtIn.includes(p.name)) {
      const known = [...holes.map((h) => `"$${h}"`), ...builtIn].join(', ');
      const where = template === undefined ? 'the built-in arena' : `the template ${templateName}`;
      throw new UsageError(`--sweep ${p.name}: unknown parameter ${JSON.stringify(p.name)}; ${where} takes: ${known}`);
    }
  }
  const missing = holes.find((h) => !seen.has(h));
  if (missing !== undefined) throw new UsageError(`${templateName}: placeholder "$${missing}" has no values; add --sweep ${missing}=...`);
  const count = params.reduce((n, p) => n * p.values.length, 1);
  if (count > MAX_SWEEP_JOBS) throw new UsageError(`the sweep expands to ${count} jobs, more than ${MAX_SWEEP_JOBS}`);
  return params;
}

/** Every combination of the parameters' values, the first parameter varying slowest. */
export function expandGrid(params: readonly SweepParameter[]): Record<string, number>[] {
  let grid: Record<string, number>[] = [{}];
  for (const p of params) grid = grid.flatMap((g) => p.values.map((v) => ({ ...g, [p.name]: v })));
  return grid;
}

/** The template with each `"$name"` replaced by its value (built-in parameters are not placeholders). */
export function fillTemplate(template: string, values: Record<string, number>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

/**
 * The `name=values` options of a sweep file's JSON text (see the module comment). Throws
 * `UsageError` naming the file and the parameter.
 */
export function sweepFileOptions(text: string, file: string): string[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--sweep @${file}: invalid JSON: ${(e as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new UsageError(`--sweep @${file}: must be a JSON object such as {"seed": "1..100", "speed": [0.5, 1]}`);
  return Object.entries(data).map(([name, v]) => {
    if (typeof v === 'string') return `${name}=${v}`;
    if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number' && Number.isFinite(x))) return `${name}=${v.join(',')}`;
    throw new UsageError(`--sweep @${file}: ${name}: must be a non-empty array of finite numbers or a string such as "1..100"`);
  });
}
