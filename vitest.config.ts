import { relative } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/**
 * Lists the tests skipped at run time with a reason (`ctx.skip(reason)`, e.g. the browser tests on a
 * machine without Chromium: test/support/browser.ts) above the run's totals. The default reporter
 * only counts skipped tests ("1 skipped"), and without it a skip would be silent.
 */
class SkipReasons implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    for (const m of modules) {
      for (const t of m.children.allTests('skipped')) {
        const r = t.result();
        if (r.state === 'skipped' && r.note) lines.push(` ↓ ${relative(process.cwd(), m.moduleId)} > ${t.fullName} [skipped: ${r.note}]`);
      }
    }
    if (lines.length > 0) this.vitest?.logger.log(`\n${lines.join('\n')}`);
  }
}

/**
 * `npm run test:quick` (`vitest run --mode quick`): the unit and regression tests, under a minute
 * on one worker. It leaves out what takes the time of the full suite (`npm test`, which CI runs):
 * the headless browsers, the multiplayer servers, the engine and bundle determinism runs, the
 * package build, the allocation measurements, the fuzzers, the property and differential suites
 * (geometry against its oracles and Rapier, the queries, the response guarantees and instances),
 * the docs' code blocks (type-checked), the examples, and the longest scene runs (debugRender,
 * rollback, entity ids, contactsOf, crowded queries, the arena runner). Each took 2–42 s in a full
 * run on 2026-11-27. New test files are in both unless listed here.
 */
const SLOW = [
  'test/browser/**',
  'test/multiplayer/**',
  'test/determinism/engines.test.ts',
  'test/determinism/engineMath.test.ts',
  'test/determinism/browser.test.ts',
  'test/package/**',
  'test/**/*{allocation,Allocation}*.test.ts',
  'test/fuzz/**',
  'test/**/*.property.test.ts',
  'test/geometry/cast*.test.ts',
  'test/geometry/exact*.test.ts',
  'test/geometry/*.diff.test.ts',
  'test/geometry/*BoxBox.test.ts',
  'test/geometry/mirrors.test.ts',
  'test/geometry/scaleInvariance.test.ts',
  'test/response/response.guarantees.test.ts',
  'test/response/response.pile.test.ts',
  'test/response/pitRest.test.ts',
  'test/queries/queries.determinism.test.ts',
  'test/docs/**',
  'test/examples/**',
  'test/debug/debugRender.test.ts',
  'test/snapshot/rollback.test.ts',
  'test/snapshot/entityIds.test.ts',
  'test/contacts/contactsOf.test.ts',
  'test/cli/arena.test.ts',
  'test/geometry/oracleBoxBox.sanity.test.ts',
  'test/queries/queries.crowd.test.ts',
  'test/response/response.instances.test.ts',
  'test/character/maze.test.ts',
];

export default defineConfig(({ mode }) => ({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: mode === 'quick' ? [...configDefaults.exclude, ...SLOW] : configDefaults.exclude,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // The property and differential tests take 0.3-5 s each by design: list a passing test by name
    // only when it takes over 10 s, so that the output stays one line per file and the totals.
    slowTestThreshold: 10_000,
    reporters: [new SkipReasons(), 'default'],
    coverage: { include: ['src/**/*.ts', 'components/**/*.ts', 'systems/**/*.ts'], reporter: ['text-summary', 'text'] },
  },
}));
