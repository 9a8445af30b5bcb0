/**
 * The runner's entry point as a function: arguments in, exit code out. User errors (bad arguments,
 * a bad scene file, invalid bodies) print one clear line on stderr and return 2, with no stack trace.
 * @module
 */
import { parseArgs, USAGE, UsageError } from './args.js';
import type { RunIO } from './output.js';
import { runErrorMessage, runSimulation } from './run.js';

export const EXIT_OK = 0;
export const EXIT_USAGE = 2;

/** Runs the command line `argv` (without node and the script); returns the exit code. */
export function runCli(argv: readonly string[], io: RunIO): number {
  try {
    const options = parseArgs(argv);
    if (options.help) {
      io.stdout.write(`${USAGE}\n`);
      return EXIT_OK;
    }
    runSimulation(options, io);
    return EXIT_OK;
  } catch (e) {
    return reportError(e, io);
  }
}

/** Prints a user error on stderr and returns exit code 2; rethrows anything else. */
function reportError(e: unknown, io: RunIO): number {
  if (e instanceof UsageError) {
    io.stderr.write(`bitecs-collide: ${e.message}\nRun with --help for usage.\n`);
    return EXIT_USAGE;
  }
  const message = runErrorMessage(e);
  if (message === undefined) throw e;
  io.stderr.write(`bitecs-collide: error: ${message}\n`);
  return EXIT_USAGE;
}

/**
 * The runner's entry point for every mode: a single run as `runCli`, a batch (`--batch`) on worker
 * threads or through a queue (`--queue`), or a queue worker (`--worker`). Resolves with the exit code.
 */
export async function runCommand(argv: readonly string[], io: RunIO): Promise<number> {
  let options;
  try {
    options = parseArgs(argv);
  } catch (e) {
    return reportError(e, io);
  }
  if (options.help || (options.batch === undefined && !options.worker)) return runCli(argv, io);
  try {
    const { runBatchCommand } = await import('./batch.js');
    return await runBatchCommand(options, io);
  } catch (e) {
    return reportError(e, io);
  }
}
