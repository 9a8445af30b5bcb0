/**
 * Headless runner: `npm start -- [options]` (see `--help`). Runs the built-in seeded arena or a
 * scene file and prints a summary or JSON Lines. Logic lives in args.ts, run.ts and output.ts.
 * @module
 */
import { runCli } from './cli.js';

// A closed pipe (e.g. `| head`) ends the run quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(0);
});

process.exitCode = runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
