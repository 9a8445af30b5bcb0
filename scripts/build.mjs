// Builds dist/: ESM and CommonJS bundles with esbuild, declarations (with JSDoc) with tsc.
//
// The declarations are emitted twice, with the same text and JSDoc: `.d.ts` for the `import`
// condition (ESM, as "type": "module" makes them) and `.d.cts` for the `require` condition, whose
// relative imports point to the other `.d.cts` files, so that a CommonJS consumer (TypeScript with
// module node16 / nodenext from a CommonJS file) sees CommonJS declarations, as the `.cjs` bundles are.
//
// `node scripts/build.mjs [--outdir DIR] [--quiet]`: DIR defaults to dist (the package's `files`); the
// package test builds into a temporary directory. It is the package's `prepare` script (with --quiet:
// no output unless something fails), which npm runs at `npm ci` / `npm install` in this repository,
// before `npm pack`, and in the clone it makes when a game installs the package as a git dependency.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' }, quiet: { type: 'boolean', default: false } } });
const out = values.outdir;

rmSync(out, { recursive: true, force: true });
const entries = { index: 'src/index.ts', geometry: 'src/geometry/index.ts', broadphase: 'src/grid/index.ts' };
for (const [format, ext] of [['esm', 'js'], ['cjs', 'cjs']]) {
  for (const [name, entry] of Object.entries(entries)) {
    await build({
      entryPoints: [entry],
      outfile: join(out, `${name}.${ext}`),
      bundle: true,
      format,
      platform: 'neutral',
      target: 'es2022',
      external: ['bitecs'],
      sourcemap: true,
      logLevel: 'warning',
    });
  }
}
const types = join(out, 'types');
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--outDir', types], { stdio: 'inherit' });
const copied = writeCommonJsDeclarations(types);
if (!values.quiet) console.log(`built ${out}/ (esm, cjs, ${copied} .d.ts + .d.cts)`);

/** Writes `x.d.cts` beside every `x.d.ts` under `dir`, with relative `./y.js` specifiers turned into `./y.cjs`. */
function writeCommonJsDeclarations(dir) {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith('.d.ts')) continue;
    const file = join(e.parentPath, e.name);
    const text = readFileSync(file, 'utf8').replace(
      /((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\.js\2/g,
      (_, head, q, path) => `${head}${q}${path}.cjs${q}`,
    );
    writeFileSync(file.slice(0, -'.d.ts'.length) + '.d.cts', text);
    n++;
  }
  return n;
}
