/** Running the CLI as a child process (the real command) and in-process (the run function). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import { runCli } from '../../src/cli/cli.js';
import type { SceneContact } from '../../src/scenes/sceneFile.js';

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

/** A hand-computed contact of a scene file's tick. */
export type ExpectedContact = Pick<SceneContact, 'a' | 'b' | 'toi' | 'depth' | 'normal' | 'point'>;

/** Tolerance of the hand-computed contacts (toi, depth, normal and point components). */
export const CONTACT_TOL = 1e-12;

/** The contacts of tick `tick` equal `expected[tick]`: the same pairs in order, numbers within CONTACT_TOL. */
export function expectTickContacts(expected: ExpectedContact[][], tick: number, contacts: SceneContact[]): void {
  const want = expected[tick];
  expect(contacts.map((c) => [c.a, c.b]), `pairs of tick ${tick}`).toEqual(want.map((c) => [c.a, c.b]));
  contacts.forEach((c, i) => {
    const e = want[i];
    const close = (x: number, y: number, what: string) =>
      expect(Math.abs(x - y), `tick ${tick} (${c.a}, ${c.b}) ${what}: ${x} vs ${y}`).toBeLessThanOrEqual(CONTACT_TOL);
    close(c.toi, e.toi, 'toi');
    close(c.depth, e.depth, 'depth');
    for (let k = 0; k < 3; k++) {
      close(c.normal[k], e.normal[k], `normal[${k}]`);
      close(c.point[k], e.point[k], `point[${k}]`);
    }
  });
}
