/**
 * The runner's entry point as a function: arguments in, exit code out. User errors (bad arguments,
 * a bad scene file, invalid bodies) print one clear line on stderr and return 2, with no stack trace.
 * @module
 */
import { PhysicsInputError } from '../index.js';
import { formatProblem } from '../physics/errors.js';
import { SceneFileError } from '../scenes/sceneFile.js';
import { parseArgs, USAGE, UsageError } from './args.js';
import type { RunIO } from './output.js';
import { RunError, runSimulation } from './run.js';

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
    if (e instanceof UsageError) {
      io.stderr.write(`bitecs-collide: ${e.message}\nRun with --help for usage.\n`);
      return EXIT_USAGE;
    }
    if (e instanceof SceneFileError || e instanceof RunError) {
      io.stderr.write(`bitecs-collide: error: ${e.message}\n`);
      return EXIT_USAGE;
    }
    if (e instanceof PhysicsInputError) {
      io.stderr.write(`bitecs-collide: error: ${formatProblem(e)}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
}
