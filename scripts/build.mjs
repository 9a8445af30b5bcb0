// Builds dist/: ESM and CommonJS bundles with esbuild, declarations (with JSDoc) with tsc.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
const entries = { index: 'src/index.ts', geometry: 'src/geometry/index.ts', broadphase: 'src/broadphase/index.ts' };
for (const [format, ext] of [['esm', 'js'], ['cjs', 'cjs']]) {
  for (const [name, entry] of Object.entries(entries)) {
    await build({
      entryPoints: [entry],
      outfile: `dist/${name}.${ext}`,
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
execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
console.log('built dist/ (esm, cjs, types)');
