/**
 * No state update uses a function whose result the language leaves to the engine. ECMAScript
 * specifies + − × ÷, Math.sqrt, Math.fround, Math.imul, Math.floor, Math.abs, Math.min, Math.max …
 * exactly (correctly rounded or exact), but Math.sin, cos, tan, exp, log, pow, cbrt, hypot, atan …
 * are "implementation-approximated": engines may and do differ in the last bits. Two checks:
 *
 * - Run: the pinned scenes and the query scene (the cross-engine bundle, engineRun.ts) in a fresh
 *   Node `vm` context whose Math has every implementation-approximated function replaced by a stub
 *   that throws, give the pinned hashes. (The dense query grid's sizing, which used Math.cbrt, uses
 *   the exactly specified src/math/cubeRoot.ts.)
 * - Source: in src/, `**` (which the engine may compute like Math.pow) appears only between numeric
 *   literals, and no implementation-approximated Math function is named.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInContext, createContext } from 'node:vm';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_GLOBAL, bundleScenes } from './bundle.js';
import type { SceneResult } from './engineRun.js';
import { PINNED } from './pinned.js';
import { PINNED_QUERY_HASH } from './queryScene.js';
import { ROOT, sourceFiles } from '../support/sourceFiles.js';

/** Math functions whose results ECMAScript leaves to the implementation (ECMA-262 §21.3.2), and Math.random. */
export const ENGINE_DEFINED = [
  'acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh', 'atan2', 'cbrt', 'cos', 'cosh', 'exp', 'expm1',
  'hypot', 'log', 'log1p', 'log10', 'log2', 'pow', 'sin', 'sinh', 'tan', 'tanh', 'random',
] as const;

/**
 * Evaluates the bundle in a new vm context whose Math.<ENGINE_DEFINED> throw (naming the function
 * and the caller's stack), then runs every scene there.
 */
function runStubbed(bundle: string): SceneResult[] {
  const context = createContext({});
  runInContext(`
    for (const name of ${JSON.stringify(ENGINE_DEFINED)}) {
      Math[name] = function () {
        throw new Error('engine-defined Math.' + name + ' called:\\n' + new Error().stack);
      };
    }`, context);
  runInContext(bundle, context, { filename: 'engines-bundle.js' });
  const results = runInContext(`${BUNDLE_GLOBAL}.runAllScenes()`, context) as SceneResult[];
  return JSON.parse(JSON.stringify(results)) as SceneResult[];
}

describe('no engine-defined Math in the simulation', () => {
  let bundle = '';

  beforeAll(async () => {
    bundle = await bundleScenes(false);
  });

  it('a stub that throws is seen: the check is live', () => {
    const context = createContext({});
    runInContext(`Math.sin = function () { throw new Error('stubbed'); };`, context);
    runInContext(bundle, context);
    expect(() => runInContext('Math.sin(1)', context)).toThrow('stubbed');
  });

  it('the pinned scenes and the query scene give the same hashes with those functions throwing', () => {
    const results = runStubbed(bundle);
    // The final states are pinned (the traces every 100 ticks are compared across engines in engines.test.ts).
    PINNED.forEach((p, i) => expect({ scene: results[i].name, hash: results[i].hashes.at(-1) }).toEqual({ scene: p.name, hash: p.hash }));
    expect(results[results.length - 1].hashes).toEqual([PINNED_QUERY_HASH]);
  }, 240_000);
});


function isNumericLiteral(n: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(n)) return isNumericLiteral(n.expression);
  if (ts.isPrefixUnaryExpression(n) && (n.operator === ts.SyntaxKind.MinusToken || n.operator === ts.SyntaxKind.PlusToken)) return isNumericLiteral(n.operand);
  return ts.isNumericLiteral(n);
}

/** `**` on a non-literal operand, and names of engine-defined Math functions, in `file`. */
function findViolations(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const at = (n: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const visit = (n: ts.Node): void => {
    if (ts.isBinaryExpression(n)) {
      const op = n.operatorToken.kind;
      if ((op === ts.SyntaxKind.AsteriskAsteriskToken || op === ts.SyntaxKind.AsteriskAsteriskEqualsToken) && !(isNumericLiteral(n.left) && isNumericLiteral(n.right))) {
        out.push(`${at(n)}: ${n.getText()} (** on a non-constant operand: the engine may compute it like Math.pow)`);
      }
    }
    if (ts.isIdentifier(n) && n.text === 'Math') {
      const parent = n.parent;
      if (ts.isPropertyAccessExpression(parent) && parent.expression === n) {
        const fn = parent.name.text;
        if ((ENGINE_DEFINED as readonly string[]).includes(fn)) out.push(`${at(n)}: Math.${fn} (implementation-approximated)`);
      } else if (!(ts.isPropertyAccessExpression(parent) && parent.name === n)) {
        out.push(`${at(n)}: Math used other than as Math.name (cannot be checked)`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('no engine-defined Math in src/ (source check)', () => {
  it('`**` only between numeric literals; no implementation-approximated Math function', () => {
    const violations = sourceFiles().flatMap((f) => findViolations(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(violations).toEqual([]);
  });

  it('the source check sees planted violations', () => {
    const planted = [
      'export const a = (x: number) => x ** 2;',
      'export function b(x: number) { let y = x; y **= 0.5; return y; }',
      'export const c = (x: number) => Math.sin(x);',
      'export const d = Math;',
      'function chooseTable(x: number) { return Math.cbrt(x); }',
      'export const e = 2 ** -13;',
    ].join('\n');
    const v = findViolations('src/planted.ts', planted);
    expect(v.map((s) => s.split(':')[1])).toEqual(['1', '2', '3', '4', '5']);
    expect(findViolations('src/grid/dense.ts', 'function chooseTable(x: number) { return Math.cbrt(x); }')).toHaveLength(1);
  });
});
