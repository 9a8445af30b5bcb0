/**
 * Registers the exact-oracle property tests of one pair of shapes (see ./exactFuzz.ts): at every
 * scale, grid scenes (exact decisions) and general scenes (the tolerance band of ./exactChecks.ts),
 * 0 wrong answers. `GEOM_REPORT=1` prints the case counts per scale.
 */
import { afterAll, expect, it } from 'vitest';
import * as geometry from '../../src/geometry/index.js';
import { TOL_BITS, TOL_SUBNORMALS } from './exactChecks.js';
import { SCALES, type Suite, runExactFuzz } from './exactFuzz.js';

export function exactPropertyTests(suites: Suite[], runs: { grid: number; general: number }, seed: number): void {
  const report: string[] = [];
  afterAll(() => {
    if (process.env.GEOM_REPORT) console.log(report.join('\n'));
  });
  for (const suite of suites)
    for (const scale of SCALES)
      for (const grid of [true, false]) {
        const n = grid ? runs.grid : runs.general;
        const what = grid ? 'grid scenes, exact decisions' : `general scenes, within δ = 2^-${TOL_BITS}·S + ${TOL_SUBNORMALS}·2^-1074`;
        it(`${suite} at scale ${scale}: ${what}: 0 wrong answers (${n} cases)`, () => {
          const r = runExactFuzz(geometry, { suite, scale, grid, runs: n, seed: seed + SCALES.indexOf(scale) });
          const wrong = Object.values(r.wrong).reduce((a, b) => a + b, 0);
          report.push(`[exact] ${suite} ${scale} ${grid ? 'grid' : 'general'}: ${r.cases} cases, ${wrong} wrong ${JSON.stringify(r.wrong)}`);
          expect(r.examples.join('\n'), JSON.stringify(r.wrong)).toBe('');
        });
      }
}
