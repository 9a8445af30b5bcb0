import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
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

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // The property and differential tests take 0.3-5 s each by design: list a passing test by name
    // only when it takes over 10 s, so that the output stays one line per file and the totals.
    slowTestThreshold: 10_000,
    reporters: [new SkipReasons(), 'default'],
    coverage: { include: ['src/**/*.ts', 'components/**/*.ts', 'systems/**/*.ts'], reporter: ['text-summary', 'text'] },
  },
});
