/**
 * docs/install.md and README's "Install in a game", done as a user does them, offline: the package
 * is built and packed (`buildAndPack`, as package.test.ts does), `npm install --offline` puts the
 * tarball into a fresh project outside the repository (bitecs 0.4, the peer dependency, from a
 * tarball packed from this repository's node_modules instead of the registry), and the page's two
 * first files, ES module and CommonJS, taken from its ```js blocks as they are written, run with
 * Node and print the line the page shows.
 *
 * The git dependency, as a game gets it (offline too): `npm install --offline git+file://COPY`, where
 * COPY is a git repository of this working tree's tracked files (one commit), so npm clones it,
 * installs its development dependencies from npm's cache and runs its `prepare` script (the build)
 * in the clone; the same two first files then run against what it installed.
 *
 * And the repository's own install: `npm ci` at the root prints no EBADENGINE warning on this Node
 * (the Colyseus packages, which declare Node >= 22, are the multiplayer example's own dependencies,
 * in examples/multiplayer/package.json and its lockfile), and both lockfiles are in sync with their
 * package.json (`npm ci --dry-run --offline` on copies: it resolves from the lockfile, fetches
 * nothing, and fails when they disagree).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPack, ROOT, run, type Packed } from './packed.js';

const PAGE = readFileSync(join(ROOT, 'docs/install.md'), 'utf8');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; peerDependencies: Record<string, string> };

/** The fenced blocks of a Markdown text with the given language. */
function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```$', 'gm'))].map((m) => m[1]);
}

/** The ```js block whose first line is `// NAME`. */
function firstFile(name: string): string {
  const found = blocks(PAGE, 'js').filter((b) => b.startsWith(`// ${name}\n`));
  expect(found, `docs/install.md has one \`\`\`js block starting with // ${name}`).toHaveLength(1);
  return found[0];
}

let packed: Packed;
let game = '';

beforeAll(() => {
  packed = buildAndPack();
  const bitecs = JSON.parse(run('npm', ['pack', join(ROOT, 'node_modules/bitecs'), '--json', '--pack-destination', packed.tmp], packed.tmp)) as {
    filename: string;
  }[];
  game = join(packed.tmp, 'my-game');
  mkdirSync(game);
  writeFileSync(join(game, 'package.json'), JSON.stringify({ name: 'my-game', private: true }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', packed.tarball, join(packed.tmp, bitecs[0].filename)], game);
}, 120_000);

afterAll(() => {
  if (packed?.tmp) rmSync(packed.tmp, { recursive: true, force: true });
});

describe('installing the tarball in a game (docs/install.md)', () => {
  it('the commands name the tarball npm pack writes and the peer dependency package.json asks for', () => {
    const name = basename(packed.tarball);
    expect(name).toBe(`bitecs-collide-${PKG.version}.tgz`);
    const peer = `bitecs@${PKG.peerDependencies.bitecs}`;
    for (const [doc, text] of [['README.md', README], ['docs/install.md', PAGE]]) {
      const install = blocks(text, 'sh').join('\n').split('\n').filter((l) => /^npm install \S+\.tgz /.test(l));
      expect(install, `${doc}: an npm install command of the tarball`).toHaveLength(1);
      expect(install[0], doc).toContain(`/${name} ${peer}`);
    }
    expect(blocks(PAGE, 'sh').join('\n')).toMatch(/^npm pack\s/m);
  });

  it('npm recorded the tarball as a file: dependency, and installed the published files', () => {
    const pkg = JSON.parse(readFileSync(join(game, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies['bitecs-collide']).toMatch(/^file:.*bitecs-collide-[\d.]+\.tgz$/);
    const installed = JSON.parse(readFileSync(join(game, 'node_modules/bitecs-collide/package.json'), 'utf8')) as { version: string };
    expect(installed.version).toBe(PKG.version);
  });

  const output = blocks(PAGE, 'text').find((b) => b.startsWith('tick '))?.trim();

  for (const [name, kind] of [['game.mjs', 'an ES module (import)'], ['game.cjs', 'CommonJS (require)']]) {
    it(`${name}, ${kind}, as the page writes it: runs ticks and prints the line the page shows`, () => {
      const code = firstFile(name);
      expect(code).toMatch(name.endsWith('.mjs') ? /from 'bitecs-collide'/ : /require\('bitecs-collide'\)/);
      writeFileSync(join(game, name), code);
      expect(output, 'docs/install.md shows the output in a ```text block').toBeDefined();
      expect(run(process.execPath, [name], game).trim()).toBe(output);
    });
  }

  it('the two first files differ only in how they import', () => {
    const body = (code: string) => code.split('\n').filter((l) => !/^(\/\/ game|import |const .* = require\()/.test(l)).join('\n');
    expect(body(firstFile('game.cjs'))).toBe(body(firstFile('game.mjs')));
  });
});

describe('installing as a git dependency (docs/install.md; issue 26: dist/ was built only in prepack)', () => {
  let gameGit = '';
  let url = '';

  beforeAll(() => {
    // A git repository of the working tree's tracked files: what a clone of this commit would hold.
    const repo = join(packed.tmp, 'repo');
    mkdirSync(repo);
    const tracked = run('git', ['ls-files', '-z'], ROOT).split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f)));
    for (const f of tracked) cpSync(join(ROOT, f), join(repo, f), { recursive: true });
    const git = (...args: string[]) => run('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], repo);
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'the working tree');
    url = `git+file://${repo}`;
    gameGit = join(packed.tmp, 'my-git-game');
    mkdirSync(gameGit);
    writeFileSync(join(gameGit, 'package.json'), JSON.stringify({ name: 'my-git-game', private: true }));
    const bitecs = readdirSync(packed.tmp).find((f) => /^bitecs-\d.*\.tgz$/.test(f))!;
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', url, join(packed.tmp, bitecs)], gameGit, 280_000);
  }, 300_000);

  it('the README and the page give the git command; package.json builds in prepare, not prepack', () => {
    for (const [doc, text] of [['README.md', README], ['docs/install.md', PAGE]]) {
      const install = blocks(text, 'sh').join('\n').split('\n').filter((l) => /^npm install git\+\S+\.git /.test(l));
      expect(install, `${doc}: an npm install command of a git URL`).toHaveLength(1);
      expect(install[0], doc).toMatch(new RegExp(` bitecs@\\${PKG.peerDependencies.bitecs}$`));
    }
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.prepare).toMatch(/scripts\/build\.mjs/);
    expect(scripts.prepack).toBeUndefined();
  });

  it('npm recorded the git URL and installed the built files', () => {
    const pkg = JSON.parse(readFileSync(join(gameGit, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies['bitecs-collide']).toBe(url);
    const dir = join(gameGit, 'node_modules/bitecs-collide');
    expect(readdirSync(dir).sort()).toEqual(readdirSync(packed.unpacked).sort());
    expect(readdirSync(join(dir, 'dist')).sort()).toEqual(readdirSync(join(packed.unpacked, 'dist')).sort());
  });

  const output = blocks(PAGE, 'text').find((b) => b.startsWith('tick '))?.trim();
  for (const name of ['game.mjs', 'game.cjs']) {
    it(`${name}, as the page writes it, runs against the git dependency`, () => {
      writeFileSync(join(gameGit, name), firstFile(name));
      expect(run(process.execPath, [name], gameGit).trim()).toBe(output);
    });
  }
});

/** `npm ci --dry-run --offline` on copies of `dir`'s package.json and package-lock.json: exit code and output. */
function dryRunCi(dir: string, name: string): { code: number; output: string } {
  const copy = join(packed.tmp, name);
  mkdirSync(copy);
  for (const f of ['package.json', 'package-lock.json']) cpSync(join(dir, f), join(copy, f));
  try {
    const output = execFileSync('npm', ['ci', '--dry-run', '--offline', '--no-audit', '--no-fund'], { cwd: copy, encoding: 'utf8', stdio: 'pipe', timeout: 120_000 });
    return { code: 0, output };
  } catch (e) {
    const err = e as { status: number; stdout?: string; stderr?: string };
    return { code: err.status, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

describe('the repository\'s install (issue 26: npm ci printed 30 EBADENGINE warnings)', () => {
  it(`npm ci at the root: no EBADENGINE warning on Node ${process.versions.node}, no Colyseus package`, () => {
    // execFileSync keeps stderr only on failure: run through a shell to capture npm's warnings.
    const copy = join(packed.tmp, 'root-ci');
    mkdirSync(copy);
    for (const f of ['package.json', 'package-lock.json']) cpSync(join(ROOT, f), join(copy, f));
    // --ignore-scripts: npm runs the root's prepare script (the build) even in a dry run, and the copy has no scripts/.
    const output = execFileSync('sh', ['-c', 'npm ci --dry-run --offline --ignore-scripts --no-audit --no-fund 2>&1'], { cwd: copy, encoding: 'utf8', timeout: 120_000 });
    expect(output).toMatch(/^add bitecs /m); // the dry run did resolve the tree
    expect(output.split('\n').filter((l) => /EBADENGINE/.test(l))).toEqual([]);
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages).filter((k) => k.includes('@colyseus/'))).toEqual([]);
  });

  it('the multiplayer example is a package of its own: Node >= 22 as Colyseus wants, its lockfile in sync', () => {
    const dir = join(ROOT, 'examples/multiplayer');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { engines: { node: string }; dependencies: Record<string, string> };
    expect(pkg.engines.node).toBe('>=22');
    expect(Object.keys(pkg.dependencies).every((d) => d.startsWith('@colyseus/'))).toBe(true);
    const r = dryRunCi(dir, 'multiplayer-ci');
    expect(r.code, r.output).toBe(0);
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(root.engines.node).toBe('>=20');
    expect(PAGE).toMatch(/\| the multiplayer example[^|]*\| 22 or later/);
  });
});
