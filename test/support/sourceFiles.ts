/** The library's source files, for the tests that read the code itself (test/layout, the no-engine-Math check). */
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '../..');

function walk(dir: string, out: string[]): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name.endsWith('.ts')) out.push(relative(ROOT, p));
  }
  return out;
}

/** Every .ts file under `dir` (default: src/), relative to the repository root, sorted. */
export function sourceFiles(dir = join(ROOT, 'src')): string[] {
  return walk(dir, []).sort();
}
