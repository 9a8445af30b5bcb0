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
}

export const DEFAULTS = { spheres: 10000, boxes: 1000, ticks: 600, seed: 1 } as const;

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

With npm, pass -s so that npm's banner does not precede the output on stdout:
  npm start -s -- --scene examples/scenes/known-contacts.json --ticks 3 --json

Each option may be given once. Exit codes: 0 ok, 2 bad arguments, a bad scene file, a run that
needs more memory than the machine (or the JavaScript heap limit) allows, or a non-finite number
in a contact.`;

type NumericKey = 'spheres' | 'boxes' | 'ticks' | 'seed';

const NUMERIC: Record<string, { key: NumericKey; min: number; max: number }> = {
  '--spheres': { key: 'spheres', min: 0, max: MAX_BODIES },
  '--boxes': { key: 'boxes', min: 0, max: MAX_BODIES },
  '--ticks': { key: 'ticks', min: 0, max: MAX_TICKS },
  '--seed': { key: 'seed', min: 0, max: 0xffffffff },
};

const FLAGS: Record<string, (o: CliOptions) => void> = {
  '--help': (o) => { o.help = true; },
  '-h': (o) => { o.help = true; },
  '--continuous': (o) => { o.continuous = true; },
  '--no-continuous': (o) => { o.continuous = false; },
  '--json': (o) => { o.json = true; },
  '--no-progress': (o) => { o.progress = false; },
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

/** Rejects combinations that make no sense (arena options with a scene file). */
function checkCombination(o: CliOptions, given: Set<string>): void {
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
  const o: CliOptions = { help: false, ...DEFAULTS, continuous: true, json: false, progress: true };
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
    if (!numeric && name !== '--scene') {
      const hint = isFlag ? `${name} takes no value` : name.startsWith('-') ? `unknown option ${name}` : `unexpected argument ${JSON.stringify(name)}`;
      throw new UsageError(hint);
    }
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`${name} needs a value`);
    noRepeat(name, given);
    if (name === '--scene') {
      if (value === '') throw new UsageError('--scene needs a file name');
      o.scene = value;
    } else if (numeric) {
      o[numeric.key] = parseInteger(name, value, numeric.min, numeric.max);
      if (numeric.key === 'boxes') boxesGiven = true;
    }
  }
  if (!boxesGiven) o.boxes = Math.floor(o.spheres / 10);
  if (!o.help) checkCombination(o, given);
  return o;
}
