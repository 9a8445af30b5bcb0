// Installs the multiplayer example's own dependencies (examples/multiplayer/package.json: Colyseus
// 0.18) when they are missing or differ from its lockfile: `npm test` runs it first (`pretest`),
// because the type check and test/multiplayer need them. They are a package of their own so that
// the repository's `npm ci` stays free of engine warnings: Colyseus 0.18 declares Node >= 22, the
// library and its tools need Node 20. On Node 20 this install prints npm's EBADENGINE warnings for
// the Colyseus packages; the example and its tests run on Node 20.20 all the same (CI).
//
// `node scripts/multiplayerDeps.mjs [--check]`: with --check, only reports (exit 1 when an install is due).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '../examples/multiplayer');
const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));

/** The first package of the lockfile whose installed version differs (or that is missing), or undefined. */
function stale() {
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.optional) continue;
    const file = join(dir, path, 'package.json');
    if (!existsSync(file)) return `${path} is missing`;
    const { version } = JSON.parse(readFileSync(file, 'utf8'));
    if (version !== entry.version) return `${path} is ${version}, the lockfile wants ${entry.version}`;
  }
  return undefined;
}

const why = stale();
if (why === undefined) process.exit(0);
if (process.argv.includes('--check')) {
  console.log(`examples/multiplayer: ${why}; run: npm ci --prefix examples/multiplayer`);
  process.exit(1);
}
console.log(`examples/multiplayer: ${why}: npm ci --prefix examples/multiplayer (the Colyseus example's own dependencies;`);
console.log(`Colyseus 0.18 declares Node >= 22: on Node ${process.versions.node} npm warns EBADENGINE for its packages, the example runs all the same)`);
execFileSync('npm', ['ci', '--prefix', dir, '--no-audit', '--no-fund'], { stdio: 'inherit' });
