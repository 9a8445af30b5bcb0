/** Running the CLI as a child process (the real command) and in-process (the run function). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { readFileSync } from 'node:fs';
import { runCli } from '../../src/cli/cli.js';
import { parseScene, type SceneContact } from '../../src/scenes/sceneFile.js';
import { buildScene, stepScene } from '../../src/scenes/buildScene.js';

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

/**
 * `--json` output of a scene run for `expected.length` ticks: one line per tick (keys `tick`,
 * `contacts`; contact keys in the documented order) whose contacts match `expected`, then the
 * summary line matching `summary` with a 16-hex-digit hash.
 */
export function expectSceneOutput(stdout: string, expected: ExpectedContact[][], summary: Record<string, unknown>): void {
  type TickLine = { tick: number; contacts: SceneContact[] };
  const lines = jsonLines(stdout) as (TickLine | { summary: Record<string, unknown> })[];
  expect(lines).toHaveLength(expected.length + 1);
  lines.slice(0, -1).forEach((line, k) => {
    const tickLine = line as TickLine;
    expect(Object.keys(tickLine)).toEqual(['tick', 'contacts']);
    expect(tickLine.tick).toBe(k);
    for (const c of tickLine.contacts) expect(Object.keys(c)).toEqual(['a', 'b', 'toi', 'depth', 'normal', 'point']);
    expectTickContacts(expected, k, tickLine.contacts);
  });
  const last = (lines.at(-1) as { summary: Record<string, unknown> }).summary;
  expect(last).toMatchObject(summary);
  expect(last.hash).toMatch(/^[0-9a-f]{16}$/);
}

/** A run's output without its timing figures (which differ between runs). */
export const withoutTiming = (s: string): string => s.replace(/"msPerTick":\{[^}]*\}/, '');

/**
 * Runs `args` (a `--json` scene run) as a child process and in process: both exit 0 with the lines
 * `expectSceneOutput` wants, the child writes nothing to stderr, and both print the same lines
 * (timing aside).
 */
export function expectSceneRun(args: string[], expected: ExpectedContact[][], summary: Record<string, unknown>): void {
  const child = runChild(args);
  expect(child.stderr).toBe('');
  expect(child.code).toBe(0);
  expectSceneOutput(child.stdout, expected, summary);
  const inProcess = runInProcess(args);
  expect(inProcess.code).toBe(0);
  expectSceneOutput(inProcess.stdout, expected, summary);
  expect(withoutTiming(inProcess.stdout)).toBe(withoutTiming(child.stdout));
}

/**
 * The two tests every hand-computed scene file has (call inside its `describe`): the `--json` run of
 * `args` (child process and in process, `expectSceneRun`), and `stepScene` on the built scene giving
 * the same contacts as objects.
 */
export function sceneFileTests(file: string, args: string[], expected: ExpectedContact[][], summary: Record<string, unknown>): void {
  it('child process and in process: every tick line matches the hand-computed contacts, the same lines', () => {
    expectSceneRun(args, expected, summary);
  });
  it('stepScene gives the same contacts as objects', () => {
    const built = buildScene(parseScene(readFileSync(file, 'utf8'), file));
    expect(built.physics.dt).toBe(summary.dt);
    for (let k = 0; k < expected.length; k++) expectTickContacts(expected, k, stepScene(built));
  });
}

/** The (a, b) pairs of each tick line of a `--json` run of `args` in process. */
export function tickPairs(args: string[]): number[][][] {
  const lines = jsonLines(runInProcess(args).stdout).slice(0, -1) as { contacts: SceneContact[] }[];
  return lines.map((l) => l.contacts.map((c) => [c.a, c.b]));
}
