/**
 * The published package as its users get it: `scripts/build.mjs` builds into a temporary directory,
 * `npm pack` makes the tarball (package.json, README.md, LICENSE and dist/ as `files` selects them),
 * and then, all offline:
 * - `attw` (@arethetypeswrong/cli, strict profile: node10, node16 from CommonJS and from ESM,
 *   bundler) finds no problem for any entry point;
 * - `publint` finds nothing, not even a suggestion;
 * - every `.d.ts` has a `.d.cts` twin with the same text and JSDoc, its relative imports pointing to
 *   `.cjs` (the `require` condition's declarations);
 * - fresh consumer projects outside the repo, with the tarball unpacked as their
 *   node_modules/bitecs-collide (and bitecs linked from here), type-check one program using all
 *   three entry points with `strict` and `skipLibCheck: false` under TypeScript's module node16 from
 *   an ESM and from a CommonJS package, moduleResolution bundler and node10, then run what tsc
 *   emitted with Node (require for the CommonJS and node10 projects, import for the others).
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPack, ROOT, run } from './packed.js';

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const ATTW = join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js');

/** One program using every entry point, typed strictly; prints one line that the runs compare. */
const CONSUMER = `
declare const console: { log(line: string): void }; // lib es2022 only: no DOM, no @types/node
import { createWorld } from 'bitecs';
import { addBox, addSphere, createPhysics, step, type Physics } from 'bitecs-collide';
import { castSphereBox, type BoxShape, type CastResult, type SphereShape } from 'bitecs-collide/geometry';
import { gridAdd, gridBuild, createGrid, gridQuery, createQueryOut, type Grid } from 'bitecs-collide/broadphase';

const physics: Physics = createPhysics(createWorld());
addBox(physics, { position: [0, 0, 0], halfExtents: [2, 1, 2] });
addSphere(physics, { position: [0, 2, 0], radius: 1 });
step(physics);

const sphere: SphereShape = { center: { x: -4, y: 0, z: 0 }, radius: 0.5 };
const box: BoxShape = { center: { x: 0, y: 0, z: 0 }, halfExtents: { x: 1, y: 1, z: 1 } };
const hit: CastResult = { toi: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };
const cast: boolean = castSphereBox(sphere, { x: 5, y: 0, z: 0 }, box, hit);

const grid: Grid = createGrid(2);
gridAdd(grid, 7, 0, 0, 0, 1, 1, 1);
gridBuild(grid);
const out = createQueryOut();
gridQuery(grid, out, 0.5, 0.5, 0.5, 2, 2, 2);

export const line: string = JSON.stringify({ contacts: physics.contacts.count, cast, toi: hit.toi, found: out.count });
console.log(line);
`;
const EXPECTED = '{"contacts":1,"cast":true,"toi":0.5,"found":1}';

interface Consumer {
  name: string;
  type: 'module' | 'commonjs';
  compilerOptions: Record<string, unknown>;
}

const CONSUMERS: Consumer[] = [
  { name: 'node16-esm', type: 'module', compilerOptions: { module: 'node16', moduleResolution: 'node16' } },
  { name: 'node16-cjs', type: 'commonjs', compilerOptions: { module: 'node16', moduleResolution: 'node16' } },
  { name: 'bundler', type: 'module', compilerOptions: { module: 'esnext', moduleResolution: 'bundler' } },
  { name: 'node10', type: 'commonjs', compilerOptions: { module: 'commonjs', moduleResolution: 'node10' } },
];

let tmp = '';
let tarball = '';
let unpacked = '';

beforeAll(() => {
  ({ tmp, tarball, unpacked } = buildAndPack());
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('attw (strict profile) finds no problem in any entry point', () => {
    const out = run(process.execPath, [ATTW, tarball, '--format', 'ascii', '--no-color', '--no-emoji'], tmp);
    expect(out).toContain('No problems found');
    for (const entry of ['"bitecs-collide"', '"bitecs-collide/geometry"', '"bitecs-collide/broadphase"']) expect(out).toContain(entry);
  });

  it('publint finds nothing (errors, warnings or suggestions)', async () => {
    // The unpacked tarball holds exactly the published files, so publint need not pack again.
    const { messages, pkg } = await publint({ pkgDir: unpacked, pack: false, level: 'suggestion', strict: true });
    expect(messages.map((m) => formatMessage(m, pkg, { color: false }))).toEqual([]);
  });

  it('every .d.ts has a .d.cts twin: same text and JSDoc, relative imports to .cjs', () => {
    const types = join(unpacked, 'dist/types');
    const files = readdirSync(types, { recursive: true, encoding: 'utf8' });
    const dts = files.filter((f) => f.endsWith('.d.ts')).sort();
    const dcts = files.filter((f) => f.endsWith('.d.cts')).sort();
    expect(dcts).toEqual(dts.map((f) => f.replace(/\.d\.ts$/, '.d.cts')));
    for (const f of dts) {
      const esm = readFileSync(join(types, f), 'utf8');
      const cjs = readFileSync(join(types, f.replace(/\.d\.ts$/, '.d.cts')), 'utf8');
      expect(cjs.replace(/(['"])(\.{1,2}\/[^'"]*)\.cjs\1/g, '$1$2.js$1'), f).toBe(esm);
      expect(cjs, f).not.toMatch(/(['"])\.{1,2}\/[^'"]*\.js\1/);
    }
    expect(readFileSync(join(types, 'src/geometry/castSphereBox.d.cts'), 'utf8')).toMatch(/\/\*\*[\s\S]*@returns|\/\*\*[\s\S]*toi/);
  });
});

describe('consumer projects outside the repo', () => {
  for (const c of CONSUMERS) {
    it(`${c.name}: tsc (strict, skipLibCheck false) accepts all three entry points, and Node runs the output`, () => {
      const dir = join(tmp, c.name);
      mkdirSync(join(dir, 'node_modules'), { recursive: true });
      cpSync(unpacked, join(dir, 'node_modules/bitecs-collide'), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules/bitecs'), join(dir, 'node_modules/bitecs'), 'dir');
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${c.name}`, private: true, type: c.type }));
      const compilerOptions = {
        ...c.compilerOptions,
        target: 'es2022',
        lib: ['es2022'],
        strict: true,
        skipLibCheck: false,
        types: [],
        outDir: 'out',
      };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['index.ts'] }));
      writeFileSync(join(dir, 'index.ts'), CONSUMER);
      run(process.execPath, [TSC, '-p', 'tsconfig.json'], dir);
      const emitted = readFileSync(join(dir, 'out/index.js'), 'utf8');
      expect(emitted).toMatch(c.type === 'commonjs' ? /require\("bitecs-collide\/geometry"\)/ : /from 'bitecs-collide\/geometry'/);
      expect(run(process.execPath, [join(dir, 'out/index.js')], dir).trim()).toBe(EXPECTED);
    });
  }
});
