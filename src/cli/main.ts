/**
 * Headless runner: `npm start -- [options]` (see `--help`). Runs the built-in seeded arena or a
 * scene file and prints a summary or JSON Lines; or a batch of scenes (batch.ts, queue.ts). Logic
 * lives in args.ts, run.ts and output.ts.
 * @module
 */
import { runCommand } from './cli.js';

// A closed pipe (e.g. `| head`) ends the run quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(0);
});

process.exitCode = await runCommand(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
