/**
 * A toi this close to 1 is within rounding of the step's end. The casts then let the static test at
 * the end pose decide, and they do the same when the sweep finds no entry at all: a sphere touching
 * exactly at the end of the step hits (toi 1), and "hit within the step" agrees with the overlap test
 * at the end pose to the last ulp.
 */
export const END_CHECK = 1 - 1e-15;
