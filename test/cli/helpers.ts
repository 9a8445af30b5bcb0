/** Running the CLI as a child process (the real command) and in-process (the run function). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { onTestFinished } from 'vitest';
import { runCli } from '../../src/cli/cli.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const TSX = join(ROOT, 'node_modules/.bin/tsx');
export const MAIN = join(ROOT, 'src/cli/main.ts');
export const KNOWN = join(ROOT, 'examples/scenes/known-contacts.json');

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `tsx src/cli/main.ts ...args` in the repository root. */
export function runChild(args: string[]): Outcome {
  const r = spawnSync(TSX, [MAIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `runCli(args)` with captured output (stderr is not a terminal). */
export function runInProcess(args: string[]): Outcome {
  let stdout = '';
  let stderr = '';
  const code = runCli(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t), isTTY: false },
  });
  return { code, stdout, stderr };
}

/**
 * Writes `text` to a fresh temporary file and returns its path; its directory is deleted when the
 * calling test finishes (call it inside a test).
 */
export function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'bitecs-collide-cli-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Parses JSON Lines output. */
export function jsonLines(stdout: string): unknown[] {
  return stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
}
