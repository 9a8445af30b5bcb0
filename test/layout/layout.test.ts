/**
 * The rules of the house (docs/internals.md), read from the source with the TypeScript parser:
 * - no module-level `let` or `var` in src/ outside src/geometry/kernels (state that lives across
 *   calls belongs to the physics instance);
 * - no exported mutable module state in src/ outside src/geometry/kernels: no exported `let`, and no
 *   exported `const` holding a typed array, an array, or an instance of a class (`new X()`), which
 *   would make it an argument or result register shared by every instance;
 * - imports point one way: src/math imports no other room; src/geometry only math; src/grid only
 *   math and geometry; nothing in src/ but src/cli and the barrel imports src/cli or systems/; and no stage file of
 *   src/step imports another stage's file (step.ts is the only list of stages).
 * Each rule is also checked to catch a planted violation, so that a parser change cannot make it pass
 * vacuously.
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from '../support/sourceFiles.js';



const isExported = (s: ts.Statement): boolean =>
  (ts.canHaveModifiers(s) ? ts.getModifiers(s) ?? [] : []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** Whether an initializer makes a mutable object: `new X(...)`, an array literal, `X.from(...)`. */
function mutableInit(e: ts.Expression | undefined): boolean {
  if (e === undefined) return false;
  while (ts.isAsExpression(e) || ts.isParenthesizedExpression(e) || ts.isSatisfiesExpression(e)) e = e.expression;
  if (ts.isNewExpression(e) || ts.isArrayLiteralExpression(e)) return true;
  return ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && /Array$/.test(e.expression.expression.getText()) && e.expression.name.text === 'from';
}

/** Module-state problems of one file's text (`file` only names them). */
export function moduleStateProblems(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const problems: string[] = [];
  for (const s of sf.statements) {
    if (!ts.isVariableStatement(s)) continue;
    const list = s.declarationList;
    const isConst = (list.flags & ts.NodeFlags.Const) !== 0;
    for (const d of list.declarations) {
      const name = d.name.getText(sf);
      const line = sf.getLineAndCharacterOfPosition(d.getStart(sf)).line + 1;
      if (!isConst) problems.push(`${file}:${line}: module-level ${isExported(s) ? 'exported ' : ''}let/var ${name}`);
      else if (isExported(s) && mutableInit(d.initializer)) problems.push(`${file}:${line}: exported mutable ${name}`);
    }
  }
  return problems;
}

/** Relative imports (static and `export … from`) of one file's text, resolved to paths under ROOT. */
function importsOf(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  for (const s of sf.statements) {
    const spec = (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) ? s.moduleSpecifier : undefined;
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith('.')) {
      out.push(relative(ROOT, resolve(dirname(file), spec.text)).replace(/\.js$/, '.ts'));
    }
  }
  return out;
}

const room = (path: string): string => {
  const m = /^src\/([^/]+)\//.exec(path);
  return m ? m[1] : path.split('/')[0];
};

/** Rooms each room of src/ may import (besides itself); components/ is data for all but the pure rooms. */
const ALLOWED: Record<string, string[]> = {
  math: [],
  geometry: ['math'],
  grid: ['math', 'geometry'],
};

/** The stage files of src/step (their stage functions are called by step.ts only). */
const STAGE_FILES = ['src/step/checkStatic.ts', 'src/step/scanBodies.ts', 'src/step/gravity.ts', 'src/step/findPairs.ts', 'src/step/testPairs.ts', 'src/response/resolve.ts', 'src/character/moveCharacters.ts', 'src/contacts/contactDiff.ts', 'src/contacts/contactComponent.ts', 'src/step/clearPurged.ts', 'src/step/integrate.ts', 'src/debug/interpolation.ts'];

function importProblems(file: string, imports: string[]): string[] {
  const from = relative(ROOT, file);
  const r = room(from);
  const problems: string[] = [];
  for (const to of imports) {
    const t = room(to);
    if (ALLOWED[r] && t !== r && !ALLOWED[r].includes(t)) problems.push(`${from} imports ${to} (${r} may import ${ALLOWED[r].join(', ') || 'nothing'})`);
    if (r !== 'cli' && from !== 'src/index.ts' && (t === 'cli' || t === 'systems')) problems.push(`${from} imports ${to} (nothing below the top imports cli or systems)`);
    if (STAGE_FILES.includes(from) && STAGE_FILES.includes(to) && to !== from) problems.push(`${from} imports another stage, ${to}`);
  }
  return problems;
}

const files = sourceFiles().map((f) => join(ROOT, f));

describe('layout: the rules of the house hold in src/', () => {
  it('finds the source (sanity)', () => {
    expect(files.length).toBeGreaterThan(80);
  });

  it('has no module-level let/var and no exported mutable state outside src/geometry/kernels', () => {
    const problems = files
      .filter((f) => !relative(ROOT, f).startsWith('src/geometry/kernels/'))
      .flatMap((f) => moduleStateProblems(relative(ROOT, f), readFileSync(f, 'utf8')));
    expect(problems).toEqual([]);
  });

  it('catches a planted register (the check is not vacuous)', () => {
    const planted = [
      'export const REG = new Float64Array(4);',
      'let counter = 0;',
      'export let mode = 1;',
      'export const LIST: number[] = [];',
      'export const IDS = Uint32Array.from([1, 2]);',
      'const PRIVATE = new Float64Array(3);', // private per-call scratch: allowed
      'export const ONE = 1;', // a constant: allowed
    ].join('\n');
    expect(moduleStateProblems('x.ts', planted).map((p) => p.split(': ')[1])).toEqual([
      'exported mutable REG', 'module-level let/var counter', 'module-level exported let/var mode',
      'exported mutable LIST', 'exported mutable IDS',
    ]);
  });

  it('imports point one way (math ← geometry ← grid ← the physics rooms ← systems, cli)', () => {
    const problems = files.flatMap((f) => importProblems(f, importsOf(f, readFileSync(f, 'utf8'))));
    expect(problems).toEqual([]);
  });

  it('catches a planted upward import and a stage importing a stage', () => {
    expect(importProblems(join(ROOT, 'src/math/x.ts'), ['src/grid/grid.ts'])).toHaveLength(1);
    expect(importProblems(join(ROOT, 'src/grid/x.ts'), ['src/physics/internal.ts'])).toHaveLength(1);
    expect(importProblems(join(ROOT, 'src/step/testPairs.ts'), ['src/step/findPairs.ts'])).toHaveLength(1);
    expect(importProblems(join(ROOT, 'src/queries/x.ts'), ['src/cli/run.ts'])).toHaveLength(1);
    expect(importProblems(join(ROOT, 'src/step/step.ts'), ['src/step/findPairs.ts', 'src/grid/grid.ts'])).toEqual([]);
  });
});
