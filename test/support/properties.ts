/**
 * Property-test scaffolding on fast-check: every scene is deep-frozen before the check runs, so a
 * function under test that mutated its inputs would throw.
 */
import fc from 'fast-check';

/** Freezes `o` and everything reachable from it; returns `o`. */
export function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o as object)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/**
 * Runs `check` on `runs.numRuns` scenes drawn from `arb` with `runs.seed`, each deep-frozen first.
 * `check` fails by throwing; fast-check then reports the (shrunk) counterexample.
 */
export function forAllFrozen<T>(arb: fc.Arbitrary<T>, runs: { numRuns: number; seed: number }, check: (sc: T) => void): void {
  fc.assert(
    fc.property(arb, (sc) => {
      deepFreeze(sc);
      check(sc);
    }),
    runs,
  );
}
