/**
 * A toi this close to 1 is within rounding of the step's end: the static test at the end pose
 * decides, so that "hit within the step" agrees with the overlap test there to the last ulp.
 */
export const END_CHECK = 1 - 1e-15;
