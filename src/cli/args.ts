/**
 * Command-line arguments of the headless runner. Pure: no I/O; bad arguments throw `UsageError`.
 * @module
 */

/** A user error in the arguments (exit code 2, no stack trace). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface CliOptions {
  /** Print the usage and exit. */
  help: boolean;
  /** Scene file to run; undefined = the built-in seeded arena. */
  scene?: string;
  spheres: number;
  boxes: number;
  ticks: number;
  seed: number;
  /** Swept (continuous) contacts. */
  continuous: boolean;
  /** JSON Lines on stdout: one line per tick, then the summary. */
  json: boolean;
  /** Progress on stderr for long runs. */
  progress: boolean;
  /** Batch: a folder, a glob (wildcards in the last path segment) or one file (a sweep's template). */
  batch?: string;
  /** Batch: worker threads (default: the machine's cores). */
  workers?: number;
  /** Batch: the folder of the results (each scene's JSON Lines and summary.jsonl). */
  out?: string;
  /** Sweep parameters, `name=values` as given (see sweep.ts). */
  sweeps: string[];
  /** BullMQ queue on Redis, `redis://host:port/name`. */
  queue?: string;
  /** Consume the jobs of `queue` instead of producing them. */
  worker: boolean;
  /** Queue: ms a job stays claimed by a silent worker before another worker takes it. */
  lockMs: number;
}

export const DEFAULTS = { spheres: 10000, boxes: 1000, ticks: 600, seed: 1, lockMs: 10_000 } as const;

/** Largest accepted --ticks (tick times are kept for the median). */
const MAX_TICKS = 10_000_000;
/** Largest body count (the physics capacity limit is 2^24 entity ids). */
const MAX_BODIES = (1 << 24) - 1;

export const USAGE = `Usage: npm start -- [options]
       tsx src/cli/main.ts [options]

Runs the collision pipeline headless and prints a summary: ticks, bodies, contacts per tick
(mean, max), ms per tick (mean, median) and the state hash.

Built-in arena (default): a seeded cube of moving spheres and fixed boxes (sphere–box contacts).
  --spheres N        number of spheres (default ${DEFAULTS.spheres})
  --boxes M          number of boxes (default spheres / 10, i.e. ${DEFAULTS.boxes})
  --seed S           PRNG seed, an integer in 0..4294967295 (default ${DEFAULTS.seed})

Scene file:
  --scene FILE       run the bodies of a JSON scene file (see src/scenes/sceneFile.ts):
                     {"dt": 0.0166, "bodies": [{"id": 7, "shape": "sphere", "position": [x, y, z],
                      "radius": r, "velocity": [x, y, z]}, {"id": 9, "shape": "box", "position": [...],
                      "halfExtents": [x, y, z], "rotation": [x, y, z, w]}]}   (dt, velocity, rotation optional)
                     Bodies move by their velocities (no collision response); contacts use the ids.

Common:
  --ticks T          number of fixed steps (default ${DEFAULTS.ticks})
  --continuous       swept contacts over each tick's motion (default)
  --no-continuous    contacts at the poses at the start of each tick only
  --json             JSON Lines on stdout: {"tick":k,"contacts":[{"a","b","toi","depth","normal","point"}]}
                     per tick, then {"summary":{...}} (the arena reports entity ids)
  --no-progress      no progress on stderr
  --help, -h         this help

Batch (docs/batch.md): every scene on worker threads, each scene's JSON Lines (as --json prints them)
to its own file in the --out folder, plus --out/summary.jsonl (one line per scene).
  --batch PATH       a folder (its *.json files), a glob such as scenes/*.json (wildcards * and ? in
                     the last path segment), one scene file, or "arena" (the built-in arena; with --sweep)
  --out DIR          folder of the results (created; required)
  --workers N        worker threads (default: the machine's cores)
  --sweep NAME=VALUES  repeatable: PATH is a template whose "$NAME" strings take each value
                     (VALUES: 1..100 integers, or 0.2,0.5,0.8, or both: 1..3,7.5); every combination
                     is a job. Built-in parameters: ticks; for "arena": seed, spheres, boxes.
  --sweep @FILE      a sweep file: {"seed": "1..100", "speed": [0.5, 1, 2]}
  --queue redis://HOST:PORT/NAME  enqueue the jobs on BullMQ (queue NAME) and collect the results;
                     restarted with the same arguments it resumes
  --worker           with --queue: consume the queue's jobs (on --workers threads) until stopped
  --lock-ms MS       a job whose worker is silent this long is given to another (default ${DEFAULTS.lockMs})
  Exit codes: 0 every scene passed, 1 a scene failed (its error is in summary.jsonl), 2 bad arguments
  or a Redis that does not answer.

With npm, pass -s so that npm's banner does not precede the output on stdout:
  npm start -s -- --scene examples/scenes/known-contacts.json --ticks 3 --json

Each option may be given once (--sweep once per parameter). Exit codes: 0 ok, 2 bad arguments, a bad scene file, a run that
needs more memory than the machine (or the JavaScript heap limit) allows, or a non-finite number
in a contact.`;

type NumericKey = 'spheres' | 'boxes' | 'ticks' | 'seed' | 'workers' | 'lockMs';

const NUMERIC: Record<string, { key: NumericKey; min: number; max: number }> = {
  '--spheres': { key: 'spheres', min: 0, max: MAX_BODIES },
  '--boxes': { key: 'boxes', min: 0, max: MAX_BODIES },
  '--ticks': { key: 'ticks', min: 0, max: MAX_TICKS },
  '--seed': { key: 'seed', min: 0, max: 0xffffffff },
  '--workers': { key: 'workers', min: 1, max: 1024 },
  '--lock-ms': { key: 'lockMs', min: 100, max: 86_400_000 },
};

/** Options whose value is a string. */
const STRINGS: Record<string, 'scene' | 'batch' | 'out' | 'queue'> = {
  '--scene': 'scene',
  '--batch': 'batch',
  '--out': 'out',
  '--queue': 'queue',
};

const FLAGS: Record<string, (o: CliOptions) => void> = {
  '--help': (o) => { o.help = true; },
  '-h': (o) => { o.help = true; },
  '--continuous': (o) => { o.continuous = true; },
  '--no-continuous': (o) => { o.continuous = false; },
  '--json': (o) => { o.json = true; },
  '--no-progress': (o) => { o.progress = false; },
  '--worker': (o) => { o.worker = true; },
};

function parseInteger(name: string, text: string, min: number, max: number): number {
  const v = /^[+]?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(v) || v < min || v > max) {
    throw new UsageError(`${name} must be an integer in ${min}..${max}, got ${JSON.stringify(text)}`);
  }
  return v;
}

/** Splits `--name=value` into its parts; other tokens come back as they are. */
function splitToken(token: string): { name: string; inline?: string } {
  const eq = token.indexOf('=');
  if (!token.startsWith('--') || eq < 0) return { name: token };
  return { name: token.slice(0, eq), inline: token.slice(eq + 1) };
}

/** Options that set the same thing (given twice, one would silently override the other). */
const SAME: Record<string, string> = { '-h': 'help', '--help': 'help', '--continuous': 'continuous', '--no-continuous': 'continuous' };

/** Throws `UsageError` when option `name` (or one setting the same thing) was given before; records it. */
function noRepeat(name: string, given: Set<string>): void {
  const key = SAME[name] ?? name;
  if (given.has(name)) throw new UsageError(`${name} given more than once; give each option once`);
  if (given.has(key)) throw new UsageError(`${name} conflicts with an earlier option that sets the same thing; give it once`);
  given.add(key);
  given.add(name);
}

const BATCH_ONLY = ['--out', '--workers', '--sweep', '--queue', '--worker', '--lock-ms'];

/** Rejects combinations of the batch options that make no sense. */
function checkBatch(o: CliOptions, given: Set<string>): void {
  if (o.worker) {
    if (o.queue === undefined) throw new UsageError('--worker needs --queue redis://HOST:PORT/NAME');
    for (const name of ['--batch', '--out', '--sweep', '--scene', '--json', '--ticks']) {
      if (given.has(name)) throw new UsageError(`${name} applies to the producer, not to --worker (the jobs carry their scenes)`);
    }
    return;
  }
  if (o.batch === undefined) {
    const stray = BATCH_ONLY.find((name) => given.has(name));
    if (stray !== undefined) throw new UsageError(`${stray} needs --batch`);
    return;
  }
  if (o.out === undefined) throw new UsageError('--batch needs --out DIR (the folder of the results)');
  if (o.queue !== undefined && given.has('--workers')) throw new UsageError('--workers applies to local batches and to --worker; a --queue producer runs no scenes itself');
  if (given.has('--lock-ms')) throw new UsageError('--lock-ms applies to --worker');
  for (const name of ['--scene', '--json', '--spheres', '--boxes', '--seed']) {
    if (given.has(name)) {
      const why = name === '--json' ? 'a batch always writes JSON Lines to --out' : 'a batch takes its scenes from --batch (arena parameters: --batch arena --sweep seed=...)';
      throw new UsageError(`${name} does not apply to --batch: ${why}`);
    }
  }
}

/** Rejects combinations that make no sense (arena options with a scene file). */
function checkCombination(o: CliOptions, given: Set<string>): void {
  checkBatch(o, given);
  if (o.batch !== undefined || o.worker) return;
  if (o.scene === undefined) {
    if (o.spheres + o.boxes + 1 > MAX_BODIES) throw new UsageError(`--spheres + --boxes must be below ${MAX_BODIES}`);
    return;
  }
  for (const name of ['--spheres', '--boxes', '--seed']) {
    if (given.has(name)) throw new UsageError(`${name} applies to the built-in arena, not to --scene (the scene file lists its bodies)`);
  }
}

/**
 * Parses the arguments after the script name (`process.argv.slice(2)`). Accepts `--name value` and
 * `--name=value`. Throws `UsageError` with a message naming the bad argument.
 */
export function parseArgs(argv: readonly string[]): CliOptions {
  const o: CliOptions = { help: false, ...DEFAULTS, continuous: true, json: false, progress: true, sweeps: [], worker: false };
  const given = new Set<string>();
  let boxesGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const { name, inline } = splitToken(argv[i]);
    const isFlag = Object.hasOwn(FLAGS, name);
    if (isFlag && inline === undefined) {
      noRepeat(name, given);
      FLAGS[name](o);
      continue;
    }
    const numeric = Object.hasOwn(NUMERIC, name) ? NUMERIC[name] : undefined;
    const str = Object.hasOwn(STRINGS, name) ? STRINGS[name] : undefined;
    if (!numeric && !str && name !== '--sweep') {
      const hint = isFlag ? `${name} takes no value` : name.startsWith('-') ? `unknown option ${name}` : `unexpected argument ${JSON.stringify(name)}`;
      throw new UsageError(hint);
    }
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`${name} needs a value`);
    if (name === '--sweep') {
      given.add(name); // repeatable: one per parameter
      o.sweeps.push(value);
      continue;
    }
    noRepeat(name, given);
    if (str) {
      if (value === '') throw new UsageError(name === '--scene' ? '--scene needs a file name' : `${name} needs a value`);
      o[str] = value;
    } else if (numeric) {
      o[numeric.key] = parseInteger(name, value, numeric.min, numeric.max);
      if (numeric.key === 'boxes') boxesGiven = true;
    }
  }
  if (!boxesGiven) o.boxes = Math.floor(o.spheres / 10);
  if (!o.help) checkCombination(o, given);
  return o;
}
