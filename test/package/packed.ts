/**
 * Helpers of the package tests: running a command with its output in the error, and building and
 * packing the package the way its users get it (offline).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Runs a command; on failure throws with its whole output (so a failing check shows tsc's or attw's diagnostics). */
export function run(file: string, args: string[], cwd: string, timeout = 120_000): string {
  try {
    return execFileSync(file, args, { cwd, encoding: 'utf8', stdio: 'pipe', timeout });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${file} ${args.join(' ')} (in ${cwd}) failed:\n${err.stdout ?? ''}${err.stderr ?? ''}\n${err.message}`);
  }
}

/** A packed package in a fresh temporary directory (the caller removes `tmp`). */
export interface Packed {
  /** The temporary directory holding everything below. */
  tmp: string;
  /** The tarball `npm pack` wrote (`bitecs-collide-VERSION.tgz`). */
  tarball: string;
  /** The tarball unpacked: exactly the published files. */
  unpacked: string;
}

/**
 * `scripts/build.mjs` into a temporary directory, then `npm pack` of package.json, README.md,
 * LICENSE and that dist/ (as `files` selects them; scripts ignored: the build just ran), and the
 * tarball unpacked beside it.
 */
export function buildAndPack(): Packed {
  const tmp = mkdtempSync(join(tmpdir(), 'bitecs-collide-package-'));
  const pkg = join(tmp, 'pkg');
  mkdirSync(pkg);
  run(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--outdir', join(pkg, 'dist')], ROOT);
  for (const f of ['package.json', 'README.md', 'LICENSE']) cpSync(join(ROOT, f), join(pkg, f));
  const packed = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], pkg)) as { filename: string }[];
  const tarball = join(tmp, packed[0].filename);
  const unpacked = join(tmp, 'unpacked');
  mkdirSync(unpacked);
  run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], tmp);
  return { tmp, tarball, unpacked };
}
