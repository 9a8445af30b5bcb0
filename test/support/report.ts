/**
 * Reports of the tests: what a test measured or tallied beyond its assertions (the Rapier
 * differential's worst disagreements, the fuzzers' case counts, bytes allocated per tick). `npm test`
 * stays quiet, so that its output is the runner's summary; `BITECS_COLLIDE_REPORT=1 npm test` (or
 * `BITECS_COLLIDE_REPORT=1 npx vitest run test/some/dir`) prints every report on stdout, under the
 * test that made it. Assertions never depend on whether a report is printed.
 */

/** Whether reports are printed: BITECS_COLLIDE_REPORT=1. */
export const REPORTING = process.env.BITECS_COLLIDE_REPORT === '1';

/** Prints one report (any number of lines) when BITECS_COLLIDE_REPORT=1; does nothing otherwise. */
export function report(text: string): void {
  if (REPORTING) console.log(text);
}
