/**
 * The JavaScript engines of the cross-engine tests, besides Node's V8, in one place: which binary,
 * how a script runs on it, and when its test runs.
 *
 * - JavaScriptCore: `jsc` from Debian's `libjavascriptcoregtk-4.0-bin` (JSC_PATH overrides);
 *   SpiderMonkey: `gjs` from Debian's `gjs` (GJS_PATH overrides). Both run a plain script file and
 *   have a global `print`.
 * - Without the binary and without CI=true, the engine's test is skipped with the reason
 *   (`skipWithoutEngine(ctx, engine)` first thing in the test), as the browser tests do without
 *   Chromium (test/support/browser.ts). With CI=true it always runs, so a missing engine fails it
 *   (.ci/run installs both).
 * - The version reported is the Debian package's (`dpkg-query`): `jsc` has no version option.
 */
import { execFile, execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { IN_CI } from '../support/browser.js';

export interface Engine {
  /** Engine name, as the tests report it. */
  name: string;
  /** The Debian package that provides the binary (for the install hint and the version). */
  pkg: string;
  /** The binary: the override variable's value, else the command found on PATH, else undefined. */
  path: string | undefined;
  /** Why its tests are skipped on this machine, or undefined when they run. */
  skipReason: string | undefined;
}

/** The executable `command` on PATH, or undefined. */
export function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const p = join(dir, command);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

function engine(name: string, command: string, pkg: string, override: string): Engine {
  const path = process.env[override] || onPath(command);
  const skipReason = path !== undefined || IN_CI
    ? undefined
    : `no ${command} (${name}) on PATH and CI is not set: apt-get install -y ${pkg}, or set ${override}`;
  return { name, pkg, path, skipReason };
}

export const JSC = engine('JavaScriptCore', 'jsc', 'libjavascriptcoregtk-4.0-bin', 'JSC_PATH');
export const GJS = engine('SpiderMonkey (gjs)', 'gjs', 'gjs', 'GJS_PATH');
export const ENGINES: readonly Engine[] = [JSC, GJS];

/** Skips the calling test, with the reason, when the engine is missing outside CI. Call it first. */
export function skipWithoutEngine(ctx: { skip: (note?: string) => void }, e: Engine): void {
  if (e.skipReason !== undefined) ctx.skip(e.skipReason);
}

/** The installed version of a Debian package, or 'unknown' (not a Debian system, not installed). */
export function packageVersion(pkg: string): string {
  try {
    return execFileSync('dpkg-query', ['-W', '-f', '${Version}', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Runs the script file on the engine (stdin closed: `jsc` without a file would start its prompt)
 * and resolves to its stdout; rejects with the engine's stderr when it fails or exceeds `timeoutMs`.
 */
export function runScript(e: Engine, file: string, timeoutMs: number): Promise<string> {
  if (e.path === undefined) return Promise.reject(new Error(`${e.name}: no binary (${e.skipReason ?? `install ${e.pkg}`})`));
  const bin = e.path;
  return new Promise((resolve, reject) => {
    const child = execFile(bin, [file], { timeout: timeoutMs, maxBuffer: 16 << 20, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${e.name} (${bin}) failed: ${error.message}\n${stderr}`.trim()));
      else resolve(stdout);
    });
    child.stdin?.end();
  });
}
