/**
 * The docs compile and run: every ```ts block of README.md and docs/*.md is type-checked against
 * the package, and the complete programs among them are run, so the docs cannot drift from the code.
 *
 * How to write a ```ts block (the rules this test applies):
 * - Each block is a module of its own, as a user's file would be: it imports everything it uses,
 *   from 'bitecs-collide', 'bitecs-collide/geometry', 'bitecs-collide/broadphase' or 'bitecs'.
 *   It is type-checked with `strict: true` (module esnext, moduleResolution bundler, lib es2022 +
 *   dom), the package names resolving to the source (src/index.ts, src/geometry/index.ts,
 *   src/grid/index.ts) through `paths`, and bitecs to the installed package.
 * - A block is a complete program when it imports from the package and has no `declare`: it is
 *   run with tsx in a child process and must exit 0 with nothing on stderr (what it prints on
 *   stdout is not shown). A block that shows part of a game declares the game's own parts
 *   (`declare function applyInputs(tick: number): void;`): it is type-checked only.
 * - Fences other than ```ts (sh, json, plain) are not checked.
 * Errors name the Markdown file and line. Besides the blocks, every name in the first column of a
 * reference table (a table whose first header is `function`, `export`, `helper` or `types`) must be
 * an export of one of the three entry points.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const run = promisify(execFile);

interface Block {
  /** Markdown file relative to the repo root, and the line of the block's first code line (1-based). */
  doc: string;
  line: number;
  code: string;
  /** Imports from the package and declares nothing: a complete program. */
  runnable: boolean;
  /** The module file the block is written to, relative to the temporary project. */
  file: string;
}

/** The ```ts blocks of one Markdown file. */
function extractBlocks(doc: string): Omit<Block, 'file'>[] {
  const lines = readFileSync(join(ROOT, doc), 'utf8').split('\n');
  const blocks: Omit<Block, 'file'>[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i])) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    const code = lines.slice(start, end).join('\n');
    const runnable = /from\s+['"]bitecs-collide(\/[a-z]+)?['"]/.test(code) && !/^\s*(export\s+)?declare\s/m.test(code);
    blocks.push({ doc, line: start + 1, code, runnable });
    i = end;
  }
  return blocks;
}

const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
/** The temporary project the blocks are written to (outside the repo; node_modules linked from here). */
let tmp = '';
const BLOCKS: Block[] = DOCS.flatMap((doc) => extractBlocks(doc)).map((b, k) => ({
  ...b,
  file: `${b.doc.replace(/[/.]/g, '_')}_L${b.line}_${k}.ts`,
}));

/** The package's entry points, by the names users import. */
const ENTRIES: Record<string, string> = {
  'bitecs-collide': join(ROOT, 'src/index.ts'),
  'bitecs-collide/geometry': join(ROOT, 'src/geometry/index.ts'),
  'bitecs-collide/broadphase': join(ROOT, 'src/grid/index.ts'),
};

/** Names in the first column of the reference tables of one Markdown file, with their lines. */
function tableNames(doc: string): { name: string; where: string }[] {
  const lines = readFileSync(join(ROOT, doc), 'utf8').split('\n');
  const out: { name: string; where: string }[] = [];
  let reference = false;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('|')) {
      reference = false;
      continue;
    }
    const first = lines[i].split('|')[1];
    if (/^\|\s*-/.test(lines[i + 1] ?? '')) {
      reference = /^\s*(function|export|helper|types)\s*$/i.test(first);
      i++;
      continue;
    }
    if (!reference) continue;
    for (const m of first.matchAll(/`([A-Za-z_$][\w$]*)[^`]*`/g)) {
      if (!m[0].includes('.')) out.push({ name: m[1], where: `${doc}:${i + 1}` });
    }
  }
  return out;
}

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    lib: ['es2022', 'dom'],
    types: [],
    noEmit: true,
    skipLibCheck: true,
    paths: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, [file]])),
  },
  files: BLOCKS.map((b) => b.file),
};

/** Diagnostics per block file, and those elsewhere (in the source, or global). */
const diagnostics = new Map<string, string[]>();
const elsewhere: string[] = [];
/** Every name the three entry points export (values and types). */
const exported = new Set<string>();

beforeAll(() => {
  // Each block is a module even without imports (`export {}`), so blocks share no globals.
  tmp = mkdtempSync(join(tmpdir(), 'bitecs-collide-docs-'));
  for (const b of BLOCKS) writeFileSync(join(tmp, b.file), `${b.code}\nexport {};\n`);
  writeFileSync(join(tmp, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  writeFileSync(join(tmp, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  symlinkSync(join(ROOT, 'node_modules'), join(tmp, 'node_modules'), 'dir');

  const parsed = ts.parseJsonConfigFileContent(TSCONFIG, ts.sys, tmp);
  const program = ts.createProgram({ rootNames: [...parsed.fileNames, ...Object.values(ENTRIES)], options: parsed.options });
  const checker = program.getTypeChecker();
  for (const entry of Object.values(ENTRIES)) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
    for (const s of checker.getExportsOfModule(module)) exported.add(s.name);
  }
  const byFile = new Map(BLOCKS.map((b) => [resolve(tmp, b.file), b]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const block = d.file && byFile.get(resolve(d.file.fileName));
    if (d.file && block && d.start !== undefined) {
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      const list = diagnostics.get(block.file) ?? [];
      list.push(`${block.doc}:${block.line + line}:${character + 1} TS${d.code}: ${message}`);
      diagnostics.set(block.file, list);
    } else {
      elsewhere.push(`${d.file?.fileName ?? '(global)'} TS${d.code}: ${message}`);
    }
  }
}, 60_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('docs: ```ts blocks of README.md and docs/*.md', () => {
  it('there are blocks to check in README.md and docs/, and some are complete programs', () => {
    expect(BLOCKS.filter((b) => b.doc === 'README.md').length).toBeGreaterThan(0);
    expect(BLOCKS.filter((b) => b.doc.startsWith('docs/')).length).toBeGreaterThan(3);
    expect(BLOCKS.filter((b) => b.runnable).length).toBeGreaterThan(3);
  });

  it('nothing outside the blocks fails under the docs\' compiler options', () => {
    expect(elsewhere).toEqual([]);
  });

  it('every name in a reference table is exported by the package', () => {
    const names = DOCS.flatMap((doc) => tableNames(doc));
    expect(names.length).toBeGreaterThan(30);
    expect(names.filter((n) => !exported.has(n.name)).map((n) => `${n.where}: ${n.name}`)).toEqual([]);
  });

  for (const b of BLOCKS) {
    it(`${b.doc}:${b.line} type-checks (strict)${b.runnable ? ' and runs' : ''}`, async () => {
      expect(diagnostics.get(b.file) ?? []).toEqual([]);
      if (!b.runnable) return;
      const r = await run(TSX, ['--tsconfig', join(tmp, 'tsconfig.json'), b.file], { cwd: tmp, encoding: 'utf8', timeout: 60_000 }).catch(
        (e: { stdout?: string; stderr?: string; message: string }) => {
          throw new Error(`${b.doc}:${b.line} failed when run:\n${e.stderr ?? ''}${e.stdout ?? ''}\n${e.message}`);
        },
      );
      expect(r.stderr, `${b.doc}:${b.line} wrote to stderr`).toBe('');
    });
  }
});
